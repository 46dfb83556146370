import CGD
public import PlaceKit
public import PlaceModel
import Foundation

/// PlaceKit's `ImageCodec` on libgd (the system library, through `CGD`).
/// Install it once at start with `GDImageCodec.install()`.
public struct GDImageCodec: ImageCodec {
    public init() {}

    /// Installs libgd as the process's image codec (`ImageScaling.install`).
    public static func install() {
        ImageScaling.install(GDImageCodec())
    }

    public func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImageError) -> any DecodedImage {
        try GDImage.decode(bytes, format: format)
    }
}
