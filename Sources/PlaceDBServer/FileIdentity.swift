import Foundation
import PlaceKit
import PlaceKitGD
import PlaceModel
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A file's device and inode: the same path naming another file is another identity.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now (following links), nil if there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
