import PlaceKit
import PlaceModel

/// `placedb nearby LAT,LNG`: the places nearest a point (searchNearby).
enum NearbyCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let radius = OptionSpec(
            "--radius", value: "M",
            help: "Only places within M meters, at most 50000 (default: no limit: the nearest places).")
        static let type = OptionSpec(
            "--type", value: "T",
            help:
                "Only places with T among their types (any of the types given). T must be a type of the Places API's table or one the database holds (else exit 64, with the nearest type).",
            repeatable: true)
        static let excludeType = OptionSpec(
            "--exclude-type", value: "T", help: "No places with T among their types.", repeatable: true)
        static let limit = OptionSpec("--limit", value: "N", help: "At most N places (default 20, at most 1000).")
        static let rank = OptionSpec(
            "--rank", value: "ORDER",
            help: "distance: nearest first (default). popularity: most rated first (needs --radius).",
            choices: ["distance", "popularity"])
        static let fields = OptionSpec(
            "--fields", value: "MASK", help: "Field mask of each place, as for 'placedb place' (default: all).")
        static let at = OptionSpec(
            "--at", value: "TIME",
            help:
                "Serve the places as of this time (RFC 3339; without an offset, the wall clock at each place; or now, the default): openNow inside the opening hours is computed for it, as 'placedb place --at' does."
        )
        static let allFeatures = OptionSpec(
            "--all-features",
            help:
                "Also list streets, railway lines, rivers and boundaries (left out unless a --type asks for them), and features with neither a name nor a type (kept by 'import --all-features': unnamed roads, crossings, entrances ...)."
        )
        static let batch = OptionSpec(
            "--batch",
            help:
                "Read Places API (New) searchNearby request bodies as NDJSON on standard input; write one {\"places\": [...]} line per request."
        )
        static let all = [
            radius, type, excludeType, limit, rank, fields, at, QueryOptions.language, allFeatures,
            QueryOptions.unmerged, batch,
        ]
    }

    static let spec = CommandSpec(
        name: "nearby",
        abstract: "List the places nearest a point (Nearby Search), by great-circle distance or popularity.",
        arguments: [
            ArgumentSpec(
                name: "LAT,LNG",
                help:
                    "The center in degrees, latitude first, e.g. -33.8688,151.2093. A point far outside the places of the database gets a warning.",
                optional: true)
        ],
        options: Options.all,
        discussion: """
            Distances are great circles on a sphere of the Earth's mean radius (6,371,008.8 m),
            exact across the antimeridian and at the poles; equal distances go by place ID.
            Each place carries "distanceMeters". Removed places never appear. openNow inside the
            opening hours is computed for the time of asking (or --at), never the captured value;
            currentOpeningHours whose days all ended more than 7 days before is left out.
            """,
        examples: [
            "placedb nearby 46.5203,6.6250 --limit 3",
            "placedb nearby 46.5203,6.6250 --radius 200 --type cafe --type museum --fields id,displayName,types",
            "placedb nearby --batch < requests.ndjson > answers.ndjson",
        ],
        seeAlso: ["current", "search", "place"],
        docs: ["queries.md", "osm-tags.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let fields = try QueryOptions.fields(context, Options.fields)
        let time = try OpenCommand.queryTime(context.arguments.value(Options.at))
        // A batch loads the in-memory index at once (its queries are many);
        // a single query reads only its region.
        let batch = context.arguments.flag(Options.batch)
        let language = try QueryOptions.language(context)
        let client = try PlaceReader(
            databasePath: context.databasePath, spatialIndex: batch ? .memory : .automatic,
            recordView: QueryOptions.recordView(context))
        client.reportStoredIndexProblem = { context.console.errLine("placedb \(context.spec.name): warning: \($0)") }
        if batch {
            try Batch.refuse(
                [Options.radius, Options.type, Options.excludeType, Options.limit, Options.rank, Options.allFeatures],
                with: context)
            return try Batch.run(
                context, snapshot: { try client.read($0) },
                parse: { try NearbySearchRequest(json: QueryOptions.body($0, language: language)) },
                prepare: { client.warmSpatialIndex($0.map(\.center)) }
            ) { request in
                try client.searchNearbyJSON(request, fields: fields, at: time)
            }
        }
        var request = NearbySearchRequest(center: try QueryOptions.coordinate(context))
        request.radiusMeters = try QueryOptions.number(
            context, Options.radius, atMost: NearbySearchRequest.maxRadiusMeters)
        request.includedTypes = context.arguments.all(Options.type)
        request.excludedTypes = context.arguments.all(Options.excludeType)
        request.maxResultCount = try QueryOptions.limit(context, Options.limit, default: 20)
        if context.arguments.value(Options.rank) == "popularity" { request.rankPreference = .popularity }
        request.includeAllFeatures = context.arguments.flag(Options.allFeatures)
        request.languageCode = language
        try QueryOptions.validate(request.validate)
        try QueryOptions.checkTypes(
            [(Options.type, request.includedTypes), (Options.excludeType, request.excludedTypes)], client)
        FarPoint.warn(context, reader: client, point: request.center, text: context.arguments.positionals[0])
        switch context.output {
        case .json:
            context.writeJSON(compact: try client.searchNearbyJSON(request, fields: fields, at: time))
        case .text:
            let results = try client.searchNearby(request, fields: fields, at: time)
            if results.isEmpty { context.console.outLine("no places found") }
            for r in results {
                let name = r.place.displayName?.text ?? r.place.id.rawValue
                let type = r.place.primaryType ?? r.place.types.first
                context.console.outLine(
                    "\(QueryOptions.distance(r.distanceMeters).leftPad(9))  \(name)\(type.map { " (\($0))" } ?? "")  \(r.place.id)"
                )
            }
        }
        return .success
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
