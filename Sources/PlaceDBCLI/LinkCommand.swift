import Foundation
import PlaceKit
import PlaceModel

/// `placedb link`: link the whole database again, or explain two IDs.
enum LinkCommand: Command {
    enum Options {
        static let explain = OptionSpec(
            "--explain",
            help:
                "Show the same-place probability of the two IDs given as arguments, its evidence, and whether they are linked; changes nothing."
        )
        static let threshold = OptionSpec(
            "--threshold", value: "P",
            help:
                "Link at this same-place probability or above, in (0, 1] (default: \(SamePlace.threshold), chosen on labelled pairs for precision first)."
        )
        static let sourceOrder = OptionSpec(
            "--source-order", value: "A,B,...",
            help:
                "The order of sources for ties between equally recent captures and for the canonical ID (kept in the database; default: google-places,overture,osm,geojson, then other sources by name)."
        )
        static let all = [explain, threshold, sourceOrder]
    }

    static let spec = CommandSpec(
        name: "link",
        abstract:
            "Link the records that are the same physical place (across sources and IDs) again, or explain two IDs.",
        arguments: [ArgumentSpec(name: "ID", help: "With --explain: the two place IDs to compare.", variadic: true)],
        options: Options.all,
        discussion: """
            Imports link the places they add or change (unless --no-link). This command drops
            every link and group and links every live place again in one transaction: after a
            --threshold or --source-order change, or for a database imported with --no-link.
            The rules of alias files (same A B, different A B) are kept: a different is never
            overridden. Each group has one canonical ID (the B of a same A B rule, else its
            member of the first source in the source order, then the smallest ID); resolve of any member answers it, and place,
            nearby, current, search, autocomplete and serve list the group once with its
            members merged. Waits for an import into the database to finish.
            """,
        examples: [
            "placedb link",
            "placedb link --threshold 0.8 --source-order osm,google-places",
            "placedb link --explain ChIJN1t_tDeuEmsRUsoyG83frY4 osm:n1794111149",
        ],
        seeAlso: ["alias import", "resolve", "import"],
        docs: ["linking.md", "merging.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        if args.flag(Options.explain) {
            guard args.positionals.count == 2 else { throw UsageError(message: "--explain needs two place IDs") }
            let e = try Linking.explain(
                PlaceID(parsing: args.positionals[0]), PlaceID(parsing: args.positionals[1]),
                databasePath: context.databasePath)
            switch context.output {
            case .json: context.writeJSON(e.json)
            case .text:
                let verdict = e.sameGroup ? "one place (same group)" : e.linked ? "linked" : "not linked"
                var line =
                    "\(e.a) ~ \(e.b): same-place probability \(format(e.probability)) (threshold \(format(e.threshold))), \(Int(e.distanceMeters.rounded())) m apart: \(verdict)"
                if let rule = e.rule { line += "; rule: \(rule.rawValue)" }
                if !e.eligible { line += "; never paired: one source's records seen in one capture" }
                context.console.outLine(HumanText.escape(line))
                for (k, v) in e.evidence.objectValue ?? JSONObject() {
                    context.console.outLine(HumanText.escape("  \(k): \(JSONWriter().string(v))"))
                }
            }
            return .success
        }
        guard args.positionals.isEmpty else {
            throw UsageError(message: "unexpected argument '\(args.positionals[0])' (IDs go with --explain)")
        }
        var threshold: Double?
        if let t = args.value(Options.threshold) {
            guard let d = Double(t), d > 0, d <= 1 else {
                throw UsageError(message: "invalid value '\(t)' for '--threshold': expected a probability in (0, 1]")
            }
            threshold = d
        }
        var order: [String]?
        if let o = args.value(Options.sourceOrder) {
            let names = o.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard !names.isEmpty, !names.contains(where: { $0.isEmpty }) else {
                throw UsageError(
                    message: "invalid value '\(o)' for '--source-order': expected source names separated by commas")
            }
            order = names
        }
        let console = context.console
        let summary = try Linking.relink(
            databasePath: context.databasePath, threshold: threshold, sourceOrder: order,
            waiting: { pid in
                console.errLine(
                    "placedb link: waiting for an import\(pid.map { " (process \($0))" } ?? "") into \(context.databasePath) to finish"
                )
            })
        switch context.output {
        case .json:
            context.writeJSON(["database": .string(context.databasePath), "link": summaryJSON(summary)])
        case .text:
            console.outLine("\(context.databasePath): \(summary.examined) places examined, \(summaryText(summary))")
        }
        return .success
    }

    static func format(_ p: Double) -> String { String(format: "%.3f", p) }

    static func summaryText(_ s: LinkSummary) -> String {
        "\(s.scored) pairs scored, \(s.linked) linked, \(s.groups) group\(s.groups == 1 ? "" : "s") of \(s.grouped) records"
            + (s.refused > 0
                ? " (\(s.refused) link\(s.refused == 1 ? "" : "s") refused: a member did not fit the group)" : "")
    }

    static func summaryJSON(_ s: LinkSummary) -> JSONValue {
        [
            "examined": .int(Int64(s.examined)), "scored": .int(Int64(s.scored)), "linked": .int(Int64(s.linked)),
            "groups": .int(Int64(s.groups)),
            "grouped": .int(Int64(s.grouped)), "refused": .int(Int64(s.refused)),
            "seconds": .double((s.seconds * 1000).rounded() / 1000),
        ]
    }
}
