// placedb-bench import [--records N] [--runs R] [--dir DIR] [--no-ogr2ogr] [--only geojson|ndjson|compact] [--no-warmup] [--no-text-index]
//
// Generates N seeded places three times over, as Places API (New) NDJSON, as
// a GeoJSON FeatureCollection and as compact NDJSON records (ID, name,
// location, one type), then imports them into fresh databases, once to warm
// up and R timed times each: placedb (the binary beside this one) on the
// three files, and GDAL's `ogr2ogr -f SQLite -dsco SPATIALITE=YES` (with its
// spatial index) on the GeoJSON. Prints places/s, MB/s, peak RSS (wait4's
// rusage of the child) and database bytes per place, min and median.
// --no-text-index passes that flag to placedb import (default: with the
// text index, as placedb imports by default).
import Foundation

enum ImportBench {
    struct Tool {
        let label: String
        let input: String
        let command: (_ db: String) -> (String, [String])
    }

    static func run(_ args: [String]) throws {
        let records = Int(option("--records", args) ?? "") ?? 1_000_000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 3)
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let placedb = try placedbBinary()
        let (ndjson, geojson, compact) = try generatedInputs(records: records, dir: dir)
        let flags = args.contains("--no-text-index") ? ["--no-text-index"] : []
        let without = flags.isEmpty ? "" : ", --no-text-index"
        var tools = [
            Tool(label: "placedb import (GeoJSON\(without))", input: geojson) { (placedb, ["import", geojson, "--db", $0, "--output", "json"] + flags) },
            Tool(label: "placedb import (NDJSON Places API (New)\(without))", input: ndjson) { (placedb, ["import", ndjson, "--db", $0, "--output", "json"] + flags) },
            Tool(label: "placedb import (compact NDJSON: id, name, location, type\(without))", input: compact) { (placedb, ["import", compact, "--db", $0, "--output", "json"] + flags) },
        ]
        if let only = option("--only", args) {
            let wanted = only == "compact" ? compact : only == "ndjson" ? ndjson : geojson
            tools = tools.filter { $0.input == wanted }
        }
        let ogr2ogr = "/usr/bin/ogr2ogr"
        if !args.contains("--no-ogr2ogr") {
            if FileManager.default.isExecutableFile(atPath: ogr2ogr) {
                tools.append(Tool(label: "ogr2ogr -f SQLite -dsco SPATIALITE=YES (GeoJSON)", input: geojson) {
                    (ogr2ogr, ["-f", "SQLite", "-dsco", "SPATIALITE=YES", $0, geojson])
                })
            } else {
                print("ogr2ogr not found (Scripts/setup installs gdal-bin): its row is left out")
            }
        }
        print("placedb-bench import: \(records) generated places (seed 20261130), \(runs) timed runs\(args.contains("--no-warmup") ? "" : " after a warm-up"), each into a fresh database")
        print("inputs: GeoJSON \(fmt(Double(fileSize(geojson)) / 1e6)) MB, NDJSON \(fmt(Double(fileSize(ndjson)) / 1e6)) MB; machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(fmt(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, 0)) GiB")
        print("")
        print("| tool | seconds (min / median) | places/s (best) | MB/s (best) | peak RSS (max) | DB bytes/place |")
        print("|---|---|---|---|---|---|")
        for tool in tools {
            var times: [Double] = []
            var peaks: [Int] = []
            var dbBytes = 0
            let first = args.contains("--no-warmup") ? 1 : 0
            for run in first...runs {
                let db = "\(dir)/bench-\(run).sqlite"
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: db + suffix) }
                let (program, arguments) = tool.command(db)
                let r = try spawn(program, arguments)
                guard r.status == 0 else { throw BenchError(message: "\(tool.label) exited \(r.status)") }
                if run > 0 {
                    times.append(r.seconds)
                    peaks.append(r.peakRSSBytes)
                    dbBytes = fileSize(db) + fileSize(db + "-wal")
                }
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            }
            let best = times.min()!, med = median(times)
            let inputBytes = fileSize(tool.input)
            print("| \(tool.label) | \(fmt(best, 2)) / \(fmt(med, 2)) | \(Int(Double(records) / best)) | \(fmt(Double(inputBytes) / 1e6 / best)) | \(fmt(Double(peaks.max()!) / 1_048_576)) MiB | \(dbBytes / max(records, 1)) |")
        }
    }
}
