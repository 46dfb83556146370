import Foundation
import PlaceKit
import PlaceModel

/// `placedb current LAT,LNG`: where the visitor most likely is (Current Place).
enum CurrentCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let accuracy = OptionSpec(
            "--accuracy", value: "M",
            help:
                "The fix's horizontal accuracy in meters: the radius holding the true position with 68% probability, as Android reports it (default: 20; at most 50000)."
        )
        static let at = OptionSpec(
            "--at", value: "TIME",
            help:
                "When the visitor is there; opening hours then count (default: hours unused), and openNow inside each place's opening hours is computed for it (default: now). RFC 3339 with an offset (2026-05-01T12:30:00+02:00) is that instant; without one (2026-05-01T12:30) the wall clock at each place; or now."
        )
        static let type = OptionSpec(
            "--type", value: "T", help: "List only places with T among their types (likelihoods are unchanged).",
            repeatable: true)
        static let limit = OptionSpec(
            "--limit", value: "N",
            help:
                "At most N places (default 5, as the Current Place tutorial lists; at most 1000). A --batch line gives its own maxResultCount (default 5 too)."
        )
        static let fields = OptionSpec(
            "--fields", value: "MASK", help: "Field mask of each place, as for 'placedb place' (default: all).")
        static let explain = OptionSpec(
            "--explain", help: "Show every factor of the model for every place listed, and the none-of-these mass.")
        static let svg = OptionSpec(
            "--svg", value: "FILE",
            help:
                "Also draw the answer into FILE, a self-contained SVG framing the fix's 68% circle and the likely places: their footprints to scale, shaded by likelihood and labelled, places outside the frame as arrows at its edge, the stored streets, a scale bar; written whole or not at all (exit 74 when it cannot be)."
        )
        static let batch = OptionSpec(
            "--batch",
            help:
                "Read queries as NDJSON on standard input ({\"location\": {\"latitude\": .., \"longitude\": ..}, \"accuracyMeters\": .., \"time\": .., \"maxResultCount\": ..}); write one {\"placeLikelihoods\": [...], \"noneLikelihood\": ..} line per query (maxResultCount 5 unless given)."
        )
        static let all = [
            accuracy, at, type, limit, fields, QueryOptions.language, explain, svg, QueryOptions.unmerged, batch,
        ]
    }

    static let spec = CommandSpec(
        name: "current",
        abstract: "Estimate which place a location fix is at (Current Place): places with likelihoods.",
        arguments: [
            ArgumentSpec(
                name: "LAT,LNG",
                help:
                    "The fix in degrees, latitude first, e.g. 46.5176,6.6260. A fix far outside the places of the database gets a warning.",
                optional: true)
        ],
        options: Options.all,
        discussion: """
            Likelihoods are in 0..1, most likely first, and sum to at most 1: the rest is the mass of
            "none of these" (noneLikelihood in JSON, always given). A precise fix where one place holds
            all the mass may list only that place. The model weighs the fix's
            error, each place's footprint (its polygon or lines, else a viewport that departs from the
            map service's default view, else a size by type), a prior from type, popularity, source,
            business status and, with --at, opening hours. A fix too coarse to name a place (the 5
            most likely places hold less than half the probability) is said so: "approximate": true
            and the locality it falls in ("locality") in JSON, one line in text.
            """,
        examples: [
            "placedb current 46.52045,6.62655 --accuracy 10 --explain",
            "placedb current 46.5203,6.6244 --accuracy 40 --at 2026-03-30T23:30:00+02:00 --limit 2",
            "placedb current --batch --fields id,displayName < fixes.ndjson > likelihoods.ndjson",
        ],
        seeAlso: ["nearby", "search", "place"],
        docs: ["current-place.md", "current-place-svg.md", "queries.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let fields = try QueryOptions.fields(context, Options.fields)
        let explain = context.arguments.flag(Options.explain)
        // A batch loads the in-memory index at once (its queries are many);
        // a single query reads only its region.
        let batch = context.arguments.flag(Options.batch)
        let language = try QueryOptions.language(context)
        let svg = context.arguments.value(Options.svg)
        if let svg {
            if batch { throw UsageError(message: "--svg draws one query; it cannot be used with --batch") }
            guard !svg.isEmpty else { throw UsageError(message: "--svg needs a file name") }
            // Before the database is opened: the output may name one of its files.
            try OutputFile.check(svg, option: Options.svg.name, databasePath: context.databasePath)
        }
        let client = try PlaceReader(
            databasePath: context.databasePath, spatialIndex: batch ? .memory : .automatic,
            recordView: QueryOptions.recordView(context))
        client.reportStoredIndexProblem = { context.console.errLine("placedb \(context.spec.name): warning: \($0)") }
        if batch {
            try Batch.refuse([Options.accuracy, Options.at, Options.type, Options.limit], with: context)
            return try Batch.run(
                context, snapshot: { try client.read($0) },
                parse: { try CurrentPlaceRequest(json: QueryOptions.body($0, language: language)) },
                prepare: { client.warmSpatialIndex($0.map(\.location)) }
            ) { request in
                try client.findPlaceLikelihoodsJSON(request, fields: fields, explain: explain)
            }
        }
        var request = CurrentPlaceRequest(
            location: try QueryOptions.coordinate(context),
            accuracyMeters: try QueryOptions.number(
                context, Options.accuracy, atMost: CurrentPlaceRequest.maxAccuracyMeters) ?? 20)
        request.at = try QueryOptions.time(context.arguments.value(Options.at))
        request.includedTypes = context.arguments.all(Options.type)
        request.maxResultCount = try QueryOptions.limit(context, Options.limit, default: 5)
        request.languageCode = language
        try QueryOptions.validate(request.validate)
        try QueryOptions.checkTypes([(Options.type, request.includedTypes)], client)
        FarPoint.warn(context, reader: client, point: request.location, text: context.arguments.positionals[0])
        // A street, a boundary or a postal code is never where one is (prior
        // 0): asking only for such types lists nothing, and says why.
        let model = client.likelihoodModel
        let never = request.includedTypes.filter { model.typeFactor($0) == 0 }
        if !never.isEmpty && never.count == request.includedTypes.count {
            context.console.errLine(
                "placedb current: \(never.map { "'\($0)'" }.joined(separator: ", ")) places are never current-place candidates "
                    + "(one is not at a street, a boundary or a postal code); 'placedb nearby --type \(never[0])' lists them"
            )
        }
        if let svg {
            let scene = try client.findPlaceLikelihoodScene(request)
            try OutputFile.write(
                Array(scene.svg().utf8), to: svg, option: Options.svg.name, databasePath: context.databasePath)
        }
        switch context.output {
        case .json:
            context.writeJSON(compact: try client.findPlaceLikelihoodsJSON(request, fields: fields, explain: explain))
        case .text:
            let result = try client.findPlaceLikelihoods(request, fields: fields, explain: explain)
            context.console.out(text(result, fix: request.location, explain: explain))
        }
        return .success
    }

    static func text(_ result: PlaceLikelihoodList, fix: Coordinate, explain: Bool) -> String {
        var lines: [String] = []
        if result.placeLikelihoods.isEmpty { lines.append("no places near this fix") }
        for l in result.placeLikelihoods {
            let p = l.place
            let name = p.displayName?.text ?? p.id.rawValue
            let type = p.primaryType ?? p.types.first
            let distance = QueryOptions.distance(fix.distance(to: p.coordinate))
            lines.append("\(format(l.likelihood))  \(name) (\(type.map { "\($0), " } ?? "")\(distance))  \(p.id)")
            if explain, let e = l.explanation {
                let s = { (x: Double) in String(format: "%.3g", x) }
                lines.append(
                    "        density \(s(e.density))/m2 x prior \(s(e.prior)) (type \(s(e.typeFactor)), popularity \(s(e.popularityFactor)), source \(s(e.sourceFactor)), status \(s(e.statusFactor)), hours \(s(e.hoursFactor))\(e.openNow.map { $0 ? " open" : " closed" } ?? ""))"
                )
                // A polygon or a line: its size, then its box.
                let size =
                    e.footprintLength.map { "\(s($0)) m long, in " }
                    ?? (e.footprint == "polygon" ? "\(s(e.footprintArea)) m2 in " : "")
                lines.append(
                    "        footprint from \(e.footprint): \(size)\(s(2 * e.footprintHalfWidth)) m x \(s(2 * e.footprintHalfHeight)) m, centre \(s(e.footprintOffsetEast)) m east, \(s(e.footprintOffsetNorth)) m north of the fix"
                )
                if let v = e.viewport, e.footprint != "viewport" {
                    let size = e.viewportWidth.flatMap { w in e.viewportHeight.map { " \(s(w)) m x \(s($0)) m" } } ?? ""
                    lines.append(
                        "        viewport\(size) not used: \(v != .extent ? v.rawValue : e.footprint == "type" ? "reaches too far from the place" : "the stored shape is stronger evidence")"
                    )
                }
            }
        }
        lines.append("\(format(result.noneLikelihood))  (none of these)")
        if result.approximate {
            var line =
                "approximate: the fix is too coarse to name a place (the 5 most likely hold \(format(result.topMass)))"
            if let l = result.locality {
                let name = l.displayName?.text ?? l.placeID.rawValue
                line +=
                    "; "
                    + (l.containsFix
                        ? "in \(name)" : "nearest locality \(name), \(QueryOptions.distance(l.distanceMeters)) away")
                    + " (\(l.primaryType.map { "\($0), " } ?? "")\(l.placeID))"
            }
            lines.append(line)
        }
        if explain {
            lines.append(
                "fix error sigma \(String(format: "%.3g", result.sigmaMeters)) m per axis; candidates within \(QueryOptions.distance(result.searchRadiusMeters)) of their footprints: \(result.candidateCount)"
            )
        }
        return HumanText.lines(lines)
    }

    static func format(_ p: Double) -> String {
        let r = PlaceReader.roundedLikelihood(p)
        var s = "\((r * 10_000).rounded(.down) / 10_000)"
        while s.count < 6 { s += "0" }
        return s
    }
}
