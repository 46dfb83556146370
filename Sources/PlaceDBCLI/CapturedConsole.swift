#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

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
        inputLines =
            input.isEmpty ? [] : input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
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
    /// The input is all there: never waits.
    public func readInputLine(beforeWaiting: () -> Void) -> String? { readInputLine() }
    public var inputLineReady: Bool { !inputLines.isEmpty }
}
