#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

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
    init(_ context: CommandContext, force: OptionSpec, silence: OptionSpec, quietByDefault: Bool = false)
        throws(UsageError)
    {
        let forced = context.arguments.flag(force), silenced = context.arguments.flag(silence)
        if forced && silenced {
            throw UsageError(message: "\(force.name) and \(silence.name) contradict each other; give one")
        }
        terminal = context.console.stderrIsTerminal
        shown = forced || (!silenced && terminal && !quietByDefault)
    }
}
