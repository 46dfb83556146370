#if canImport(Glibc)
    import Glibc
#endif

/// `import --rejects FILE`: one NDJSON line per rejected record. The file
/// is opened (truncated) only after it was checked not to be an input or
/// the database; after the first failed write the rest are counted as
/// lost, and `finish()` reports it (exit 74).
final class RejectsFile {
    let path: String
    private var fd: Int32
    private var failure: Int32 = 0
    /// Records not written (whole) because of `failure`.
    private(set) var lost = 0

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CommandFailure(
                code: .ioError, message: "\(path): cannot write the rejects file: \(OutputFile.reason(errno))")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Appends `record` and a newline, with one write (unbuffered: a
    /// record is known written, or not).
    func write(_ record: [UInt8]) {
        guard fd >= 0, failure == 0 else {
            lost += 1
            return
        }
        let result = OutputFile.writeAll(fd, record + [0x0A])
        if result != 0 {
            failure = result
            lost += 1
        }
    }

    /// Closes the file; the one-line message of the first failure (of a
    /// write or the close), or nil.
    func finish() -> String? {
        if fd >= 0 {
            if close(fd) != 0 && failure == 0 { failure = errno }
            fd = -1
        }
        guard failure != 0 else { return nil }
        return "\(path): cannot write the rejects file: \(OutputFile.reason(failure))"
            + (lost > 0
                ? " (\(lost) rejected record\(lost == 1 ? " was" : "s were") not written; the input still has \(lost == 1 ? "it" : "them"))"
                : "")
    }
}
