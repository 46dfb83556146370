// placedb-bench serve-answers --db PATH [--ids N] [--runs R] [--only typed|stored]
//                             [--answers details,nearby,search]
//
// Whether an answer's byte writer earns its place beside the typed answer:
// each answer of the library, in process, on a real database (e.g. the one
// Scripts/bench-serve imports), written two ways. "typed": the library's
// typed answer (fetchPlace, searchNearby, searchText), each place's masked
// members as a JSON tree (apiJSON), written pretty by JSONWriter. "stored":
// the byte writer the CLI and the server use (placeDetailsJSON,
// searchNearbyJSON, searchTextJSON: the stored documents copied with the
// mask applied), indented without parsing. Both must give the same bytes
// (checked before timing; the tests check it too). Prints the thread's CPU
// time per answer, the median of R runs: CPU time, so that the load of a
// shared machine skews it less than wall time. (Current place has no byte
// writer: one saved 10% or less of five places' writing.)
import Foundation
import PlaceKit
import PlaceModel
import SQLiteDB

enum ServeAnswerBench {
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Place Details from the typed place: served, masked, a JSONValue tree, pretty.
    static func typedDetails(_ client: PlaceReader, _ id: PlaceID, _ fields: FieldMask, _ time: HoursQueryTime) throws
        -> [UInt8]
    {
        try client.read {
            let resolution = try client.resolvePlaceIDs([id])[0]
            guard let current = resolution.placeID else { throw PlaceDBError.notFound(id) }
            let place = try client.fetchPlace(id: PlaceID(current), followAliases: false, at: time)
            var json = place.apiJSON(fields: fields)
            if resolution.status == .moved { json["requestedId"] = .string(id.rawValue) }
            var out: [UInt8] = []
            JSONWriter(pretty: true).write(.object(json), into: &out)
            return out
        }
    }

    /// A library writer's compact bytes indented without parsing, as the server and the CLI print them.
    static func indented(_ compact: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        compact.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
        return out
    }

    /// A list answer from typed places: `{"places": [...]}`, each place's
    /// masked members and its distance to 1 cm when it has one, `{}` when
    /// empty; pretty.
    static func typedList(_ places: [(place: Place, meters: Double?)], _ fields: FieldMask) -> [UInt8] {
        let list: [JSONValue] = places.map { p in
            var o = p.place.apiJSON(fields: fields)
            if let d = p.meters { o["distanceMeters"] = .double((d * 100).rounded() / 100) }
            return .object(o)
        }
        var out: [UInt8] = []
        JSONWriter(pretty: true).write(list.isEmpty ? [:] : ["places": .array(list)], into: &out)
        return out
    }

    static func storedDetails(_ client: PlaceReader, _ id: PlaceID, _ fields: FieldMask, _ time: HoursQueryTime) throws
        -> [UInt8]
    {
        indented(try client.placeDetailsJSON(id: id, fields: fields, openNow: false, at: time))
    }

    static func typedNearby(
        _ client: PlaceReader, _ request: NearbySearchRequest, _ fields: FieldMask, _ time: HoursQueryTime
    ) throws -> [UInt8] {
        typedList(
            try client.searchNearby(request, fields: fields, at: time).map { ($0.place, $0.distanceMeters) }, fields)
    }

    static func typedSearch(
        _ client: PlaceReader, _ request: TextSearchRequest, _ fields: FieldMask, _ time: HoursQueryTime
    ) throws -> [UInt8] {
        typedList(
            try client.searchText(request, fields: fields, at: time).map { ($0.place, $0.distanceMeters) }, fields)
    }

    static func storedSearch(
        _ client: PlaceReader, _ request: TextSearchRequest, _ fields: FieldMask, _ time: HoursQueryTime
    ) throws -> [UInt8] {
        indented(try client.searchTextJSON(request, fields: fields, at: time))
    }

    static func storedNearby(
        _ client: PlaceReader, _ request: NearbySearchRequest, _ fields: FieldMask, _ time: HoursQueryTime
    ) throws -> [UInt8] {
        indented(try client.searchNearbyJSON(request, fields: fields, at: time))
    }

    static func run(_ args: [String]) throws {
        guard let db = option("--db", args) else {
            throw BenchError(message: "give --db PATH (a placedb database; Scripts/bench-serve's, or any import)")
        }
        let count = Int(option("--ids", args) ?? "") ?? 2000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 7)
        let only = option("--only", args)
        let answers = Set(
            (option("--answers", args) ?? "details,nearby,search").split(separator: ",").map(String.init))
        let client = try PlaceReader(databasePath: db)
        let sql = try Database(path: db, mode: .readOnly)
        var ids: [PlaceID] = []
        var points: [Coordinate] = []
        var names: [String] = []
        try sql.forEachRow("SELECT place_id FROM place ORDER BY id LIMIT ?", [.integer(Int64(count))]) {
            ids.append(PlaceID(try $0.string(0)))
        }
        for id in ids.prefix(200) {
            let place = try client.fetchStoredPlace(id: id)
            points.append(place.coordinate)
            if let name = place.document["displayName"]?["text"]?.stringValue, !name.isEmpty { names.append(name) }
        }
        let time = HoursQueryTime.instant(Date())
        let all = FieldMask.all
        let listMask = try FieldMask(parsing: "id,displayName,location,types,primaryType")
        let nearby = points.map { NearbySearchRequest(center: $0, radiusMeters: 2000, maxResultCount: 20) }
        let search = zip(names, points).map { name, point in
            TextSearchRequest(
                textQuery: name, locationBias: .circle(center: point, radiusMeters: 5000), maxResultCount: 20)
        }
        /// The first line where two answers differ, for the message.
        func difference(_ a: [UInt8], _ b: [UInt8]) -> String {
            let la = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let lb = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            for i in 0..<max(la.count, lb.count) where i >= la.count || i >= lb.count || la[i] != lb[i] {
                return
                    "line \(i + 1): typed '\(i < la.count ? String(la[i]) : "(end)")', stored '\(i < lb.count ? String(lb[i]) : "(end)")'"
            }
            return "the same"
        }
        // The same bytes both ways.
        for id in ids.prefix(500) where try typedDetails(client, id, all, time) != storedDetails(client, id, all, time)
        {
            throw BenchError(message: "details of \(id) differ")
        }
        for r in nearby.prefix(50)
        where try typedNearby(client, r, listMask, time) != storedNearby(client, r, listMask, time) {
            throw BenchError(message: "nearby at \(r.center) differs")
        }
        for r in search.prefix(50) {
            let (a, b) = (try typedSearch(client, r, listMask, time), try storedSearch(client, r, listMask, time))
            if a != b { throw BenchError(message: "search '\(r.textQuery)' differs: \(difference(a, b))") }
        }
        func measure(_ body: () throws -> Int) rethrows -> Double {
            var times: [Double] = []
            for run in 0...runs {
                let start = cpuSeconds()
                _ = try body()
                if run > 0 { times.append(cpuSeconds() - start) }
            }
            return median(times) * 1e6
        }
        func each<R>(_ requests: [R], _ write: (R) throws -> [UInt8]) throws -> Double {
            try measure { try requests.reduce(0) { $0 + (try write($1)).count } } / Double(max(1, requests.count))
        }
        print(
            "placedb-bench serve-answers: \(ids.count) Place Details (mask *), \(nearby.count) searchNearby k=20, \(search.count) searchText by name (k=20); CPU time per answer, median of \(runs) runs"
        )
        print("| answer | typed, then a JSON tree (us) | stored bytes (us) | stored / typed |")
        print("|---|---|---|---|")
        typealias Row = (name: String, key: String, typed: () throws -> Double, stored: () throws -> Double)
        let rows: [Row] = [
            (
                "Place Details, mask *", "details", { try each(ids) { try typedDetails(client, $0, all, time) } },
                { try each(ids) { try storedDetails(client, $0, all, time) } }
            ),
            (
                "searchNearby k=20", "nearby", { try each(nearby) { try typedNearby(client, $0, listMask, time) } },
                { try each(nearby) { try storedNearby(client, $0, listMask, time) } }
            ),
            (
                "searchText by name, k=20", "search",
                { try each(search) { try typedSearch(client, $0, listMask, time) } },
                { try each(search) { try storedSearch(client, $0, listMask, time) } }
            ),
        ]
        for row in rows where answers.contains(row.key) {
            let a = only == "stored" ? nil : try row.typed()
            let b = only == "typed" ? nil : try row.stored()
            let ratio = (a != nil && b != nil) ? "\(Int((100 * b! / a!).rounded()))%" : "-"
            print("| \(row.name) | \(a.map { fmt($0) } ?? "-") | \(b.map { fmt($0) } ?? "-") | \(ratio) |")
        }
    }
}
