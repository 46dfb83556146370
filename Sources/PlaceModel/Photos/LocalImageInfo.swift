/// A local image's record, without its bytes.
public struct LocalImageInfo: Sendable, Equatable {
    /// The photo's name, `places/{id}/photos/{reference}`.
    public var name: String
    public var format: ImageFormat
    /// The size as displayed (after any EXIF orientation).
    public var width: Int
    public var height: Int
    /// The stored file's size.
    public var byteCount: Int
    /// The file it was added from (`<stdin>`, or a path as given).
    public var source: String?
    /// When it was added (RFC 3339, UTC).
    public var addedAt: String

    package init(
        name: String, format: ImageFormat, width: Int, height: Int, byteCount: Int, source: String? = nil,
        addedAt: String
    ) {
        self.name = name
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.source = source
        self.addedAt = addedAt
    }
}
