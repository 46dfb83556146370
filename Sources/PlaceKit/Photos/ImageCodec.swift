public import PlaceModel
import Synchronization

/// The image work placedb leaves to a library of pixels: decoding a file,
/// turning it upright, scaling, and encoding. PlaceKit itself links no
/// image library (it builds with SQLite and zlib alone); the libgd
/// implementation is `GDImageCodec` in the `PlaceKitGD` target, which the
/// command line's photo commands, the server and the benchmarks install
/// at start:
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
