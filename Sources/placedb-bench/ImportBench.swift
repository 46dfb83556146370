// placedb-bench import [--records N] [--runs R] [--dir DIR] [--no-ogr2ogr] [--only geojson|ndjson|compact]
//                      [--no-warmup] [--no-text-index]
//
// Generates N seeded places three times over, as Places API (New) NDJSON, as
// a GeoJSON FeatureCollection and as compact NDJSON records (ID, name,
// location, one type), then imports them into fresh databases, once to warm
// up and R timed times each: placedb (the binary beside this one) on the
// three files, and GDAL's `ogr2ogr -f SQLite -dsco SPATIALITE=YES` (with its
// spatial index) on the GeoJSON. Prints places/s, MB/s, peak RSS (wait4's
// rusage of the child), its CPU (user + system, all threads) and database
// bytes per place, min and median. Then SQLite's floor: the rows of the last
// GeoJSON import (place with its place_id index, place_type, the R*Tree's
// three tables) copied through the SQLite library into a new file of the
// same tables, in one transaction without journal or sync; what reading them
// alone costs is printed beside it. With ogr2ogr's row, the GeoJSON import's
// multiple of ogr2ogr and what 8x would take; the machine's cores bound the
// wall clock from below (CPU / cores).
// --no-text-index passes that flag to placedb import (default: with the
// text index, as placedb imports by default).
import Foundation
import SQLiteDB

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
            Tool(label: "placedb import (GeoJSON\(without))", input: geojson) {
                (placedb, ["import", geojson, "--db", $0, "--output", "json"] + flags)
            },
            Tool(label: "placedb import (NDJSON Places API (New)\(without))", input: ndjson) {
                (placedb, ["import", ndjson, "--db", $0, "--output", "json"] + flags)
            },
            Tool(label: "placedb import (compact NDJSON: id, name, location, type\(without))", input: compact) {
                (placedb, ["import", compact, "--db", $0, "--output", "json"] + flags)
            },
        ]
        if let only = option("--only", args) {
            let wanted = only == "compact" ? compact : only == "ndjson" ? ndjson : geojson
            tools = tools.filter { $0.input == wanted }
        }
        let ogr2ogr = "/usr/bin/ogr2ogr"
        if !args.contains("--no-ogr2ogr") {
            if FileManager.default.isExecutableFile(atPath: ogr2ogr) {
                tools.append(
                    Tool(label: "ogr2ogr -f SQLite -dsco SPATIALITE=YES (GeoJSON)", input: geojson) {
                        (ogr2ogr, ["-f", "SQLite", "-dsco", "SPATIALITE=YES", $0, geojson])
                    })
            } else {
                print("ogr2ogr not found (Scripts/setup installs gdal-bin): its row is left out")
            }
        }
        print(
            "placedb-bench import: \(records) generated places (seed 20261130), \(runs) timed runs\(args.contains("--no-warmup") ? "" : " after a warm-up"), each into a fresh database"
        )
        print(
            "inputs: GeoJSON \(fmt(Double(fileSize(geojson)) / 1e6)) MB, NDJSON \(fmt(Double(fileSize(ndjson)) / 1e6)) MB; machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(fmt(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, 0)) GiB"
        )
        print("")
        print(
            "| tool | seconds (min / median) | CPU s, all threads (median) | places/s (best) | MB/s (best) | peak RSS (max) | DB bytes/place |"
        )
        print("|---|---|---|---|---|---|---|")
        var best: [String: Double] = [:]
        var kept: String?
        for tool in tools {
            var cpus: [Double] = []
            var times: [Double] = []
            var peaks: [Int] = []
            var dbBytes = 0
            let first = args.contains("--no-warmup") ? 1 : 0
            for run in first...runs {
                let db = "\(dir)/bench-\(run).sqlite"
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: db + suffix)
                }
                let (program, arguments) = tool.command(db)
                let r = try spawn(program, arguments)
                guard r.status == 0 else { throw BenchError(message: "\(tool.label) exited \(r.status)") }
                if run > 0 {
                    cpus.append(r.cpuSeconds)
                    times.append(r.seconds)
                    peaks.append(r.peakRSSBytes)
                    dbBytes = fileSize(db) + fileSize(db + "-wal")
                }
                if run == runs && tool.label.hasPrefix("placedb import (GeoJSON") {
                    // The last GeoJSON database stays for SQLite's floor below.
                    kept = "\(dir)/floor-source.sqlite"
                    for suffix in ["", "-wal"] { try? FileManager.default.removeItem(atPath: kept! + suffix) }
                    try FileManager.default.moveItem(atPath: db, toPath: kept!)
                    if FileManager.default.fileExists(atPath: db + "-wal") {
                        try FileManager.default.moveItem(atPath: db + "-wal", toPath: kept! + "-wal")
                    }
                }
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: db + suffix)
                }
            }
            let least = times.min()!, med = median(times)
            best[tool.label] = least
            let inputBytes = fileSize(tool.input)
            print(
                "| \(tool.label) | \(fmt(least, 2)) / \(fmt(med, 2)) | \(fmt(median(cpus), 2)) | \(Int(Double(records) / least)) | \(fmt(Double(inputBytes) / 1e6 / least)) | \(fmt(Double(peaks.max()!) / 1_048_576)) MiB | \(dbBytes / max(records, 1)) |"
            )
        }
        guard let kept else { return }
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: kept + suffix) } }
        let floor = try sqliteFloor(source: kept, dir: dir)
        print("")
        print(
            "| SQLite alone, the GeoJSON import's rows (one transaction, no journal, no sync) | CPU s (this thread) | wall s |"
        )
        print("|---|---|---|")
        print(
            "| copied into a new file of the same tables (place and its place_id index, place_type, the R*Tree's node, rowid and parent tables) | \(fmt(floor.copy.cpu, 2)) | \(fmt(floor.copy.wall, 2)) |"
        )
        print(
            "| of which reading them from the source (the same rows read alone) | \(fmt(floor.read.cpu, 2)) | \(fmt(floor.read.wall, 2)) |"
        )
        let geo = best.first { $0.key.hasPrefix("placedb import (GeoJSON") }?.value
        let ogr = best.first { $0.key.hasPrefix("ogr2ogr") }?.value
        if let geo, let ogr {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            print("")
            print(
                "GeoJSON import: \(fmt(ogr / geo, 2))x ogr2ogr (min against min); 8x ogr2ogr would be \(fmt(ogr / 8, 2)) s, which on \(cores) cores needs at most \(fmt(ogr / 8 * Double(cores), 2)) CPU s for the whole import"
            )
        }
    }

    /// SQLite's own cost of writing the rows an import wrote: they are
    /// copied from `source` into a new file with the same tables.
    static func sqliteFloor(source: String, dir: String) throws -> (
        copy: (cpu: Double, wall: Double), read: (cpu: Double, wall: Double)
    ) {
        let target = "\(dir)/floor-copy.sqlite"
        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: target + suffix) }
        defer { try? FileManager.default.removeItem(atPath: target) }
        var tables: [String] = []
        let src = try Database(path: source, mode: .readOnly)
        try src.forEachRow(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name IN ('place', 'place_type') ORDER BY name"
        ) { row in
            if let sql = row.optionalString(0) { tables.append(sql) }
        }
        guard tables.count == 2 else { throw BenchError(message: "\(source) has no place or place_type table") }
        func timed(_ body: () throws -> Void) rethrows -> (cpu: Double, wall: Double) {
            let c0 = threadCPU(), t0 = DispatchTime.now().uptimeNanoseconds
            try body()
            return (threadCPU() - c0, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        }
        let read = try timed {
            for sql in [
                "SELECT sum(length(place_id) + length(doc) + ifnull(length(extra), 0) + length(geom) + ifnull(length(name), 0)) FROM place",
                "SELECT count(*) FROM place_type", "SELECT sum(length(data)) FROM idx_place_geom_node",
                "SELECT sum(nodeno) FROM idx_place_geom_rowid", "SELECT sum(parentnode) FROM idx_place_geom_parent",
            ] {
                _ = try src.scalar(sql)
            }
        }
        let db = try Database(path: target)
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        try db.execute(tables.joined(separator: ";\n"))
        try db.execute(
            """
            CREATE TABLE idx_place_geom_node (nodeno INTEGER PRIMARY KEY, data);
            CREATE TABLE idx_place_geom_rowid (rowid INTEGER PRIMARY KEY, nodeno);
            CREATE TABLE idx_place_geom_parent (nodeno INTEGER PRIMARY KEY, parentnode)
            """)
        try db.execute("ATTACH DATABASE '\(source.replacingOccurrences(of: "'", with: "''"))' AS source")
        let copy = try timed {
            try db.execute(
                """
                BEGIN;
                INSERT INTO place SELECT * FROM source.place ORDER BY id;
                INSERT INTO place_type SELECT * FROM source.place_type;
                INSERT INTO idx_place_geom_node SELECT * FROM source.idx_place_geom_node;
                INSERT INTO idx_place_geom_rowid SELECT * FROM source.idx_place_geom_rowid;
                INSERT INTO idx_place_geom_parent SELECT * FROM source.idx_place_geom_parent;
                COMMIT
                """)
        }
        return (copy, read)
    }
}
