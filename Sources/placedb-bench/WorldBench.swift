// placedb-bench world [--records N] [--step S] [--dir DIR] [--keep] [--generate-only] [--no-text-index]
//
// World scale (docs/performance.md): N generated compact records (default
// 100 million, about 17 GB) imported into a fresh database in one run, in
// process, through the same PlaceImporter `placedb import` uses. Prints the
// rate of each step of S records (default 10 million) with where its time
// went (user and system CPU of the process, bytes read and written) and the
// resident memory and its peak so far, then the total time, the peak
// resident memory of the import alone (the peak is reset after generating
// the input), the database bytes per place and the parts of the end of the
// import (from the last record read: the spatial index's build, the commit,
// ...), each with its wall time and the CPU the process used meanwhile.
// The input is generated once (seed 20261130) and kept for the next run;
// the database is removed at the end unless --keep. --generate-only writes
// the input and stops (generate it ahead, off the timed run).
// --no-text-index imports without the text index (`placedb import
// --no-text-index`); the default measures it, as `placedb import` builds it.
import Foundation
import PlaceKit
import PlaceStorage
import PlaceModel

enum WorldBench {
    static func run(_ args: [String]) throws {
        let records = Int(option("--records", args) ?? "") ?? 100_000_000
        let step = max(1, Int(option("--step", args) ?? "") ?? 10_000_000)
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let input = "\(dir)/world-\(records)-compact.ndjson"
        if fileSize(input) == 0 {
            FileHandle.standardError.write(Data("generating \(records) compact records into \(input)...\n".utf8))
            try generateCompact(count: records, seed: 20261130, into: input)
        }
        if args.contains("--generate-only") { return }
        let db = "\(dir)/world-\(records).sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: db + suffix) }

        // The peak resident size from here on is the import's alone.
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let textIndex = !args.contains("--no-text-index")
        out(
            "placedb-bench world: \(records) generated compact records (seed 20261130, \(fileSize(input) / 1_000_000) MB) into a fresh database, in one run, \(textIndex ? "with" : "without") the text index"
        )
        out("")
        out(
            "| records | step seconds | step records/s | user s | system s | read MB | written MB | RSS MiB | peak RSS MiB |"
        )
        out("|---|---|---|---|---|---|---|---|---|")
        var marks: [(records: Int, seconds: Double)] = [(0, 0)]
        var last = Sample.now(seconds: 0)
        var next = step
        var lastReport: (records: Int, seconds: Double) = (0, 0)
        let started = Date()
        var options = ImportOptions()
        options.textIndex = textIndex
        let importer = try PlaceImporter(databasePath: db, options: options)
        let endOfImport = EndOfImportLaps()
        importer.endOfImportWatcher = endOfImport
        // Progress comes about once a second; a step ends between two
        // reports, its time interpolated between them.
        func passed(_ records: Int, _ seconds: Double) {
            while next <= records, next > marks[marks.count - 1].records {
                let (r0, s0) = lastReport
                let at = records == r0 ? seconds : s0 + (seconds - s0) * Double(next - r0) / Double(records - r0)
                let now = Sample.now(seconds: at)
                let took = at - last.seconds
                out(
                    "| \(label(next)) | \(fmt(took, 1)) | \(Int(Double(step) / took)) | \(fmt(now.user - last.user, 1)) | \(fmt(now.system - last.system, 1)) | \((now.read - last.read) / 1_000_000) | \((now.written - last.written) / 1_000_000) | \(mib(now.resident)) | \(mib(now.peak)) |"
                )
                marks.append((next, at))
                last = now
                next += step
            }
            lastReport = (records, seconds)
        }
        let summary = try importer.importInput(
            InputSource(argument: input),
            progress: { p in
                passed(p.records, p.seconds)
            })
        let seconds = Date().timeIntervalSince(started)
        passed(summary.records, seconds)
        let peak = peakResidentBytes()
        let size = fileSize(db)
        let final = Sample.now(seconds: seconds)
        out("")
        out("| total | seconds | records/s | peak RSS | database | bytes per place | user s | system s |")
        out("|---|---|---|---|---|---|---|---|")
        out(
            "| \(summary.records) (\(summary.inserted) inserted, \(summary.rejected) rejected) | \(fmt(seconds, 1)) | \(Int(Double(summary.records) / seconds)) | \(fmt(Double(peak) / 1_048_576, 1)) MiB | \(size / 1_000_000) MB | \(fmt(Double(size) / Double(max(1, summary.inserted)), 1)) | \(fmt(final.user, 1)) | \(fmt(final.system, 1)) |"
        )
        // The end of the import, from the last record read (the index
        // tables' writing, the run's record, the commit, the move).
        let end = endOfImport.parts
        if !end.isEmpty {
            let total = end.filter { !$0.name.hasPrefix("(") }.reduce(0) { $0 + $1.seconds }
            out("")
            let cpu = end.filter { !$0.name.hasPrefix("(") }.reduce(0) { $0 + ($1.cpuSeconds ?? 0) }
            out("| end of the import | seconds | share | CPU s (all threads) |")
            out("|---|---|---|---|")
            for part in end {
                out(
                    "| \(part.name) | \(fmt(part.seconds, 2)) | \(fmt(100 * part.seconds / max(total, 1e-9), 1))% | \(part.cpuSeconds.map { fmt($0, 2) } ?? "") |"
                )
            }
            out("| all of it | \(fmt(total, 2)) | \(fmt(100 * total / seconds, 1))% of the import | \(fmt(cpu, 2)) |")
        }
        if marks.count > 2 {
            let first = marks[1].seconds - marks[0].seconds
            let lastStep = marks[marks.count - 1].seconds - marks[marks.count - 2].seconds
            out("")
            out("the last step's rate is \(fmt(100 * first / lastStep, 1))% of the first's")
        }
        if !args.contains("--keep") {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
    }

    /// 10000000 as "10M", 25000 as "25000".
    static func label(_ n: Int) -> String { n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : String(n) }

    /// A line on standard output, written at once (print is buffered when
    /// the output is a file, and the steps come over minutes).
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The process's CPU times and I/O so far.
    struct Sample {
        var seconds: Double
        var user: Double
        var system: Double
        var read: Int
        var written: Int
        /// VmRSS and VmHWM (the peak since the reset), in bytes.
        var resident: Int
        var peak: Int

        static func now(seconds: Double) -> Sample {
            var usage = rusage()
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
            let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
            var read = 0, written = 0
            if let io = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) {
                for line in io.split(separator: "\n") {
                    let parts = line.split(separator: ":")
                    guard parts.count == 2, let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
                    if parts[0] == "read_bytes" { read = n }
                    if parts[0] == "write_bytes" { written = n }
                }
            }
            return Sample(
                seconds: seconds, user: user, system: system, read: read, written: written,
                resident: statusBytes("VmRSS:"), peak: statusBytes("VmHWM:"))
        }
    }

    /// VmHWM of this process (since the last reset), in bytes.
    static func peakResidentBytes() -> Int { statusBytes("VmHWM:") }

    /// A size line of /proc/self/status (`VmRSS:`, `VmHWM:`), in bytes.
    static func statusBytes(_ key: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            let kb =
                line.dropFirst(key.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first.flatMap {
                    Int($0)
                } ?? 0
            return kb * 1024
        }
        return 0
    }

    static func mib(_ bytes: Int) -> String { fmt(Double(bytes) / 1_048_576, 1) }

    /// The compact records of `generate`, alone.
    static func generateCompact(count: Int, seed: UInt64, into path: String) throws {
        let out = try BlockFile(creating: path)
        var rng = SplitMix64(state: seed)
        for i in 0..<count {
            out.write(GeneratedPlace.make(i, &rng).compact + "\n")
        }
        try out.close()
    }
}

/// Times the end of an import part by part, as the importer names the
/// parts (`PlaceImporter.endOfImportWatcher`): each part's wall time and
/// the CPU the process used meanwhile, all threads.
final class EndOfImportLaps: EndOfWriteWatcher {
    struct Part {
        let name: String
        let seconds: Double
        let cpuSeconds: Double?
    }

    private(set) var parts: [Part] = []
    private var wall = MonotonicClock.now()
    private var cpu = ProcessCPUClock.now()

    func endBegins() {
        parts = []
        (wall, cpu) = (MonotonicClock.now(), ProcessCPUClock.now())
    }

    func partEnded(_ name: String) {
        let (w, c) = (MonotonicClock.now(), ProcessCPUClock.now())
        parts.append(Part(name: name, seconds: w - wall, cpuSeconds: c - cpu))
        (wall, cpu) = (w, c)
    }

    func lastPartIncluded(_ name: String, seconds: Double) {
        parts.append(Part(name: name, seconds: seconds, cpuSeconds: nil))
    }
}
