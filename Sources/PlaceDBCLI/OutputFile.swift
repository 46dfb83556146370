import Glibc

/// Writes a file a command was asked to produce (`current --svg FILE`), by
/// the house rules: under a temporary name beside it, then renamed, so a
/// failure never leaves half a file under the name asked for; never over
/// something that is not a regular file (a FIFO or a character device such
/// as /dev/null is written into, not replaced); never over the database.
/// A failure is one line and exit 74 (EX_IOERR); the database named as the
/// output is a usage error (64).
enum OutputFile {
    /// Refuses `path` when it is the database (or one of its -wal, -shm or
    /// -journal files) or names a directory or another kind of file that
    /// cannot be written; call before the work, so a refused output costs
    /// nothing.
    static func check(_ path: String, option: String, databasePath: String) throws {
        var out = stat()
        guard stat(path, &out) == 0 else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            var db = stat()
            if stat(databasePath + suffix, &db) == 0 && db.st_dev == out.st_dev && db.st_ino == out.st_ino {
                throw UsageError(message: "\(option) '\(path)' is the database\(suffix.isEmpty ? "" : " (its \(suffix.dropFirst()) file)"); give another file")
            }
        }
        switch out.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFCHR: return
        case S_IFDIR: throw CommandFailure(code: .ioError, message: "\(path): cannot write: is a directory")
        default: throw CommandFailure(code: .ioError, message: "\(path): cannot write: not a regular file, FIFO or character device; refusing to replace it")
        }
    }

    static func write(_ bytes: [UInt8], to path: String, option: String, databasePath: String) throws {
        try check(path, option: option, databasePath: databasePath)
        var target = path
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT != S_IFREG {
                // A FIFO or a device: write into it.
                try writeAll(bytes, path: path, flags: O_WRONLY, shown: path)
                return
            }
            // Through a symbolic link: replace the file it names, not the link.
            if let real = realpath(path, nil) {
                target = String(cString: real)
                free(real)
            }
        }
        let temporary = target + ".placedb-\(getpid()).tmp"
        do {
            try writeAll(bytes, path: temporary, flags: O_WRONLY | O_CREAT | O_EXCL, shown: path)
        } catch {
            unlink(temporary)
            throw error
        }
        if rename(temporary, target) != 0 {
            let e = errno
            unlink(temporary)
            throw failure(path, e)
        }
    }

    private static func writeAll(_ bytes: [UInt8], path: String, flags: Int32, shown: String) throws {
        let fd = open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(shown, errno) }
        var error: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    error = errno
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0 && error == 0 { error = errno }
        if error != 0 { throw failure(shown, error) }
    }

    private static func failure(_ path: String, _ code: Int32) -> CommandFailure {
        CommandFailure(code: .ioError, message: "\(path): cannot write: \(String(cString: strerror(code)).lowercased())")
    }
}
