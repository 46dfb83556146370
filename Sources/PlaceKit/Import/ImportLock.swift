import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import PlaceStorage

/// One import at a time per database: an exclusive `flock` on `DB.import-lock`
/// beside it, taken before the database is opened (or created) and held
/// until the importer goes away. A second import waits for the first
/// (the lock file names its process) instead of failing after SQLite's busy
/// timeout with "database is locked", and two first imports into the same
/// name never both build a new database: the second finds the first's.
///
/// The lock file is removed by its holder; a killed holder leaves it, and
/// the next import takes it (a `flock` dies with its process). Where the
/// file cannot be created (a read-only directory) the import goes on
/// without it: it could not write a database there anyway.
final class ImportLock {
    static let suffix = ".import-lock"

    private let fd: Int32
    private let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    /// Takes the lock of `databasePath`, waiting while another import holds
    /// it; `waiting` is called once, with that import's process ID when the
    /// lock file names it, before the wait. Nil when no lock file can be made.
    static func acquire(for databasePath: String, waiting: ((Int32?) -> Void)?) -> ImportLock? {
        let path = databasePath + suffix
        var told = false
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return nil }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK else { close(fd); return nil }
                if !told {
                    told = true
                    waiting?(holder(fd))
                }
                while flock(fd, LOCK_EX) != 0 {
                    guard errno == EINTR else { close(fd); return nil }
                }
            }
            // The holder removes the file when done: a lock on a removed
            // (or replaced) file locks nothing, so take the new one.
            var held = stat(), named = stat()
            guard fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            else {
                close(fd)
                continue
            }
            let text = "\(getpid())\n"
            _ = ftruncate(fd, 0)
            _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
            return ImportLock(fd: fd, path: path)
        }
    }

    /// The process ID the lock file names, if any.
    private static func holder(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit {
        // Removed while still held, so no one takes a lock on a file that goes.
        unlink(path)
        close(fd)
    }
}
