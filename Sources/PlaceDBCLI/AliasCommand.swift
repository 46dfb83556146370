import PlaceKit
import PlaceModel

/// `placedb alias import FILE...`: explicit alias edges.
enum AliasCommand {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let source = OptionSpec("--source", value: "NAME", help: "The source of the edges whose line names none (default: alias-file).")
        static let all = [source]
    }

    static let spec = CommandSpec(
        name: "alias",
        abstract: "Manage place ID aliases: 'placedb alias import FILE...' records old-ID -> new-ID edges from CSV or NDJSON.",
        arguments: [ArgumentSpec(name: "import", help: "The action (import)."),
                    ArgumentSpec(name: "FILE", help: "CSV with a header (old_id,new_id,reason[,confidence,source,recorded_at]) or NDJSON ({\"oldId\",\"newId\",\"reason\",\"confidence\"[,\"source\",\"recordedAt\",\"evidence\"]}); - reads standard input; .gz read directly.", variadic: true)],
        options: Options.all,
        discussion: """
            reason is one of: \(AliasReason.edgeReasons.map(\.rawValue).joined(separator: ", ")) (default explicit);
            confidence is in (0, 1] (default 1). Each file is one transaction: a bad line (exit 65,
            file:line and why) records nothing of that file. An edge already known is kept as
            first recorded. A line's own source and recordedAt (RFC 3339), as 'placedb export
            --aliases' writes them, are kept (a known edge recorded later takes them), so
            'resolve' answers as in the exported database.
            Linking rules: a file of lines 'same A B' / 'different A B' (or the reason same or
            different in CSV and NDJSON) says two records are, or are not, one physical place:
            a same joins them whatever their score, a different keeps them apart whatever any
            import finds. A rule may name an ID not stored yet; it applies when the ID arrives.
            same and different lines that contradict each other exit 65 naming both
            (docs/linking.md).
            """,
        examples: [
            "placedb alias import moves.csv",
            "placedb alias import --source city-2026 merged-ids.ndjson.gz",
            "placedb alias import same-places.txt",
        ])

    static func run(_ context: CommandContext) throws -> ExitCode {
        var args = context.arguments.positionals
        guard let action = args.first else { throw UsageError(message: "missing action (import)") }
        guard action == "import" else { throw UsageError(message: "unknown action '\(action)'; expected: import") }
        args.removeFirst()
        guard !args.isEmpty else { throw UsageError(message: "missing FILE") }
        var options = ImportOptions()
        options.source = context.arguments.value(Options.source) ?? "alias-file"
        let importer = try PlaceImporter(databasePath: context.databasePath, options: options, waiting: { pid in
            context.console.errLine("placedb alias import: waiting for another import\(pid.map { " (process \($0))" } ?? "") into \(context.databasePath) to finish")
        })
        var total = AliasImportSummary()
        for file in args {
            let s = try importer.importAliases(InputSource(argument: file))
            total.records += s.records
            total.added += s.added
            total.unchanged += s.unchanged
            total.rules += s.rules
            if let l = s.link { total.link = l }
        }
        switch context.output {
        case .json:
            context.writeJSON(["records": .int(Int64(total.records)), "added": .int(Int64(total.added)), "unchanged": .int(Int64(total.unchanged)),
                               "rules": .int(Int64(total.rules)), "link": total.link.map(LinkCommand.summaryJSON) ?? .null])
        case .text:
            context.console.outLine("\(importer.databasePath): \(total.records) alias \(total.records == 1 ? "record" : "records"): \(total.added) added, \(total.unchanged) already known"
                + (total.rules > 0 ? "; \(total.rules) linking rule\(total.rules == 1 ? "" : "s")" + (total.link.map { ": \(LinkCommand.summaryText($0))" } ?? "") : ""))
        }
        return .success
    }
}
