package import PlaceModel
import Synchronization

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
    package static let unavailableMessage =
        "image scaling is not available in this build (no image codec is installed; see docs/library.md)"

    /// The installed codec, or `PlaceDBError.badImage` saying there is none.
    package static func required() throws(PlaceDBError) -> any ImageCodec {
        guard let codec else { throw PlaceDBError.badImage(unavailableMessage) }
        return codec
    }
}
