#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// The process's own streams. Writes go straight to the descriptors (no
/// buffer), and each is checked: after the first failed write to stdout
/// the rest are dropped and `finishOutput()` reports it.
public final class StandardConsole: Console {
    private let output: Int32
    private let error: Int32
    private var outputFailure: Int32 = 0

    /// `output` and `error` are the descriptors written (stdout and stderr
    /// by default).
    public init(output: Int32 = 1, error: Int32 = 2) {
        self.output = output
        self.error = error
    }

    public func out(_ text: String) {
        var text = text
        text.withUTF8 { writeOutput(UnsafeRawBufferPointer($0)) }
    }
    public func outBytes(_ bytes: [UInt8]) { bytes.withUnsafeBytes { writeOutput($0) } }
    public func err(_ text: String) {
        // Nowhere to report a failure to write a diagnostic.
        var text = text
        text.withUTF8 { _ = Self.writeAll(error, UnsafeRawBufferPointer($0)) }
    }

    private func writeOutput(_ buffer: UnsafeRawBufferPointer) {
        guard outputFailure == 0 else { return }
        outputFailure = Self.writeAll(output, buffer)
    }

    public func finishOutput() -> String? {
        if outputFailure == 0 {
            // Closing a duplicate reports what a file system defers to the
            // close (NFS) without closing stdout itself.
            let copy = dup(output)
            if copy >= 0 && close(copy) != 0 && errno != EINTR { outputFailure = errno }
        }
        return outputFailure == 0 ? nil : String(cString: strerror(outputFailure)).lowercased()
    }

    /// Writes all of `buffer`; 0, or the errno of the failure.
    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        guard let base = buffer.baseAddress else { return 0 }
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, base + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return 0
    }
    public var stdoutIsTerminal: Bool { isatty(output) == 1 }
    public var stderrIsTerminal: Bool { isatty(error) == 1 }
    public var terminalColumns: Int? {
        guard isatty(output) == 1 else { return nil }
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
    public func environment(_ name: String) -> String? { getenv(name).flatMap { String(validatingCString: $0) } }
}
