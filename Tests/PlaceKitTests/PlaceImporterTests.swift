import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// Small inline fixtures: one per shape the Google APIs return.
enum Fixtures {
    static func v1(
        _ id: String, _ name: String, lat: Double = 46.52, lng: Double = 6.63, types: [String] = ["cafe"],
        rating: Double? = nil
    ) -> String {
        var s =
            #"{"id":"\#(id)","displayName":{"text":"\#(name)","languageCode":"en"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":[\#(types.map { "\"\($0)\"" }.joined(separator: ","))]"#
        if let rating { s += #","rating":\#(rating)"# }
        return s + "}"
    }

    static func legacy(
        _ id: String, _ name: String, lat: Double = -33.86, lng: Double = 151.2, types: [String] = ["restaurant"]
    ) -> String {
        #"{"place_id":"\#(id)","name":"\#(name)","geometry":{"location":{"lat":\#(lat),"lng":\#(lng)}},"types":[\#(types.map { "\"\($0)\"" }.joined(separator: ","))]}"#
    }
}

@Suite("Importing Google Places dumps")
struct PlaceImporterTests {
    let dir: TempDirectory
    let dbPath: String

    init() throws {
        dir = try TempDirectory()
        dbPath = dir.file("places.sqlite")
    }

    func importer(_ options: ImportOptions = ImportOptions()) throws -> PlaceImporter {
        try PlaceImporter(databasePath: dbPath, options: options)
    }

    func fetch(_ id: String) throws -> Place {
        try PlaceReader(databasePath: dbPath).fetchPlace(id: PlaceID(id))
    }

    func count() throws -> Int { try PlaceReader(databasePath: dbPath).placeCount() }

    @Test(
        "every Places API (New) and legacy shape imports",
        arguments: [
            ("single v1 place", Fixtures.v1("p1", "One")),
            ("searchNearby response", #"{"places":[\#(Fixtures.v1("p1", "One")),\#(Fixtures.v1("p2", "Two"))]}"#),
            ("JSON array of places", "[\(Fixtures.v1("p1", "One")),\n\(Fixtures.v1("p2", "Two"))]"),
            ("NDJSON", "\(Fixtures.v1("p1", "One"))\n\(Fixtures.v1("p2", "Two"))\n"),
            (
                "legacy Place Details",
                #"{"html_attributions":[],"result":\#(Fixtures.legacy("p1", "One")),"status":"OK"}"#
            ),
            (
                "legacy Nearby Search",
                #"{"html_attributions":[],"results":[\#(Fixtures.legacy("p1", "One")),\#(Fixtures.legacy("p2", "Two"))],"status":"OK"}"#
            ),
            ("legacy Find Place", #"{"candidates":[\#(Fixtures.legacy("p1", "One"))],"status":"OK"}"#),
        ])
    func shapes(name: String, text: String) throws {
        let path = try dir.write("input.json", text)
        let summary = try importer().importInput(.file(path))
        #expect(summary.rejected == 0)
        #expect(summary.inserted == summary.records)
        #expect(summary.inserted >= 1)
        let place = try fetch("p1")
        #expect(place.displayName?.text == "One")
        #expect(place.coordinate.latitude != 0)
        #expect(!place.types.isEmpty)
    }

    @Test("a pretty-printed legacy response keeps its values")
    func prettyLegacy() throws {
        let text = """
            {
              "results" : [
                {
                  "geometry" : { "location" : { "lat" : -33.8670522, "lng" : 151.1957362 } },
                  "name" : "Sydney One",
                  "place_id" : "legacy-1",
                  "types" : [ "lodging", "point_of_interest" ],
                  "user_ratings_total" : 42,
                  "utc_offset" : 600
                }
              ],
              "status" : "OK"
            }
            """
        let path = try dir.write("pretty.json", text)
        let summary = try importer().importInput(.file(path))
        #expect(summary.inserted == 1)
        let place = try fetch("legacy-1")
        #expect(place.coordinate == Coordinate(latitude: -33.8670522, longitude: 151.1957362))
        #expect(place.types == ["lodging", "point_of_interest"])
        #expect(place.userRatingCount == 42)
        #expect(place.utcOffsetMinutes == 600)
    }

    @Test("a gzip'd file reads like the plain one")
    func gzip() throws {
        let path = try dir.writeGzip(
            "places.ndjson.gz", "\(Fixtures.v1("g1", "Gz One"))\n\(Fixtures.v1("g2", "Gz Two"))\n")
        let summary = try importer().importInput(.file(path))
        #expect(summary.inserted == 2)
        #expect(try fetch("g2").displayName?.text == "Gz Two")
    }

    @Test("re-importing the same file changes nothing and says so")
    func reimport() throws {
        let path = try dir.write("in.ndjson", "\(Fixtures.v1("a", "A"))\n\(Fixtures.v1("b", "B"))\n")
        let first = try importer().importInput(.file(path))
        #expect(first.inserted == 2)
        let before = try snapshot()
        let second = try importer().importInput(.file(path))
        #expect(second.inserted == 0)
        #expect(second.updated == 0)
        #expect(second.unchanged == 2)
        #expect(second.changedNothing)
        #expect(try snapshot() == before)
    }

    @Test("a newer record for the same ID updates it, types included")
    func update() throws {
        let old = try dir.write("old.json", Fixtures.v1("u", "Old Name", types: ["cafe", "food"], rating: 3.5))
        let new = try dir.write("new.json", Fixtures.v1("u", "New Name", lat: 10, lng: 20, types: ["bar"], rating: 4.5))
        _ = try importer().importInput(.file(old))
        let summary = try importer().importInput(.file(new))
        #expect(summary.updated == 1)
        let place = try fetch("u")
        #expect(place.displayName?.text == "New Name")
        #expect(place.coordinate == Coordinate(latitude: 10, longitude: 20))
        #expect(place.rating == 4.5)
        let imp = try importer()
        let types = try imp.store.db.scalar(
            "SELECT group_concat(type) FROM place_type JOIN place ON place.id = place_type.place WHERE place_id = 'u'")?
            .string
        #expect(types == "bar")
        // The spatial index follows the move.
        let indexed = try imp.store.db.scalar("SELECT count(*) FROM idx_place_geom WHERE xmin = 20 AND ymin = 10")?.int
        #expect(indexed == 1)
    }

    @Test(
        "a bad record stops the import and leaves the database as it was before that file",
        arguments: [
            ("malformed JSON", "{\"id\":\"x\",\"location\":{\"latitude\":1,", 2),
            ("no ID", #"{"displayName":{"text":"No id"},"location":{"latitude":1,"longitude":2}}"#, 2),
            ("no location", #"{"id":"nl","displayName":{"text":"No location"}}"#, 2),
            ("latitude out of range", #"{"id":"lat","location":{"latitude":91,"longitude":2}}"#, 2),
            ("longitude out of range", #"{"id":"lng","location":{"latitude":1,"longitude":-180.5}}"#, 2),
            ("wrong JSON type", #"{"id":"wt","location":{"latitude":"1","longitude":2}}"#, 2),
            ("types not strings", #"{"id":"ts","location":{"latitude":1,"longitude":2},"types":[1,2]}"#, 2),
        ])
    func stopOnBadRecord(name: String, bad: String, line: Int) throws {
        let good = try dir.write("good.ndjson", Fixtures.v1("keep", "Keep") + "\n")
        _ = try importer().importInput(.file(good))
        let before = try snapshot()
        let path = try dir.write(
            "bad.ndjson", Fixtures.v1("new1", "New") + "\n" + bad + "\n" + Fixtures.v1("new2", "New 2") + "\n")
        var caught: PlaceDBError?
        do {
            _ = try importer().importInput(.file(path))
        } catch let e as PlaceDBError {
            caught = e
        }
        let error = try #require(caught)
        guard case .badInput(let rejection) = error else {
            Issue.record("expected a bad-input error, got \(error)")
            return
        }
        #expect(rejection.line == line)
        #expect(rejection.input == path)
        #expect(!error.description.contains("\n"))
        #expect(error.description.hasPrefix("\(path):\(line):"))
        #expect(try snapshot() == before, "the failed file left changes behind")
    }

    @Test("--on-error skip imports the valid records and reports each rejected one")
    func skipMode() throws {
        let lines = [
            Fixtures.v1("s1", "One"),
            "{not json",
            #"{"id":"s-bad","location":{"latitude":100,"longitude":0}}"#,
            Fixtures.v1("s2", "Two"),
        ]
        let path = try dir.write("mixed.ndjson", lines.joined(separator: "\n") + "\n")
        var rejected: [ImportRejection] = []
        let summary = try importer(ImportOptions(onError: .skip)).importInput(
            .file(path), reject: { rejected.append($0) })
        #expect(summary.inserted == 2)
        #expect(summary.rejected == 2)
        #expect(summary.records == 4)
        #expect(rejected.map(\.line) == [2, 3])
        #expect(rejected[1].placeID == "s-bad")
        #expect(rejected[0].record.map { String(decoding: $0, as: UTF8.self) } == "{not json")
        #expect(try count() == 2)
    }

    @Test("an unreadable JSON array in skip mode keeps the records before the break")
    func skipModeFatal() throws {
        let path = try dir.write(
            "broken.json", "[\(Fixtures.v1("k1", "One")),\n\(Fixtures.v1("k2", "Two")),\n{\"id\": oops}]")
        #expect(throws: PlaceDBError.self) {
            _ = try importer(ImportOptions(onError: .skip)).importInput(.file(path))
        }
        #expect(try count() == 2)
    }

    @Test("missing, empty, binary and error-response inputs fail clearly")
    func badInputs() throws {
        let missing = dir.file("absent.json")
        #expect {
            _ = try importer().importInput(.file(missing))
        } throws: { e in
            guard case PlaceDBError.input(let ie) = e else { return false }
            return ie.kind == .missing && "\(e)".contains("absent.json")
        }
        let empty = try dir.write("empty.json", "")
        #expect {
            _ = try importer().importInput(.file(empty))
        } throws: { e in "\(e)".contains("empty input") }
        var bytes: [UInt8] = [0x00, 0xFF, 0x13, 0x37]
        var seed: UInt64 = 42
        for _ in 0..<4096 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407;
            bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
        }
        let binary = try dir.write("binary.bin", bytes: bytes)
        #expect {
            _ = try importer().importInput(.file(binary))
        } throws: { e in
            // Told from its first bytes: not JSON, and said so (65).
            guard case PlaceDBError.input(let ie) = e, ie.kind == .corrupt else { return false }
            return "\(e)".contains("binary.bin: this is binary data, not JSON/GeoJSON")
        }
        let apiError = try dir.write(
            "error.json",
            #"{"candidates":[],"error_message":"Unsupported field name 'invalid'.","status":"INVALID_REQUEST"}"#)
        #expect {
            _ = try importer().importInput(.file(apiError))
        } throws: { e in "\(e)".contains("INVALID_REQUEST") && "\(e)".contains("Unsupported field name") }
        let predictions = try dir.write(
            "auto.json", #"{"predictions":[{"description":"x","place_id":"p"}],"status":"OK"}"#)
        #expect {
            _ = try importer().importInput(.file(predictions))
        } throws: { e in "\(e)".contains("autocomplete predictions") }
        // Each failed first import left no database behind.
        #expect(!FileManager.default.fileExists(atPath: dbPath))
    }

    @Test("ZERO_RESULTS is an empty answer, not an error")
    func zeroResults() throws {
        let path = try dir.write("zero.json", #"{"html_attributions":[],"results":[],"status":"ZERO_RESULTS"}"#)
        let summary = try importer().importInput(.file(path))
        #expect(summary.records == 0)
        #expect(summary.changedNothing)
    }

    @Test("every import run is recorded with its counts")
    func provenance() throws {
        let path = try dir.write("p.ndjson", Fixtures.v1("r1", "R") + "\n")
        _ = try importer(ImportOptions(source: "my-source")).importInput(.file(path))
        let bad = try dir.write("bad.ndjson", "{\n")
        _ = try? importer().importInput(.file(bad))
        let db = try importer().store.db
        var rows: [(String, String, Int, String)] = []
        try db.forEachRow("SELECT input, status, inserted, source FROM import_run ORDER BY id") { r in
            rows.append((try r.string(0), try r.string(1), Int(try r.int64(2)), r.optionalString(3) ?? "(none)"))
        }
        #expect(rows.count == 2)
        #expect(rows[0] == (path, "ok", 1, "my-source"))
        #expect(rows[1].1 == "failed")
        #expect(try db.scalar("SELECT source FROM place WHERE place_id = 'r1'")?.string == "my-source")
    }

    @Test("a large NDJSON file streams: records counted and all stored")
    func streaming() throws {
        var text = ""
        let n = 20_000
        for i in 0..<n {
            text +=
                Fixtures.v1("big-\(i)", "Place \(i)", lat: Double(i % 180) - 89.5, lng: Double(i % 360) - 179.5) + "\n"
        }
        let path = try dir.write("big.ndjson", text)
        let summary = try importer().importInput(.file(path))
        #expect(summary.inserted == n)
        #expect(summary.bytes == Int64(text.utf8.count))
        #expect(try count() == n)
        #expect(try fetch("big-19999").displayName?.text == "Place 19999")
    }

    /// Every place row and type row, to compare database states.
    func snapshot() throws -> [String] {
        guard FileManager.default.fileExists(atPath: dbPath) else { return [] }
        let db = try Database(path: dbPath, mode: .readOnly)
        var rows: [String] = []
        try db.forEachRow("SELECT place_id, doc, content_hash, hex(geom) FROM place ORDER BY place_id") { r in
            rows.append("\(try r.string(0))|\(try r.string(1))|\(try r.int64(2))|\(try r.string(3))")
        }
        try db.forEachRow("SELECT place, type FROM place_type ORDER BY place, type") { r in
            rows.append("\(try r.int64(0)):\(try r.string(1))")
        }
        try db.forEachRow("SELECT count(*) FROM idx_place_geom") { r in rows.append("rtree:\(try r.int64(0))") }
        return rows
    }
}
