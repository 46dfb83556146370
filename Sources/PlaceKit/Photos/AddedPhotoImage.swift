#if canImport(Glibc)
    import Glibc
#endif
public import PlaceModel
import PlaceStorage

/// What adding one image did.
public struct AddedPhotoImage: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        /// The photo had no image before.
        case added
        /// A different image was replaced.
        case replaced
        /// The same bytes were already stored.
        case unchanged
    }
    /// The photo's full name, `places/{id}/photos/{reference}`.
    public var name: String
    public var format: ImageFormat
    /// The size as displayed (after any EXIF orientation).
    public var width: Int
    public var height: Int
    public var byteCount: Int
    /// The file it came from (`<stdin>`, or the path as given).
    public var source: String
    public var outcome: Outcome
}
