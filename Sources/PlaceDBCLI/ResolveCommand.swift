import PlaceKit
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// `placedb resolve ID... | --batch`: what became of place IDs.
enum ResolveCommand {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let batch = OptionSpec(
            "--batch",
            help:
                "Read IDs from standard input, one a line; write one JSON line per line, in order (a blank line gets an error line, and exit 65)."
        )
        static let all = [QueryOptions.unmerged, batch]
    }

    static let spec = CommandSpec(
        name: "resolve",
        abstract:
            "Resolve place IDs to current places: CURRENT, MOVED (with the chain of alias hops), REMOVED or NOT_FOUND.",
        arguments: [
            ArgumentSpec(
                name: "ID", help: "A place ID, current or old (places/ID accepted).", variadic: true, optional: true)
        ],
        options: Options.all,
        discussion: """
            Each answer has requestedId, status, placeId (the current one), chain (each hop with
            reason, source, confidence and date), the place's displayName and location, and
            removedAt, alternatives (a split) or cycle (a loop met and not followed) when they
            apply. Exit 0 when every ID was found (CURRENT, MOVED or REMOVED), 1 when one was
            NOT_FOUND, 65 when a --batch line was blank.

            IDs are read in any spelling placedb knows and answered in its own (requestedId
            too): osm:node/1 is osm:n1, a '/' in another ID is %2F.
            A Google place's Maps CID (the cid= of its googleMapsUri) is cid:DIGITS, or the bare
            number when no place has it as its ID; it is the same place, CURRENT.
            """,
        examples: [
            "placedb resolve ChIJOldPlaceId000",
            "placedb resolve osm:node/1794111149 cid:10281119596374313554",
            "cut -f1 stale-ids.tsv | placedb resolve --batch > resolved.ndjson",
        ],
        seeAlso: ["alias import", "link", "place"],
        docs: ["aliases.md", "formats.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        let batch = args.flag(Options.batch)
        if batch && !args.positionals.isEmpty {
            throw UsageError(message: "give IDs as arguments or with --batch on standard input, not both")
        }
        if !batch && args.positionals.isEmpty {
            throw UsageError(message: "missing ID (or --batch to read IDs from standard input)")
        }
        let client = try PlaceReader(databasePath: context.databasePath, recordView: QueryOptions.recordView(context))
        var missing = false
        if batch {
            var out = ""
            out.reserveCapacity(1 << 16)
            let writer = JSONWriter()
            // Chunks of IDs, each resolved in one read transaction.
            // A blank line gets an error line in its place, so that answer N
            // is always that of input line N.
            var chunk: [PlaceID?] = []
            var lineNumber = 0
            var blank = 0
            func flush() throws {
                var results = try client.resolvePlaceIDs(chunk.compactMap { $0 })[...]
                for (i, id) in chunk.enumerated() {
                    if id == nil {
                        let number = lineNumber - chunk.count + i + 1
                        out += writer.string(Batch.errorLine("line \(number): empty line; expected a place ID"))
                    } else {
                        let r = results.removeFirst()
                        if r.status == .notFound { missing = true }
                        out += writer.string(r.json)
                    }
                    out += "\n"
                }
                chunk.removeAll(keepingCapacity: true)
                context.console.out(out)
                out.removeAll(keepingCapacity: true)
            }
            // The chunk so far is answered whenever the next line has not
            // arrived yet (a program waiting for its answer gets it).
            var failure: (any Error)?
            while let line = context.console.readInputLine(beforeWaiting: {
                guard failure == nil, !chunk.isEmpty else { return }
                do { try flush() } catch { failure = error }
            }) {
                if let failure { throw failure }
                lineNumber += 1
                var id = Substring(line)
                while let f = id.first, f == " " || f == "\t" || f == "\r" { id.removeFirst() }
                while let l = id.last, l == " " || l == "\t" || l == "\r" { id.removeLast() }
                if id.isEmpty { blank += 1 }
                chunk.append(id.isEmpty ? nil : PlaceID(parsing: String(id)))
                if chunk.count == 4096 { try flush() }
            }
            if let failure { throw failure }
            try flush()
            if blank > 0 {
                context.console.errLine(
                    "placedb resolve: \(blank) of \(lineNumber) lines were blank; each has an error line in the output")
                return .dataError
            }
        } else {
            let results = try args.positionals.map { try client.resolvePlaceID(PlaceID(parsing: $0)) }
            missing = results.contains { $0.status == .notFound }
            switch context.output {
            case .json:
                if results.count == 1 {
                    context.writeJSON(results[0].json)
                } else {
                    context.writeJSON(["results": .array(results.map(\.json))])
                }
            case .text:
                context.console.out(results.map(text).joined(separator: "\n"))
            }
        }
        return missing ? .failure : .success
    }

    static func text(_ r: PlaceIDResolution) -> String {
        var lines = [
            "\(r.requestedID): \(r.status.rawValue)" + (r.placeID.map { $0 == r.requestedID ? "" : " -> \($0)" } ?? "")
        ]
        if let name = r.displayName { lines[0] += "  \(name)" }
        if let loc = r.location { lines[0] += "  \(loc)" }
        for hop in r.chain {
            var h = "  \(hop.from) -> \(hop.to)  \(hop.reason.rawValue), confidence \(hop.confidence)"
            if let s = hop.source { h += ", source \(s)" }
            if let t = hop.recordedAt { h += ", \(t)" }
            lines.append(h)
        }
        if let removed = r.removedAt { lines.append("  removed \(removed)") }
        if !r.alternatives.isEmpty { lines.append("  also: \(r.alternatives.joined(separator: ", "))") }
        if !r.cycle.isEmpty { lines.append("  cycle: \(r.cycle.joined(separator: " -> ")) (not followed)") }
        return HumanText.lines(lines)
    }
}
