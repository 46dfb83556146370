import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

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
            out[try row.string(0)] = (row.optionalString(1), row.optionalString(2))
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

        let client = try PlaceReader(databasePath: db)
        let place = try client.fetchPlace(id: "no-zone")
        #expect(place.timeZone == "Europe/Zurich")
        #expect(place.timeZoneSource == .importOption)
        let s = place.isOpen(at: F.at("2026-03-29T06:30:00Z"))
        #expect(s.state == .open, "08:30 CEST")
        #expect(s.timeZone == "Europe/Zurich")
        #expect(s.timeZoneSource == .importOption)
        #expect(try client.fetchPlace(id: "own-zone").timeZoneSource == .data)
        #expect(
            try client.fetchPlace(id: "offset-only").isOpen(at: F.at("2026-03-29T06:30:00Z")).timeZoneSource
                != .importOption)

        // The run records the option.
        let database = try Database(path: db, mode: .readOnly)
        let options = try database.scalar("SELECT options FROM import_run ORDER BY id DESC LIMIT 1")?.string ?? ""
        #expect(options.contains(#""timeZone":"Europe/Zurich""#))
    }

    @Test("an OpenStreetMap feature's opening_hours become its regular hours, read in the import's zone")
    func osmFeature() throws {
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let line =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[11.57,48.14]},"properties":{"@type":"node","@id":42,"@version":3,"name":"Bäckerei","shop":"bakery","opening_hours":"Mo-Sa 07:00-12:30; PH off"}}"#
        let file = try dir.write("munich.geojsonseq", "\u{1E}" + line + "\n")
        _ = try PlaceImporter(databasePath: db, options: ImportOptions(timeZone: "Europe/Berlin")).importInput(
            .file(file))
        let place = try PlaceReader(databasePath: db).fetchPlace(id: "osm:n42")
        #expect(place.document["regularOpeningHours"]?[OSMOpeningHours.jsonKey] == "Mo-Sa 07:00-12:30; PH off")
        #expect(place.openingHours?.periods?.count == 6)
        let s = place.isOpen(at: F.at("2026-03-30T08:00:00Z"))
        #expect(s.state == .open, "10:00 CEST on a Monday")
        #expect(s.nextCloseTime == F.at("2026-03-30T10:30:00Z"))
        #expect(s.timeZoneSource == .importOption)
        #expect(s.hours == "regularOpeningHours (OpenStreetMap opening_hours)")
    }

    @Test("without the option nothing gets a zone; re-importing with it is an update, with it again nothing changes")
    func reimport() throws {
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let file = try dir.write("in.ndjson", Self.input)
        _ = try PlaceImporter(databasePath: db).importInput(.file(file))
        #expect(try rows(db)["no-zone"]?.zone == nil)
        #expect(
            try PlaceReader(databasePath: db).fetchPlace(id: "no-zone").isOpen(at: F.at("2026-03-30T10:00:00Z")).state
                == .unknown)
        let withZone = try PlaceImporter(databasePath: db, options: ImportOptions(timeZone: "Europe/Zurich"))
        let second = try withZone.importInput(.file(file))
        #expect(second.updated == 1 && second.unchanged == 2)
        #expect(try withZone.importInput(.file(file)).changedNothing)
        #expect(try rows(db)["no-zone"]?.source == "import-option")
    }

    @Test(
        "an unknown zone is refused before anything is written",
        arguments: ["Mars/Base", "europe/zurich", "GMT+1", "", "CEST"])
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

    @Test(
        "IANA names are accepted",
        arguments: ["Europe/Zurich", "Asia/Tehran", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT-3"])
    func validZone(zone: String) {
        #expect(ImportOptions.isValidTimeZone(zone))
    }

    @Test("a database from before the time zone source is upgraded: places with a zone get the source 'data'")
    func migration() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            let db = try Database(path: path, mode: .create)
            try db.loadExtension("mod_spatialite")
            let before = Array(Schema.migrator.migrations.prefix { !$0.sql.contains("time_zone_source") })
            try Migrator(application: "placedb", migrations: before).migrate(db)
            let blob = SpatiaLiteBlob.withPoint(Coordinate(latitude: 46.5, longitude: 6.6)) { Array($0) }
            try db.run(
                """
                INSERT INTO place (place_id, time_zone, source, first_run, last_run, updated_run, content_hash, doc, geom)
                VALUES ('old', 'Europe/Zurich', 'google-places', 1, 1, 1, 0, '{"timeZone":{"id":"Europe/Zurich"}}', ?)
                """, [.blob(blob)])
        }
        _ = try PlaceImporter(databasePath: path)
        #expect(try rows(path)["old"]?.source == "data")
        #expect(try PlaceReader(databasePath: path).fetchPlace(id: "old").timeZoneSource == .data)
    }
}
