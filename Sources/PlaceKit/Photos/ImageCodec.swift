public import PlaceModel
import Synchronization

/// The image work placedb leaves to a library of pixels: decoding a file,
/// turning it upright, scaling, and encoding. PlaceKit itself links no
/// image library (it builds with SQLite and zlib alone); the libgd
/// implementation is `GDImageCodec` in the `PlaceKitGD` target, which the
/// command line, the server and the benchmarks install at start:
///
/// ```swift
/// import PlaceKitGD
/// GDImageCodec.install()   // ImageScaling.install(GDImageCodec())
/// ```
///
/// Without a codec, the photo operations that decode (`photo add`,
/// `fetchPhoto` when the image must be scaled or re-encoded) throw
/// `PlaceDBError.badImage` saying image scaling is not available in this
/// build; everything else (import, queries, aliases, hours, photo
/// metadata, an image served as stored) works.
public protocol ImageCodec: Sendable {
    /// Decodes the whole of `bytes`, which the header says are `format`.
    /// A corrupt or truncated file throws (one line, what was found).
    func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImageError) -> any DecodedImage
}

/// One decoded image, as an `ImageCodec` returns it.
public protocol DecodedImage: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// The image turned upright for an EXIF orientation (2...8; 1 is as is).
    func oriented(_ orientation: Int) throws(ImageError) -> any DecodedImage
    /// A true-colour copy scaled to `width` x `height`.
    func resampled(width: Int, height: Int) throws(ImageError) -> any DecodedImage
    /// The image composed over white, for formats without transparency.
    func flattened() throws(ImageError) -> any DecodedImage
    /// The image encoded in `format` (JPEG and WebP at quality 85).
    func encode(_ format: ImageFormat) throws(ImageError) -> [UInt8]
}

/// The process's image codec (none until one is installed).
public enum ImageScaling {
    private static let installed = Mutex<(any ImageCodec)?>(nil)

    /// Makes `codec` the one every `PlaceReader` and `PhotoImporter` of the
    /// process uses (the last installed wins).
    public static func install(_ codec: any ImageCodec) {
        installed.withLock { $0 = codec }
    }

    /// The installed codec, or nil.
    public static var codec: (any ImageCodec)? {
        installed.withLock { $0 }
    }

    /// The one line a photo operation that needs pixels fails with when no
    /// codec is installed.
    package static let unavailableMessage = "image scaling is not available in this build (no image codec is installed; see docs/library.md)"

    /// The installed codec, or `PlaceDBError.badImage` saying there is none.
    package static func required() throws(PlaceDBError) -> any ImageCodec {
        guard let codec else { throw PlaceDBError.badImage(unavailableMessage) }
        return codec
    }
}
