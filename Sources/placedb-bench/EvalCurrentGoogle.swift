// placedb-bench eval-current --google [--data DIR] [--fixes N] [--seed S] [--dir DIR]
//                                     [--accuracies 5,10] [--model k=v,...] [--bins] [--misses] [--svg-dir DIR]
//
// Visits on the real Google places: every JSON file under DIR (default
// ../shared/data/google; legacy web-service responses and Places API (New)
// v1 captures, the schema folder aside) is imported on its own, one import
// per file as a user would run `placedb import FILE`, into one database
// (files without places, such as autocomplete predictions, add nothing).
// Every place of the database is visited: the visitor stands at the place's
// own location, and N fixes are drawn around it from the error model (a 2-D
// normal, accuracy = 68% radius), plus one fix exactly at the location (the
// issue's "stand at the place" test). The same fixes are answered by
// placedb's model with the viewport rule on (a viewport is a footprint only
// when it departs from the default map view; `LikelihoodModel.viewportRule`
// .beyondDefaultView, the default) and off (every viewport is the
// footprint, the rule before issue 13), and by the nearest place. Reported
// per accuracy: top-1, top-5, mean log-likelihood of the true place, ECE of
// the top-1 confidence (10 equal bins), by source (legacy, v1) too;
// `--svg-dir DIR` draws the reliability diagram and top-1 by accuracy of the
// drawn fixes into DIR/current-reliability-google.svg and
// DIR/current-top1-google.svg.
import Foundation
import PlaceKit
import SQLiteDB
import PlaceModel

extension EvalCurrent {
    static func runGoogle(_ args: [String]) throws {
        let dataDir = option("--data", args) ?? "../shared/data/google"
        let fixes = max(1, Int(option("--fixes", args) ?? "") ?? 20)
        let seed = UInt64(option("--seed", args) ?? "") ?? 2026
        let dir = option("--dir", args) ?? "bench-out"
        let accuracies = (option("--accuracies", args) ?? "5,10").split(separator: ",").compactMap { Double($0) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)

        // Every JSON file, legacy then v1, each imported on its own.
        guard let walker = FileManager.default.enumerator(atPath: dataDir) else {
            throw BenchError(message: "\(dataDir): no such directory (the shared Google data is absent)")
        }
        let files = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") && !$0.hasPrefix("schema/") }
            .sorted()
        guard !files.isEmpty else {
            throw BenchError(message: "\(dataDir): no .json files (the shared Google data is absent)")
        }
        let db = "\(dir)/eval-google.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        var group: [String: String] = [:]
        var imported: [(file: String, places: Int, rejected: Int, ignored: Int)] = []
        for file in files {
            let importer = try PlaceImporter(databasePath: db, options: ImportOptions(onError: .skip, source: "google"))
            let summary: ImportSummary
            do {
                summary = try importer.importInput(.file("\(dataDir)/\(file)"))
            } catch {
                // A file that is not a places response at all (an error response).
                imported.append((file, 0, 1, 0))
                continue
            }
            imported.append(
                (
                    file, summary.inserted + summary.updated + summary.unchanged, summary.rejected,
                    summary.ignoredViewports.values.reduce(0, +)
                ))
            for id in try placeIDs(db) where group[id] == nil { group[id] = String(file.prefix { $0 != "/" }) }
        }

        let client = try PlaceReader(databasePath: db, spatialIndex: .memory)
        try applyModelSettings(args, to: client)
        let fields = try FieldMask(parsing: "id,location,viewport")
        var places: [(id: String, location: Coordinate, group: String, viewport: ViewportEvidence?)] = []
        for id in try placeIDs(db).sorted() {
            let p = try client.fetchPlace(id: PlaceID(id), fields: fields, followAliases: false)
            places.append((id, p.coordinate, group[id] ?? "?", ViewportEvidence.classify(p.document["viewport"])))
        }
        let groups = Array(Set(places.map(\.group))).sorted()

        print(
            "placedb-bench eval-current --google: \(places.count) places from \(files.count) files of \(dataDir) (each imported on its own), \(fixes) fixes per place and accuracy plus one at the place, seed \(seed)"
        )
        for g in groups {
            let ps = places.filter { $0.group == g }
            let verdicts = Dictionary(grouping: ps.compactMap(\.viewport), by: { $0 }).map {
                "\($0.value.count) \($0.key.rawValue)"
            }.sorted()
            print(
                "  \(g): \(ps.count) places; viewports: \(verdicts.isEmpty ? "none" : verdicts.joined(separator: ", "))"
            )
        }
        let withPlaces = imported.filter { $0.places > 0 }
        print(
            "  \(withPlaces.count) files held places; \(imported.count - withPlaces.count) held none (autocomplete predictions, error responses, photo media)"
        )
        print("")
        print(
            "| accuracy | fixes | method | top-1 | top-5 | mean log-lik | ECE | "
                + groups.map { "top-1 \($0)" }.joined(separator: " | ") + " | n |")
        print("|---|---|---|---|---|---|---|" + groups.map { _ in "---|" }.joined() + "---|")

        let idOnly = try FieldMask(parsing: "id")
        var misses: [String] = []
        var lostWon: [String: Int] = [:]
        var charted: [(accuracy: Double, methods: [(String, Scores)])] = []
        let rules: [(String, LikelihoodModel.ViewportRule)] = [
            ("model, viewport rule off", .always), ("model, viewport rule on", .beyondDefaultView),
        ]
        for accuracy in accuracies {
            for exact in [false, true] {
                var rows: [(String, Scores, [String: Scores])] = []
                for (r, (name, rule)) in rules.enumerated() {
                    var model = client.likelihoodModel
                    model.viewportRule = rule
                    client.likelihoodModel = model
                    try client.loadSpatialIndex()
                    var rng = SplitMix64(state: seed &+ UInt64(accuracy * 1000))
                    let sigma = model.sigma(accuracy: accuracy)
                    var scores = Scores(), nearest = Scores()
                    var byGroup: [String: Scores] = [:], nearestByGroup: [String: Scores] = [:]
                    for place in places {
                        for _ in 0..<(exact ? 1 : fixes) {
                            let (e, n) = BenchPlaces.gaussianPair(&rng)
                            let fix = exact ? place.location : offset(place.location, east: e * sigma, north: n * sigma)
                            let result = try client.findPlaceLikelihoods(
                                location: fix, accuracy: accuracy, fields: idOnly, limit: 1000)
                            let ranked = result.placeLikelihoods.map { ($0.place.id.rawValue, $0.likelihood) }
                            scores.add(ranked, truth: place.id, extent: false, large: false)
                            byGroup[place.group, default: Scores()].add(
                                ranked, truth: place.id, extent: false, large: false)
                            if exact && rule == .beyondDefaultView && args.contains("--misses"), let top = ranked.first,
                                top.0 != place.id
                            {
                                misses.append(
                                    "\(Int(accuracy)) m: \(place.id) -> \(top.0) \(fmt(top.1, 3)) (true place \(fmt(ranked.first { $0.0 == place.id }?.1 ?? 0, 3)))"
                                )
                            }
                            if !exact && rule == .beyondDefaultView && args.contains("--misses") {
                                let near = try client.searchNearby(
                                    NearbySearchRequest(center: fix, maxResultCount: 1), fields: idOnly
                                ).first?.place.id.rawValue
                                let modelRight = ranked.first?.0 == place.id, nearestRight = near == place.id
                                if modelRight != nearestRight {
                                    lostWon[
                                        "\(Int(accuracy)) m \(modelRight ? "won" : "lost") \(place.id) -> \(modelRight ? near ?? "-" : ranked.first?.0 ?? "-")",
                                        default: 0] += 1
                                }
                            }
                            if r == 0 {
                                let near = try client.searchNearby(
                                    NearbySearchRequest(center: fix, maxResultCount: 5), fields: idOnly
                                )
                                .map { ($0.place.id.rawValue, 1.0) }
                                nearest.add(near, truth: place.id, extent: false, large: false, deterministic: true)
                                nearestByGroup[place.group, default: Scores()].add(
                                    near, truth: place.id, extent: false, large: false, deterministic: true)
                            }
                        }
                    }
                    if r == 0 { rows.append(("nearest place", nearest, nearestByGroup)) }
                    rows.append((name, scores, byGroup))
                }
                if !exact { charted.append((accuracy, rows.map { ($0.0, $0.1) })) }
                for (name, s, byGroup) in rows {
                    let what = exact ? "at the place" : "\(fixes) a place"
                    print(
                        "| \(Int(accuracy)) m | \(what) | \(name) | \(pct(s.top1)) | \(pct(s.top5)) | \(s.deterministic ? "—" : fmt(s.meanLogLikelihood, 3)) | \(fmt(s.ece, 3)) | "
                            + groups.map { g in byGroup[g].map { "\(pct($0.top1)) (\($0.hits1)/\($0.count))" } ?? "" }
                            .joined(separator: " | ") + " | \(s.count) |")
                    if args.contains("--bins") && !s.deterministic {
                        print(
                            "|  |  | reliability: "
                                + s.bins.enumerated().filter { $0.element.n > 0 }.map { i, b in
                                    "\(i * 10)-\(i * 10 + 10)%: n \(b.n) conf \(fmt(100 * b.confidence / Double(b.n)))% acc \(fmt(100 * Double(b.correct) / Double(b.n)))%"
                                }.joined(separator: "; ") + " |")
                    }
                }
            }
        }
        if !misses.isEmpty {
            print("")
            print("Fixes at the place that the model (rule on) gives to another place (--misses):")
            for m in misses { print("  " + m) }
            print(
                "Noisy fixes where only one of the model (rule on) and nearest place is right: the true place -> the other's pick, fixes"
            )
            for (k, n) in lostWon.sorted(by: { $0.key < $1.key }) { print("  \(k): \(n)") }
        }
        print("")
        print("Nearest place answers with certainty, so its ECE is 1 - top-1 and it has no log-likelihood.")
        print(
            "Rule off: every viewport is the place's footprint (placedb before issue 13). Rule on: only a viewport that departs from the default map view."
        )
        if let svgDir = option("--svg-dir", args) {
            try writeCharts(
                charted, dir: svgDir, name: "google",
                subtitle:
                    "Visits at the own location of \(places.count) Google places, \(fixes) fixes per place and accuracy, seed \(seed)"
            )
        }
    }

    /// The live places' IDs of the database at `path`.
    static func placeIDs(_ path: String) throws -> [String] {
        let db = try Database(path: path, mode: .readOnly)
        var ids: [String] = []
        try db.forEachRow("SELECT place_id FROM place WHERE removed_run IS NULL") { row in
            ids.append(try row.string(0))
        }
        return ids
    }
}
