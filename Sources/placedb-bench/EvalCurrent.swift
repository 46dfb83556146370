// placedb-bench eval-current [--data DIR] [--fixes N] [--seed S] [--dir DIR]
//                            [--regions a,b,...] [--accuracies 5,20,65,300] [--bins] [--breakdown]
//                            [--svg-dir DIR] [--model k=v,...] [--whole DIR [--all-features]]
// placedb-bench eval-current --google ...: the Google places instead
//                            (EvalCurrentGoogle.swift)
//
// Simulated visits on real POIs: every named OSM POI of the newest snapshot
// of each region in DIR (default ../shared/data/osm/poi-nwr) is imported as
// `placedb import` reads the file (its GeoJSON feature, through the OSM
// decoder: osm:{type}/{id}, types from its tags, location inside the
// polygon, viewport = bounding box, footprint = the polygons or lines).
// For each place and accuracy, N visitors stand at uniformly random points
// of it (the node; inside the polygons of a way or relation; along an open
// way), and a fix is drawn around each from the error model (a 2-D normal,
// accuracy = 68% radius). The fix is then answered by placedb's model and by
// two baselines in the same run: the nearest place, and a distance-only
// confidence (exp(-d^2 / 2 sigma^2) over the places within 5 sigma,
// normalized). Reported: top-1 and top-5 accuracy, mean log-likelihood of
// the true place (probabilities floored at 1e-6), and the expected
// calibration error of the top-1 confidence (10 equal bins), and the fixes
// the model gets right where nearest place does not and the reverse (all, and
// those of places with extent). `--model key=value,...` changes the model's
// settings for a sensitivity run (noneDensity, defaultFootprintRadius,
// footprintScale, maxViewportRadius, cutoffSigmas, extentFactor,
// popularityExponent, closedTemporarilyFactor, and type:NAME for the prior
// of a type, e.g. type:premise=1).
// `--svg-dir DIR` also draws the reliability diagram and top-1 by accuracy
// into DIR/current-reliability-osm.svg and DIR/current-top1-osm.svg.
//
// `--whole DIR` runs the same visits (the same fixes) a second time on a
// database of the whole extracts: DIR holds `osmium export` GeoJSON-seq
// files of ../shared/data/osm/extracts (no filter; Scripts/eval-current
// --whole makes them), one per chosen POI file, named as it is
// (region-date.geojsonseq). They are imported as `placedb import` does
// (features with neither a name nor a place tag skipped and counted by
// reason; `--all-features` keeps them), and the run reports top-1 on both
// databases side by side (overall and per region), how often the model's
// top-1 or a nearby answer is a place without a name and a type, or one
// without a place tag (the kinds: a named street, building, ...), and how
// often such a top-1 answer's box holds a POI of its own name.
import Foundation
import PlaceModel
import PlaceKit

enum EvalCurrent {
    /// A small seeded generator for the twin copy's offsets.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    /// The feature renumbered (@id + 10^12) and its geometry moved by one
    /// random offset of 0-30 m.
    static func twin(_ feature: JSONValue, _ rng: inout SplitMix) -> JSONValue {
        guard var f = feature.objectValue, var p = f["properties"]?.objectValue, let id = p["@id"]?.intValue else {
            return feature
        }
        p["@id"] = .int(Int64(id) + 1_000_000_000_000)
        f["properties"] = .object(p)
        let d = 30 * rng.next(), a = 2 * Double.pi * rng.next()
        func shift(_ v: JSONValue) -> JSONValue {
            guard let items = v.arrayValue else { return v }
            if items.count >= 2, let lng = items[0].doubleValue, let lat = items[1].doubleValue,
                items[0].arrayValue == nil
            {
                let dLat = d * cos(a) / 111_320, dLng = d * sin(a) / (111_320 * max(0.01, cos(lat * .pi / 180)))
                return .array([.double(lng + dLng), .double(lat + dLat)] + items.dropFirst(2))
            }
            return .array(items.map(shift))
        }
        if var g = f["geometry"]?.objectValue, let c = g["coordinates"] {
            g["coordinates"] = shift(c)
            f["geometry"] = .object(g)
        }
        return .object(f)
    }

    static func run(_ args: [String]) throws {
        if args.contains("--google") { return try runGoogle(args) }
        let dataDir = option("--data", args) ?? "../shared/data/osm/poi-nwr"
        let fixes = max(1, Int(option("--fixes", args) ?? "") ?? 3)
        let seed = UInt64(option("--seed", args) ?? "") ?? 2026
        let dir = option("--dir", args) ?? "bench-out"
        let accuracies = (option("--accuracies", args) ?? "5,20,65,300").split(separator: ",").compactMap { Double($0) }
        let wanted = option("--regions", args).map { Set($0.split(separator: ",").map(String.init)) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)

        // The newest snapshot of each region (older ones mostly repeat it).
        let newest = try newestSnapshots(in: dataDir, regions: wanted)
        var features: [OSMFeature] = []
        var perRegion: [(String, Int, Int)] = []
        var regionOf: [String: String] = [:]
        for (region, file) in newest.sorted(by: { $0.key < $1.key }) {
            let fs = try OSMReader.read("\(dataDir)/\(file)")
            perRegion.append((file, fs.count, fs.filter(\.hasExtent).count))
            for f in fs { regionOf[f.id] = region }
            features += fs
        }

        // Import them: the chosen features as a GeoJSON text sequence, read
        // by placedb's own OSM path (each ID once: a closed way as its area).
        let geojsonseq = "\(dir)/eval-osm.geojsonseq", db = "\(dir)/eval-osm.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        let writer = JSONWriter()
        try features.map { "\u{1E}" + writer.string($0.feature) }.joined(separator: "\n").appending("\n")
            .write(toFile: geojsonseq, atomically: true, encoding: .utf8)
        let summary = try PlaceImporter(databasePath: db, options: ImportOptions(onError: .skip, source: "osm"))
            .importInput(.file(geojsonseq))
        // --twin: the same places again as a second source, renumbered and
        // each moved 0-30 m at random (issue 30), linked by the import
        // (--twin-no-link: not linked, every place has a twin).
        var twinLine: String?
        if args.contains("--twin") || args.contains("--twin-no-link") {
            let twin = "\(dir)/eval-osm-twin.geojsonseq"
            var rng = SplitMix(seed: seed ^ 0x7717)
            try features.map { "\u{1E}" + writer.string(Self.twin($0.feature, &rng)) }.joined(separator: "\n")
                .appending("\n")
                .write(toFile: twin, atomically: true, encoding: .utf8)
            var options = ImportOptions(onError: .skip, source: "osm-twin")
            options.link = !args.contains("--twin-no-link")
            let importer = try PlaceImporter(databasePath: db, options: options)
            let t = try importer.importInput(.file(twin))
            let started = Date()
            let l = try importer.link()
            twinLine =
                "  twin: \(t.inserted) places renumbered (@id + 10^12) and moved 0-30 m, imported as source osm-twin; "
                + (l.map {
                    "linked in \(fmt(Date().timeIntervalSince(started), 2)) s: \($0.scored) pairs scored, \($0.linked) links, \($0.groups) groups of \($0.grouped) records"
                } ?? "not linked (--twin-no-link)")
        }
        let client = try PlaceReader(databasePath: db, spatialIndex: .memory)
        try applyModelSettings(args, to: client)
        try client.loadSpatialIndex()

        // The whole extracts, when asked: the same places among everything else.
        var whole: (client: PlaceReader, summary: ImportSummary, files: [String])?
        if let wholeDir = option("--whole", args) {
            let wholeDB = "\(dir)/eval-osm-whole.sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: wholeDB + suffix) }
            var options = ImportOptions(onError: .skip, source: "osm")
            options.allFeatures = args.contains("--all-features")
            let importer = try PlaceImporter(databasePath: wholeDB, options: options)
            var total = ImportSummary()
            var names: [String] = []
            for (_, file) in newest.sorted(by: { $0.key < $1.key }) {
                let stem = String(file.prefix { $0 != "." })
                let path = "\(wholeDir)/\(stem).geojsonseq"
                guard FileManager.default.fileExists(atPath: path) else {
                    throw BenchError(
                        message:
                            "\(path): missing (Scripts/eval-current --whole exports it with osmium from ../shared/data/osm/extracts)"
                    )
                }
                total += try importer.importInput(.file(path))
                names.append(path)
            }
            let wholeClient = try PlaceReader(databasePath: wholeDB, spatialIndex: .memory)
            try applyModelSettings(args, to: wholeClient)
            try wholeClient.loadSpatialIndex()
            whole = (wholeClient, total, names)
        }
        let showBins = args.contains("--bins")
        let showBreakdown = args.contains("--breakdown")

        print(
            "placedb-bench eval-current: \(features.count) places (\(features.filter(\.hasExtent).count) with extent), \(fixes) fixes per place and accuracy, seed \(seed)"
        )
        for (file, n, e) in perRegion { print("  \(file): \(n) places, \(e) ways/relations") }
        print(
            "  imported \(summary.inserted) places into \(db) (\(summary.rejected) rejected) through placedb's OSM GeoJSON path"
        )
        if let twinLine { print(twinLine) }
        if let whole {
            let s = whole.summary
            print(
                "  whole extracts (\(whole.files.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))): \(s.records) features, "
                    + "\(s.inserted) places imported, \(s.duplicates) duplicates, \(s.rejected) rejected, \(s.skippedCount) skipped as not places"
                    + (args.contains("--all-features") ? " (--all-features: kept)" : ""))
            for (reason, n) in s.skipped.sorted(by: { $0.value > $1.value }) { print("    skipped: \(reason): \(n)") }
        }
        print("")
        var top1: [(accuracy: Double, poi: Double, whole: Double?, nearestPOI: Double, nearestWhole: Double?)] = []
        var regionTop1: [(accuracy: Double, poi: [String: (n: Int, hits: Int)], whole: [String: (n: Int, hits: Int)])] =
            []
        var charted: [(accuracy: Double, methods: [(String, Scores)])] = []
        for accuracy in accuracies {
            let poi = try evaluate(
                client, label: "", features: features, accuracy: accuracy, fixes: fixes, seed: seed,
                showBins: showBins, showBreakdown: showBreakdown, header: true, regionOf: regionOf)
            charted.append((accuracy, poi.methods))
            var w:
                (model: Scores, nearest: Scores, methods: [(String, Scores)], perRegion: [String: (n: Int, hits: Int)])?
            if let whole {
                w = try evaluate(
                    whole.client, label: "whole extract: ", features: features, accuracy: accuracy, fixes: fixes,
                    seed: seed,
                    showBins: showBins, showBreakdown: showBreakdown, header: false, checkPlaces: true,
                    regionOf: regionOf)
                regionTop1.append((accuracy, poi.perRegion, w!.perRegion))
            }
            top1.append((accuracy, poi.model.top1, w?.model.top1, poi.nearest.top1, w?.nearest.top1))
        }
        print("")
        print("Nearest place answers with certainty, so its ECE is 1 - top-1 and it has no log-likelihood.")
        print("Extent: ways and relations (polygons, or lines for open ways); ≥ 50 m: their bounding box's diagonal.")
        if let svgDir = option("--svg-dir", args) {
            try writeCharts(
                charted, dir: svgDir, name: "osm",
                subtitle:
                    "Simulated visits to \(features.count) OSM POIs of \(perRegion.count) regions, \(fixes) fixes per place and accuracy, seed \(seed)"
            )
        }
        if whole != nil {
            print("")
            print(
                "| accuracy | model top-1, POI files | model top-1, whole extracts | difference (points) | nearest top-1, POI files | nearest top-1, whole extracts |"
            )
            print("|---|---|---|---|---|---|")
            for t in top1 {
                print(
                    "| \(Int(t.accuracy)) m | \(pct(t.poi)) | \(pct(t.whole ?? 0)) | \(fmt(100 * ((t.whole ?? 0) - t.poi), 2)) | \(pct(t.nearestPOI)) | \(pct(t.nearestWhole ?? 0)) |"
                )
            }
            // Per region: model top-1 on the POI file and on the whole extract, and the difference in points.
            print("")
            let regions = Set(regionOf.values).sorted()
            print(
                "| region | "
                    + regionTop1.map { "\(Int($0.accuracy)) m: POI / whole (points)" }.joined(separator: " | ") + " |")
            print("|---|" + regionTop1.map { _ in "---|" }.joined())
            for region in regions {
                let cells = regionTop1.map { r -> String in
                    let p = r.poi[region] ?? (0, 0), w = r.whole[region] ?? (0, 0)
                    let a = Double(p.hits) / Double(max(p.n, 1)), b = Double(w.hits) / Double(max(w.n, 1))
                    return "\(pct(a)) / \(pct(b)) (\(fmt(100 * (b - a), 2)))"
                }
                print("| \(region) | " + cells.joined(separator: " | ") + " |")
            }
        }
    }

    /// One accuracy's fixes (the same for the same seed) answered from one
    /// database: prints the table rows; returns the model's and nearest
    /// place's scores, and every method's. `checkPlaces` also counts the answers that are not
    /// places (no name and no type) or carry no place tag.
    static func evaluate(
        _ client: PlaceReader, label: String, features: [OSMFeature], accuracy: Double, fixes: Int, seed: UInt64,
        showBins: Bool, showBreakdown: Bool, header: Bool,
        checkPlaces: Bool = false, regionOf: [String: String] = [:]
    )
        throws -> (
            model: Scores, nearest: Scores, methods: [(String, Scores)], perRegion: [String: (n: Int, hits: Int)]
        )
    {
        if header {
            print(
                "| accuracy | method | top-1 | top-5 | mean log-lik | ECE | top-1 nodes | top-1 with extent | top-1 extent ≥ 50 m | vs nearest (fixes won / lost) | fixes |"
            )
            print("|---|---|---|---|---|---|---|---|---|---|---|")
        }
        let byID = Dictionary(features.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let idOnly = try FieldMask(parsing: checkPlaces ? "id,displayName,primaryType,viewport" : "id")
        // Named POIs by name, to find a street, building or land use at
        // top-1 that holds a POI of its own name (which should answer).
        var poiByName: [String: [Coordinate]] = [:]
        if checkPlaces { for f in features { poiByName[f.name, default: []].append(f.location) } }
        var perRegion: [String: (n: Int, hits: Int)] = [:]
        var sameNameTop1: [String: Int] = [:]
        // Answers that are not places, or places of a kind without a place tag.
        var anonymousTop1 = 0, anonymousNearby = 0
        var kindTop1: [String: Int] = [:]
        let kinds: Set<String> = [
            "route", "railway", "transit_platform", "political", "locality", "neighborhood", "plaza",
            "natural_feature", "premise", "landuse",
        ]
        do {
            var rng = SplitMix64(state: seed &+ UInt64(accuracy * 1000))
            let sigma = client.likelihoodModel.sigma(accuracy: accuracy)
            var model = Scores(), nearest = Scores(), distance = Scores()
            // Fixes the model answers right and nearest place wrong, and the reverse.
            var wins = 0, losses = 0, extentWins = 0, extentLosses = 0
            var breakdown: [String: Breakdown] = [:]
            var queryTimes: [Double] = []
            queryTimes.reserveCapacity(features.count * fixes)
            // The mass of the 5 most likely places per fix, whether the
            // answer was flagged approximate, and whether its top-1 was right.
            var approximate = ApproximateShare()
            for feature in features {
                for _ in 0..<fixes {
                    let visitor = feature.visitor(&rng)
                    let (e, n) = BenchPlaces.gaussianPair(&rng)
                    let fix = offset(visitor, east: e * sigma, north: n * sigma)
                    let truth = feature.id

                    let started = NearbyBench.now()
                    let result = try client.findPlaceLikelihoods(
                        location: fix, accuracy: accuracy, fields: idOnly, limit: 1000)
                    queryTimes.append(NearbyBench.now() - started)
                    if checkPlaces, let top = result.placeLikelihoods.first?.place {
                        if top.displayName == nil && top.primaryType == nil { anonymousTop1 += 1 }
                        if byID[top.id.rawValue] == nil {
                            let t = top.primaryType ?? "(no type)"
                            kindTop1[
                                (kinds.contains(t) ? "" : "other: ") + t + (top.displayName == nil ? " (unnamed)" : ""),
                                default: 0] += 1
                            // Its footprint's box holds a POI of its own name.
                            let v = top.document["viewport"]
                            if let name = top.displayName?.text, let s = v?["low"]?["latitude"]?.doubleValue,
                                let w = v?["low"]?["longitude"]?.doubleValue,
                                let n = v?["high"]?["latitude"]?.doubleValue,
                                let e = v?["high"]?["longitude"]?.doubleValue,
                                poiByName[name]?.contains(where: {
                                    $0.latitude >= s && $0.latitude <= n && $0.longitude >= w && $0.longitude <= e
                                }) == true
                            {
                                sameNameTop1[t, default: 0] += 1
                            }
                        }
                    }
                    let ranked = result.placeLikelihoods.map { ($0.place.id.rawValue, $0.likelihood) }
                    approximate.add(
                        topMass: result.topMass, flagged: result.approximate, right: ranked.first?.0 == truth,
                        located: result.locality != nil)
                    if let region = regionOf[truth] {
                        perRegion[region, default: (0, 0)].n += 1
                        if ranked.first?.0 == truth { perRegion[region, default: (0, 0)].hits += 1 }
                    }
                    let large = feature.extentMeters >= 50
                    model.add(ranked, truth: truth, extent: feature.hasExtent, large: large)

                    let near = try client.searchNearby(
                        NearbySearchRequest(center: fix, maxResultCount: 5), fields: idOnly)
                    if checkPlaces {
                        anonymousNearby +=
                            near.filter { $0.place.displayName == nil && $0.place.primaryType == nil }.count
                    }
                    let modelRight = ranked.first?.0 == truth, nearestRight = near.first?.place.id.rawValue == truth
                    if modelRight && !nearestRight { wins += 1; if feature.hasExtent { extentWins += 1 } }
                    if nearestRight && !modelRight { losses += 1; if feature.hasExtent { extentLosses += 1 } }
                    if showBreakdown {
                        breakdown[Breakdown.bucket(feature), default: Breakdown()].add(
                            modelRight: modelRight, nearestRight: nearestRight,
                            modelPick: ranked.first.flatMap { byID[$0.0] },
                            nearestPick: near.first.flatMap { byID[$0.place.id.rawValue] })
                    }
                    nearest.add(
                        near.map { ($0.place.id.rawValue, 1.0) }, truth: truth, extent: feature.hasExtent, large: large,
                        deterministic: true)

                    let within = try client.searchNearby(
                        NearbySearchRequest(center: fix, radiusMeters: 5 * sigma, maxResultCount: 1000), fields: idOnly)
                    let weights = within.map { exp(-0.5 * ($0.distanceMeters / sigma) * ($0.distanceMeters / sigma)) }
                    let sum = weights.reduce(0, +)
                    distance.add(
                        zip(within, weights).map { ($0.place.id.rawValue, sum > 0 ? $1 / sum : 0) }, truth: truth,
                        extent: feature.hasExtent, large: large)
                }
            }
            for (name, s) in [("placedb model", model), ("nearest place", nearest), ("distance-only", distance)] {
                let versus =
                    name == "placedb model"
                    ? "+\(wins) / −\(losses); with extent +\(extentWins) / −\(extentLosses)" : ""
                print(
                    "| \(Int(accuracy)) m | \(label)\(name) | \(pct(s.top1)) | \(pct(s.top5)) | \(s.deterministic ? "—" : fmt(s.meanLogLikelihood, 3)) | \(fmt(s.ece, 3)) | \(pct(s.top1Nodes)) | \(pct(s.top1Extent)) | \(pct(s.top1Large)) | \(versus) | \(s.count) |"
                )
                if showBins && !s.deterministic {
                    print(
                        "|  | reliability: "
                            + s.bins.enumerated().filter { $0.element.n > 0 }.map { i, b in
                                "\(i * 10)-\(i * 10 + 10)%: n \(b.n) conf \(fmt(100 * b.confidence / Double(b.n)))% acc \(fmt(100 * Double(b.correct) / Double(b.n)))%"
                            }.joined(separator: "; ") + " |")
                }
            }
            if checkPlaces {
                print(
                    "|  | \(label)model top-1 without a name and a type: \(anonymousTop1); nearby answers (5 per fix) without a name and a type: \(anonymousNearby); "
                        + "model top-1 a place outside the POI files (\(kindTop1.values.reduce(0, +))), by primary type: \(kindTop1.isEmpty ? "none" : kindTop1.sorted { $0.value > $1.value }.prefix(12).map { "\($0.key) \($0.value)" }.joined(separator: ", ")); "
                        + "of those, a feature whose box holds a POI of its own name: \(sameNameTop1.isEmpty ? "none" : sameNameTop1.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) |"
                )
            }
            print("|  | \(label)" + approximate.summary(threshold: client.likelihoodModel.approximateMass) + " |")
            queryTimes.sort()
            print(
                "|  | \(label)model queries (findPlaceLikelihoods, limit 1000, fields id): median \(fmt(1e6 * queryTimes[queryTimes.count / 2], 1)) µs, mean \(fmt(1e6 * queryTimes.reduce(0, +) / Double(queryTimes.count), 1)) µs |"
            )
            if showBreakdown {
                print(
                    "|  | by the true place (bounding-box diagonal): fixes, model top-1, nearest top-1; where only one is right, what the other picked |"
                )
                for name in Breakdown.order {
                    guard let b = breakdown[name] else { continue }
                    print(
                        "|  | \(name): \(b.n) fixes, model \(pct(Double(b.model) / Double(b.n))), nearest \(pct(Double(b.nearest) / Double(b.n))); "
                            + "model only \(b.modelOnly) (nearest picked \(b.nearestPicked.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", "))), "
                            + "nearest only \(b.nearestOnly) (model picked \(b.modelPicked.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", "))) |"
                    )
                }
            }
            return (
                model, nearest, [("placedb model", model), ("nearest place", nearest), ("distance-only", distance)],
                perRegion
            )
        }
    }

    /// The reliability diagram and top-1 by accuracy of a run, as
    /// DIR/current-reliability-NAME.svg and DIR/current-top1-NAME.svg
    /// (nearest place answers with certainty: it has no reliability curve).
    static func writeCharts(
        _ rows: [(accuracy: Double, methods: [(String, Scores)])], dir: String, name: String, subtitle: String
    ) throws {
        let categories = rows.map { "\(SVGWriter.number($0.accuracy)) m" }
        let panels = rows.map { row in
            EvalCharts.Panel(
                title: "accuracy \(SVGWriter.number(row.accuracy)) m",
                methods: row.methods.filter { !$0.1.deterministic }.map { method, s in
                    EvalCharts.Calibration(
                        method: method, ece: s.ece,
                        bins: s.bins.map { EvalCharts.Bin(n: $0.n, correct: $0.correct, confidenceSum: $0.confidence) })
                })
        }
        try EvalCharts.write(
            EvalCharts.reliability(title: "Current place: calibration (\(name))", subtitle: subtitle, panels: panels),
            dir: dir, name: "current-reliability-\(name).svg")
        let methods = rows.first?.methods.map(\.0) ?? []
        let series = methods.enumerated().map { i, method in
            EvalCharts.Series(name: method, values: rows.map { $0.methods[i].1.top1 })
        }
        try EvalCharts.write(
            EvalCharts.top1(
                title: "Current place: top-1 by accuracy (\(name))", subtitle: subtitle, categories: categories,
                series: series),
            dir: dir, name: "current-top1-\(name).svg")
    }

    /// `--model key=value,...`: changes the model's settings for a
    /// sensitivity run (noneDensity, defaultFootprintRadius, footprintScale,
    /// maxViewportRadius, cutoffSigmas, extentFactor, popularityExponent,
    /// closedTemporarilyFactor).
    static func applyModelSettings(_ args: [String], to client: PlaceReader) throws {
        guard let settings = option("--model", args) else { return }
        var model = client.likelihoodModel
        for pair in settings.split(separator: ",") {
            let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, let v = Double(kv[1]) else {
                throw BenchError(message: "--model: expected key=number, got '\(pair)'")
            }
            switch kv[0] {
            case "noneDensity": model.noneDensity = v
            case "defaultFootprintRadius": model.defaultFootprintRadius = v
            case "footprintScale":
                model.footprintRadius = model.footprintRadius.mapValues { $0 * v }; model.defaultFootprintRadius *= v
            case "maxViewportRadius": model.maxViewportRadius = v
            case "cutoffSigmas": model.cutoffSigmas = v
            case "extentFactor": model.extentFactor = v
            case "popularityExponent": model.popularityExponent = v
            case "closedTemporarilyFactor": model.closedTemporarilyFactor = v
            case "unnamedFactor": model.unnamedFactor = v
            case "untypedFactor": model.untypedFactor = v
            case "approximateMass": model.approximateMass = v
            case let key where key.hasPrefix("type:"): model.typeFactors[String(key.dropFirst(5))] = v
            default: throw BenchError(message: "--model: unknown setting '\(kv[0])'")
            }
        }
        client.likelihoodModel = model
    }

    /// How much of the mass the 5 most likely places hold, fix by fix,
    /// and how the approximate flag splits the fixes (docs/current-place.md).
    struct ApproximateShare {
        var masses: [Double] = []
        var flagged = 0, flaggedRight = 0, unflaggedRight = 0, located = 0
        /// (top-5 mass, top-1 right) per fix, to show other thresholds.
        var fixes: [(Double, Bool)] = []

        mutating func add(topMass: Double, flagged isFlagged: Bool, right: Bool, located isLocated: Bool) {
            masses.append(topMass)
            fixes.append((topMass, right))
            if isFlagged {
                flagged += 1
                if right { flaggedRight += 1 }
                if isLocated { located += 1 }
            } else if right {
                unflaggedRight += 1
            }
        }

        func summary(threshold: Double) -> String {
            guard !masses.isEmpty else { return "no fixes" }
            let sorted = masses.sorted()
            func q(_ p: Double) -> String {
                fmt(100 * sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))], 1) + "%"
            }
            let n = masses.count
            var parts = [
                "top-5 mass median \(q(0.5)) (p10 \(q(0.1)), p90 \(q(0.9)))",
                "approximate (< \(fmt(100 * threshold, 0))%): \(pct(Double(flagged) / Double(n))) of fixes, top-1 right \(flagged > 0 ? pct(Double(flaggedRight) / Double(flagged)) : "—") of them, \(n - flagged > 0 ? pct(Double(unflaggedRight) / Double(n - flagged)) : "—") of the others; locality named for \(flagged > 0 ? pct(Double(located) / Double(flagged)) : "—") of them",
            ]
            for t in [0.25, 0.75] {
                let below = fixes.filter { $0.0 < t }
                let right = below.filter(\.1).count
                parts.append(
                    "at < \(fmt(100 * t, 0))%: \(pct(Double(below.count) / Double(n))) flagged, top-1 right \(below.isEmpty ? "—" : pct(Double(right) / Double(below.count)))"
                )
            }
            return parts.joined(separator: "; ")
        }
    }

    static func offset(_ c: Coordinate, east: Double, north: Double) -> Coordinate {
        let perDegree = Earth.meanRadius * Double.pi / 180
        var lng = c.longitude + east / (perDegree * max(0.01, cos(c.latitude * Double.pi / 180)))
        lng = lng > 180 ? lng - 360 : (lng < -180 ? lng + 360 : lng)
        return Coordinate(latitude: min(90, max(-90, c.latitude + north / perDegree)), longitude: lng)
    }

    static func pct(_ x: Double) -> String { fmt(100 * x, 2) + "%" }

    /// Top-1 by the kind and size of the true place (`--breakdown`).
    struct Breakdown {
        var n = 0, model = 0, nearest = 0, modelOnly = 0, nearestOnly = 0
        /// What the other method picked where only one was right, by bucket.
        var nearestPicked: [String: Int] = [:], modelPicked: [String: Int] = [:]

        static let order = ["node", "line", "area < 20 m", "area 20-50 m", "area 50-200 m", "area ≥ 200 m"]

        static func bucket(_ f: OSMFeature?) -> String {
            guard let f else { return "none" }
            switch f.shape {
            case .point: return "node"
            case .line: return "line"
            case .polygons:
                let d = f.extentMeters
                return d < 20 ? "area < 20 m" : d < 50 ? "area 20-50 m" : d < 200 ? "area 50-200 m" : "area ≥ 200 m"
            }
        }

        mutating func add(modelRight: Bool, nearestRight: Bool, modelPick: OSMFeature?, nearestPick: OSMFeature?) {
            n += 1
            if modelRight { model += 1 }
            if nearestRight { nearest += 1 }
            if modelRight && !nearestRight {
                modelOnly += 1
                nearestPicked[Self.bucket(nearestPick), default: 0] += 1
            }
            if nearestRight && !modelRight {
                nearestOnly += 1
                modelPicked[Self.bucket(modelPick), default: 0] += 1
            }
        }
    }

    /// Accuracy, likelihood and calibration of one method.
    struct Scores {
        var count = 0
        var hits1 = 0, hits5 = 0
        var nodes = 0, nodeHits = 0, extents = 0, extentHits = 0, larges = 0, largeHits = 0
        var logLikelihood = 0.0
        var deterministic = false
        /// Per confidence bin: (count, correct, sum of confidences).
        var bins = Array(repeating: (n: 0, correct: 0, confidence: 0.0), count: 10)

        /// `ranked`: (place ID, probability), most likely first.
        mutating func add(
            _ ranked: [(String, Double)], truth: String, extent: Bool, large: Bool, deterministic: Bool = false
        ) {
            self.deterministic = deterministic
            count += 1
            let top1 = ranked.first?.0 == truth
            if top1 { hits1 += 1 }
            if ranked.prefix(5).contains(where: { $0.0 == truth }) { hits5 += 1 }
            if large {
                larges += 1
                if top1 { largeHits += 1 }
            }
            if extent {
                extents += 1
                if top1 { extentHits += 1 }
            } else {
                nodes += 1
                if top1 { nodeHits += 1 }
            }
            let p = ranked.first { $0.0 == truth }?.1 ?? 0
            logLikelihood += log(max(p, 1e-6))
            let confidence = ranked.first?.1 ?? 0
            let bin = min(9, Int(confidence * 10))
            bins[bin].n += 1
            bins[bin].confidence += confidence
            if top1 { bins[bin].correct += 1 }
        }

        var top1: Double { Double(hits1) / Double(max(count, 1)) }
        var top5: Double { Double(hits5) / Double(max(count, 1)) }
        var top1Nodes: Double { Double(nodeHits) / Double(max(nodes, 1)) }
        var top1Extent: Double { Double(extentHits) / Double(max(extents, 1)) }
        var top1Large: Double { Double(largeHits) / Double(max(larges, 1)) }
        var meanLogLikelihood: Double { logLikelihood / Double(max(count, 1)) }
        var ece: Double {
            bins.reduce(0) { $0 + ($1.n == 0 ? 0 : abs(Double($1.correct) - $1.confidence)) } / Double(max(count, 1))
        }
    }
}
