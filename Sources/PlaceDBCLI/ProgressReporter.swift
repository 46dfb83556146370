#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

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
