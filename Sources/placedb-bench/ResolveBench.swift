// placedb-bench resolve [--places N] [--aliases A] [--ids Q] [--runs R] [--dir DIR]
//
// Builds (once, cached in DIR) a database of N generated places and A alias
// edges (old IDs, some in chains of two), then resolves Q IDs in process, a
// third each current, old and unknown, R times after a warm-up, and the same
// IDs through `placedb resolve --batch`. Prints IDs/s (min and median time).
import Foundation
import PlaceKit
import PlaceModel

enum ResolveBench {
    static func run(_ args: [String]) throws {
        let places = Int(option("--places", args) ?? "") ?? 1_000_000
        let aliasCount = Int(option("--aliases", args) ?? "") ?? 100_000
        let queries = Int(option("--ids", args) ?? "") ?? 300_000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 5)
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let db = "\(dir)/resolve-\(places)-\(aliasCount).sqlite"
        var rng = SplitMix64(state: 20261130)
        var ids: [String] = []
        ids.reserveCapacity(places)
        for i in 0..<places { ids.append(GeneratedPlace.make(i, &rng).id) }
        if fileSize(db) == 0 {
            let ndjson = "\(dir)/places-\(places).ndjson", geojson = "\(dir)/places-\(places).geojson"
            if fileSize(ndjson) == 0 {
                try generate(
                    count: places, seed: 20261130, ndjson: ndjson, geojson: geojson,
                    compact: "\(dir)/places-\(places)-compact.ndjson")
            }
            FileHandle.standardError.write(Data("building \(db)...\n".utf8))
            let importer = try PlaceImporter(databasePath: db)
            _ = try importer.importInput(.file(ndjson))
            var csv = "old_id,new_id,reason\n"
            for a in 0..<aliasCount {
                // Every tenth alias points at another alias: a chain of two.
                let target = a % 10 == 9 ? "old-\(a - 1)" : ids[(a * 7919) % places]
                csv += "old-\(a),\(target),\(a % 2 == 0 ? "moved" : "renumbered")\n"
            }
            let aliasFile = "\(dir)/aliases-\(aliasCount).csv"
            try csv.write(toFile: aliasFile, atomically: true, encoding: .utf8)
            _ = try importer.importAliases(.file(aliasFile))
        }
        var requests: [PlaceID] = []
        requests.reserveCapacity(queries)
        for q in 0..<queries {
            switch q % 3 {
            case 0: requests.append(PlaceID(ids[Int(rng.next() % UInt64(places))]))
            case 1: requests.append(PlaceID("old-\(Int(rng.next() % UInt64(aliasCount)))"))
            default: requests.append(PlaceID("unknown-\(q)"))
            }
        }
        let client = try PlaceReader(databasePath: db)
        var times: [Double] = []
        var statuses: [String: Int] = [:]
        for run in 0...runs {
            let start = Date()
            var counts: [String: Int] = [:]
            for r in try client.resolvePlaceIDs(requests) { counts[r.status.rawValue, default: 0] += 1 }
            if run > 0 { times.append(Date().timeIntervalSince(start)) } else { statuses = counts }
        }
        print(
            "placedb-bench resolve: \(places) places, \(aliasCount) aliases (a tenth in chains of two), \(queries) IDs per run (\(statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), \(runs) runs after a warm-up"
        )
        print("")
        print("| path | seconds (min / median) | IDs/s (best) |")
        print("|---|---|---|")
        print(
            "| PlaceReader.resolvePlaceIDs, in process, one thread | \(fmt(times.min()!, 3)) / \(fmt(median(times), 3)) | \(Int(Double(queries) / times.min()!)) |"
        )

        let placedb = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("placedb").path
        if FileManager.default.isExecutableFile(atPath: placedb) {
            let input = "\(dir)/resolve-ids.txt"
            try (requests.map(\.rawValue).joined(separator: "\n") + "\n").write(
                toFile: input, atomically: true, encoding: .utf8)
            var cli: [Double] = []
            for run in 0...min(runs, 3) {
                let r = try spawn(
                    "/bin/sh", ["-c", "'\(placedb)' resolve --batch --db '\(db)' < '\(input)' > /dev/null"])
                if run > 0 { cli.append(r.seconds) }
            }
            print(
                "| placedb resolve --batch (process, stdin to stdout) | \(fmt(cli.min()!, 3)) / \(fmt(median(cli), 3)) | \(Int(Double(queries) / cli.min()!)) |"
            )
        }
    }
}
