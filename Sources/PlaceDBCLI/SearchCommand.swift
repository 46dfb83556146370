import Foundation
import PlaceKit
import PlaceModel

/// `placedb search "QUERY"`: places by name, address or type (Text Search).
enum SearchCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let near = OptionSpec(
            "--near", value: "LAT,LNG",
            help: "Rank places near this point higher (a bias, not a filter), e.g. 47.3769,8.5417.")
        static let radius = OptionSpec(
            "--radius", value: "M", help: "With --near: only places within M meters (at most 50000).")
        static let type = OptionSpec(
            "--type", value: "T", help: "Only places with T among their types (any of the types given).",
            repeatable: true)
        static let limit = OptionSpec("--limit", value: "N", help: "At most N places (default 20, at most 1000).")
        static let fields = OptionSpec(
            "--fields", value: "MASK", help: "Field mask of each place, as for 'placedb place' (default: all).")
        static let at = OptionSpec(
            "--at", value: "TIME",
            help:
                "Serve the places as of this time (RFC 3339; without an offset, the wall clock at each place; or now, the default), as 'placedb nearby --at' does."
        )
        static let explain = OptionSpec(
            "--explain",
            help:
                "Show how the query was read (type words, place words, the locality matched, its source and area) and each place's ranking factors: text (BM25), name, distance, popularity, rating, typo correction."
        )
        static let batch = OptionSpec(
            "--batch",
            help:
                "Read Places API (New) searchText request bodies as NDJSON on standard input; write one {\"places\": [...]} line per request."
        )
        static let all = [
            near, radius, type, limit, fields, at, QueryOptions.language, explain, QueryOptions.unmerged, batch,
        ]
    }

    static let spec = CommandSpec(
        name: "search",
        abstract: "Find places by name, address or type words (Text Search), nearest first among equals with --near.",
        arguments: [
            ArgumentSpec(
                name: "QUERY",
                help: "The words to find, e.g. \"Café du Lac\" or \"pharmacy\" (at most 1,000 characters).",
                optional: true)
        ],
        options: Options.all,
        discussion: """
            Words match names in any language stored (displayName, OSM name:*, alt_name,
            old_name, brand ...), the address and the types' words, whatever their case and
            diacritics ("cafe" finds "Café"). A misspelt word is corrected against the
            database's words when nothing matches it as typed. Nothing typed is read as
            search syntax. With --near, places carry "distanceMeters". Removed places never
            appear. "TYPE in PLACE", "TYPE near PLACE", "PLACE TYPE" ("pizza in New York",
            "NYC pizza") search the places of that type in the town the database knows
            (GeoNames cities, locality places, addresses).
            """,
        examples: [
            "placedb search \"cafe du lac\" --near 46.5203,6.6250",
            "placedb search \"pizza in New York\" --explain --output text",
            "placedb search --batch < requests.ndjson > answers.ndjson",
        ],
        seeAlso: ["autocomplete", "nearby", "text-index build"],
        docs: ["search.md", "queries.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let fields = try QueryOptions.fields(context, Options.fields)
        let time = try OpenCommand.queryTime(context.arguments.value(Options.at))
        let explain = context.arguments.flag(Options.explain)
        let language = try QueryOptions.language(context)
        let client = try PlaceReader(databasePath: context.databasePath, recordView: QueryOptions.recordView(context))
        if context.arguments.flag(Options.batch) {
            try Batch.refuse([Options.near, Options.radius, Options.type, Options.limit], with: context)
            return try Batch.run(context) { body in
                try client.searchTextJSON(
                    TextSearchRequest(json: QueryOptions.body(body, language: language)), fields: fields,
                    explain: explain, at: time)
            }
        }
        let p = context.arguments.positionals
        guard p.count == 1 else {
            throw UsageError(
                message: p.isEmpty
                    ? "missing QUERY" : "expected one QUERY, got \(p.count) arguments (quote a query of several words)")
        }
        var request = TextSearchRequest(textQuery: p[0])
        request.languageCode = language
        let near = try nearOption(context, Options.near)
        if let radius = try QueryOptions.number(context, Options.radius, atMost: NearbySearchRequest.maxRadiusMeters) {
            guard let near else { throw UsageError(message: "--radius needs --near LAT,LNG") }
            request.locationRestriction = .circle(center: near, radiusMeters: radius)
        } else if let near {
            request.locationBias = .circle(center: near, radiusMeters: nil)
        }
        request.includedTypes = context.arguments.all(Options.type)
        request.maxResultCount = try QueryOptions.limit(context, Options.limit, default: 20)
        try QueryOptions.validate(request.validate)
        if let near {
            FarPoint.warn(context, reader: client, point: near, text: context.arguments.value(Options.near)!)
        }
        switch context.output {
        case .json:
            context.writeJSON(compact: try client.searchTextJSON(request, fields: fields, explain: explain, at: time))
        case .text:
            if explain, let u = try client.understandQuery(request) {
                for line in understanding(u) { context.console.outLine(line) }
            }
            let results = try client.searchText(request, fields: fields, at: time)
            if results.isEmpty { context.console.outLine("no places found") }
            for r in results {
                let name = r.place.displayName?.text ?? r.place.id.rawValue
                let type = r.place.primaryType ?? r.place.types.first
                let distance = r.distanceMeters.map { QueryOptions.distance($0).leftPad(9) + "  " } ?? ""
                context.console.outLine("\(distance)\(name)\(type.map { " (\($0))" } ?? "")  \(r.place.id)")
                if explain { context.console.outLine("        " + explanation(r.ranking)) }
            }
        }
        return .success
    }

    /// `--near LAT,LNG`, or nil.
    static func nearOption(_ context: CommandContext, _ option: OptionSpec) throws -> Coordinate? {
        guard let text = context.arguments.value(option) else { return nil }
        guard let c = Coordinate(parsing: text) else {
            throw UsageError(
                message:
                    "invalid coordinate '\(text)' for '--near'; expected LAT,LNG in degrees, latitude -90...90, longitude -180...180 (e.g. -33.8688,151.2093)"
            )
        }
        return c
    }

    static func explanation(_ f: TextRanking.Factors) -> String {
        let s = { (x: Double) in String(format: "%.3f", x) }
        var parts = ["score \(s(f.score)) = text \(s(f.text)) + name \(s(f.name))"]
        if let d = f.distance { parts.append("distance \(s(d))") }
        parts.append("popularity \(s(f.popularity))")
        var line = parts.joined(separator: " + ")
        if let q = f.quality { line += " + rating \(s(q))" }
        if f.corrected { line += " - typo correction" }
        return line
    }

    /// `--explain --output text`'s first lines: how the query was read.
    static func understanding(_ u: QueryUnderstandingResult) -> [String] {
        let r = u.reading, l = u.locality
        let list = { (w: [String]) in w.isEmpty ? "none" : w.joined(separator: " ") }
        var lines = [
            "query read as \(r.form): type words \(list(r.typeWords))"
                + (r.types.isEmpty ? "" : " -> \(r.types.joined(separator: ", "))")
                + "; place words \(list(r.placeWords)); other words \(list(r.otherWords))"
        ]
        var where_ = "locality \(l.name)"
        if let id = l.placeID { where_ += " (\(id))" }
        where_ += " by \(l.source.rawValue), \(l.provider)"
        if let p = l.population { where_ += ", population \(p)" }
        if let n = l.addressCount { where_ += ", \(n) addresses" }
        where_ += String(format: "; centre %.5f,%.5f", l.center.latitude, l.center.longitude)
        switch l.area {
        case .circle(_, let r): where_ += String(format: ", circle of %.1f km", (r ?? l.radiusMeters) / 1000)
        case .rectangle(let lo, let hi):
            where_ += String(
                format: ", box %.5f,%.5f to %.5f,%.5f", lo.latitude, lo.longitude, hi.latitude, hi.longitude)
        }
        where_ += u.restricted ? " (the search's area)" : " (not applied: the request's locationRestriction wins)"
        lines.append(where_)
        return lines
    }
}
