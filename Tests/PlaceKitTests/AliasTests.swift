import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

@Suite("Place ID aliases")
struct AliasTests {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }
    init() throws { dir = try TempDirectory() }

    func load(_ text: String, options: ImportOptions = ImportOptions()) throws {
        _ = try PlaceImporter(databasePath: db, options: options).importInput(
            .file(try dir.write("in-\(UUID().uuidString).ndjson", text)))
    }

    func resolve(_ id: String) throws -> PlaceIDResolution {
        try PlaceReader(databasePath: db).resolvePlaceID(PlaceID(id))
    }

    @Test("a current ID resolves to itself")
    func current() throws {
        try load(Fixtures.v1("cur", "Current") + "\n")
        let r = try resolve("cur")
        #expect(r.status == .current)
        #expect(r.placeID == "cur")
        #expect(r.chain.isEmpty)
        #expect(r.displayName == "Current")
    }

    @Test("movedPlaceId on a closed place leads to where it moved")
    func movedPlaceId() throws {
        try load(
            """
            {"id":"old","displayName":{"text":"Old Shop"},"location":{"latitude":1,"longitude":2},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"new"}
            {"id":"new","displayName":{"text":"New Shop"},"location":{"latitude":1.001,"longitude":2}}

            """)
        let r = try resolve("old")
        #expect(r.status == .moved)
        #expect(r.placeID == "new")
        #expect(r.chain.map(\.reason) == [.moved])
        #expect(r.chain.first?.recordedAt != nil)
        // fetchPlace follows, as the Places API answers with the new place.
        let place = try PlaceReader(databasePath: db).fetchPlace(id: "old")
        #expect(place.id == "new")
        #expect(try PlaceReader(databasePath: db).fetchPlace(id: "old", followAliases: false).id == "old")
    }

    @Test("legacy deprecated id, reference and alt_ids all resolve to the place_id")
    func legacyIDs() throws {
        try load(
            #"{"result":{"place_id":"ChIJnew","id":"4f89212bf76dde31f092cfc14d7506555d85b5c7","reference":"CmRlong-reference","alt_ids":[{"place_id":"ChIJalt","scope":"APP"}],"name":"Legacy","geometry":{"location":{"lat":-33.8,"lng":151.2}}},"status":"OK"}"#
                + "\n")
        for old in ["4f89212bf76dde31f092cfc14d7506555d85b5c7", "CmRlong-reference", "ChIJalt"] {
            let r = try resolve(old)
            #expect(r.status == .moved, "\(old)")
            #expect(r.placeID == "ChIJnew")
            #expect(r.chain.first?.reason == .deprecated)
        }
    }

    @Test("a response filed under a requested ID that differs records that ID")
    func requestedID() throws {
        try load(
            """
            {"requestedId":"ChIJasked","place":\(Fixtures.v1("ChIJgot", "Returned"))}
            {"requestedId":"same","place":\(Fixtures.v1("same", "Same"))}
            {"requestedId":"legacyAsked","result":\(Fixtures.legacy("legacyGot", "Legacy"))}

            """)
        #expect(try resolve("ChIJasked").placeID == "ChIJgot")
        #expect(try resolve("ChIJasked").chain.first?.reason == .requestedReturned)
        #expect(try resolve("same").status == .current)
        #expect(try resolve("legacyAsked").placeID == "legacyGot")
    }

    @Test("chains of any length resolve hop by hop")
    func chain() throws {
        try load(Fixtures.v1("d", "Dee") + "\n")
        let file = try dir.write(
            "a.csv", "old_id,new_id,reason,confidence\na,b,moved,0.9\nb,c,renumbered,1\nc,d,merged,0.8\n")
        let summary = try PlaceImporter(databasePath: db).importAliases(.file(file))
        #expect(summary.added == 3)
        let r = try resolve("a")
        #expect(r.status == .moved)
        #expect(r.placeID == "d")
        #expect(r.chain.map(\.to) == ["b", "c", "d"])
        #expect(r.chain.map(\.reason) == [.moved, .renumbered, .merged])
        #expect(r.chain.map(\.confidence) == [0.9, 1, 0.8])
        // The same file again adds nothing.
        #expect(try PlaceImporter(databasePath: db).importAliases(.file(file)).unchanged == 3)
    }

    @Test("an alias file's own source and recordedAt are kept; --source names the edges without one")
    func ownSourceAndTime() throws {
        try load(Fixtures.v1("d", "Dee") + "\n")
        let json = try dir.write(
            "own.ndjson",
            """
            {"oldId":"a","newId":"d","reason":"moved","source":"city-2019","recordedAt":"2019-05-01T10:00:00.000Z"}
            {"oldId":"b","newId":"d","reason":"merged"}

            """)
        var options = ImportOptions()
        options.source = "curated"
        _ = try PlaceImporter(databasePath: db, options: options).importAliases(.file(json))
        let a = try resolve("a").chain.first, b = try resolve("b").chain.first
        #expect(a?.source == "city-2019")
        #expect(a?.recordedAt == "2019-05-01T10:00:00.000Z")
        #expect(b?.source == "curated")
        #expect(b?.recordedAt != nil && b?.recordedAt != "2019-05-01T10:00:00.000Z")
        // CSV names them in columns.
        let csv = try dir.write(
            "own.csv", "old_id,new_id,reason,source,recorded_at\nc,d,renumbered,osm-2020,2020-01-02T03:04:05.000Z\n")
        _ = try PlaceImporter(databasePath: db).importAliases(.file(csv))
        let c = try resolve("c").chain.first
        #expect(c?.source == "osm-2020")
        #expect(c?.recordedAt == "2020-01-02T03:04:05.000Z")
        // A time that is not RFC 3339 is a bad line: nothing of the file recorded.
        let bad = try dir.write(
            "bad.ndjson",
            """
            {"oldId":"e","newId":"d"}
            {"oldId":"f","newId":"d","recordedAt":"yesterday"}

            """)
        #expect {
            _ = try PlaceImporter(databasePath: db).importAliases(.file(bad))
        } throws: { error in
            "\(error)".contains(":2") && "\(error)".contains("recordedAt 'yesterday' is not an RFC 3339 time")
        }
        #expect(try resolve("e").status == .notFound)
        // An edge known from a later run takes an earlier line's record; a
        // later line changes nothing.
        let later = try dir.write(
            "later.ndjson",
            #"{"oldId":"a","newId":"d","reason":"moved","source":"other","recordedAt":"2024-01-01T00:00:00.000Z"}"#
                + "\n")
        #expect(try PlaceImporter(databasePath: db).importAliases(.file(later)).unchanged == 1)
        #expect(try resolve("a").chain.first?.source == "city-2019")
        let earlier = try dir.write(
            "earlier.ndjson",
            #"{"oldId":"a","newId":"d","reason":"moved","confidence":0.9,"source":"first","recordedAt":"2018-01-01T00:00:00Z"}"#
                + "\n")
        #expect(try PlaceImporter(databasePath: db).importAliases(.file(earlier)).unchanged == 1)
        let first = try resolve("a").chain.first
        #expect(first?.source == "first")
        #expect(first?.recordedAt == "2018-01-01T00:00:00Z")
        #expect(first?.confidence == 0.9)
    }

    @Test("a cycle is detected and reported, never looped")
    func cycle() throws {
        let file = try dir.write(
            "c.ndjson",
            """
            {"oldId":"x","newId":"y","reason":"explicit"}
            {"oldId":"y","newId":"z"}
            {"oldId":"z","newId":"x"}

            """)
        _ = try PlaceImporter(databasePath: db).importAliases(.file(file))
        let r = try resolve("x")
        #expect(r.status == .notFound)
        #expect(r.cycle == ["x", "y", "z", "x"])
        #expect(r.chain.count == 2)
    }

    @Test("a merge sends two old IDs to one place; a split keeps the alternatives")
    func mergeAndSplit() throws {
        try load(
            Fixtures.v1("m", "Merged") + "\n" + Fixtures.v1("s1", "Split one") + "\n" + Fixtures.v1("s2", "Split two")
                + "\n")
        let file = try dir.write(
            "ms.csv",
            "old_id,new_id,reason,confidence\nm-a,m,merged,1\nm-b,m,merged,1\nparent,s1,split,0.9\nparent,s2,split,0.6\n"
        )
        _ = try PlaceImporter(databasePath: db).importAliases(.file(file))
        #expect(try resolve("m-a").placeID == "m")
        #expect(try resolve("m-b").placeID == "m")
        let split = try resolve("parent")
        #expect(split.placeID == "s1")
        #expect(split.alternatives == ["s2"])
    }

    @Test("a removed place resolves to its tombstone with the date; an unknown ID is NOT_FOUND")
    func removedAndUnknown() throws {
        let keep = GeoFixtures.osmNode(1, "Keep"), gone = GeoFixtures.osmNode(2, "Gone", lng: 5, lat: 5)
        for (i, features) in [[keep, gone], [keep]].enumerated() {
            var options = ImportOptions(snapshot: "osm-x")
            options.matching = nil
            let importer = try PlaceImporter(databasePath: db, options: options)
            _ = try importer.importInput(
                .file(try dir.write("s\(i).geojsonseq", features.map { "\u{1E}\($0)\n" }.joined())))
            _ = try importer.finishSnapshot()
        }
        let r = try resolve("osm:n2")
        #expect(r.status == .removed)
        #expect(r.placeID == "osm:n2")
        #expect(r.removedAt != nil)
        #expect(r.displayName == "Gone")
        #expect(try resolve("never-seen").status == .notFound)
        #expect(try resolve("never-seen").placeID == nil)
    }

    @Test("a snapshot links a removed place to a nearby added one with the same name, and not to a different one")
    func snapshotMatcher() throws {
        let first = [
            GeoFixtures.osmNode(10, "Café Central", lng: 9.5, lat: 47.1),
            GeoFixtures.osmNode(11, "Bäckerei Huber", lng: 9.51, lat: 47.11, tags: #""shop":"bakery""#),
            GeoFixtures.osmNode(12, "Mühleholz I", lng: 9.52, lat: 47.12, tags: #""amenity":"school""#),
        ]
        let second = [
            GeoFixtures.osmWay(
                99, "Cafe Central",
                ring: "[[9.49995,47.09995],[9.50005,47.09995],[9.50005,47.10005],[9.49995,47.10005],[9.49995,47.09995]]"
            ),
            GeoFixtures.osmNode(13, "Metzgerei Frick", lng: 9.51, lat: 47.1101, tags: #""shop":"bakery""#),
            GeoFixtures.osmNode(14, "Mühleholz II", lng: 9.5201, lat: 47.12, tags: #""amenity":"school""#),
        ]
        var linked = 0
        for (i, features) in [first, second].enumerated() {
            let importer = try PlaceImporter(databasePath: db, options: ImportOptions(snapshot: "osm-li"))
            _ = try importer.importInput(
                .file(try dir.write("m\(i).geojsonseq", features.map { "\u{1E}\($0)\n" }.joined())))
            _ = try importer.finishSnapshot()
            linked = importer.lastSnapshotLinks
        }
        #expect(linked == 1)
        let cafe = try resolve("osm:n10")
        #expect(cafe.status == .moved)
        #expect(cafe.placeID == "osm:w99")
        #expect(cafe.chain.first?.reason == .redrawn)
        #expect(cafe.chain.first?.evidence?["nameSimilarity"]?.doubleValue ?? 0 > 0.8)
        #expect(try resolve("osm:n11").status == .removed, "a different name nearby is not the same place")
        #expect(try resolve("osm:n12").status == .removed, "'I' and 'II' are different places")
    }

    @Test("a bulk re-keying is recognized as a renumbering")
    func renumbering() throws {
        let names = ["Alpha", "Bravo", "Charlie", "Delta"]
        let before = names.enumerated().map {
            GeoFixtures.osmNode($0.offset + 1, $0.element, lng: 9.5 + Double($0.offset) * 0.01, lat: 47.1)
        }
        let after = names.enumerated().map {
            GeoFixtures.osmNode($0.offset + 1001, $0.element, lng: 9.5 + Double($0.offset) * 0.01, lat: 47.1)
        }
        for (i, features) in [before, after].enumerated() {
            let importer = try PlaceImporter(databasePath: db, options: ImportOptions(snapshot: "re"))
            _ = try importer.importInput(
                .file(try dir.write("r\(i).geojsonseq", features.map { "\u{1E}\($0)\n" }.joined())))
            _ = try importer.finishSnapshot()
        }
        for i in 1...4 {
            let r = try resolve("osm:n\(i)")
            #expect(r.placeID == "osm:n\(1000 + i)")
            #expect(r.chain.first?.reason == .renumbered)
        }
    }

    @Test(
        "bad alias files fail with file:line and record nothing",
        arguments: [
            ("old_id,new_id\na,b\nc\n", "no new ID"),
            ("old_id,new_id,reason\na,b,teleported\n", "unknown reason 'teleported'"),
            ("old_id,new_id,confidence\na,b,1.5\n", "outside (0, 1]"),
            ("from,to\na,a\n", "alias of itself"),
            ("id,name\na,b\n", "CSV header must name"),
            ("{\"oldId\":\"a\",\"newId\":\"b\"}\n{broken\n", "malformed JSON"),
        ])
    func badAliasFiles(text: String, reason: String) throws {
        let file = try dir.write("bad.csv", text)
        #expect {
            _ = try PlaceImporter(databasePath: db).importAliases(.file(file))
        } throws: { error in
            guard case PlaceDBError.badInput(let r) = error else { return false }
            return r.reason.contains(reason) && "\(error)".hasPrefix(file + ":")
        }
        // A failed first import leaves no database at all.
        #expect(!FileManager.default.fileExists(atPath: db))
    }
}
