#if canImport(Glibc)
import Glibc
#endif

/// Where the command line writes. The real one writes to the process's
/// stdout/stderr; tests pass a `CapturedConsole`.
public protocol Console: AnyObject {
    func out(_ text: String)
    /// Writes bytes to stdout as they are (an image for `photo fetch -o -`).
    func outBytes(_ bytes: [UInt8])
    func err(_ text: String)
    /// True when stdout is a terminal (text output by default).
    var stdoutIsTerminal: Bool { get }
    /// True when stderr is a terminal (progress is shown).
    var stderrIsTerminal: Bool { get }
    /// The environment variables the tool reads (`PLACEDB_DATABASE`).
    func environment(_ name: String) -> String?
    /// The next line of standard input without its newline (`--batch`),
    /// or nil at its end.
    func readInputLine() -> String?
    /// Why writing to stdout failed (the first failure: `no space left on
    /// device`), checking the final close too; nil when every write went
    /// through. The tool then exits 74.
    func finishOutput() -> String?
}

extension Console {
    public func readInputLine() -> String? { readLine(strippingNewline: true) }
}

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
    public func environment(_ name: String) -> String? { getenv(name).flatMap { String(validatingCString: $0) } }
}

/// Collects output in memory, for in-process tests.
public final class CapturedConsole: Console {
    public private(set) var stdout = ""
    /// Everything written to stdout, text and bytes, in order.
    public private(set) var stdoutBytes: [UInt8] = []
    public private(set) var stderr = ""
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    public var variables: [String: String]
    /// What standard input holds, line by line.
    public var inputLines: [String]
    /// When set, stdout fails as a full disk does after this many bytes
    /// (what was written before stays).
    public var stdoutCapacity: Int?

    public init(terminal: Bool = false, environment: [String: String] = [:], input: String = "") {
        stdoutIsTerminal = terminal
        stderrIsTerminal = terminal
        variables = environment
        inputLines = input.isEmpty ? [] : input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if inputLines.last == "" { inputLines.removeLast() }
    }
    public func out(_ text: String) {
        guard fits(text.utf8.count) else { return }
        stdout += text
        stdoutBytes += Array(text.utf8)
    }
    public func outBytes(_ bytes: [UInt8]) {
        guard fits(bytes.count) else { return }
        stdoutBytes += bytes
    }
    private var outputFailed = false
    private func fits(_ count: Int) -> Bool {
        if let capacity = stdoutCapacity, stdoutBytes.count + count > capacity { outputFailed = true }
        return !outputFailed
    }
    public func finishOutput() -> String? { outputFailed ? "no space left on device" : nil }
    public func err(_ text: String) { stderr += text }
    public func environment(_ name: String) -> String? { variables[name] }
    public func readInputLine() -> String? { inputLines.isEmpty ? nil : inputLines.removeFirst() }
}

/// The documented exit codes (README "Exit codes"), after BSD sysexits.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// Not found, or a runtime failure.
    case failure = 1
    /// The command was called wrongly (EX_USAGE).
    case usage = 64
    /// The input data is bad (EX_DATAERR).
    case dataError = 65
    /// An input file is missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// A program placedb runs is not installed: `osmium` for an
    /// OpenStreetMap file (EX_UNAVAILABLE).
    case unavailable = 69
    /// An output could not be written: stdout, `--rejects`, `-o FILE`,
    /// `--svg FILE` (EX_IOERR).
    case ioError = 74
    /// The database cannot be written: the file or its directory is
    /// read-only (EX_NOPERM).
    case noPermission = 77
}
