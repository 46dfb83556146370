import PlaceKit
import PlaceModel

/// `placedb info`: what the database holds.
enum InfoCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let runs = OptionSpec(
            "--runs", value: "N", help: "Text output: list the last N import runs (default 10; JSON lists all).")
        static let sizes = OptionSpec(
            "--sizes",
            help:
                "Measure the bytes of each table and index even in a file over 1 GiB (SQLite's dbstat reads every page: minutes for tens of GB)."
        )
        static let all = [runs, sizes]
    }

    /// Sizes by table are measured by default in a file of at most this
    /// many bytes: `dbstat` reads every page (over 11 minutes of CPU for 34
    /// GB at 100 million places).
    static let sizesByDefaultBytes = 1 << 30

    static let spec = CommandSpec(
        name: "info",
        abstract:
            "Describe the database: places by source, type and status, runs and snapshots, aliases, size by table, schema version, extent.",
        arguments: [],
        options: Options.all,
        discussion: """
            Counts are of live places unless said (removed places are tombstones kept by
            snapshot imports); they take one pass over the places. Sizes by table are shown
            where the SQLite library can measure them, for a file of at most 1 GiB unless
            --sizes is given; the extent is the box around the places, rounded outwards.
            """,
        examples: [
            "placedb info",
            "placedb info --runs 50 --sizes",
            "placedb info --output json | jq '.bySource'",
        ],
        seeAlso: ["diff", "import", "export"],
        docs: ["database.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        guard context.arguments.positionals.isEmpty else {
            throw UsageError(message: "unexpected argument '\(context.arguments.positionals[0])'")
        }
        var lastRuns = 10
        if let n = context.arguments.value(Options.runs) {
            guard let v = Int(n), v >= 0 else { throw UsageError(message: "--runs '\(n)' is not a count (0 or more)") }
            lastRuns = v
        }
        let info = try PlaceReader(databasePath: context.databasePath).databaseInfo(
            sizesUpTo: context.arguments.flag(Options.sizes) ? .max : sizesByDefaultBytes)
        switch context.output {
        case .json: context.writeJSON(info.json)
        case .text: context.console.out(HumanText.lines(text(info, lastRuns: lastRuns)))
        }
        return .success
    }

    /// The state of the stored counts (`DatabaseInfo.textCounts`), in words.
    static func countsText(_ state: String) -> String {
        switch state {
        case "current": "current"
        case "stale": "stale (placedb text-index analyze counts them again)"
        default: "none (placedb text-index analyze stores them)"
        }
    }

    static func text(_ info: DatabaseInfo, lastRuns: Int) -> [String] {
        func mib(_ b: Int) -> String {
            b >= 1 << 20 ? "\(Double(b * 10 / (1 << 20)) / 10) MiB" : "\(Double(b * 10 / 1024) / 10) KiB"
        }
        func list(_ title: String, _ counts: [DatabaseInfo.Count], top: Int = 12) -> [String] {
            guard !counts.isEmpty else { return [] }
            var out = ["\(title):"]
            for c in counts.prefix(top) { out.append("  " + c.name.padding(28) + String(c.count)) }
            if counts.count > top { out.append("  (\(counts.count - top) more: --output json lists all)") }
            return out
        }
        var lines = [
            "\(info.path): schema version \(info.schemaVersion), \(mib(info.fileBytes))",
            "places: \(info.livePlaces) live, \(info.removedPlaces) removed",
            info.textIndex
                ? "text index: present"
                    + (info.textCounts.map { "; counts of common words: " + Self.countsText($0) } ?? "")
                    + (info.wordLists.map {
                        "; word lists: " + $0.state
                            + ($0.reason.map { " (\($0); placedb text-index lists writes them again)" } ?? "")
                    } ?? "")
                : "text index: none (imported with --no-text-index; placedb text-index build makes it)",
        ]
        if let s = info.spatialIndex {
            lines.append(
                "spatial index: "
                    + (s.reason.map { "\($0) (placedb spatial-index build writes it)" } ?? "current"))
        }
        if let b = info.boundingBox {
            // The index's single precision: 6 decimals (0.1 m) say all it knows.
            func d(_ x: Double) -> String { String((x * 1e6).rounded() / 1e6) }
            lines.append("extent: west \(d(b.west)), south \(d(b.south)), east \(d(b.east)), north \(d(b.north))")
        }
        lines += list("by source", info.bySource)
        lines += list("by primary type", info.byType)
        lines += list("by business status", info.byStatus)
        lines += list("removed, by source", info.removedBySource)
        lines.append("aliases: \(info.aliases)")
        lines += info.aliasesByReason.map { "  " + $0.name.padding(28) + String($0.count) }
        if !info.snapshots.isEmpty {
            lines.append("snapshots:")
            for s in info.snapshots {
                lines.append("  " + s.source.padding(28) + "\(s.runs) run\(s.runs == 1 ? "" : "s"), last \(s.lastAt)")
            }
        }
        lines.append("runs: \(info.runs.count)")
        for r in info.runs.suffix(lastRuns) {
            lines.append(
                "  #\(r.id) \(r.startedAt) \(r.status) \(r.input)\(r.snapshot.map { " (snapshot \($0))" } ?? ""): \(r.records) records, \(r.inserted) inserted, \(r.updated) updated, \(r.removed) removed"
            )
        }
        if let sizes = info.sizes {
            lines.append("size by table and index:")
            for s in sizes.prefix(12) { lines.append("  " + s.name.padding(28) + mib(s.bytes)) }
            if sizes.count > 12 { lines.append("  (\(sizes.count - 12) more: --output json lists all)") }
        } else if !info.sizesMeasured {
            lines.append(
                "size by table and index: not measured in a file over 1 GiB (--sizes reads every page for them)")
        }
        return lines
    }
}
