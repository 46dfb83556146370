import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB

@Suite("Database schema")
struct SchemaTests {
    static let goldenPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("../../Schemas/schema.sql").standardizedFileURL.path

    @Test("the migrations produce the golden schema in Schemas/schema.sql")
    func migrationsMatchGoldenSchema() throws {
        let dir = try TempDirectory()
        let importer = try PlaceImporter(databasePath: dir.file("places.sqlite"))
        let dump = try Schema.dump(importer.store.db)
        if ProcessInfo.processInfo.environment["PLACEDB_RECORD_GOLDEN"] == "1" {
            try dump.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        #expect(dump == golden, "schema drifted: re-record on purpose with PLACEDB_RECORD_GOLDEN=1 swift test --filter SchemaTests")
    }

    @Test("a new database records its schema version and is in WAL mode")
    func versionAndWAL() throws {
        let dir = try TempDirectory()
        let importer = try PlaceImporter(databasePath: dir.file("places.sqlite"))
        let db = importer.store.db
        #expect(try Migrator.storedVersion(db) == Schema.migrator.latestVersion)
        #expect(try db.scalar("PRAGMA journal_mode")?.string == "wal")
        #expect(try db.scalar("SELECT count(*) FROM schema_migration")?.int == Schema.migrator.migrations.count)
    }

    @Test("a database from a newer placedb is refused with a clear message")
    func newerDatabaseRefused() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            let importer = try PlaceImporter(databasePath: path)
            try importer.store.db.execute("PRAGMA user_version = 99")
        }
        #expect {
            _ = try PlacesClient(databasePath: path)
        } throws: { error in
            "\(error)".contains("newer placedb")
        }
        #expect {
            _ = try PlaceImporter(databasePath: path)
        } throws: { error in
            "\(error)".contains("newer placedb")
        }
    }

    @Test("a file that is not a database is refused, never trapped on")
    func notADatabase() throws {
        let dir = try TempDirectory()
        let path = try dir.write("places.sqlite", String(repeating: "this is not sqlite\n", count: 100))
        #expect {
            _ = try PlacesClient(databasePath: path)
        } throws: { error in
            "\(error)".contains("not an SQLite database")
        }
    }

    @Test("another application's SQLite file is not taken over")
    func foreignDatabase() throws {
        let dir = try TempDirectory()
        let path = dir.file("other.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE notes (body TEXT)")
        }
        #expect {
            _ = try PlaceImporter(databasePath: path)
        } throws: { error in
            "\(error)".contains("not a placedb one")
        }
    }

    @Test("a missing database is reported as missing")
    func missingDatabase() throws {
        let dir = try TempDirectory()
        #expect {
            _ = try PlacesClient(databasePath: dir.file("absent.sqlite"))
        } throws: { error in
            if case PlaceDBError.noDatabase = error { return true }
            return false
        }
    }

    @Test("the file is a real SpatiaLite database: CheckSpatialIndex is 1 and ogrinfo lists the point layer")
    func realSpatiaLite() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        let input = try dir.write("in.ndjson", """
            {"id":"a","displayName":{"text":"A"},"location":{"latitude":46.5,"longitude":6.6},"types":["cafe"]}
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":-33.86,"longitude":151.2},"types":["park"]}
            """)
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(input))
        }
        let spatialite = try Tool.run("spatialite", [path, "SELECT CheckSpatialIndex()"])
        try #require(spatialite.status == 0, "spatialite CLI failed: \(spatialite.stderr) (Scripts/setup installs spatialite-bin)")
        #expect(spatialite.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")

        let ogr = try Tool.run("ogrinfo", ["-so", path, "place"])
        try #require(ogr.status == 0, "ogrinfo failed: \(ogr.stderr) (Scripts/setup installs gdal-bin)")
        #expect(ogr.stdout.contains("Geometry: Point"))
        #expect(ogr.stdout.contains("Feature Count: 2"))
        #expect(ogr.stdout.contains("WGS 84"))

        // The spatial index answers a window query through SpatiaLite.
        let hits = try Tool.run("spatialite", [path, """
            SELECT group_concat(place_id) FROM place WHERE id IN (
              SELECT pkid FROM idx_place_geom WHERE xmin <= 7 AND xmax >= 6 AND ymin <= 47 AND ymax >= 46)
            """])
        #expect(hits.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a")
    }
}

