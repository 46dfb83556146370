import Foundation
import PlaceKit
import PlaceDBCLI
import PlaceModel

/// The fuzz targets, by name (docs/fuzzing.md). `placedb-fuzz` runs one
/// under libFuzzer (built with `-sanitize=fuzzer`) or replays files through
/// it (any build); the test suite replays the committed seeds.
public struct FuzzTarget: Sendable {
    public let name: String
    public let summary: String
    public let run: @Sendable (UnsafeRawBufferPointer) -> Void
    /// What the target sets up once, before the first input (so that the
    /// first input is not charged for it against the fuzzer's timeout).
    public var prepare: @Sendable () -> Void = {}

    public static let all: [FuzzTarget] = [
        FuzzTarget(
            name: "json", summary: "JSON parser: round trip through the writer, member scanner agrees",
            run: FuzzEntryPoints.json),
        FuzzTarget(
            name: "records",
            summary: "record reader (JSON, array, envelope, NDJSON, GeoJSON-seq, gzip) and every record decoded",
            run: FuzzEntryPoints.records),
        FuzzTarget(
            name: "v1", summary: "Places API (New) v1 decoder, stored document, hours evaluation",
            run: { FuzzEntryPoints.decoder(.placesV1, $0) }),
        FuzzTarget(
            name: "legacy", summary: "legacy Places web service decoder, stored document, hours evaluation",
            run: { FuzzEntryPoints.decoder(.placesLegacy, $0) }),
        FuzzTarget(
            name: "geojson", summary: "GeoJSON decoders (generic and OSM/osmium features)",
            run: { data in
                FuzzEntryPoints.decoder(.geojson, data)
                FuzzEntryPoints.decoder(.osm, data)
            }),
        FuzzTarget(
            name: "overture", summary: "Overture Maps places decoder",
            run: { FuzzEntryPoints.decoder(.overture, $0) }),
        FuzzTarget(
            name: "geometry",
            summary: "GeoJSON geometry parser and the feature decoders: a point within the geometry's box, no trap",
            run: FuzzEntryPoints.geometry),
        FuzzTarget(
            name: "osm-hours", summary: "OSM opening_hours parser and the evaluation of an OSM place's hours",
            run: FuzzEntryPoints.osmHours),
        FuzzTarget(
            name: "aliases", summary: "alias file reader (CSV with a header, NDJSON)",
            run: FuzzEntryPoints.aliasFile),
        FuzzTarget(
            name: "image", summary: "image header reader (JPEG, PNG, WebP, GIF; size, EXIF orientation)",
            run: FuzzEntryPoints.imageHeader),
        FuzzTarget(
            name: "batch",
            summary: "batch request parsers: current --batch, nearby --batch, resolve IDs, on a small database",
            run: BatchFuzzer.run, prepare: { _ = BatchFuzzer.setUp() }),
        FuzzTarget(
            name: "http",
            summary:
                "placedb serve's requests: target, query, headers (Host, masks, key), bodies, through the router on a small database",
            run: HTTPFuzzer.run, prepare: { _ = HTTPFuzzer.router }),
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// The batch target: the input is standard input of `current --batch`,
/// `nearby --batch` or `resolve --batch` (its first byte chooses), or the
/// IDs of a `resolve`, run in-process against a small database built once
/// per process.
enum BatchFuzzer {
    /// The database the batches query: a few places with hours, a polygon,
    /// an alias chain.
    nonisolated(unsafe) static var database: String?

    static let places = [
        #"{"id":"ChIJfuzzA","displayName":{"text":"Cafe A"},"location":{"latitude":42.5063,"longitude":1.5218},"types":["cafe"],"primaryType":"cafe","userRatingCount":120,"rating":4.5,"utcOffsetMinutes":60,"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":18,"minute":0}},{"open":{"day":5,"hour":22,"minute":0},"close":{"day":6,"hour":2,"minute":0}}]}}"#,
        #"{"id":"ChIJfuzzB","displayName":{"text":"Park B"},"location":{"latitude":42.5070,"longitude":1.5225},"types":["park"],"timeZone":{"id":"Europe/Andorra"},"viewport":{"low":{"latitude":42.506,"longitude":1.521},"high":{"latitude":42.508,"longitude":1.524}}}"#,
        #"{"id":"ChIJfuzzC","displayName":{"text":"Old C"},"location":{"latitude":42.5060,"longitude":1.5210},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"ChIJfuzzA"}"#,
        #"{"type":"Feature","id":"node/7","geometry":{"type":"Point","coordinates":[1.5230,42.5065]},"properties":{"amenity":"restaurant","name":"Resto","opening_hours":"Mo-Fr 12:00-14:30,19:00-23:00; Sa 19:00-01:00; PH off"}}"#,
    ]

    static func setUp() -> String {
        if let database { return database }
        let dir = "\(FuzzEntryPoints.scratchDirectory)/placedb-fuzz-\(getpid())-db"
        mkdir(dir, 0o700)
        let input = "\(dir)/places.ndjson"
        let db = "\(dir)/places.sqlite"
        unlink(db)
        guard FileManager.default.createFile(atPath: input, contents: Data(places.joined(separator: "\n").utf8)) else {
            fatalError("fuzz harness: cannot write \(input)")
        }
        let console = CapturedConsole()
        let status = CommandLineTool.main(arguments: ["import", input, "--db", db], console: console)
        guard status == 0 else { fatalError("fuzz harness: cannot build the batch database: \(console.stderr)") }
        database = db
        return db
    }

    /// Removes the database (at the end of a run).
    public static func tearDown() {
        guard let database else { return }
        let dir = (database as NSString).deletingLastPathComponent
        try? FileManager.default.removeItem(atPath: dir)
    }

    static func run(_ data: UnsafeRawBufferPointer) {
        let db = setUp()
        guard let selector = data.first else { return }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: data[1...]), as: UTF8.self)
        let console = CapturedConsole(input: text)
        let requests = console.inputLines.count
        switch selector % 4 {
        case 0, 1, 2:
            let command = ["current", "nearby", "resolve"][Int(selector % 4)]
            let status = CommandLineTool.main(
                arguments: [command, "--batch", "--db", db, "--output", "json"], console: console)
            // resolve exits 1 when an ID is not found.
            check(
                status == 0 || status == 65 || (command == "resolve" && status == 1),
                "\(command) --batch exited \(status): \(console.stderr)")
            let answers = console.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            // One answer line per request line, in order, each a JSON object.
            check(
                answers.count == requests,
                "\(command) --batch: \(requests) request lines, \(answers.count) answer lines")
            for answer in answers {
                guard case .object? = try? JSONValue(parsing: String(answer)) else {
                    fatalError("fuzz check failed: \(command) --batch wrote a line that is not a JSON object")
                }
            }
        default:
            let ids = console.inputLines.filter { !$0.isEmpty }.prefix(64)
            guard !ids.isEmpty else { return }
            let status = CommandLineTool.main(
                arguments: ["resolve", "--db", db, "--output", "json", "--"] + ids, console: console)
            check(status == 0 || status == 1 || status == 64, "resolve exited \(status): \(console.stderr)")
            if status != 64 {
                guard case .object? = try? JSONValue(parsing: console.stdout) else {
                    fatalError("fuzz check failed: resolve wrote output that is not a JSON object")
                }
            }
        }
    }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz check failed: \(message())") }
    }
}

/// Removes what the targets left in the scratch directory.
public func fuzzTearDown() {
    FuzzEntryPoints.removeScratchFile()
    BatchFuzzer.tearDown()
}

/// Seed corpora from the real data in `../shared/data` (SOURCES.md), made at
/// run time (the data is not ours to commit): for each target a directory of
/// inputs under `into`. Returns the number of seeds per target.
public func makeSeeds(from data: String, into: String, perFile: Int = 40) throws -> [String: Int] {
    let fm = FileManager.default
    var counts: [String: Int] = [:]
    var seen = Set<String>()
    func put(_ target: String, _ name: String, _ bytes: some Collection<UInt8>) throws {
        let dir = "\(into)/\(target)"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = "\(dir)/\(name)"
        guard !seen.contains(path) else { return }
        seen.insert(path)
        guard fm.createFile(atPath: path, contents: Data(bytes)) else { throw CocoaError(.fileWriteUnknown) }
        counts[target, default: 0] += 1
    }
    let decoderTarget = [
        "places-v1": "v1", "places-legacy": "legacy", "geojson": "geojson", "osm": "geojson", "overture": "overture",
    ]
    guard let walker = fm.enumerator(atPath: data) else { return counts }
    var files: [String] = []
    while let relative = walker.nextObject() as? String { files.append(relative) }
    for relative in files.sorted() {
        let path = "\(data)/\(relative)"
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
        let stem = relative.replacingOccurrences(of: "/", with: "_")
        let lower = relative.lowercased()
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".png") || lower.hasSuffix(".webp")
            || lower.hasSuffix(".gif")
        {
            if let bytes = fm.contents(atPath: path) { try put("image", stem, bytes) }
            continue
        }
        if lower.hasSuffix(".csv") {
            // Alias-like CSVs (old/new ID columns): their first lines.
            if let bytes = fm.contents(atPath: path) {
                let head = bytes.prefix(4096)
                let cut = head.lastIndex(of: 0x0A).map { head[..<$0] } ?? head
                try put("aliases", stem, cut)
            }
            continue
        }
        guard
            lower.hasSuffix(".json") || lower.hasSuffix(".geojson") || lower.hasSuffix(".geojsonseq")
                || lower.hasSuffix(".ndjson")
                || lower.hasSuffix(".json.gz") || lower.hasSuffix(".jsonl")
        else { continue }
        // The whole file (the first 64 KiB of a big one; a gzip'd one whole
        // or not at all) for the record reader.
        if let bytes = fm.contents(atPath: path), bytes.count <= 65536 || !lower.hasSuffix(".gz") {
            try put("records", stem, bytes.prefix(65536))
        }
        let (records, hours) = FuzzEntryPoints.seedRecords(path, limit: perFile)
        for (i, record) in records.enumerated() {
            guard let target = decoderTarget[record.format], record.json.count <= 65536 else { continue }
            try put(target, "\(stem)-\(i)", record.json)
            try put("json", "\(stem)-\(i)", record.json)
            if target == "geojson" || target == "overture" { try put("geometry", "\(stem)-\(i)", record.json) }
        }
        for (i, text) in Set(hours).sorted().enumerated() {
            try put("osm-hours", "\(stem)-\(i)", Array(text.utf8))
        }
    }
    return counts
}
