// placedb-bench reimport [--records N] [--runs R] [--dir DIR] [--mask FIELDS]
//
// Re-importing the same places with a field mask into a database that holds
// them (docs/merging.md): builds a database from the N generated Places API
// (New) records once (untimed), writes the same records cut to the mask
// (default id,displayName,location) as NDJSON, then times R imports of that
// file, each into a fresh copy of the built database. The masked file is
// newer than the full one, so each record's members are merged and their
// capture times move on. Prints records/s, min and median.
import Foundation
import PlaceKit
import PlaceModel

enum ReimportBench {
    static func run(_ args: [String]) throws {
        let records = Int(option("--records", args) ?? "") ?? 1_000_000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 3)
        let dir = option("--dir", args) ?? "bench-out"
        let mask = (option("--mask", args) ?? "id,displayName,location").split(separator: ",").map(String.init)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let placedb = try placedbBinary()
        let ndjson = try generatedInputs(records: records, dir: dir).ndjson
        let masked = "\(dir)/places-\(records)-masked-\(mask.joined(separator: "-")).ndjson"
        if fileSize(masked) == 0 {
            FileHandle.standardError.write(
                Data("writing the records cut to \(mask.joined(separator: ",")) into \(masked)...\n".utf8))
            try cut(ndjson, to: mask, into: masked)
        }
        let base = "\(dir)/reimport-base-\(records).sqlite"
        if fileSize(base) == 0 {
            FileHandle.standardError.write(Data("building \(base) from \(ndjson)...\n".utf8))
            let r = try spawn(placedb, ["import", ndjson, "--db", base, "--output", "json"])
            guard r.status == 0 else { throw BenchError(message: "building the base database exited \(r.status)") }
        }
        print(
            "placedb-bench reimport: \(records) generated places (seed 20261130) imported whole, then again cut to \(mask.joined(separator: ",")); \(runs) timed runs after a warm-up, each into a fresh copy"
        )
        print("")
        print("| import | seconds (min / median) | records/s (best) | records/s (median) |")
        print("|---|---|---|---|")
        var times: [Double] = []
        for run in 0...runs {
            let db = "\(dir)/reimport-\(run).sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try FileManager.default.copyItem(atPath: base, toPath: db)
            let r = try spawn(
                placedb, ["import", masked, "--db", db, "--output", "json"], stdout: "\(dir)/reimport-\(run).json")
            guard r.status == 0 else { throw BenchError(message: "the masked re-import exited \(r.status)") }
            if run > 0 { times.append(r.seconds) }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        let best = times.min()!, med = median(times)
        print(
            "| masked re-import into \(records) places | \(fmt(best, 2)) / \(fmt(med, 2)) | \(Int(Double(records) / best)) | \(Int(Double(records) / med)) |"
        )
        if let summary = try? String(contentsOfFile: "\(dir)/reimport-1.json", encoding: .utf8),
            let total = try? JSONValue(parsing: summary)["total"]
        {
            print("")
            print("summary of a run: \(JSONWriter().string(total))")
        }
    }

    /// Writes each NDJSON record of `input` with only the members in `mask`.
    static func cut(_ input: String, to mask: [String], into output: String) throws {
        guard let text = FileManager.default.contents(atPath: input) else {
            throw BenchError(message: "cannot read \(input)")
        }
        let out = try BlockFile(creating: output)
        let writer = JSONWriter()
        for line in text.split(separator: 0x0A) where !line.isEmpty {
            guard case .object(let o) = try JSONValue(parsing: Array(line)) else { continue }
            let kept = JSONObject(mask.compactMap { k in o[k].map { (k, $0) } })
            out.write(writer.string(.object(kept)) + "\n")
        }
        try out.close()
    }
}
