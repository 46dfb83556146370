public import PlaceModel
import Synchronization

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
