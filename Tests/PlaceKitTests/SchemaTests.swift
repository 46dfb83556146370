import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

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
        #expect(
            dump == golden,
            "schema drifted: re-record on purpose with PLACEDB_RECORD_GOLDEN=1 swift test --filter SchemaTests")
    }

    @Test("a new database is built under a temporary name, then has its name, its schema version and WAL mode")
    func versionAndWAL() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        var importer: PlaceImporter? = try PlaceImporter(databasePath: path)
        #expect(importer?.databasePath == path)
        #expect(importer?.store.path == "\(path).new-\(getpid())")
        #expect(!FileManager.default.fileExists(atPath: path), "a reader could open the half-built file")
        #expect(try importer?.store.db.scalar("PRAGMA journal_mode")?.string == "delete")
        importer = nil
        let db = try Database(path: path, mode: .readOnly)
        #expect(try Migrator.storedVersion(db) == Schema.migrator.latestVersion)
        #expect(try db.scalar("PRAGMA journal_mode")?.string == "wal")
        #expect(try db.scalar("SELECT count(*) FROM schema_migration")?.int == Schema.migrator.migrations.count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".new-") } == [])
    }

    @Test("the schema version every open checks is the last migration's: the two cannot drift apart")
    func checkedVersionIsLastMigration() {
        #expect(PlaceStore.schemaVersion == Schema.migrator.latestVersion)
        #expect(Schema.migrator.migrations.last?.version == PlaceStore.schemaVersion)
    }

    /// An importer into a database that does not exist yet.
    func newDatabase() throws -> (dir: TempDirectory, path: String, importer: PlaceImporter) {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        return (dir, path, try PlaceImporter(databasePath: path))
    }

    @Test("after its first input a new database is at its name in WAL mode, and the next inputs write through the WAL")
    func newDatabaseAfterFirstInput() throws {
        let (dir, path, importer) = try newDatabase()
        let first = try dir.write("a.ndjson", #"{"id":"a","location":{"latitude":1,"longitude":2}}"# + "\n")
        let second = try dir.write("b.ndjson", #"{"id":"b","location":{"latitude":3,"longitude":4}}"# + "\n")
        #expect(try importer.importInput(.file(first)).inserted == 1)
        #expect(importer.store.path == path)
        #expect(try importer.store.db.scalar("PRAGMA journal_mode")?.string == "wal")
        // A reader sees the first input while the importer is still open.
        #expect(try PlaceReader(databasePath: path).fetchPlace(id: "a").id == "a")
        #expect(try importer.importInput(.file(second)).inserted == 1)
        #expect(try PlaceReader(databasePath: path).fetchPlace(id: "b").id == "b")
        #expect(!FileManager.default.fileExists(atPath: "\(path).new-\(getpid())"))
    }

    @Test("a failed first input leaves no database behind (readers say there is none), and the next input creates it")
    func newDatabaseAfterFailedInput() throws {
        let (dir, path, importer) = try newDatabase()
        let bad = try dir.write("bad.ndjson", #"{"id":"a","location":{"latitude":1,"longitude":2}}"# + "\n{\"id\": \n")
        #expect(throws: PlaceDBError.self) { try importer.importInput(.file(bad)) }
        #expect(!FileManager.default.fileExists(atPath: path))
        // (The importer still holds the database's import lock.)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("places.sqlite") } == [
                "places.sqlite.import-lock"
            ])
        #expect {
            try PlaceReader(databasePath: path).fetchPlace(id: "a")
        } throws: { error in
            if case PlaceDBError.noDatabase = error { return true }
            return false
        }
        // The same importer goes on into a new database.
        let good = try dir.write("good.ndjson", #"{"id":"b","location":{"latitude":1,"longitude":2}}"# + "\n")
        #expect(try importer.importInput(.file(good)).inserted == 1)
        let db = try Database(path: path, mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM place")?.int == 1)
    }

    @Test(
        "a new database never replaces a file that appeared at its name meanwhile; the error says where the import is")
    func newDatabaseRace() throws {
        let (dir, path, importer) = try newDatabase()
        try "someone else's".write(toFile: path, atomically: false, encoding: .utf8)
        let input = try dir.write("a.ndjson", #"{"id":"a","location":{"latitude":1,"longitude":2}}"# + "\n")
        do {
            _ = try importer.importInput(.file(input))
            Issue.record("the import moved its database over another file")
        } catch let error as PlaceDBError {
            #expect(
                "\(error)".contains("another process created it") && "\(error)".contains(".new-\(getpid())"), "\(error)"
            )
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's")
        let kept = try Database(path: "\(path).new-\(getpid())", mode: .readOnly)
        #expect(try kept.scalar("SELECT count(*) FROM place")?.int == 1)
    }

    @Test("a new database that cannot be created is reported under its own name")
    func newDatabaseInMissingDirectory() throws {
        let dir = try TempDirectory()
        let path = dir.file("no/such/places.sqlite")
        do {
            _ = try PlaceImporter(databasePath: path)
            Issue.record("a database was created in a missing directory")
        } catch let error as PlaceDBError {
            #expect("\(error)".contains(path) && !"\(error)".contains(".new-"), "\(error)")
        }
    }

    @Test("the temporary file of a killed import into a new database is removed by the next one; a live one's is kept")
    func abandonedTemporaryRemoved() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        // A process number that is not running (pid_max is at most 4194304).
        guard let gone = (4_000_000..<4_194_304).reversed().first(where: { kill(pid_t($0), 0) != 0 && errno == ESRCH })
        else {
            Issue.record("no unused process number found"); return
        }
        let abandoned = "\(path).new-\(gone)", live = "\(path).new-1"
        for file in [abandoned, abandoned + "-journal", live] {
            try "x".write(toFile: file, atomically: false, encoding: .utf8)
        }
        _ = try PlaceImporter(databasePath: path)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(!FileManager.default.fileExists(atPath: abandoned + "-journal"))
        #expect(FileManager.default.fileExists(atPath: live), "process 1 is running: its file is not abandoned")
        #expect(FileManager.default.fileExists(atPath: path))
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
            _ = try PlaceReader(databasePath: path)
        } throws: { error in
            "\(error)".contains("newer placedb")
        }
        #expect {
            _ = try PlaceImporter(databasePath: path)
        } throws: { error in
            "\(error)".contains("newer placedb")
        }
    }

    @Test("migration 8 renames the requested alias reason to requested-returned, keeping the rows")
    func requestedReasonRenamed() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            // A version 7 database (the migrations up to 7): the old CHECK, and an edge under the old name.
            let db = try Database(path: path)
            try db.loadExtension("mod_spatialite")
            try Migrator(application: "placedb", migrations: Array(Schema.migrator.migrations.prefix(7))).migrate(db)
            #expect(try Migrator.storedVersion(db) == 7)
            try db.execute(
                "INSERT INTO place_alias (id, alias_id, place_id, reason, confidence, run) VALUES (7, 'asked', 'returned', 'requested', 1, 1), (9, 'old', 'new', 'moved', 0.5, 1)"
            )
        }
        let store = try PlaceImporter(databasePath: path).store
        #expect(try Migrator.storedVersion(store.db) == Schema.migrator.latestVersion)
        var rows: [[DatabaseValue]] = []
        try store.db.forEachRow("SELECT id, alias_id, place_id, reason, confidence FROM place_alias ORDER BY id") {
            row in
            rows.append((0..<5).map { row[$0] })
        }
        #expect(
            rows == [
                [.integer(7), .text("asked"), .text("returned"), .text("requested-returned"), .real(1)],
                [.integer(9), .text("old"), .text("new"), .text("moved"), .real(0.5)],
            ])
        #expect(throws: (any Error).self, "the old name is no longer accepted") {
            try store.db.execute(
                "INSERT INTO place_alias (alias_id, place_id, reason, run) VALUES ('a', 'b', 'requested', 1)")
        }
    }

    @Test("migration 10 adds the change log to a version 9 database, and updates write before-images from then on")
    func changeLogAdded() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            let importer = try PlaceImporter(databasePath: path)
            try importer.store.db.execute(
                """
                \(SchemaRollback.indexGeneration)
                -- (12: links.)
                DROP TABLE place_link; DROP TABLE link_rule; DROP TABLE place_group; DROP TABLE link_setting; DROP INDEX place_by_group; ALTER TABLE place DROP COLUMN group_id;
                \(TextIndexTests.dropTextIndex)
                DROP TRIGGER place_change_before;
                DROP TABLE place_change;
                -- (14: the date of the data of each run.)
                ALTER TABLE import_run DROP COLUMN data_time;
                DELETE FROM schema_migration WHERE version >= 10;
                PRAGMA user_version = 9;
                """)
        }
        let first = try dir.write(
            "a.ndjson", #"{"id":"p","displayName":{"text":"Old"},"location":{"latitude":1,"longitude":2}}"# + "\n")
        let second = try dir.write(
            "b.ndjson", #"{"id":"p","displayName":{"text":"New"},"location":{"latitude":1,"longitude":2}}"# + "\n")
        // Two imports, one after the other: the second is the later capture
        // (two files of one import would be unordered: docs/merging.md).
        do {
            let importer = try PlaceImporter(databasePath: path)
            #expect(try Migrator.storedVersion(importer.store.db) == Schema.migrator.latestVersion)
            _ = try importer.importInput(.file(first))
        }
        let importer = try PlaceImporter(databasePath: path)
        _ = try importer.importInput(.file(second))
        var images: [[DatabaseValue]] = []
        try importer.store.db.forEachRow(
            "SELECT c.run, c.name, c.removed_run FROM place_change c JOIN place p ON p.id = c.place"
        ) { row in
            images.append((0..<3).map { row[$0] })
        }
        #expect(images == [[.integer(2), .text("Old"), .null]], "the name before run 2 renamed it")
    }

    @Test("a file that is not a database is refused, never trapped on")
    func notADatabase() throws {
        let dir = try TempDirectory()
        let path = try dir.write("places.sqlite", String(repeating: "this is not sqlite\n", count: 100))
        #expect {
            _ = try PlaceReader(databasePath: path)
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
            _ = try PlaceReader(databasePath: dir.file("absent.sqlite"))
        } throws: { error in
            if case PlaceDBError.noDatabase = error { return true }
            return false
        }
    }

    @Test("the file is a real SpatiaLite database: CheckSpatialIndex is 1 and ogrinfo lists the point layer")
    func realSpatiaLite() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        let input = try dir.write(
            "in.ndjson",
            """
            {"id":"a","displayName":{"text":"A"},"location":{"latitude":46.5,"longitude":6.6},"types":["cafe"]}
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":-33.86,"longitude":151.2},"types":["park"]}
            """)
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(input))
        }
        let spatialite = try Tool.run("spatialite", [path, "SELECT CheckSpatialIndex()"])
        try #require(
            spatialite.status == 0,
            "spatialite CLI failed: \(spatialite.stderr) (Scripts/setup installs spatialite-bin)")
        #expect(spatialite.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")

        let ogr = try Tool.run("ogrinfo", ["-so", path, "place"])
        try #require(ogr.status == 0, "ogrinfo failed: \(ogr.stderr) (Scripts/setup installs gdal-bin)")
        #expect(ogr.stdout.contains("Geometry: Point"))
        #expect(ogr.stdout.contains("Feature Count: 2"))
        #expect(ogr.stdout.contains("WGS 84"))

        // The spatial index answers a window query through SpatiaLite.
        let hits = try Tool.run(
            "spatialite",
            [
                path,
                """
                SELECT group_concat(place_id) FROM place WHERE id IN (
                  SELECT pkid FROM idx_place_geom WHERE xmin <= 7 AND xmax >= 6 AND ymin <= 47 AND ymax >= 46)
                """,
            ])
        #expect(hits.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "a")
    }
}
