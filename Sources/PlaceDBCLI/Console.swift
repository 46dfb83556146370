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
}

extension Console {
    public func readInputLine() -> String? { readLine(strippingNewline: true) }
}

/// The process's own streams.
public final class StandardConsole: Console {
    public init() {}
    public func out(_ text: String) { Self.writeAll(1, text) }
    public func err(_ text: String) { Self.writeAll(2, text) }
    public func outBytes(_ bytes: [UInt8]) { bytes.withUnsafeBytes { Self.writeAll(1, $0) } }

    private static func writeAll(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, base + offset, buffer.count - offset)
            if n < 0 { if errno == EINTR { continue } else { return } }
            offset += n
        }
    }
    public var stdoutIsTerminal: Bool { isatty(1) == 1 }
    public var stderrIsTerminal: Bool { isatty(2) == 1 }
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

    public init(terminal: Bool = false, environment: [String: String] = [:], input: String = "") {
        stdoutIsTerminal = terminal
        stderrIsTerminal = terminal
        variables = environment
        inputLines = input.isEmpty ? [] : input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if inputLines.last == "" { inputLines.removeLast() }
    }
    public func out(_ text: String) {
        stdout += text
        stdoutBytes += Array(text.utf8)
    }
    public func outBytes(_ bytes: [UInt8]) { stdoutBytes += bytes }
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
    /// An output file cannot be written (EX_IOERR).
    case ioError = 74
}
