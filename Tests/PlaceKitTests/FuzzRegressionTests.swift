import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage

/// Findings of the fuzz targets (docs/fuzzing.md), each fixed, each with the
/// input (or its shape) that found it.
@Suite("Fuzz findings")
struct FuzzRegressionTests {
    /// An object of `count` members "k0".."k{count-1}", numbers as values.
    static func wideObject(_ count: Int, duplicateFirst: Bool = false) -> [UInt8] {
        var text = "{"
        text.reserveCapacity(count * 16)
        for i in 0..<count {
            if i > 0 { text += "," }
            text += "\"k\(i)\":\(i)"
        }
        if duplicateFirst { text += ",\"k0\":-1" }
        text += "}"
        return Array(text.utf8)
    }

    // Found by the seed maker on ../shared/data/geonames (one top-level object
    // of 150,000 cities keyed by ID): every object of 64 members or more was
    // built with one search of its members per member, so reading it took
    // time growing with the square of its size (hours for that file; 20,000
    // members took 29 s, so 200,000 take about 48 min). The time limit is a
    // guard, not a measure: 10 min is far below the quadratic time and far
    // above the linear one (2 s alone; it failed at 1 min once, under a load
    // of 10 on 2 cores).
    @Test(
        "an object of 200,000 members is read in linear time, the last of a repeated name winning at its first place",
        .timeLimit(.minutes(10)))
    func wideObjectParses() throws {
        let count = 200_000
        let value = try JSONParser.parse(Self.wideObject(count, duplicateFirst: true))
        let object = try #require(value.objectValue)
        #expect(object.count == count)
        #expect(object.members.first?.key == "k0")
        #expect(object["k0"] == .int(-1))
        #expect(object["k\(count - 1)"] == .int(Int64(count - 1)))
    }

    @Test("a top-level object of 200,000 members is one record, read in linear time", .timeLimit(.minutes(10)))
    func wideTopLevelObjectReads() throws {
        let dir = try TempDirectory()
        let path = dir.file("wide.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.wideObject(200_000))))
        let reader = RecordReader(source: try ByteSource(.file(path)))
        let record = try #require(try reader.next())
        #expect(record.value.objectValue?.count == 200_000)
        #expect(record.value["k199999"] == .int(199_999))
        #expect(try reader.next() == nil)
    }

    @Test(
        "an alias line with an empty old or new ID is refused, naming its line (the aliases fuzz target found one)",
        arguments: [#"{"oldId":"","newId":"y","r,~coidence":0.5}"#, #"{"oldId":"x","newId":"places/"}"#])
    func emptyAliasIDRefused(line: String) throws {
        #expect {
            _ = try AliasFileReader.edge(old: nil, new: nil, reason: nil, confidence: nil, line: 0)
        } throws: { _ in true }
        let json = try JSONParser.parse(line)
        let old = json["oldId"]?.stringValue, new = json["newId"]?.stringValue
        #expect {
            _ = try AliasFileReader.edge(old: old, new: new, reason: nil, confidence: nil, line: 1)
        } throws: { error in
            "\(error)".contains("ID (empty)")
        }
    }

    @Test("JSONObject's public initializer keeps the last value of a repeated name at its first place")
    func publicInitLastWins() {
        let o = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(o.keys == ["a", "b"])
        #expect(o["a"] == .int(3))
    }

    static func decode(_ json: String) throws -> DecodedPlace {
        try decodeRecord(
            SourceRecord(value: try JSONValue(parsing: json), line: 1, index: 1, container: nil), format: nil)
    }

    // Found by the overture target (CI, this input whole): a polygon ring
    // left open that crosses itself had its centroid at longitude -19176,
    // and the inside test, missing the closing edge, let it through, so the
    // place would have been written with a location off the globe.
    @Test("an Overture place whose polygon ring is open and crosses itself gets a valid location inside its box")
    func openCrossingRing() throws {
        let decoded = try Self.decode(
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[1,4.88],[2.21,48.8],[2.31,4.881],[2.3,48.8]]]},"properties":{"id":"ov-1e-4003","":[{"dataset":"x"}]}}"#
        )
        let c = decoded.place.coordinate
        #expect(c.isValid)
        #expect((1...2.31).contains(c.longitude) && (4.88...48.8).contains(c.latitude), "\(c)")
    }

    // `(t - 86_399) / 86_400` overflowed for t near -2^63: an OSM feature
    // with "@timestamp": -9223372036854775808 (or a legacy review with that
    // "time") stopped the import with a trap.
    @Test(
        "an OSM @timestamp of -2^63 or 2^63-1 is kept as the number it is, not a date",
        arguments: [Int64.min, Int64.max, -62_135_596_801, 253_402_300_800])
    func osmTimestampOutOfRange(_ t: Int64) throws {
        let decoded = try Self.decode(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,42.5]},"properties":{"@type":"node","@id":1,"@timestamp":\#(t),"amenity":"cafe","name":"C"}}"#
        )
        #expect(decoded.extra["osm"]?["timestamp"] == .int(t))
    }

    @Test("a legacy review time of -2^63 leaves publishTime out; the first and last representable seconds are written")
    func legacyReviewTimeOutOfRange() throws {
        let record =
            #"{"place_id":"q","name":"Q","geometry":{"location":{"lat":1,"lng":2}},"reviews":[{"author_name":"R","rating":5,"text":"ok","time":-9223372036854775808}]}"#
        let decoded = try Self.decode(record)
        let review = try #require(decoded.place.document["reviews"]?.arrayValue?.first)
        #expect(review["publishTime"] == nil)
        #expect(RFC3339.string(fromUnixSeconds: -62_135_596_800) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.string(fromUnixSeconds: 253_402_300_799) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.string(fromUnixSeconds: 253_402_300_800) == nil)
        #expect(Date(timeIntervalSince1970: -1e300).rfc3339UTC == "0001-01-01T00:00:00Z")
    }
}
