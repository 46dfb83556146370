public import PlaceModel

/// An image as `fetchPhoto` returns it: the encoded bytes, the pixel size
/// as displayed (after any EXIF orientation), and the format.
public struct PhotoImage: Sendable, Equatable {
    public var data: [UInt8]
    public var width: Int
    public var height: Int
    public var format: ImageFormat

    public init(data: [UInt8], width: Int, height: Int, format: ImageFormat) {
        self.data = data
        self.width = width
        self.height = height
        self.format = format
    }
}
