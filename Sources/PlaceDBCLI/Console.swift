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
    /// `readInputLine()`, calling `beforeWaiting` first whenever the line
    /// has not arrived yet: a batch writes its pending answers then, so a
    /// program that sends a line and waits for its answer gets it, and one
    /// that pipes a file gets them in large writes.
    func readInputLine(beforeWaiting: () -> Void) -> String?
    /// Whether a line of standard input has arrived (the next
    /// `readInputLine` will not wait for it, except for the rest of a line
    /// that has begun to arrive).
    var inputLineReady: Bool { get }
    /// Why writing to stdout failed (the first failure: `no space left on
    /// device`), checking the final close too; nil when every write went
    /// through. The tool then exits 74.
    func finishOutput() -> String?
}

extension Console {
    public var terminalColumns: Int? { nil }
    public func readInputLine() -> String? { readLine(strippingNewline: true) }
    public func readInputLine(beforeWaiting: () -> Void) -> String? {
        beforeWaiting()
        return readInputLine()
    }
    /// Unknown: a batch then answers a line at a time.
    public var inputLineReady: Bool { false }
}
