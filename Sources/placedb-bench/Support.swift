// Helpers shared by the benchmarks: a seeded generator, child processes with
// their peak RSS, statistics and option parsing.
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

let categories = [
    "cafe", "restaurant", "bakery", "park", "museum", "pharmacy", "bar", "book_store", "gym", "school", "supermarket",
    "hotel",
]
let words = [
    "Blue", "Corner", "Central", "Old", "River", "Garden", "Sun", "Lake", "North", "Market", "Station", "Hill",
]

/// One generated place: the same values go to every format.
struct GeneratedPlace {
    let id: String
    let name: String
    let category: String
    let latitude: Double
    let longitude: Double
    let rating: Double
    let ratingCount: Int

    static func make(_ i: Int, _ rng: inout SplitMix64) -> GeneratedPlace {
        let category = categories[rng.int(categories.count)]
        return GeneratedPlace(
            id: "gen-\(String(i, radix: 36))-\(rng.next() % 100_000)",
            name:
                "\(words[rng.int(words.count)]) \(words[rng.int(words.count)]) \(category.replacingOccurrences(of: "_", with: " ")) \(i)",
            category: category,
            latitude: rng.unit() * 170 - 85,
            longitude: rng.unit() * 360 - 180,
            rating: Double(10 + rng.int(41)) / 10,
            ratingCount: rng.int(5000))
    }

    /// A Places API (New) record, one NDJSON line.
    var placesV1: String {
        #"{"id":"\#(id)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(latitude),"longitude":\#(longitude)},"types":["\#(category)"],"rating":\#(rating),"userRatingCount":\#(ratingCount)}"#
    }

    /// A compact Places API (New) record: ID, name, location and type only.
    var compact: String {
        #"{"id":"\#(id)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(latitude),"longitude":\#(longitude)},"types":["\#(category)"]}"#
    }

    /// A generic GeoJSON place feature (placedb's documented properties).
    var feature: String {
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]},"properties":{"id":"\#(id)","name":"\#(name)","category":"\#(category)","rating":\#(rating),"userRatingCount":\#(ratingCount)}}"#
    }
}

/// A new file written in blocks of about 1 MiB: generated inputs run to
/// gigabytes, written a line at a time.
final class BlockFile {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(creating path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) { write(bytes: text.utf8) }

    func write<Bytes: Sequence<UInt8>>(bytes: Bytes) {
        buffer.append(contentsOf: bytes)
        if buffer.count > (1 << 20) - 4096 {
            handle.write(Data(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    func close() throws {
        handle.write(Data(buffer))
        buffer.removeAll()
        try handle.close()
    }
}

/// Writes the same `count` seeded places as Places API (New) NDJSON, as
/// one GeoJSON FeatureCollection and as compact NDJSON.
func generate(count: Int, seed: UInt64, ndjson: String, geojson: String, compact: String) throws {
    let v1 = try BlockFile(creating: ndjson)
    let geo = try BlockFile(creating: geojson)
    let small = try BlockFile(creating: compact)
    var rng = SplitMix64(state: seed)
    geo.write(#"{"type":"FeatureCollection","features":["# + "\n")
    for i in 0..<count {
        let p = GeneratedPlace.make(i, &rng)
        v1.write(p.placesV1 + "\n")
        geo.write(p.feature + (i + 1 < count ? ",\n" : "\n"))
        small.write(p.compact + "\n")
    }
    geo.write("]}\n")
    try v1.close()
    try geo.close()
    try small.close()
}

struct RunResult {
    let seconds: Double
    let peakRSSBytes: Int
    let status: Int32
    /// User + system CPU seconds of the child.
    var cpuSeconds: Double = 0
}

/// Runs a program, returning wall time and the child's peak RSS.
///
/// The peak comes from `/usr/bin/time` where it is installed: Linux records
/// the memory of the process that calls exec as the new program's peak, and
/// `posix_spawn` execs from this (large) process's memory, so `wait4`'s
/// figure would be at least this process's own peak. `time` forks from its
/// own small process.
func spawn(_ program: String, _ args: [String], stdin: String? = nil, stdout: String = "/dev/null") throws -> RunResult
{
    let timer = "/usr/bin/time"
    if FileManager.default.isExecutableFile(atPath: timer) {
        let report = NSTemporaryDirectory() + "placedb-bench-rss-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let r = try spawnDirect(timer, ["-f", "%M", "-o", report, program] + args, stdin: stdin, stdout: stdout)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        let kib = text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return RunResult(
            seconds: r.seconds, peakRSSBytes: (kib ?? 0) * 1024, status: r.status, cpuSeconds: r.cpuSeconds)
    }
    return try spawnDirect(program, args, stdin: stdin, stdout: stdout)
}

private func spawnDirect(_ program: String, _ args: [String], stdin: String?, stdout: String) throws -> RunResult {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + args).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    if let stdin { posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0) }
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let start = Date()
    let rc = posix_spawn(&pid, program, &actions, nil, argv, environ)
    guard rc == 0 else {
        throw NSError(
            domain: "spawn", code: Int(rc),
            userInfo: [NSLocalizedDescriptionKey: "cannot run \(program): \(String(cString: strerror(rc)))"])
    }
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = Date().timeIntervalSince(start)
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let cpu =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        / 1e6
    return RunResult(seconds: seconds, peakRSSBytes: Int(usage.ru_maxrss) * 1024, status: exit, cpuSeconds: cpu)
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue) ?? 0
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

struct BenchError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

func option(_ name: String, _ args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func fmt(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }

/// "median / p90 / p99" of `xs` with `digits` decimals (p90 and p99 the
/// values at 90% and 99% of the sorted list); "-" when there is none.
func percentiles(_ xs: [Double], digits: Int) -> String {
    guard !xs.isEmpty else { return "-" }
    let s = xs.sorted()
    return
        "\(fmt(median(s), digits)) / \(fmt(s[s.count * 9 / 10], digits)) / \(fmt(s[min(s.count - 1, s.count * 99 / 100)], digits))"
}

/// The placedb binary beside this one (the imports run it as users do).
func placedbBinary() throws -> String {
    let placedb = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("placedb").path
    guard FileManager.default.isExecutableFile(atPath: placedb) else {
        throw BenchError(message: "\(placedb) not found; build the placedb product first")
    }
    return placedb
}

/// The generated inputs of `records` places in `dir` (Places API (New)
/// NDJSON, GeoJSON, compact NDJSON), generated once with the bench seed.
func generatedInputs(records: Int, dir: String) throws -> (ndjson: String, geojson: String, compact: String) {
    let ndjson = "\(dir)/places-\(records).ndjson"
    let geojson = "\(dir)/places-\(records).geojson"
    let compact = "\(dir)/places-\(records)-compact.ndjson"
    if fileSize(ndjson) == 0 || fileSize(geojson) == 0 || fileSize(compact) == 0 {
        FileHandle.standardError.write(
            Data("generating \(records) places into \(ndjson), \(geojson) and \(compact)...\n".utf8))
        try generate(count: records, seed: 20261130, ndjson: ndjson, geojson: geojson, compact: compact)
    }
    return (ndjson, geojson, compact)
}
