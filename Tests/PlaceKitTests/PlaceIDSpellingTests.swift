import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("Place ID spelling")
struct PlaceIDSpellingTests {
    @Test("old OpenStreetMap spellings become osmium's short form; other IDs without a '/' are kept")
    func openStreetMap() {
        #expect(PlaceIDSpelling.canonical("osm:node/1794111149") == "osm:n1794111149")
        #expect(PlaceIDSpelling.canonical("osm:way/4097656") == "osm:w4097656")
        #expect(PlaceIDSpelling.canonical("osm:relation/123") == "osm:r123")
        #expect(PlaceIDSpelling.canonical("osm:area/8") == "osm:a8")
        #expect(PlaceIDSpelling.canonical("osm:node/-5") == "osm:n-5", "osmium's negative IDs")
        #expect(
            PlaceIDSpelling.canonical("osm:node%2F42") == "osm:n42",
            "the '/' percent-encoded once more, as Google's client sends it")
        #expect(PlaceIDSpelling.canonical("osm:node%2f42") == "osm:n42")
        for kept in [
            "osm:n42", "osm:w1", "ChIJN1t_tDeuEmsRUsoyG83frY4", "08f1e2a3b4c5d6e7", "osm:node", "50%off", "cid:123", "",
        ] {
            #expect(PlaceIDSpelling.canonical(kept) == kept)
            #expect(PlaceIDSpelling.isCanonical(kept))
        }
        #expect(PlaceIDSpelling.isOldOSM("osm:way/7") && PlaceIDSpelling.isOldOSM("osm:way%2F7"))
        #expect(
            !PlaceIDSpelling.isOldOSM("osm:w7") && !PlaceIDSpelling.isOldOSM("osm:node/7x")
                && !PlaceIDSpelling.isOldOSM("osm:node/"))
        #expect(!PlaceIDSpelling.isOldOSM("osm:street/7"))
    }

    @Test("element types and osmium's short form are read from either spelling")
    func osmTypes() {
        #expect(PlaceIDSpelling.osmType("osm:n1") == "node")
        #expect(PlaceIDSpelling.osmType("osm:way/2") == "way")
        #expect(PlaceIDSpelling.osmType("osm:r3") == "relation")
        #expect(PlaceIDSpelling.osmType("osm:x3") == nil)
        #expect(PlaceIDSpelling.osmType("osm:nope") == nil)
        #expect(PlaceIDSpelling.osmType("ChIJ") == nil)
        #expect(PlaceIDSpelling.osmShortForm("osm:w4097656") == "w4097656")
        #expect(PlaceIDSpelling.osmShortForm("osm:node/12") == "n12")
        #expect(PlaceIDSpelling.osmShortForm("overture:1") == nil)
    }

    @Test("any other ID with a '/' is written with %2F (its % as %25), reversibly, once")
    func slashes() {
        #expect(PlaceIDSpelling.canonical("gb/123") == "gb%2F123")
        #expect(PlaceIDSpelling.canonical("a/50%/b") == "a%2F50%25%2Fb")
        #expect(PlaceIDSpelling.canonical("osm:node/abc") == "osm:node%2Fabc", "not a number: no OpenStreetMap ID")
        let ids = ["gb/123", "a/50%/b", "x//y", "/lead", "trail/", "ü/ß"]
        for id in ids {
            let respelled = PlaceIDSpelling.canonical(id)
            #expect(!respelled.contains("/"))
            #expect(PlaceIDSpelling.canonical(respelled) == respelled, "idempotent: \(id)")
            #expect(PlaceIDSpelling.sourceSpelling(respelled) == id, "reversible: \(id)")
        }
        #expect(Set(ids.map(PlaceIDSpelling.canonical)).count == ids.count)
        #expect(PlaceIDSpelling.sourceSpelling("plain") == nil)
    }

    @Test("a place ID or resource name is parsed into the one spelling")
    func parsing() throws {
        #expect(PlaceID(parsing: "places/osm:node/42").rawValue == "osm:n42")
        #expect(PlaceID(parsing: "osm:node/42").rawValue == "osm:n42")
        #expect(PlaceID(parsing: "places/osm:n42").rawValue == "osm:n42")
        #expect(PlaceID(parsing: "places/ChIJabc").rawValue == "ChIJabc")
        #expect(PlaceID(parsing: "gb/1").rawValue == "gb%2F1")
        #expect(
            PlaceID(parsing: "places/gb/1").rawValue == "places%2Fgb%2F1",
            "a '/' after places/ that is no old spelling is part of the ID")
        #expect(try PhotoName.Query(parsing: "places/osm:node/42/photos/ref1") == .name("places/osm:n42/photos/ref1"))
        #expect(try PhotoName.Query(parsing: "places/osm:n42/photos/ref1/media") == .name("places/osm:n42/photos/ref1"))
    }

    @Test("the Maps CID is the digits of the cid= parameter of googleMapsUri or the legacy url")
    func mapsCID() {
        #expect(
            PlaceIDSpelling.cid(ofMapsURI: "https://maps.google.com/?cid=10281119596374313554")
                == "10281119596374313554")
        #expect(
            PlaceIDSpelling.cid(
                ofMapsURI:
                    "https://maps.google.com/?cid=123&g_mp=Cidnb29nbGUubWFwcy5wbGFjZXMudjEuUGxhY2VzLlNlYXJjaE5lYXJieRACGAQgAA"
            ) == "123")
        #expect(PlaceIDSpelling.cid(ofMapsURI: "https://maps.google.com/maps?hl=en&cid=77") == "77")
        #expect(PlaceIDSpelling.cid(ofMapsURI: "https://maps.google.com/?q=cid=9") == nil)
        #expect(PlaceIDSpelling.cid(ofMapsURI: "https://maps.google.com/?cid=") == nil)
        #expect(PlaceIDSpelling.cid(ofMapsURI: "https://maps.google.com/?cid=0x12ab") == nil)
        #expect(PlaceIDSpelling.cid(ofMapsURI: "https://www.google.com/maps/place/?q=place_id:ChIJ") == nil)
        #expect(
            PlaceIDSpelling.isBareCID("10281119596374313554") && !PlaceIDSpelling.isBareCID("12a")
                && !PlaceIDSpelling.isBareCID(""))
    }
}

@Suite("Place ID spelling in the database")
struct PlaceIDSpellingStoreTests {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }
    init() throws { dir = try TempDirectory() }

    func load(_ text: String, name: String = "in.ndjson") throws {
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write(name, text)))
    }

    func resolve(_ id: String) throws -> PlaceIDResolution {
        try PlaceReader(databasePath: db).resolvePlaceID(PlaceID(id))
    }

    @Test("an OpenStreetMap feature is stored as osm:n..., and answers under both spellings")
    func importedOSM() throws {
        try load(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[7.42,43.73]},"properties":{"@type":"node","@id":1794111149,"amenity":"cafe","name":"Café"}}"#
                + "\n",
            name: "in.geojsonseq")
        let reader = try PlaceReader(databasePath: db)
        #expect(try reader.fetchPlace(id: "osm:n1794111149").id == "osm:n1794111149")
        #expect(try reader.fetchPlace(id: "osm:node/1794111149").id == "osm:n1794111149")
        let old = try resolve("osm:node/1794111149")
        #expect(
            old.status == .current && old.placeID == "osm:n1794111149" && old.requestedID == "osm:node/1794111149"
                && old.chain.isEmpty)
        #expect(try resolve("osm:way/1794111149").status == .notFound, "node and way numbers are separate")
        let json = try JSONValue(
            parsing: reader.placeDetailsJSON(
                id: "osm:node/1794111149", fields: FieldMask(parsing: "id"), openNow: false, at: .instant(Date())))
        #expect(json == ["id": "osm:n1794111149"])
        let whole = try JSONValue(
            parsing: reader.placeDetailsJSON(
                id: "osm:node/1794111149", fields: .all, openNow: false, at: .instant(Date())))
        #expect(whole["name"] == "places/osm:n1794111149" && whole["requestedId"] == nil, "a spelling is no move")
    }

    @Test("a record under an old or a '/' ID is stored in the one spelling, with its photos, aliases and requested ID")
    func importedRespelled() throws {
        try load(
            """
            {"id":"osm:node/7","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/osm:node/7/photos/r1","widthPx":10,"heightPx":10}]}
            {"id":"gb/shop/1","location":{"latitude":1,"longitude":2.001},"displayName":{"text":"Slash"}}
            {"id":"osm:way/9","location":{"latitude":1,"longitude":2},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"osm:node/7"}
            {"requestedId":"osm:relation/3","place":{"id":"gb/shop/1","location":{"latitude":1,"longitude":2.001}}}

            """)
        let reader = try PlaceReader(databasePath: db)
        let photo = try reader.fetchPlace(id: "osm:n7").photos.first
        #expect(photo?.name == "places/osm:n7/photos/r1")
        #expect(try reader.photoMetadata(named: "places/osm:node/7/photos/r1").name == "places/osm:n7/photos/r1")
        #expect(try reader.fetchPlace(id: "gb%2Fshop%2F1").displayName?.text == "Slash")
        #expect(try resolve("gb/shop/1").placeID == "gb%2Fshop%2F1")
        let moved = try resolve("osm:w9")
        #expect(moved.status == .moved && moved.placeID == "osm:n7")
        let requested = try resolve("osm:relation/3")
        #expect(requested.placeID == "gb%2Fshop%2F1" && requested.chain.first?.from == "osm:r3")
        var ids: [String] = []
        try reader.store.db.forEachRow(
            "SELECT place_id FROM place UNION ALL SELECT alias_id FROM place_alias UNION ALL SELECT place_id FROM place_alias"
        ) { ids.append(try $0.string(0)) }
        #expect(!ids.contains { $0.contains("/") }, "\(ids)")
    }

    @Test("a Google place's Maps CID resolves to it, as cid:DIGITS and as the bare number; an unknown one is NOT_FOUND")
    func mapsCID() throws {
        try load(
            """
            {"id":"ChIJtehran","location":{"latitude":35.7,"longitude":51.4},"displayName":{"text":"Kafe"},"googleMapsUri":"https://maps.google.com/?cid=10281119596374313554&g_mp=x"}
            {"place_id":"ChIJlegacy","geometry":{"location":{"lat":1,"lng":2}},"name":"Legacy","url":"https://maps.google.com/?cid=42"}

            """)
        for (cid, id) in [("10281119596374313554", "ChIJtehran"), ("42", "ChIJlegacy")] {
            let prefixed = try resolve("cid:\(cid)")
            #expect(prefixed.status == .current && prefixed.placeID == id && prefixed.chain.map(\.reason) == [.cid])
            let bare = try resolve(cid)
            #expect(bare.status == .current && bare.placeID == id && bare.requestedID == cid)
        }
        #expect(try PlaceReader(databasePath: db).fetchPlace(id: "10281119596374313554").id == "ChIJtehran")
        #expect(try resolve("cid:1").status == .notFound)
        #expect(try resolve("999").status == .notFound)
    }

    @Test("a bare number that is a place's own ID is that place, not a CID")
    func bareNumberIsAnID() throws {
        try load(
            """
            {"id":"42","location":{"latitude":1,"longitude":2},"displayName":{"text":"Number"}}
            {"id":"ChIJx","location":{"latitude":1,"longitude":2},"googleMapsUri":"https://maps.google.com/?cid=42"}

            """)
        #expect(try resolve("42").placeID == "42")
        #expect(try resolve("cid:42").placeID == "ChIJx")
    }

    @Test(
        "migration 13 respells a version 12 database's IDs in every table, adds its CIDs, and it answers under both spellings"
    )
    func migrationFromVersion12() throws {
        try load(
            """
            {"id":"osm:n5","location":{"latitude":1,"longitude":2},"displayName":{"text":"Five"},"photos":[{"name":"places/osm:n5/photos/p5","widthPx":10,"heightPx":10}]}
            {"id":"osm:w6","location":{"latitude":1,"longitude":2.0001},"displayName":{"text":"Six"}}
            {"id":"gb%2F7","location":{"latitude":1,"longitude":2.0002},"displayName":{"text":"Seven"}}
            {"id":"ChIJg","location":{"latitude":1,"longitude":2.0003},"displayName":{"text":"G"},"googleMapsUri":"https://maps.google.com/?cid=555"}

            """)
        do {
            // Back to version 12, as today's placedb wrote it: old spellings everywhere.
            let store = try PlaceImporter(databasePath: db).store
            try store.db.execute(
                """
                \(SchemaRollback.indexGeneration)
                UPDATE place SET place_id = 'osm:node/5', doc = replace(doc, 'places/osm:n5/', 'places/osm:node/5/') WHERE place_id = 'osm:n5';
                UPDATE place SET place_id = 'osm:way/6' WHERE place_id = 'osm:w6';
                UPDATE place SET place_id = 'gb/7' WHERE place_id = 'gb%2F7';
                UPDATE place_photo SET name = 'places/osm:node/5/photos/p5';
                INSERT INTO photo_image (name, reference, format, width, height, bytes, added_at) VALUES ('places/osm:node/5/photos/p5', 'p5', 'png', 1, 1, x'00', '2026-01-01T00:00:00Z');
                DROP TABLE place_alias;
                CREATE TABLE place_alias (
                    id INTEGER PRIMARY KEY, alias_id TEXT NOT NULL, place_id TEXT NOT NULL,
                    reason TEXT NOT NULL CHECK (reason IN ('moved', 'redrawn', 'renumbered', 'merged', 'split', 'requested-returned', 'deprecated', 'explicit')),
                    source TEXT, confidence REAL NOT NULL DEFAULT 1 CHECK (confidence > 0 AND confidence <= 1), evidence TEXT, run INTEGER NOT NULL,
                    UNIQUE (alias_id, place_id));
                CREATE INDEX place_alias_by_place ON place_alias(place_id);
                INSERT INTO place_alias (alias_id, place_id, reason, confidence, run) VALUES ('osm:node/4', 'osm:way/6', 'redrawn', 0.9, 1), ('old/id', 'gb/7', 'explicit', 1, 1);
                INSERT INTO link_rule (a, b, kind, preferred) VALUES ('osm:node/5', 'osm:way/6', 'different', NULL);
                INSERT INTO link_rule (a, b, kind, preferred) VALUES ('ChIJg', 'osm:node/5', 'same', 'osm:node/5');
                INSERT INTO place_group (id, doc, provenance, members) SELECT id, '{"photos":[{"name":"places/osm:node/5/photos/p5"}]}', '{"displayName":"osm:node/5","photos":"gb/7"}', '["osm:node/5","ChIJg","gb/7"]' FROM place WHERE place_id = 'osm:node/5';
                -- (14: the date of the data of each run.)
                ALTER TABLE import_run DROP COLUMN data_time;
                DELETE FROM schema_migration WHERE version >= 13;
                PRAGMA user_version = 12;
                """)
            #expect(throws: (any Error).self, "version 12 knows no cid reason") {
                try store.db.execute(
                    "INSERT INTO place_alias (alias_id, place_id, reason, run) VALUES ('cid:1', 'ChIJg', 'cid', 1)")
            }
        }
        let store = try PlaceImporter(databasePath: db).store
        #expect(try Migrator.storedVersion(store.db) == Schema.migrator.latestVersion)
        func rows(_ sql: String) throws -> [String] {
            var out: [String] = []
            try store.db.forEachRow(sql) { row in out.append(try row.string(0)) }
            return out
        }
        #expect(try rows("SELECT place_id FROM place ORDER BY place_id") == ["ChIJg", "gb%2F7", "osm:n5", "osm:w6"])
        #expect(
            try rows("SELECT alias_id || ' ' || place_id || ' ' || reason FROM place_alias ORDER BY alias_id")
                == ["cid:555 ChIJg cid", "old%2Fid gb%2F7 explicit", "osm:n4 osm:w6 redrawn"])
        #expect(try rows("SELECT name FROM place_photo") == ["places/osm:n5/photos/p5"])
        #expect(try rows("SELECT name FROM photo_image") == ["places/osm:n5/photos/p5"])
        #expect(
            try rows("SELECT a || ' ' || b || ' ' || kind || ' ' || coalesce(preferred, '-') FROM link_rule ORDER BY a")
                == ["ChIJg osm:n5 same osm:n5", "osm:n5 osm:w6 different -"])
        #expect(
            try rows("SELECT members || provenance || doc FROM place_group")
                == [
                    #"["osm:n5","ChIJg","gb%2F7"]{"displayName":"osm:n5","photos":"gb%2F7"}{"photos":[{"name":"places/osm:n5/photos/p5"}]}"#
                ])
        #expect(
            try rows("SELECT json_extract(doc, '$.photos[0].name') FROM place WHERE place_id = 'osm:n5'") == [
                "places/osm:n5/photos/p5"
            ])

        let reader = try PlaceReader(databasePath: db)
        for (given, id) in [
            ("osm:node/5", "osm:n5"), ("osm:n5", "osm:n5"), ("osm:way/6", "osm:w6"), ("gb/7", "gb%2F7"),
            ("gb%2F7", "gb%2F7"),
            ("osm:node/4", "osm:w6"), ("old/id", "gb%2F7"), ("555", "ChIJg"), ("cid:555", "ChIJg"),
        ] {
            #expect(try reader.resolvePlaceID(PlaceID(given)).placeID == id, "\(given)")
        }
        #expect(try reader.resolvePlaceID("osm:node/6").status == .notFound)
        #expect(try reader.photoMetadata(named: "places/osm:node/5/photos/p5").name == "places/osm:n5/photos/p5")
    }
}
