// placedb-bench import [--records N] [--runs R] [--dir DIR]
//
// Generates N Places API (New) records as NDJSON (seeded, so every run sees
// the same bytes), then runs the placedb binary beside this one to import
// them into a fresh database, once to warm up and R timed times. Prints
// places/s, MB/s, peak RSS (from wait4's rusage of the child) and database
// bytes per place, with the minimum and median over the runs.
import Foundation

enum ImportBench {
    static func run(_ args: [String]) throws {
        let records = Int(option("--records", args) ?? "") ?? 1_000_000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 3)
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let placedb = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("placedb").path
        guard FileManager.default.isExecutableFile(atPath: placedb) else {
            throw BenchError(message: "\(placedb) not found; build the placedb product first")
        }

        let input = "\(dir)/places-v1-\(records).ndjson"
        if fileSize(input) == 0 {
            FileHandle.standardError.write(Data("generating \(records) records into \(input)...\n".utf8))
            try generate(count: records, seed: 20261130, to: input)
        }
        let inputBytes = fileSize(input)
        print("placedb-bench import: \(records) Places API (New) NDJSON records, \(fmt(Double(inputBytes) / 1e6)) MB, \(runs) timed runs after a warm-up")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(fmt(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824, 0)) GiB")

        var times: [Double] = []
        var peaks: [Int] = []
        var dbBytes = 0
        for run in 0...runs {
            let db = "\(dir)/bench-\(run).sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            let r = try spawn(placedb, ["import", input, "--db", db, "--output", "json"])
            guard r.status == 0 else {
                throw BenchError(message: "placedb import exited \(r.status)")
            }
            if run > 0 {
                times.append(r.seconds)
                peaks.append(r.peakRSSBytes)
                dbBytes = fileSize(db) + fileSize(db + "-wal")
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        let best = times.min()!, med = median(times)
        print("")
        print("| tool | runs | seconds (min / median) | places/s (best) | MB/s (best) | peak RSS | DB bytes/place |")
        print("|---|---|---|---|---|---|---|")
        print("| placedb import (NDJSON v1) | \(runs) | \(fmt(best, 2)) / \(fmt(med, 2)) | \(Int(Double(records) / best)) | \(fmt(Double(inputBytes) / 1e6 / best)) | \(fmt(Double(peaks.max()!) / 1_048_576)) MiB | \(dbBytes / max(records, 1)) |")
    }
}
