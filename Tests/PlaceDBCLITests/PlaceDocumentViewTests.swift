import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceStorage
import PlaceModel
import SQLiteDB

/// The place_document view, read by SQL and by GDAL, against `placedb place`.
@Suite("the whole document in SQL: place_document and GDAL")
struct PlaceDocumentViewTests {
    /// Each live place's document from the view (SpatiaLite loaded, as
    /// ogr2ogr and the spatialite shell have it).
    static func viewDocuments(_ path: String) throws -> [String: JSONValue] {
        let store = try PlaceStore(path: path, writable: true)
        var out: [String: JSONValue] = [:]
        try store.db.forEachRow("SELECT place_id, document FROM place_document WHERE removed_at IS NULL") { row in
            let id = try row.string(0)
            out[id] = canonical(try JSONValue(parsing: try row.string(1)))
        }
        return out
    }

    static func importSample(_ cli: CLI) throws {
        let input = try cli.dir.write("p.ndjson", ExportCommandTests.places)
        #expect(cli.run(["import", input]).code == 0)
    }

    @Test("the view gives every place's document as placedb place does, members the columns hold put back")
    func viewMatchesPlace() throws {
        let cli = try CLI()
        try Self.importSample(cli)
        let layouts = try PlaceStore(path: cli.db, writable: false).db.scalar(
            "SELECT count(*) FROM place WHERE doc_layout > 0")?.int
        #expect(layouts == 3, "the stored documents leave members to the columns (else this test checks nothing)")
        let view = try Self.viewDocuments(cli.db)
        let answers = try Answers(databasePath: cli.db)
        #expect(view.count == 3)
        for (id, answer) in answers.places {
            #expect(Self.same(view[id], answer), "\(id): \(view[id].map { JSONWriter().string($0) } ?? "nil")")
        }
        // c2's coordinates have 16 and 17 significant digits: SQLite writes
        // 15, so they differ, by less than 1e-13 degrees.
        #expect(view["c2"]?["location"] != answers.places["c2"]?["location"])
    }

    /// The same document, its location within 1e-12 degrees (SQLite 3.40
    /// writes a number with 15 significant digits; docs/export.md).
    static func same(_ view: JSONValue?, _ answer: JSONValue?) -> Bool {
        guard let v = view?.objectValue, let a = answer?.objectValue else { return view == answer }
        func withoutLocation(_ o: JSONObject) -> JSONObject { JSONObject(o.members.filter { $0.key != "location" }) }
        guard withoutLocation(v) == withoutLocation(a) else { return false }
        for k in ["latitude", "longitude"] {
            guard let x = v["location"]?[k]?.doubleValue, let y = a["location"]?[k]?.doubleValue, abs(x - y) < 1e-12
            else { return false }
        }
        return true
    }

    @Test("a version 8 database gets the view and the BIGINT declarations, its rows untouched")
    func migratesVersion8() throws {
        let cli = try CLI()
        try Self.importSample(cli)
        var before: [Int64] = []
        do {
            let store = try PlaceStore(path: cli.db, writable: true)
            try store.db.forEachRow("SELECT content_hash FROM place ORDER BY id") { before.append(try $0.int64(0)) }
            try store.db.execute(
                """
                \(SchemaRollback.indexGeneration)
                -- (12: links.)
                DROP TABLE place_link; DROP TABLE link_rule; DROP TABLE place_group; DROP TABLE link_setting; DROP INDEX place_by_group; ALTER TABLE place DROP COLUMN group_id;
                -- (10: the text index.)
                DROP TRIGGER place_text_insert; DROP TRIGGER place_text_unindex; DROP TRIGGER place_text_update; DROP TRIGGER place_text_delete; DROP VIEW place_text_source; DROP TABLE place_word; DROP TABLE place_text_vocab; DROP TABLE place_text; ALTER TABLE place DROP COLUMN text_cell;
                DROP VIEW place_document;
                DELETE FROM views_geometry_columns WHERE view_name = 'place_document';
                DROP TRIGGER place_change_before;
                DROP TABLE place_change;
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET sql = replace(replace(sql, 'content_hash BIGINT', 'content_hash INTEGER'), 'captured_at BIGINT', 'captured_at INTEGER') WHERE name = 'place';
                UPDATE sqlite_master SET sql = replace(sql, 'bytes BIGINT', 'bytes INTEGER') WHERE name = 'import_run';
                PRAGMA writable_schema = OFF;
                -- (14: the date of the data of each run.)
                ALTER TABLE import_run DROP COLUMN data_time;
                DELETE FROM schema_migration WHERE version >= 9;
                PRAGMA user_version = 8;
                """)
        }
        // A new connection reads the schema as a version 8 file has it.
        let old = try Database(path: cli.db, mode: .readOnly)
        #expect(
            try old.scalar("SELECT type FROM pragma_table_info('place') WHERE name = 'content_hash'")?.string
                == "INTEGER")
        // Opened for writing, it is migrated; connections opened after read the new declarations.
        do { _ = try PlaceStore(path: cli.db, writable: true) }
        let store = try PlaceStore(path: cli.db, writable: false)
        #expect(try Migrator.storedVersion(store.db) == Schema.migrator.latestVersion)
        #expect(
            try store.db.scalar("SELECT type FROM pragma_table_info('place') WHERE name = 'content_hash'")?.string
                == "BIGINT")
        #expect(
            try store.db.scalar("SELECT type FROM pragma_table_info('import_run') WHERE name = 'bytes'")?.string
                == "BIGINT")
        var after: [Int64] = []
        try store.db.forEachRow("SELECT content_hash FROM place ORDER BY id") { after.append(try $0.int64(0)) }
        #expect(after == before)
        #expect(try Self.viewDocuments(cli.db).count == 3)
        #expect(
            try store.db.scalar("SELECT count(*) FROM views_geometry_columns WHERE view_name = 'place_document'")?.int
                == 1)
        #expect(try store.db.scalar("PRAGMA integrity_check")?.string == "ok")
    }

    @Test("content_hash, captured_at and import_run.bytes are declared BIGINT, so GDAL reads them as 64-bit")
    func bigintColumns() throws {
        let cli = try CLI()
        try Self.importSample(cli)
        let store = try PlaceStore(path: cli.db, writable: false)
        var types: [String: String] = [:]
        try store.db.forEachRow(
            "SELECT name, type FROM pragma_table_info('place') UNION ALL SELECT 'import_run.' || name, type FROM pragma_table_info('import_run')"
        ) { row in
            let name = try row.string(0)
            types[name] = try row.string(1)
        }
        #expect(types["content_hash"] == "BIGINT")
        #expect(types["captured_at"] == "BIGINT")
        #expect(types["import_run.bytes"] == "BIGINT")
        #expect(try store.db.scalar("PRAGMA integrity_check")?.string == "ok")
    }

    @Test(
        "ogr2ogr -f GeoJSON of place and place_document prints no warning; each feature holds the whole document",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ogr2ogr"),
            "needs ogr2ogr (Scripts/setup installs gdal-bin)"))
    func ogr2ogr() throws {
        let cli = try CLI()
        try Self.importSample(cli)
        let answers = try Answers(databasePath: cli.db)
        for layer in ["place", "place_document"] {
            let out = cli.dir.file("\(layer).geojson")
            let r = try Tool.run("/usr/bin/ogr2ogr", ["-f", "GeoJSON", out, cli.db, layer])
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "ogr2ogr \(layer): \(r.stderr)")
            let features = try #require(
                try JSONValue(parsing: String(contentsOfFile: out, encoding: .utf8))["features"]?.arrayValue)
            #expect(features.count == 3)
            for f in features {
                let id = try #require(f["properties"]?["place_id"]?.stringValue)
                if layer == "place" {
                    // 64-bit values arrive whole (they were clamped to 2147483647).
                    let hash = try #require(f["properties"]?["content_hash"])
                    let stored = try PlaceStore(path: cli.db, writable: false).db.scalar(
                        "SELECT content_hash FROM place WHERE place_id = '\(id)'")?.int64
                    #expect(hash == .int(stored!))
                } else {
                    // GDAL reads the view's column as JSON and writes it as an object.
                    let document = try #require(f["properties"]?["document"])
                    let parsed = try document.stringValue.map { try JSONValue(parsing: $0) } ?? document
                    #expect(Self.same(canonical(parsed), answers.places[id]), "\(id)")
                }
            }
        }
    }
}
