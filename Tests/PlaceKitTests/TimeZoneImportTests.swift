import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB

@Suite("import --time-zone and where a place's zone came from")
struct TimeZoneImportTests {
    typealias F = HoursFixtures

    static let input = """
        {"id":"no-zone","location":{"latitude":46.5,"longitude":6.6},"regularOpeningHours":{"periods":[\(F.daily("08:00", "18:00"))]}}
        {"id":"offset-only","location":{"latitude":46.5,"longitude":6.6},"utcOffsetMinutes":60}
        {"id":"own-zone","location":{"latitude":40.7,"longitude":-74.0},"timeZone":{"id":"America/New_York"}}

        """

    func rows(_ db: String) throws -> [String: (zone: String?, source: String?)] {
        let database = try Database(path: db, mode: .readOnly)
        var out: [String: (String?, String?)] = [:]
        try database.forEachRow("SELECT place_id, time_zone, time_zone_source FROM place") { row in
            out[row.string(0) ?? ""] = (row.string(1), row.string(2))
        }
        return out
    }

    @Test("the zone goes to the places with neither timeZone nor utcOffsetMinutes, and its source is stored and shown")
    func appliesToPlacesWithoutZone() throws {
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let file = try dir.write("in.ndjson", Self.input)
        let importer = try PlaceImporter(databasePath: db, options: ImportOptions(timeZone: "Europe/Zurich"))
        #expect(try importer.importInput(.file(file)).inserted == 3)
        let stored = try rows(db)
        #expect(stored["no-zone"]?.zone == "Europe/Zurich")
        #expect(stored["no-zone"]?.source == "import-option")
        #expect(stored["offset-only"]?.zone == nil)
        #expect(stored["offset-only"]?.source == nil)
        #expect(stored["own-zone"]?.zone == "America/New_York")
        #expect(stored["own-zone"]?.source == "data")

        let client = try PlacesClient(databasePath: db)
        let place = try client.fetchPlace(id: "no-zone")
        #expect(place.timeZone == "Europe/Zurich")
        #expect(place.timeZoneSource == .importOption)
        let s = place.isOpen(at: F.at("2026-03-29T06:30:00Z"))
        #expect(s.state == .open, "08:30 CEST")
        #expect(s.timeZone == "Europe/Zurich")
        #expect(s.timeZoneSource == .importOption)
        #expect(try client.fetchPlace(id: "own-zone").timeZoneSource == .data)
        #expect(try client.fetchPlace(id: "offset-only").isOpen(at: F.at("2026-03-29T06:30:00Z")).timeZoneSource != .importOption)

        // The run records the option.
        let database = try Database(path: db, mode: .readOnly)
        let options = try database.scalar("SELECT options FROM import_run ORDER BY id DESC LIMIT 1")?.string ?? ""
        #expect(options.contains(#""timeZone":"Europe/Zurich""#))
    }

    @Test("without the option nothing gets a zone; re-importing with it is an update, with it again nothing changes")
    func reimport() throws {
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let file = try dir.write("in.ndjson", Self.input)
        _ = try PlaceImporter(databasePath: db).importInput(.file(file))
        #expect(try rows(db)["no-zone"]?.zone == nil)
        #expect(try PlacesClient(databasePath: db).fetchPlace(id: "no-zone").isOpen(at: F.at("2026-03-30T10:00:00Z")).state == .unknown)
        let withZone = try PlaceImporter(databasePath: db, options: ImportOptions(timeZone: "Europe/Zurich"))
        let second = try withZone.importInput(.file(file))
        #expect(second.updated == 1 && second.unchanged == 2)
        #expect(try withZone.importInput(.file(file)).changedNothing)
        #expect(try rows(db)["no-zone"]?.source == "import-option")
    }

    @Test("an unknown zone is refused before anything is written", arguments: ["Mars/Base", "europe/zurich", "GMT+1", "", "CEST"])
    func invalidZone(zone: String) throws {
        let dir = try TempDirectory()
        #expect(!ImportOptions.isValidTimeZone(zone))
        #expect {
            _ = try PlaceImporter(databasePath: dir.file("places.sqlite"), options: ImportOptions(timeZone: zone))
        } throws: { error in
            guard case PlaceDBError.invalidArgument(let message) = error else { return false }
            return message.contains("unknown time zone '\(zone)'")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file("places.sqlite")))
    }

    @Test("IANA names are accepted", arguments: ["Europe/Zurich", "Asia/Tehran", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT-3"])
    func validZone(zone: String) {
        #expect(ImportOptions.isValidTimeZone(zone))
    }

    @Test("a version-1 database is upgraded: places with a zone get the source 'data'")
    func migration() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            let db = try Database(path: path, mode: .create)
            try db.loadExtension("mod_spatialite")
            try Migrator(application: "placedb", migrations: [Schema.migrator.migrations[0]]).migrate(db)
            let blob = SpatiaLiteBlob.point(Coordinate(latitude: 46.5, longitude: 6.6))
            try db.run("""
                INSERT INTO place (place_id, time_zone, source, source_format, first_seen, last_seen, updated_at, content_hash, doc, geom)
                VALUES ('old', 'Europe/Zurich', 'google-places', 'places-v1', 'x', 'x', 'x', 0, '{"location":{"latitude":46.5,"longitude":6.6},"timeZone":{"id":"Europe/Zurich"}}', ?)
                """, [.blob(blob)])
        }
        _ = try PlaceImporter(databasePath: path)
        #expect(try rows(path)["old"]?.source == "data")
        #expect(try PlacesClient(databasePath: path).fetchPlace(id: "old").timeZoneSource == .data)
    }
}
