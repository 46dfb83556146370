import PlaceKit
import PlaceModel

/// `placedb autocomplete "PARTIAL"`: places as the user types (Autocomplete).
enum AutocompleteCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let near = OptionSpec(
            "--near", value: "LAT,LNG",
            help: "Rank places near this point higher and give each its distance, e.g. 47.3769,8.5417.")
        static let radius = OptionSpec(
            "--radius", value: "M", help: "With --near: only places within M meters (at most 50000).")
        static let limit = OptionSpec("--limit", value: "N", help: "At most N suggestions (default 5, at most 1000).")
        static let explain = OptionSpec(
            "--explain", help: "Show each suggestion's ranking factors, as 'placedb search --explain'.")
        static let queries = OptionSpec(
            "--query-predictions",
            help:
                "Also suggest searches the text could be completed to, from the place types of the database (\"pizz\" -> \"pizza\", \"pizza near Lausanne\"), after the places (includeQueryPredictions)."
        )
        static let batch = OptionSpec(
            "--batch",
            help:
                "Read Places API (New) autocomplete request bodies as NDJSON on standard input; write one {\"suggestions\": [...]} line per request."
        )
        static let all = [near, radius, limit, QueryOptions.language, queries, explain, QueryOptions.unmerged, batch]
    }

    static let spec = CommandSpec(
        name: "autocomplete",
        abstract: "Suggest places for partly typed text (Autocomplete): the last word is matched as a prefix.",
        arguments: [
            ArgumentSpec(
                name: "PARTIAL", help: "The text typed so far, e.g. \"cafe du l\" (at most 1,000 characters).",
                optional: true)
        ],
        options: Options.all,
        discussion: """
            The last word is a prefix unless the input ends with a space ("cafe du l" finds
            "Café du Lac"); the words before it match whole, as in 'placedb search'. Each
            suggestion's text carries the ranges the input matches (matches: startOffset,
            endOffset in code points). With --query-predictions, searches follow the places
            (at most --limit in all, 2 of 5 kept for searches). Removed places never appear.
            """,
        examples: [
            "placedb autocomplete \"cafe du l\" --near 46.5203,6.6250",
            "placedb autocomplete phar --near 46.5203,6.6250 --radius 2000 --limit 10 --explain",
            "placedb autocomplete --batch < requests.ndjson > answers.ndjson",
        ],
        seeAlso: ["search", "nearby"],
        docs: ["search.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let explain = context.arguments.flag(Options.explain)
        let language = try QueryOptions.language(context)
        let client = try PlaceReader(databasePath: context.databasePath, recordView: QueryOptions.recordView(context))
        if context.arguments.flag(Options.batch) {
            try Batch.refuse([Options.near, Options.radius, Options.limit, Options.queries], with: context)
            return try Batch.run(context) { body in
                try client.autocompleteJSON(
                    AutocompleteRequest(json: QueryOptions.body(body, language: language)), explain: explain)
            }
        }
        let p = context.arguments.positionals
        guard p.count == 1 else {
            throw UsageError(
                message: p.isEmpty
                    ? "missing PARTIAL"
                    : "expected one PARTIAL text, got \(p.count) arguments (quote text of several words)")
        }
        var request = AutocompleteRequest(input: p[0])
        request.languageCode = language
        let near = try SearchCommand.nearOption(context, Options.near)
        if let radius = try QueryOptions.number(context, Options.radius, atMost: NearbySearchRequest.maxRadiusMeters) {
            guard let near else { throw UsageError(message: "--radius needs --near LAT,LNG") }
            request.locationRestriction = .circle(center: near, radiusMeters: radius)
        } else if let near {
            request.locationBias = .circle(center: near, radiusMeters: nil)
        }
        request.origin = near
        request.maxResultCount = try QueryOptions.limit(context, Options.limit, default: 5)
        request.includeQueryPredictions = context.arguments.flag(Options.queries)
        try QueryOptions.validate(request.validate)
        if let near {
            FarPoint.warn(context, reader: client, point: near, text: context.arguments.value(Options.near)!)
        }
        switch context.output {
        case .json:
            context.writeJSON(compact: try client.autocompleteJSON(request, explain: explain))
        case .text:
            let answer = try client.autocompleteAnswer(request)
            if answer.places.isEmpty && answer.queries.isEmpty { context.console.outLine("no suggestions") }
            for s in answer.places {
                let distance = s.distanceMeters.map { QueryOptions.distance($0).leftPad(9) + "  " } ?? ""
                context.console.outLine("\(distance)\(s.text)  \(s.placeID)")
                if explain { context.console.outLine("        " + SearchCommand.explanation(s.ranking)) }
            }
            for q in answer.queries { context.console.outLine("   search  \(q.text)") }
        }
        return .success
    }
}
