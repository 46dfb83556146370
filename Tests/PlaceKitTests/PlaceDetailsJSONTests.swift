import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage
import PlaceKitTestSupport
import SQLiteDB

/// The server's Place Details fast path (`placeDetailsJSON`, written from
/// the stored bytes) next to the plain path it replaces (`fetchPlace` then
/// `apiJSON`, what `placedb place` prints): the same bytes, and
/// `JSONWriter.indent` gives what `JSONWriter(pretty: true)` gives.
@Suite("Place Details from the stored bytes")
struct PlaceDetailsJSONTests {
    static let masks: [String?] = [
        "*", "id", "name", "", "id,displayName,location", "location.latitude,types", "photos.name",
        "displayName.text,viewport", "rating,userRatingCount", "regularOpeningHours",
        "id,currentOpeningHours.openNow,regularSecondaryOpeningHours", "businessStatus,utcOffsetMinutes",
        "id,displayName,location,types,primaryType", "displayName.text,types,location.latitude",
    ]

    /// What `placedb place ID --fields MASK [openNow] --at TIME --output json` builds, compact.
    static func plain(_ client: PlaceReader, id: PlaceID, fields: FieldMask?, openNow: Bool, at time: HoursQueryTime)
        throws -> [UInt8]
    {
        let resolution = try client.resolvePlaceID(id)
        guard let current = resolution.placeID else { throw PlaceDBError.notFound(id) }
        let place = try client.fetchPlace(id: PlaceID(current), followAliases: false, at: time)
        var json = fields.map { place.apiJSON(fields: $0) } ?? JSONObject()
        if resolution.status == .moved {
            json["requestedId"] = .string(id.rawValue)
        } else if resolution.status == .removed {
            json["removedAt"] = resolution.removedAt.map(JSONValue.string) ?? .null
        }
        if openNow, let isOpen = place.isOpen(at: time).isOpen { json["openNow"] = .bool(isOpen) }
        return Array(JSONWriter().string(.object(json)).utf8)
    }

    /// Every ID of the database (aliases too) against every mask, with and
    /// without openNow, at `times`; returns the number of answers compared.
    @discardableResult
    static func compareAll(_ path: String, times: [HoursQueryTime], masks: [String?] = masks) throws -> Int {
        let client = try PlaceReader(databasePath: path)
        let db = try Database(path: path, mode: .readOnly)
        var ids: [String] = []
        try db.forEachRow("SELECT place_id FROM place ORDER BY id") { ids.append(try $0.string(0)) }
        try db.forEachRow("SELECT DISTINCT alias_id FROM place_alias ORDER BY alias_id") {
            ids.append(try $0.string(0))
        }
        ids.append("nowhere")
        var compared = 0
        for mask in masks {
            let fields: FieldMask? = try mask.map { $0.isEmpty ? nil : try FieldMask(parsing: $0) } ?? .all
            for time in times {
                for openNow in [false, true] {
                    for id in ids {
                        let expected = Result {
                            try plain(client, id: PlaceID(id), fields: fields, openNow: openNow, at: time)
                        }
                        let fast = Result {
                            try client.placeDetailsJSON(id: PlaceID(id), fields: fields, openNow: openNow, at: time)
                        }
                        switch (expected, fast) {
                        case (.success(let e), .success(let f)):
                            #expect(
                                String(decoding: f, as: UTF8.self) == String(decoding: e, as: UTF8.self),
                                "\(id) mask \(mask ?? "nil") openNow \(openNow)")
                            // Indented without parsing: what the CLI prints.
                            var indented: [UInt8] = []
                            f.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &indented) }
                            #expect(
                                indented == Array(JSONWriter(pretty: true).string(try JSONValue(parsing: e)).utf8),
                                "\(id) indented")
                        case (.failure(let e), .failure(let f)):
                            #expect("\(e)" == "\(f)", "\(id)")
                        default:
                            Issue.record("\(id) mask \(mask ?? "nil"): plain \(expected), fast \(fast)")
                        }
                        compared += 1
                    }
                }
            }
        }
        return compared
    }

    @Test("the plain path's bytes for every place, mask and time, hours served and openNow included")
    func fixtures() throws {
        // Nested members, photos (with a nested "name"), escapes, viewports.
        let (richDir, richPath) = try ResponseJSONTests().rich()
        try Self.compareAll(richPath, times: [.instant(Date())])
        _ = richDir
        // Hours: openNow computed at the time asked, stale current hours dropped.
        let dir = try TempDirectory("placedb-details")
        let file = try dir.write("hours.ndjson", ServedHoursFixture.ndjson)
        let path = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: path).importInput(.file(file))
        let n = try Self.compareAll(
            path,
            times: [
                try #require(HoursQueryTime(parsing: ServedHoursFixture.sunday)),
                try #require(HoursQueryTime(parsing: ServedHoursFixture.later)), .instant(Date()),
            ])
        #expect(n > 100)
    }

    @Test("moved and removed IDs answer with requestedId and removedAt, as the plain path does")
    func movedAndRemoved() throws {
        let dir = try TempDirectory("placedb-details")
        let path = dir.file("places.sqlite")
        let first = [
            GeoFixtures.osmNode(10, "Café \\\"Central\\\"", lng: 9.5, lat: 47.1),
            GeoFixtures.osmNode(11, "Bäckerei Huber", lng: 9.51, lat: 47.11, tags: #""shop":"bakery""#),
        ]
        let second = [
            GeoFixtures.osmWay(
                99, "Cafe \\\"Central\\\"",
                ring: "[[9.49995,47.09995],[9.50005,47.09995],[9.50005,47.10005],[9.49995,47.10005],[9.49995,47.09995]]"
            )
        ]
        for (i, features) in [first, second].enumerated() {
            let importer = try PlaceImporter(databasePath: path, options: ImportOptions(snapshot: "osm-li"))
            _ = try importer.importInput(
                .file(try dir.write("m\(i).geojsonseq", features.map { "\u{1E}\($0)\n" }.joined())))
            _ = try importer.finishSnapshot()
        }
        let client = try PlaceReader(databasePath: path)
        #expect(try client.resolvePlaceID("osm:n10").status == .moved)
        #expect(try client.resolvePlaceID("osm:n11").status == .removed)
        let moved = try JSONValue(
            parsing: client.placeDetailsJSON(
                id: "osm:n10", fields: FieldMask(parsing: "id"), openNow: false, at: .instant(Date())))
        #expect(moved == ["id": "osm:w99", "requestedId": "osm:n10"])
        let removed = try JSONValue(
            parsing: client.placeDetailsJSON(id: "osm:n11", fields: nil, openNow: false, at: .instant(Date())))
        #expect(removed["removedAt"]?.stringValue != nil)
        #expect(try Self.compareAll(path, times: [.instant(Date())]) > 0)
    }

    @Test("JSONWriter.indent is JSONWriter(pretty: true) on compact text")
    func indent() throws {
        let values: [JSONValue] = [
            [:], [], "a\"b\\c\n{[,:]}", 1.5, -0.0,
            ["a": [], "b": [:], "c": [1, [2, [:]], ["x": "y"]], "d": .null, "e": true],
            [["k": ["": ""]], "\u{1}é😀"],
        ]
        for v in values {
            var out: [UInt8] = []
            Array(JSONWriter().string(v).utf8).withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
            #expect(String(decoding: out, as: UTF8.self) == JSONWriter(pretty: true).string(v))
            // Into a room too small for the answer (written again the plain
            // way) or just large enough, after bytes already there.
            let pretty = Array(JSONWriter(pretty: true).string(v).utf8)
            for room in [0, 1, pretty.count - 1, pretty.count, pretty.count + 7] where room >= 0 {
                var after: [UInt8] = [0x41]
                Array(JSONWriter().string(v).utf8).withUnsafeBytes {
                    JSONWriter.indent(compact: $0, into: &after, room: room)
                }
                #expect(after == [0x41] + pretty, "room \(room)")
            }
        }
        // Deeply nested text outgrows the default room (twice the text).
        let deep = String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 40)
        var out: [UInt8] = []
        Array(deep.utf8).withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
        #expect(String(decoding: out, as: UTF8.self) == JSONWriter(pretty: true).string(try JSONValue(parsing: deep)))
    }

    /// Real places: OpenStreetMap snapshots of Andorra imported in turn
    /// (places removed and moved between them) and Google v1 captures with hours.
    @Test(
        "real data: every place of the OSM snapshots and Google captures",
        .enabled(
            if: CorpusData.has("osm/poi") && CorpusData.has("google/v1"), "needs ../shared/data/osm/poi and google/v1"))
    func corpus() throws {
        let dir = try TempDirectory("placedb-details")
        let path = dir.file("places.sqlite")
        for name in ["andorra-2013-05-28", "andorra-2020-05-01"] {
            let url = try #require(CorpusData.url("osm/poi/\(name).poi.geojsonseq"))
            let importer = try PlaceImporter(databasePath: path, options: ImportOptions(snapshot: "osm-andorra"))
            _ = try importer.importInput(.file(url.path))
            _ = try importer.finishSnapshot()
        }
        for url in CorpusData.files(under: "google/v1/third-party-captures/tehran-restaurants", extension: "json") {
            _ = try PlaceImporter(databasePath: path).importInput(.file(url.path))
        }
        // Both snapshots' differences are there: places removed, IDs moved.
        let db = try Database(path: path, mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM place WHERE removed_run IS NOT NULL")?.int ?? 0 > 0)
        #expect(try db.scalar("SELECT count(*) FROM place_alias")?.int ?? 0 > 0)
        let n = try Self.compareAll(
            path, times: [.instant(Date()), try #require(HoursQueryTime(parsing: "2026-03-04T12:00"))],
            masks: ["*", "id,displayName,regularOpeningHours.openNow", "", "id,displayName,location,types,primaryType"])
        #expect(n > 1000)
    }
}
