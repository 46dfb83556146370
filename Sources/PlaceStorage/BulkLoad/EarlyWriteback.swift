import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Starts writing a file's dirty pages to disk on a thread of its own (an
/// `fdatasync` through a descriptor of its own), so that the commit's sync,
/// a moment later, finds little left to write. Writing pages early is
/// what the kernel may do any time;
/// SQLite's own syncs still order what must be ordered.
enum EarlyWriteback {
    static func start(_ path: String) {
        let thread = Thread {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = fdatasync(fd)
            close(fd)
        }
        thread.start()
    }
}
