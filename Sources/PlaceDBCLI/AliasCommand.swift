import PlaceKit
import PlaceModel

/// `placedb alias import FILE...`: explicit alias edges.
enum AliasCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let source = OptionSpec(
            "--source", value: "NAME", help: "The source of the edges whose line names none (default: alias-file).")
        static let all = [source]
    }

    static let spec = CommandSpec(
        name: "alias import",
        abstract:
            "Record which old place IDs stand for which current places (old-ID -> new-ID edges), and which records are or are not the same place, from CSV, NDJSON or a rules file.",
        arguments: [
            ArgumentSpec(
                name: "FILE",
                help:
                    "CSV with a header line old_id, new_id, reason and optionally confidence, source, recorded_at; NDJSON objects with oldId, newId, reason and optionally confidence, source, recordedAt, evidence; or a rules file of 'same A B' and 'different A B' lines; - reads standard input; .gz files are read directly.",
                variadic: true)
        ],
        options: Options.all,
        discussion: """
            reason is one of: \(AliasReason.edgeReasons.map(\.rawValue).joined(separator: ", ")) (default explicit);
            confidence is in (0, 1] (default 1). Each file is recorded whole or not at all: a bad
            line exits 65 naming the file, the line and why, and records nothing of that file. An
            edge already known is kept as first recorded. The source and recordedAt (RFC 3339) of a
            line, as 'placedb export --aliases' writes them, are kept, so 'placedb resolve' answers
            as in the database exported.

            Linking rules: 'same A B' says two records are one physical place, 'different A B'
            that they are not (also as the reason same or different in CSV and NDJSON). A same
            joins them whatever their score; a different keeps them apart whatever any import
            finds. A rule may name an ID not imported yet; it applies when the ID arrives. Rules
            that contradict each other exit 65 naming both.
            """,
        examples: [
            "placedb alias import moves.csv",
            "placedb alias import --source city-2026 merged-ids.ndjson.gz",
            "placedb alias import same-places.txt",
        ],
        seeAlso: ["resolve", "link", "export"],
        docs: ["aliases.md", "linking.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments.positionals
        guard !args.isEmpty else { throw UsageError(message: "missing FILE") }
        var options = ImportOptions()
        options.source = context.arguments.value(Options.source) ?? "alias-file"
        let importer = try PlaceImporter(
            databasePath: context.databasePath, options: options,
            waiting: { pid in
                context.console.errLine(
                    "placedb alias import: waiting for another import\(pid.map { " (process \($0))" } ?? "") into \(context.databasePath) to finish"
                )
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
            context.writeJSON([
                "records": .int(Int64(total.records)), "added": .int(Int64(total.added)),
                "unchanged": .int(Int64(total.unchanged)),
                "rules": .int(Int64(total.rules)), "link": total.link.map(LinkCommand.summaryJSON) ?? .null,
            ])
        case .text:
            context.console.outLine(
                "\(importer.databasePath): \(total.records) alias \(total.records == 1 ? "record" : "records"): \(total.added) added, \(total.unchanged) already known"
                    + (total.rules > 0
                        ? "; \(total.rules) linking rule\(total.rules == 1 ? "" : "s")"
                            + (total.link.map { ": \(LinkCommand.summaryText($0))" } ?? "") : ""))
        }
        return .success
    }
}
