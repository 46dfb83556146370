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
    ])

    /// placedb's own tables (SpatiaLite adds its metadata tables beside them).
    static let ownTables = ["place", "place_type", "import_run", "schema_migration", "idx_place_geom"]
}
