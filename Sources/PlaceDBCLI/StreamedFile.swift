#if canImport(Glibc)
    import Glibc
#endif
import PlaceKit
import PlaceModel

/// An output file written in chunks: a FIFO or device is written as it is;
/// a regular file (or none) gets a temporary file beside it that replaces
/// it once whole (`commit`), or is removed (`abandon`), so a failed export
/// never leaves half a file under the name asked for.
final class StreamedFile {
    let path: String
    private var fd: Int32
    private let temporary: String?

    init(path: String) throws {
        self.path = path
        var st = stat()
        let exists = stat(path, &st) == 0
        if exists && (st.st_mode & S_IFMT) != S_IFREG {
            temporary = nil
            fd = open(path, O_WRONLY | O_CLOEXEC)
        } else {
            let target = try OutputFile.replacementTarget(for: path, exists: exists)
            let t = target + ".placedb-\(getpid()).tmp"
            temporary = t
            fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 && exists { _ = fchmod(fd, st.st_mode & 0o7777) }
            self.target = target
        }
        guard fd >= 0 else {
            throw CommandFailure(code: .ioError, message: "\(path): cannot write: \(OutputFile.reason(errno))")
        }
    }

    private var target: String = ""

    deinit { if fd >= 0 { close(fd) } }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        let error = OutputFile.writeAll(fd, bytes)
        if error != 0 {
            throw CommandFailure(code: .ioError, message: "\(path): cannot write: \(OutputFile.reason(error))")
        }
    }

    func commit() throws {
        var error: Int32 = 0
        if close(fd) != 0 { error = errno }
        fd = -1
        if error == 0, let temporary, rename(temporary, target) != 0 { error = errno }
        if error != 0 {
            abandon()
            throw CommandFailure(code: .ioError, message: "\(path): cannot write: \(OutputFile.reason(error))")
        }
    }

    func abandon() {
        if fd >= 0 { close(fd); fd = -1 }
        if let temporary { unlink(temporary) }
    }
}
