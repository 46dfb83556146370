import SQLiteDB

/// placedb's database schema, as forward-only migrations. Each string is
/// frozen once released: change the schema by appending a migration.
/// `Schemas/schema.sql` is the golden result; a test compares them.
enum Schema {
    static let migrator = Migrator(application: "placedb", migrations: [
        Migration(version: 1, name: "places with SpatiaLite point geometry", sql: """
            SELECT InitSpatialMetadata(0, 'WGS84');

            CREATE TABLE place (
                id INTEGER PRIMARY KEY,
                place_id TEXT NOT NULL UNIQUE,
                name TEXT,
                primary_type TEXT,
                rating REAL,
                rating_count INTEGER,
                business_status TEXT,
                utc_offset_minutes INTEGER,
                time_zone TEXT,
                source TEXT NOT NULL,
                source_format TEXT NOT NULL,
                first_seen TEXT NOT NULL,
                last_seen TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                removed_at TEXT,
                content_hash INTEGER NOT NULL,
                doc TEXT NOT NULL,
                extra TEXT
            );
            SELECT AddGeometryColumn('place', 'geom', 4326, 'POINT', 'XY', 1);
            SELECT CreateSpatialIndex('place', 'geom');

            CREATE TABLE place_type (
                place INTEGER NOT NULL REFERENCES place(id) ON DELETE CASCADE,
                type TEXT NOT NULL,
                PRIMARY KEY (type, place)
            ) WITHOUT ROWID;
            CREATE INDEX place_type_by_place ON place_type(place);

            CREATE TABLE import_run (
                id INTEGER PRIMARY KEY,
                input TEXT NOT NULL,
                format TEXT,
                source TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
                started_at TEXT NOT NULL,
                finished_at TEXT NOT NULL,
                seconds REAL NOT NULL,
                bytes INTEGER NOT NULL,
                records INTEGER NOT NULL,
                inserted INTEGER NOT NULL,
                updated INTEGER NOT NULL,
                unchanged INTEGER NOT NULL,
                rejected INTEGER NOT NULL,
                options TEXT NOT NULL,
                error TEXT
            );
            """),
        Migration(version: 2, name: "place extents (viewports) in an R*Tree for current-place queries", sql: """
            CREATE VIRTUAL TABLE place_extent USING rtree(id, west, east, south, north);

            -- The usable viewport of each place that has one: four numbers in
            -- range, south <= north; east + 360 when it crosses the antimeridian.
            CREATE VIEW place_viewport AS
            SELECT id, v ->> 1 AS west, CASE WHEN (v ->> 3) < (v ->> 1) THEN (v ->> 3) + 360 ELSE v ->> 3 END AS east,
                   v ->> 0 AS south, v ->> 2 AS north
            FROM (SELECT id, json_extract(doc, '$.viewport.low.latitude', '$.viewport.low.longitude',
                                               '$.viewport.high.latitude', '$.viewport.high.longitude') AS v
                  FROM place WHERE instr(doc, '"viewport"') > 0)
            WHERE typeof(v ->> 0) IN ('integer', 'real') AND typeof(v ->> 1) IN ('integer', 'real')
              AND typeof(v ->> 2) IN ('integer', 'real') AND typeof(v ->> 3) IN ('integer', 'real')
              AND (v ->> 0) BETWEEN -90 AND 90 AND (v ->> 2) BETWEEN -90 AND 90 AND (v ->> 0) <= (v ->> 2)
              AND (v ->> 1) BETWEEN -180 AND 180 AND (v ->> 3) BETWEEN -180 AND 180;

            INSERT INTO place_extent (id, west, east, south, north) SELECT id, west, east, south, north FROM place_viewport;

            CREATE TRIGGER place_extent_insert AFTER INSERT ON place
            WHEN instr(NEW.doc, '"viewport"') > 0
            BEGIN
                INSERT OR REPLACE INTO place_extent (id, west, east, south, north)
                SELECT id, west, east, south, north FROM place_viewport WHERE id = NEW.id;
            END;

            CREATE TRIGGER place_extent_update AFTER UPDATE OF doc ON place
            BEGIN
                DELETE FROM place_extent WHERE id = OLD.id;
                INSERT INTO place_extent (id, west, east, south, north)
                SELECT id, west, east, south, north FROM place_viewport WHERE id = NEW.id;
            END;

            CREATE TRIGGER place_extent_delete AFTER DELETE ON place
            BEGIN
                DELETE FROM place_extent WHERE id = OLD.id;
            END;
            """),
    ])

    /// placedb's own tables (SpatiaLite adds its metadata tables beside them).
    static let ownTables = ["place", "place_type", "import_run", "schema_migration", "idx_place_geom", "place_extent", "place_viewport"]
}

extension Schema {
    /// The schema of placedb's own objects as SQL text, stable across runs:
    /// what `Schemas/schema.sql` holds. SpatiaLite's metadata tables are
    /// summarized by the geometry column they register.
    static func dump(_ db: Database) throws -> String {
        var lines = ["-- placedb database schema, version \(migrator.latestVersion) (golden file: a test compares it with what the migrations produce)", ""]
        let owned = ownTables.map { "'\($0)'" }.joined(separator: ", ")
        try db.forEachRow("""
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name IN (\(owned)) AND sql IS NOT NULL
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name
            """) { row in
            lines.append("-- \(row.string(0) ?? ""): \(row.string(1) ?? "")")
            lines.append((row.string(2) ?? "") + ";")
            lines.append("")
        }
        try db.forEachRow("""
            SELECT f_table_name, f_geometry_column, geometry_type, coord_dimension, srid, spatial_index_enabled
            FROM geometry_columns ORDER BY f_table_name
            """) { row in
            lines.append("-- geometry_columns: \(row.string(0) ?? "").\(row.string(1) ?? "") type \(row.int64(2)) dimension \(row.int64(3)) srid \(row.int64(4)) spatial_index \(row.int64(5))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
