// placedb-bench serve-answers --db PATH [--ids N] [--runs R] [--only plain|stored] [--answers details|nearby]
//
// The library's part of `placedb serve`'s answers, in process, on a real
// database (e.g. the one Scripts/bench-serve imports): Place Details (mask
// `*`) and searchNearby (k=20, bench-serve's mask), each written as the
// server writes it now (from the stored bytes, indented without parsing:
// "stored") and as it did before (the place decoded, served, masked and
// encoded as a tree; nearby's compact bytes parsed and re-encoded pretty:
// "plain"). Both must give the same bytes (checked). Prints the thread's
// CPU time per answer, the median of R runs: CPU time, so that the load of
// a shared machine skews it less than wall time.
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

    /// Place Details as the server wrote it before: whole place, served, masked, a JSONValue tree, pretty.
    static func plainDetails(_ client: PlaceReader, _ id: PlaceID, _ fields: FieldMask, _ time: HoursQueryTime) throws -> [UInt8] {
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

    static func storedDetails(_ client: PlaceReader, _ id: PlaceID, _ fields: FieldMask, _ time: HoursQueryTime) throws -> [UInt8] {
        let compact = try client.placeDetailsJSON(id: id, fields: fields, openNow: false, at: time)
        var out: [UInt8] = []
        compact.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
        return out
    }

    static func plainNearby(_ client: PlaceReader, _ request: NearbySearchRequest, _ fields: FieldMask, _ time: HoursQueryTime) throws -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter(pretty: true).write(try JSONValue(parsing: client.searchNearbyJSON(request, fields: fields, at: time)), into: &out)
        return out
    }

    static func storedNearby(_ client: PlaceReader, _ request: NearbySearchRequest, _ fields: FieldMask, _ time: HoursQueryTime) throws -> [UInt8] {
        let compact = try client.searchNearbyJSON(request, fields: fields, at: time)
        var out: [UInt8] = []
        compact.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
        return out
    }

    static func run(_ args: [String]) throws {
        guard let db = option("--db", args) else { throw BenchError(message: "give --db PATH (a placedb database; Scripts/bench-serve's, or any import)") }
        let count = Int(option("--ids", args) ?? "") ?? 2000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 7)
        let only = option("--only", args)
        let answers = option("--answers", args)
        let client = try PlaceReader(databasePath: db)
        let sql = try Database(path: db, mode: .readOnly)
        var ids: [PlaceID] = []
        var points: [Coordinate] = []
        try sql.forEachRow("SELECT place_id FROM place ORDER BY id LIMIT ?", [.integer(Int64(count))]) { ids.append(PlaceID(try $0.string(0))) }
        for id in ids.prefix(200) { points.append(try client.fetchStoredPlace(id: id).coordinate) }
        let time = HoursQueryTime.instant(Date())
        let all = FieldMask.all
        let nearbyMask = try FieldMask(parsing: "id,displayName,location,types,primaryType")
        let requests = points.map { NearbySearchRequest(center: $0, radiusMeters: 2000, maxResultCount: 20) }
        // The same bytes both ways.
        for id in ids.prefix(500) {
            guard try plainDetails(client, id, all, time) == storedDetails(client, id, all, time) else { throw BenchError(message: "details of \(id) differ") }
        }
        for r in requests.prefix(50) {
            guard try plainNearby(client, r, nearbyMask, time) == storedNearby(client, r, nearbyMask, time) else { throw BenchError(message: "nearby at \(r.center) differs") }
        }
        func measure(_ body: () throws -> Int) rethrows -> (micros: Double, bytes: Int) {
            var times: [Double] = []
            var bytes = 0
            for run in 0...runs {
                let start = cpuSeconds()
                let n = try body()
                if run > 0 { times.append(cpuSeconds() - start) } else { bytes = n }
            }
            return (median(times) * 1e6, bytes)
        }
        print("placedb-bench serve-answers: \(ids.count) Place Details (mask *), \(requests.count) searchNearby k=20; CPU time per answer, median of \(runs) runs")
        print("| answer | plain (before) us | stored bytes (now) us | now / before |")
        print("|---|---|---|---|")
        var plainD: Double?, storedD: Double?, plainN: Double?, storedN: Double?
        let details = answers != "nearby", nearby = answers != "details"
        if only != "stored" {
            if details { plainD = try measure { try ids.reduce(0) { $0 + (try plainDetails(client, $1, all, time)).count } }.micros / Double(ids.count) }
            if nearby { plainN = try measure { try requests.reduce(0) { $0 + (try plainNearby(client, $1, nearbyMask, time)).count } }.micros / Double(requests.count) }
        }
        if only != "plain" {
            if details { storedD = try measure { try ids.reduce(0) { $0 + (try storedDetails(client, $1, all, time)).count } }.micros / Double(ids.count) }
            if nearby { storedN = try measure { try requests.reduce(0) { $0 + (try storedNearby(client, $1, nearbyMask, time)).count } }.micros / Double(requests.count) }
        }
        let rows = [("Place Details, mask *", plainD, storedD), ("searchNearby k=20", plainN, storedN)]
        for (name, a, b) in rows {
            let ratio = (a != nil && b != nil) ? "\(Int((100 * b! / a!).rounded()))%" : "-"
            print("| \(name) | \(a.map { fmt($0) } ?? "-") | \(b.map { fmt($0) } ?? "-") | \(ratio) |")
        }
    }
}
