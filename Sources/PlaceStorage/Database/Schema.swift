import SQLiteDB

/// placedb's database schema, as forward-only migrations. Each string is
/// frozen once released: change the schema by appending a migration.
/// `Schemas/schema.sql` is the golden result; a test compares them.
enum Schema {
    static let migrator = Migrator(
        application: "placedb",
        migrations: [
            Migration(
                version: 1, name: "places with SpatiaLite point geometry",
                sql: """
                    SELECT InitSpatialMetadata(0, 'WGS84');

                    -- One row per import of one input (and per snapshot completion).
                    -- Places point at the runs that first saw, last saw, last changed
                    -- and removed them: 1-3 bytes a reference instead of a timestamp.
                    CREATE TABLE import_run (
                        id INTEGER PRIMARY KEY,
                        input TEXT NOT NULL,
                        format TEXT,
                        source TEXT,
                        snapshot TEXT,
                        status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'failed')),
                        started_at TEXT NOT NULL,
                        finished_at TEXT,
                        seconds REAL NOT NULL DEFAULT 0,
                        bytes INTEGER NOT NULL DEFAULT 0,
                        records INTEGER NOT NULL DEFAULT 0,
                        inserted INTEGER NOT NULL DEFAULT 0,
                        updated INTEGER NOT NULL DEFAULT 0,
                        unchanged INTEGER NOT NULL DEFAULT 0,
                        revived INTEGER NOT NULL DEFAULT 0,
                        duplicates INTEGER NOT NULL DEFAULT 0,
                        removed INTEGER NOT NULL DEFAULT 0,
                        rejected INTEGER NOT NULL DEFAULT 0,
                        options TEXT NOT NULL DEFAULT '{}',
                        error TEXT
                    );

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
                        first_run INTEGER NOT NULL,
                        last_run INTEGER NOT NULL,
                        updated_run INTEGER NOT NULL,
                        removed_run INTEGER,
                        content_hash INTEGER NOT NULL,
                        doc TEXT NOT NULL,
                        extra TEXT
                    );
                    SELECT AddGeometryColumn('place', 'geom', 4326, 'POINT', 'XY', 1);
                    SELECT CreateSpatialIndex('place', 'geom');

                    CREATE TABLE place_type (
                        type TEXT NOT NULL,
                        place INTEGER NOT NULL,
                        PRIMARY KEY (type, place)
                    ) WITHOUT ROWID;

                    -- Every ID ever seen that is not (or no longer) a place's own:
                    -- an edge from an alias to the ID it stands for, with why.
                    CREATE TABLE place_alias (
                        id INTEGER PRIMARY KEY,
                        alias_id TEXT NOT NULL,
                        place_id TEXT NOT NULL,
                        reason TEXT NOT NULL CHECK (reason IN ('moved', 'redrawn', 'renumbered', 'merged', 'split', 'requested', 'deprecated', 'explicit')),
                        source TEXT,
                        confidence REAL NOT NULL DEFAULT 1 CHECK (confidence > 0 AND confidence <= 1),
                        evidence TEXT,
                        run INTEGER NOT NULL,
                        UNIQUE (alias_id, place_id)
                    );
                    CREATE INDEX place_alias_by_place ON place_alias(place_id);

                    -- The run references as times, for people and tools.
                    CREATE VIEW place_history AS
                    SELECT p.id, p.place_id, p.name, p.source,
                           f.started_at AS first_seen, l.started_at AS last_seen,
                           u.started_at AS updated_at, r.started_at AS removed_at
                    FROM place p
                    JOIN import_run f ON f.id = p.first_run
                    JOIN import_run l ON l.id = p.last_run
                    JOIN import_run u ON u.id = p.updated_run
                    LEFT JOIN import_run r ON r.id = p.removed_run;
                    """),
            Migration(
                version: 2, name: "photo metadata index and local photo images",
                sql: """
                    CREATE TABLE place_photo (
                        place INTEGER NOT NULL REFERENCES place(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        reference TEXT NOT NULL,
                        PRIMARY KEY (place, position)
                    ) WITHOUT ROWID;
                    CREATE INDEX place_photo_by_reference ON place_photo(reference);

                    CREATE TABLE photo_image (
                        name TEXT PRIMARY KEY,
                        reference TEXT NOT NULL,
                        format TEXT NOT NULL CHECK (format IN ('jpeg', 'png', 'webp', 'gif')),
                        width INTEGER NOT NULL CHECK (width > 0),
                        height INTEGER NOT NULL CHECK (height > 0),
                        bytes BLOB NOT NULL,
                        source TEXT,
                        added_at TEXT NOT NULL
                    );
                    CREATE INDEX photo_image_by_reference ON photo_image(reference);

                    INSERT INTO place_photo (place, position, name, reference)
                    SELECT p.id, j.key, json_extract(j.value, '$.name'),
                           CASE WHEN instr(json_extract(j.value, '$.name'), '/photos/') > 0
                                THEN substr(json_extract(j.value, '$.name'), instr(json_extract(j.value, '$.name'), '/photos/') + 8)
                                ELSE json_extract(j.value, '$.name') END
                    FROM place p, json_each(CASE WHEN json_valid(p.doc) THEN p.doc ELSE '{}' END, '$.photos') j
                    WHERE j.key < 10 AND json_type(j.value, '$.name') = 'text';
                    """),
            Migration(
                version: 3, name: "where each place's time zone came from",
                sql: """
                    ALTER TABLE place ADD COLUMN time_zone_source TEXT CHECK (time_zone_source IN ('data', 'import-option'));
                    UPDATE place SET time_zone_source = 'data' WHERE time_zone IS NOT NULL;
                    """),
            Migration(
                version: 4, name: "place extents (viewports) in an R*Tree for current-place queries",
                sql: """
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
            Migration(
                version: 5, name: "documents without the members the columns repeat",
                sql: """
                    -- Which members of doc the columns stand for, and where they stood
                    -- (4 bits each: displayName, primaryType, rating, userRatingCount;
                    -- position + 1, 0 = in doc). NULL or 0: doc is whole.
                    ALTER TABLE place ADD COLUMN doc_layout INTEGER;
                    """),
            Migration(
                version: 6, name: "place footprints: the simplified polygons or lines of areas and ways",
                sql: """
                    CREATE TABLE place_footprint (
                        -- Where a visitor may stand, as the source drew it (GeoJSON,
                        -- OpenStreetMap, Overture areas and ways), simplified to at
                        -- most 64 vertices. Places without one use their viewport or
                        -- a size by type.
                        id INTEGER PRIMARY KEY REFERENCES place(id) ON DELETE CASCADE,
                        -- m², of the stored rings (0 for lines).
                        area REAL NOT NULL,
                        -- Little-endian: kind (1 byte: 1 area, 2 lines), a 0 byte,
                        -- part count (UInt16), each part's vertex count (UInt16),
                        -- then each vertex as Float32 meters east, north of the
                        -- place's location. Rings (first vertex not repeated) run
                        -- counter-clockwise around areas, clockwise around holes.
                        shape BLOB NOT NULL
                    );
                    """),
            Migration(
                version: 7, name: "capture times: when each place's members were captured",
                sql: """
                    -- When the place's data was captured (Unix seconds; from
                    -- import --captured-at, the record's own timestamp, or the input
                    -- file's modification time): the latest capture of any member.
                    -- NULL for rows imported before version 7 (capture unknown:
                    -- any capture replaces them).
                    ALTER TABLE place ADD COLUMN captured_at INTEGER;
                    -- The members captured at another time than captured_at, as a
                    -- JSON object member -> Unix seconds; NULL when every member
                    -- shares captured_at (a place imported from one record).
                    ALTER TABLE place ADD COLUMN member_captured TEXT;
                    -- Records of a run that changed nothing because the stored
                    -- members were captured later.
                    ALTER TABLE import_run ADD COLUMN older INTEGER NOT NULL DEFAULT 0;
                    """),
            Migration(
                version: 8, name: "the requested-vs-returned alias reason is named requested-returned",
                sql: """
                    -- A CHECK constraint cannot be altered: the table is rebuilt
                    -- with the new name of the reason, its rows and IDs kept.
                    CREATE TABLE place_alias_v8 (
                        id INTEGER PRIMARY KEY,
                        alias_id TEXT NOT NULL,
                        place_id TEXT NOT NULL,
                        reason TEXT NOT NULL CHECK (reason IN ('moved', 'redrawn', 'renumbered', 'merged', 'split', 'requested-returned', 'deprecated', 'explicit')),
                        source TEXT,
                        confidence REAL NOT NULL DEFAULT 1 CHECK (confidence > 0 AND confidence <= 1),
                        evidence TEXT,
                        run INTEGER NOT NULL,
                        UNIQUE (alias_id, place_id)
                    );
                    INSERT INTO place_alias_v8 (id, alias_id, place_id, reason, source, confidence, evidence, run)
                    SELECT id, alias_id, place_id, CASE reason WHEN 'requested' THEN 'requested-returned' ELSE reason END,
                           source, confidence, evidence, run
                    FROM place_alias;
                    DROP TABLE place_alias;
                    ALTER TABLE place_alias_v8 RENAME TO place_alias;
                    CREATE INDEX place_alias_by_place ON place_alias(place_id);
                    """),
            wholeDocumentMigration,
            changeLogMigration,
            Migration(
                version: 11, name: "text index: names, addresses and type words in FTS5, with a typo vocabulary",
                sql: TextIndexSQL.migration),
            linkMigration,
            spellingMigration,
            dataTimeMigration,
            languagesMigration,
            indexGenerationMigration,
            prefixIndexMigration,
            cellMarkMigration,
            textCountMigration,
            ratingGenerationMigration,
        ])

    /// placedb's own tables (SpatiaLite adds its metadata tables beside them).
    static let ownTables = [
        "place", "place_type", "import_run", "schema_migration", "idx_place_geom", "place_history", "place_alias",
        "place_photo", "photo_image", "place_extent", "place_viewport", "place_footprint", "place_document",
        "place_change", "place_text", "place_text_vocab", "place_word", "place_text_source", "place_link", "link_rule",
        "place_group", "link_setting", "place_generation", "place_text_count", "place_text_counted",
        "place_rating_generation",
    ]
}

extension Schema {
    /// The schema of placedb's own objects as SQL text, stable across runs:
    /// what `Schemas/schema.sql` holds. SpatiaLite's metadata tables are
    /// summarized by the geometry column they register.
    package static func dump(_ db: Database) throws -> String {
        var lines = [
            "-- placedb database schema, version \(migrator.latestVersion) (golden file: a test compares it with what the migrations produce)",
            "",
        ]
        let owned = ownTables.map { "'\($0)'" }.joined(separator: ", ")
        try db.forEachRow(
            """
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name IN (\(owned)) AND sql IS NOT NULL
            ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, name
            """
        ) { row in
            lines.append("-- \(try row.string(0)): \(try row.string(1))")
            lines.append(try row.string(2) + ";")
            lines.append("")
        }
        try db.forEachRow(
            """
            SELECT f_table_name, f_geometry_column, geometry_type, coord_dimension, srid, spatial_index_enabled
            FROM geometry_columns ORDER BY f_table_name
            """
        ) { row in
            lines.append(
                "-- geometry_columns: \(try row.string(0)).\(try row.string(1)) type \(try row.int64(2)) dimension \(try row.int64(3)) srid \(try row.int64(4)) spatial_index \(try row.int64(5))"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
