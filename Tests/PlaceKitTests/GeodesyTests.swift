import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("Geodesy")
struct GeodesyTests {
    @Test(
        "RFC 3339 times, with offsets and fractions, and what is refused",
        arguments: [
            ("2026-05-01T12:30:00Z", 1_777_638_600.0),
            ("2026-05-01T14:30:00+02:00", 1_777_638_600.0),
            ("2026-05-01t12:30:00.25z", 1_777_638_600.25),
            ("1969-12-31T23:59:59-00:00", -1.0),
        ])
    func rfc3339(text: String, seconds: Double) {
        #expect(CurrentPlaceRequest.parseTime(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(
        "malformed times are nil",
        arguments: ["2026-05-01", "2026-13-01T00:00:00Z", "2026-05-01T12:30:00", "2026-05-01T12:30:00+0200", "noon"])
    func badTimes(text: String) {
        #expect(CurrentPlaceRequest.parseTime(text) == nil)
    }

    /// Where the two parsers of RFC 3339 differed before they became one
    /// (`RFC3339.parse`): the instant reader took February 30th as March
    /// 2nd, a leap second as the next minute, and refused a time without
    /// seconds; `HoursQueryTime` refused, clamped and accepted them.
    @Test(
        "the instant reader and the --at reader agree",
        arguments: [
            ("2026-02-30T10:00:00Z", nil),
            ("2025-02-29T00:00:00Z", nil),
            ("2024-02-29T00:00:00Z", 1_709_164_800.0),
            ("2026-04-31T00:00:00+02:00", nil),
            ("2026-05-01T12:30:60Z", 1_777_638_659.0),
            ("2026-05-01T12:30Z", 1_777_638_600.0),
            ("2026-05-01T14:30+02:00", 1_777_638_600.0),
            ("2026-05-01T12:30:00.75Z", 1_777_638_600.75),
            ("2026-05-01 12:30:00z", 1_777_638_600.0),
            ("2026-05-01T12:30:00Z ", nil),
            ("2026-05-01T24:00:00Z", nil),
            ("2026-05-01T12:30:00+24:00", nil),
        ] as [(String, Double?)])
    func oneReader(text: String, seconds: Double?) {
        #expect(CurrentPlaceRequest.parseTime(text)?.timeIntervalSince1970 == seconds)
        let expected: HoursQueryTime? = seconds.map { .instant(Date(timeIntervalSince1970: $0.rounded(.down))) }
        #expect(HoursQueryTime(parsing: text) == expected)
    }
}

@Suite("Place extents")
struct PlaceExtentTests {
    @Test("triggers keep place_extent in step with the documents' viewports")
    func triggers() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        let v1 = try dir.write(
            "a.ndjson",
            #"{"id":"a","location":{"latitude":1,"longitude":2},"viewport":{"low":{"latitude":0.5,"longitude":1.5},"high":{"latitude":1.5,"longitude":2.5}}}"#
                + "\n"
                + #"{"id":"fiji","location":{"latitude":-17,"longitude":179.99},"viewport":{"low":{"latitude":-17.1,"longitude":179.9},"high":{"latitude":-16.9,"longitude":-179.9}}}"#
                + "\n")
        let importer = try PlaceImporter(databasePath: path)
        _ = try importer.importInput(.file(v1))
        let db = importer.store.db
        func extent(_ id: String) throws -> [Double]? {
            var out: [Double]?
            try db.forEachRow(
                "SELECT west, east, south, north FROM place_extent WHERE id = (SELECT id FROM place WHERE place_id = ?)",
                [.text(id)]
            ) { row in
                out = try (0..<4).map { Double(Float(try row.double($0))) }
            }
            return out
        }
        let a = try #require(try extent("a"))
        #expect(abs(a[0] - 1.5) < 1e-5 && abs(a[1] - 2.5) < 1e-5 && abs(a[2] - 0.5) < 1e-5 && abs(a[3] - 1.5) < 1e-5)
        let fiji = try #require(try extent("fiji"))
        #expect(abs(fiji[1] - 180.1) < 1e-4, "a viewport across the antimeridian is stored with east + 360")
        // A record without a viewport leaves the stored one (docs/merging.md);
        // one with another viewport moves the extent.
        let v2 = try dir.write("b.ndjson", #"{"id":"a","location":{"latitude":1,"longitude":2}}"# + "\n")
        _ = try importer.importInput(.file(v2))
        #expect(try extent("a") != nil, "a record without a viewport keeps the stored one")
        let v3 = try dir.write(
            "c.ndjson",
            #"{"id":"a","location":{"latitude":1,"longitude":2},"viewport":{"low":{"latitude":0.75,"longitude":1.75},"high":{"latitude":1.25,"longitude":2.25}}}"#
                + "\n")
        _ = try importer.importInput(.file(v3))
        let moved = try #require(try extent("a"))
        #expect(abs(moved[0] - 1.75) < 1e-5 && abs(moved[3] - 1.25) < 1e-5, "a new viewport moves the extent")
        try db.execute("DELETE FROM place WHERE place_id IN ('a', 'fiji')")
        #expect(try db.scalar("SELECT count(*) FROM place_extent")?.int == 0)
    }

    @Test(
        "an import stores the same extents as the triggers would",
        arguments: [
            #"{"low":{"latitude":1,"longitude":2},"high":{"latitude":1.5,"longitude":2.5}}"#,
            #"{"low":{"latitude":-17.1,"longitude":179.9},"high":{"latitude":-16.9,"longitude":-179.9}}"#,
            #"{"low":{"latitude":2,"longitude":2},"high":{"latitude":1,"longitude":3}}"#,
            #"{"low":{"latitude":"1","longitude":2},"high":{"latitude":1.5,"longitude":2.5}}"#,
            #"{"low":{"latitude":1,"longitude":-181},"high":{"latitude":1.5,"longitude":2.5}}"#,
            #"{"low":{"latitude":1,"longitude":2}}"#,
        ])
    func bulkMatchesTriggers(viewport: String) throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        let file = try dir.write(
            "a.ndjson", #"{"id":"a","location":{"latitude":1.2,"longitude":2.2},"viewport":\#(viewport)}"# + "\n")
        let importer = try PlaceImporter(databasePath: path)
        _ = try importer.importInput(.file(file))
        let db = importer.store.db
        func rows() throws -> [[Double]] {
            var out: [[Double]] = []
            try db.forEachRow("SELECT west, east, south, north FROM place_extent") { row in
                out.append(try (0..<4).map { try row.double($0) })
            }
            return out
        }
        let bulk = try rows()
        try db.execute("UPDATE place SET doc = doc")
        #expect(try rows() == bulk)
        try db.execute("DELETE FROM place_extent")
        try db.execute("UPDATE place SET doc = doc")
        #expect(try rows() == bulk, "the update trigger rebuilds what the import wrote")
    }

    @Test("migrating a version 1 database fills place_extent from the stored viewports")
    func migrationBackfills() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            let db = try Database(path: path)
            try db.loadExtension("mod_spatialite")
            try Migrator(application: "placedb", migrations: [Schema.migrator.migrations[0]]).migrate(db)
            try db.execute(
                """
                INSERT INTO import_run (id, input, status, started_at) VALUES (1, 'test', 'ok', '2026-01-01T00:00:00Z');
                INSERT INTO place (place_id, source, first_run, last_run, updated_run, content_hash, doc, geom)
                VALUES ('old', 'test', 1, 1, 1, 0,
                        '{"viewport":{"low":{"latitude":0.999,"longitude":1.999},"high":{"latitude":1.001,"longitude":2.001}}}',
                        MakePoint(2, 1, 4326))
                """)
        }
        let importer = try PlaceImporter(databasePath: path)
        #expect(try Migrator.storedVersion(importer.store.db) == Schema.migrator.latestVersion)
        #expect(try importer.store.db.scalar("SELECT count(*) FROM place_extent")?.int == 1)
        let client = try PlaceReader(databasePath: path)
        let r = try client.findPlaceLikelihoods(
            location: Coordinate(latitude: 1.0008, longitude: 2.0008), accuracy: 10, explain: true)
        #expect(r.placeLikelihoods.first?.explanation?.footprint == "viewport")
    }
}
