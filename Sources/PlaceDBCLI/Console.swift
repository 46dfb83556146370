#if canImport(Glibc)
import Glibc
#endif
import PlaceModel

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
    /// The width of the terminal stdout is, in columns; nil when stdout
    /// is not a terminal (help then reads $COLUMNS, else 80).
    var terminalColumns: Int? { get }
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
    public var terminalColumns: Int? { nil }
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
    public var terminalColumns: Int? {
        guard isatty(output) == 1 else { return nil }
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
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
    /// The terminal's width when stdout is one (nil: not a terminal).
    public var terminalColumns: Int?
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

extension ExitCode: CaseIterable {
    /// Every exit status with what it means, for help and the man page
    /// (the table in docs/reliability.md).
    static let documented: [(ExitCode, String)] = [
        (.success, "Success."),
        (.failure, "Not found (NOT_FOUND), or a runtime failure such as a database error."),
        (.usage, "Usage: an unknown command or option, a bad option value (a misspelt place type, field name or --where column), a --db that is not a file path."),
        (.dataError, "Bad input data: a record that fails validation, malformed JSON, a file placedb does not read, a corrupt image."),
        (.noInput, "Missing input: an input file or the database does not exist or cannot be read."),
        (.unavailable, "A program placedb runs is not installed: osmium (osmium-tool) for an OpenStreetMap file."),
        (.ioError, "An output could not be written: standard output, --rejects FILE, -o FILE, --svg FILE."),
        (.noPermission, "The database cannot be written: the file, or its directory, is read-only."),
    ]
}

/// Whether a long command shows its progress on standard error: on a
/// terminal by default (one line rewritten in place), with `--progress`
/// also when stderr is a file or pipe (a line every `lineInterval`
/// seconds), never with `--no-progress`.
struct Progress {
    /// Progress is shown.
    let shown: Bool
    /// Shown as one line rewritten with \r (stderr is a terminal).
    var inPlace: Bool { shown && terminal }
    private let terminal: Bool

    /// Seconds between progress lines when stderr is not a terminal.
    static let lineInterval = 5.0

    /// `quietByDefault`: not shown unless asked (export to a terminal's
    /// standard output, where progress would mix with the records).
    init(_ context: CommandContext, force: OptionSpec, silence: OptionSpec, quietByDefault: Bool = false) throws(UsageError) {
        let forced = context.arguments.flag(force), silenced = context.arguments.flag(silence)
        if forced && silenced { throw UsageError(message: "\(force.name) and \(silence.name) contradict each other; give one") }
        terminal = context.console.stderrIsTerminal
        shown = forced || (!silenced && terminal && !quietByDefault)
    }
}

/// Shows a command's progress as `Progress` says: at most twice a second
/// in place on a terminal, else a line every `Progress.lineInterval`
/// seconds (and the last state when done).
final class ProgressReporter {
    private let progress: Progress
    private let console: any Console
    private let command: String
    private var last = -Double.infinity
    private var pending: String?

    init(_ progress: Progress, console: any Console, command: String) {
        self.progress = progress
        self.console = console
        self.command = command
    }

    func update(_ line: @autoclosure () -> String) {
        guard progress.shown else { return }
        let now = MonotonicClock.now()
        guard now - last >= (progress.inPlace ? 0.5 : Progress.lineInterval) else {
            if !progress.inPlace { pending = line() }
            return
        }
        last = now
        pending = nil
        show(line())
    }

    /// Clears the line on a terminal; elsewhere shows the final state
    /// (`line`) when the last update was not shown, or none was.
    func finish(_ line: String? = nil) {
        guard progress.shown else { return }
        if progress.inPlace {
            console.err("\r\u{1B}[K")
        } else if pending != nil || (last == -.infinity && line != nil), let text = line ?? pending {
            show(text)
        }
        pending = nil
    }

    private func show(_ line: String) {
        if last == -.infinity { last = MonotonicClock.now() }
        if progress.inPlace {
            console.err("\r\u{1B}[K" + HumanText.escape(line))
        } else {
            console.errLine("placedb \(command): progress: " + HumanText.escape(line))
        }
    }
}
