import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel
import PlaceStorage

/// The temporary file a new database is built in (`PlaceImporter`).
enum NewDatabase {
    static let marker = ".new-"

    /// `FILE.new-PID` when nothing is at `path` (and it names a file, not
    /// an SQLite URI or `:memory:`); nil when a file is there.
    static func temporaryPath(for path: String) -> String? {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return nil }
        var st = stat()
        guard stat(path, &st) != 0, errno == ENOENT else { return nil }
        return "\(path)\(marker)\(getpid())"
    }

    /// A symbolic link whose target does not exist is refused before any
    /// work: the new database could not take that name (the link is there)
    /// and writing through it to create its target would be a guess.
    static func refuseDanglingLink(_ path: String) throws {
        var st = stat()
        guard !path.isEmpty, lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return }
        guard stat(path, &st) != 0, errno == ENOENT else { return }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        let target = n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        throw PlaceDBError.danglingSymlink(path: path, target: target)
    }

    /// Removes the temporary files of killed imports into `path`: those
    /// whose process is gone (with their journals).
    static func removeAbandoned(besides path: String) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + marker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            var rest = name.dropFirst(prefix.count)
            if rest.hasSuffix("-journal") { rest = rest.dropLast("-journal".count) }
            guard let pid = Int32(rest), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("\(directory)/\(name)")
        }
    }

    /// Gives the finished temporary file its name: a hard link, so a file
    /// that appeared at `path` meanwhile is never replaced, then the
    /// temporary name goes.
    static func move(_ temporary: String, to path: String) throws {
        if link(temporary, path) == 0 {
            unlink(temporary)
            return
        }
        var error = errno
        if error == EPERM || error == ENOTSUP {
            // A file system without hard links: rename, if the name is still free.
            if access(path, F_OK) != 0 {
                if rename(temporary, path) == 0 { return }
                error = errno
            } else {
                error = EEXIST
            }
        }
        let reason =
            error == EEXIST
            ? "another process created it during this import; the imported database is in \(temporary)"
            : "cannot move \(temporary) to it: \(String(cString: strerror(error)))"
        throw PlaceDBError.database(path: path, reason: reason)
    }
}
