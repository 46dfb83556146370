import PlaceKit

/// `placedb nearby LAT,LNG`: the places nearest a point (searchNearby).
enum NearbyCommand: Command {
    static let spec = CommandSpec(
        name: "nearby",
        abstract: "List the places nearest a point (Nearby Search), by great-circle distance or popularity.",
        arguments: [ArgumentSpec(name: "LAT,LNG", help: "The center in degrees, e.g. -33.8688,151.2093.", optional: true)],
        options: [
            OptionSpec("--radius", value: "M", help: "Only places within M meters (default: no limit)."),
            OptionSpec("--type", value: "T", help: "Only places with T among their types (any of the types given).", repeatable: true),
            OptionSpec("--exclude-type", value: "T", help: "No places with T among their types.", repeatable: true),
            OptionSpec("--limit", value: "N", help: "At most N places (default 20, at most 1000)."),
            OptionSpec("--rank", value: "ORDER", help: "distance: nearest first (default). popularity: most rated first (needs --radius).",
                       choices: ["distance", "popularity"]),
            OptionSpec("--fields", value: "MASK", help: "Field mask of each place, as for 'placedb place' (default: all)."),
            OptionSpec("--at", value: "TIME", help: "Serve the places as of this time (RFC 3339; without an offset, the wall clock at each place; or now, the default): openNow inside the opening hours is computed for it, as 'placedb place --at' does."),
            OptionSpec("--all-features", help: "Also list features with neither a name nor a type (kept by 'import --all-features': unnamed roads, crossings, entrances ...)."),
            OptionSpec("--batch", help: "Read Places API (New) searchNearby request bodies as NDJSON on standard input; write one {\"places\": [...]} line per request."),
        ],
        discussion: """
            Distances are great circles on a sphere of the Earth's mean radius (6,371,008.8 m),
            exact across the antimeridian and at the poles; equal distances go by place ID.
            Each place carries "distanceMeters". Removed places never appear. openNow inside the
            opening hours is computed for the time of asking (or --at), never the captured value;
            currentOpeningHours whose days all ended more than 7 days before is left out.
            """)

    static func run(_ context: CommandContext) throws -> ExitCode {
        let fields = try QueryOptions.fields(context)
        let time = try OpenCommand.queryTime(context.arguments.value("--at"))
        // A batch loads the in-memory index at once (its queries are many);
        // a single query reads only its region.
        let batch = context.arguments.flag("--batch")
        let client = try PlaceReader(databasePath: context.databasePath, spatialIndex: batch ? .memory : .automatic)
        if batch {
            try Batch.refuse(["--radius", "--type", "--exclude-type", "--limit", "--rank", "--all-features"], with: context)
            return try Batch.run(context) { body in
                try client.searchNearbyJSON(NearbySearchRequest(json: body), fields: fields, at: time)
            }
        }
        var request = NearbySearchRequest(center: try QueryOptions.coordinate(context))
        request.radiusMeters = try QueryOptions.number(context, "--radius")
        request.includedTypes = context.arguments.all("--type")
        request.excludedTypes = context.arguments.all("--exclude-type")
        request.maxResultCount = try QueryOptions.limit(context, default: 20)
        if context.arguments.value("--rank") == "popularity" { request.rankPreference = .popularity }
        request.includeAllFeatures = context.arguments.flag("--all-features")
        try QueryOptions.validate(request.validate)
        switch context.output {
        case .json:
            context.writeJSON(try JSONValue(parsing: client.searchNearbyJSON(request, fields: fields, at: time)))
        case .text:
            let results = try client.searchNearby(request, fields: fields, at: time)
            if results.isEmpty { context.console.outLine("no places found") }
            for r in results {
                let name = r.place.displayName?.text ?? r.place.id.rawValue
                let type = r.place.primaryType ?? r.place.types.first
                context.console.outLine("\(QueryOptions.distance(r.distanceMeters).leftPad(9))  \(name)\(type.map { " (\($0))" } ?? "")  \(r.place.id)")
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
