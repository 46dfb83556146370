import PlaceKit
import PlaceModel

/// `placedb diff [--snapshot S] [RUN_A RUN_B | --from DATE --to DATE]`:
/// what changed between two states of the database.
enum DiffCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let snapshot = OptionSpec(
            "--snapshot", value: "SOURCE",
            help: "Only this snapshot's places and runs; without runs or dates, its last two imports.")
        static let from = OptionSpec(
            "--from", value: "DATE",
            help:
                "The first side: after the last run (of the snapshot) started at or before DATE (YYYY-MM-DD: the end of that day, UTC; or RFC 3339)."
        )
        static let to = OptionSpec("--to", value: "DATE", help: "The second side, as --from.")
        static let movedThreshold = OptionSpec(
            "--moved-threshold", value: "METERS",
            help: "A place counts as moved when its point moved more than this (default 50).")
        static let outputFile = OptionSpec(
            "--output-file", short: "o", value: "FILE",
            help: "Write the changes to FILE (replaced once whole) and the summary to standard output.")
        static let summary = OptionSpec(
            "--summary", help: "Print only the summary (--output text or json), not the changes.")
        static let all = [snapshot, from, to, movedThreshold, outputFile, summary]
    }

    static let spec = CommandSpec(
        name: "diff",
        abstract:
            "What changed between two runs or dates: places added, removed, moved, renamed, retyped and re-identified, as NDJSON.",
        arguments: [
            ArgumentSpec(
                name: "RUN_A",
                help:
                    "The first import run (placedb info lists them; 0: before any); a run of a snapshot import stands for its completion.",
                optional: true),
            ArgumentSpec(name: "RUN_B", help: "The second import run, as RUN_A.", optional: true),
        ],
        options: Options.all,
        discussion: """
            One JSON line per change: change (added, removed, moved, renamed, retyped,
            reidentified), id, before and after (id, name, primaryType, location, as each run
            left the place), distanceMeters, and for a re-identification previousId, reason and
            confidence. An ID an alias recorded in between leads from (or to) is reported once,
            as re-identified, not as removed (or added). The changes go to standard output and a
            one-line summary to standard error; with -o or --summary the summary goes to
            standard output. Dates are of the runs (when they were imported).
            """,
        examples: [
            "placedb diff --snapshot osm-andorra",
            "placedb diff --snapshot osm-andorra 3 7 | jq -c 'select(.change == \"moved\")'",
            "placedb diff --from 2026-11-01 --to 2026-12-01 --summary --output json",
        ],
        seeAlso: ["info", "import", "export"],
        docs: ["diff.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        var from: DiffPoint?, to: DiffPoint?
        switch args.positionals.count {
        case 0: break
        case 2:
            for (i, p) in args.positionals.enumerated() {
                guard let n = Int(p), n >= 0 else {
                    throw UsageError(message: "'\(p)' is not an import run (a number; placedb info lists them)")
                }
                if i == 0 { from = .run(n) } else { to = .run(n) }
            }
        default:
            throw UsageError(message: "give two runs to compare (RUN_A RUN_B), or none")
        }
        if let f = args.value(Options.from) ?? args.value(Options.to) {
            guard from == nil else { throw UsageError(message: "give runs or --from/--to, not both") }
            guard let a = args.value(Options.from), let b = args.value(Options.to) else {
                throw UsageError(message: "'\(f)': give both --from and --to")
            }
            from = .time(a)
            to = .time(b)
        }
        var threshold = 50.0
        if let t = args.value(Options.movedThreshold) {
            guard let v = Double(t), v >= 0, v.isFinite else {
                throw UsageError(message: "--moved-threshold '\(t)' is not a distance in meters (0 or more)")
            }
            threshold = v
        }
        let out = args.value(Options.outputFile).flatMap { $0 == "-" ? nil : $0 }
        let summaryOnly = args.flag(Options.summary)
        if let out { try OutputFile.check(out, option: "-o", databasePath: context.databasePath) }
        let reader = try PlaceReader(databasePath: context.databasePath)
        let writer = JSONWriter(pretty: false)
        var buffer: [UInt8] = []
        let diff: PlaceDiff
        if let out {
            let file = try StreamedFile(path: out)
            do {
                diff = try reader.diff(
                    snapshot: args.value(Options.snapshot), from: from, to: to, movedThresholdMeters: threshold
                ) { c in
                    buffer += Array((writer.string(c.json) + "\n").utf8)
                    if buffer.count >= 1 << 20 {
                        try buffer.withUnsafeBytes { try file.write($0) }
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try buffer.withUnsafeBytes { try file.write($0) }
                try file.commit()
            } catch {
                file.abandon()
                throw error
            }
        } else {
            diff = try reader.diff(
                snapshot: args.value(Options.snapshot), from: from, to: to, movedThresholdMeters: threshold
            ) { c in
                guard !summaryOnly else { return }
                buffer += Array((writer.string(c.json) + "\n").utf8)
                if buffer.count >= 1 << 20 {
                    context.console.out(String(decoding: buffer, as: UTF8.self))
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if !buffer.isEmpty { context.console.out(String(decoding: buffer, as: UTF8.self)) }
        }
        if out != nil || summaryOnly {
            switch context.output {
            case .json: context.writeJSON(diff.summaryJSON)
            case .text: context.console.outLine(text(diff))
            }
        } else {
            context.console.errLine("placedb diff: " + text(diff))
        }
        if diff.historyIncomplete {
            context.console.errLine(
                "placedb diff: warning: run \(diff.from.run) predates the change log (schema 10): moves, renames and retypes made before it are not seen"
            )
        }
        return .success
    }

    static func text(_ d: PlaceDiff) -> String {
        func side(_ s: PlaceDiff.Side) -> String {
            s.run == 0
                ? "before any run" : "run \(s.run) (\(s.startedAt ?? "?")\(s.dataTime.map { ", data of \($0)" } ?? ""))"
        }
        func n(_ k: PlaceDiff.Kind) -> Int { d.counts[k] ?? 0 }
        let threshold =
            d.movedThresholdMeters == d.movedThresholdMeters.rounded()
            ? String(Int(d.movedThresholdMeters)) : String(d.movedThresholdMeters)
        return (d.snapshot.map { "snapshot '\($0)', " } ?? "")
            + "\(side(d.from)) -> \(side(d.to)): \(d.placesBefore) -> \(d.placesAfter) places; "
            + "\(n(.added)) added, \(n(.removed)) removed, \(n(.moved)) moved (> \(threshold) m), \(n(.renamed)) renamed, "
            + "\(n(.retyped)) retyped, \(n(.reidentified)) re-identified"
    }
}
