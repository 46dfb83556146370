#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// The process's own streams. Writes go straight to the descriptors (no
/// buffer; a batch gathers its answers itself), and each is checked: after the first failed write to stdout
/// the rest are dropped and `finishOutput()` reports it.
public final class StandardConsole: Console {
    private let output: Int32
    private let error: Int32
    private var outputFailure: Int32 = 0
    private let input: Int32 = 0
    /// Standard input read ahead; lines are taken from `inputStart`.
    private var inputBuffer: [UInt8] = []
    private var inputStart = 0
    private var inputEnded = false

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
    public func readInputLine() -> String? { readInputLine(beforeWaiting: {}) }

    /// Lines of standard input, read 64 KiB at a time; "\n" or "\r\n"
    /// ends a line, and a last line without one is a line too. Bytes that
    /// are not UTF-8 become U+FFFD (as `readLine`).
    public func readInputLine(beforeWaiting: () -> Void) -> String? {
        while true {
            if let newline = inputBuffer[inputStart...].firstIndex(of: 0x0A) {
                var end = newline
                if end > inputStart && inputBuffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: inputBuffer[inputStart..<end], as: UTF8.self)
                inputStart = newline + 1
                return line
            }
            if inputEnded {
                guard inputStart < inputBuffer.count else { return nil }
                let line = String(decoding: inputBuffer[inputStart...], as: UTF8.self)
                inputStart = inputBuffer.count
                return line
            }
            inputBuffer.removeSubrange(0..<inputStart)
            inputStart = 0
            if !inputReadable { beforeWaiting() }
            let had = inputBuffer.count, piece = 1 << 16
            inputBuffer.append(contentsOf: repeatElement(0, count: piece))
            let n = inputBuffer.withUnsafeMutableBytes { read(input, $0.baseAddress! + had, piece) }
            let failure = n < 0 ? errno : 0
            inputBuffer.removeLast(piece - max(n, 0))
            if n < 0 && failure == EINTR { continue }
            // The end, or a failed read (treated as the end, as `readLine` does).
            if n <= 0 { inputEnded = true }
        }
    }

    public var inputLineReady: Bool {
        if inputBuffer[inputStart...].contains(0x0A) { return true }
        if inputEnded { return inputStart < inputBuffer.count }
        return inputReadable
    }

    /// Whether a read of standard input would not wait (data or its end).
    private var inputReadable: Bool {
        var ready = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) > 0
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
