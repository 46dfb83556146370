import SQLiteDB

extension Schema {
    /// Migration 9: the whole document in SQL, and 64-bit columns that GDAL
    /// reads as 64-bit. docs/database.md and docs/export.md describe both.
    static let wholeDocumentMigration = Migration(
        version: 9, name: "place_document: the whole document in SQL; 64-bit columns declared BIGINT",
        sql: """
            -- GDAL reads a column declared INTEGER as 32-bit (content_hash's
            -- 64-bit values arrived clamped, with a warning each) and one
            -- declared BIGINT as 64-bit. Only the declared type changes: both
            -- have INTEGER affinity, so no stored value is touched (SQLite's
            -- documented writable_schema edit; the CREATE VIEW below bumps the
            -- schema cookie, so other connections reload the schema).
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master
            SET sql = replace(replace(sql, 'content_hash INTEGER NOT NULL', 'content_hash BIGINT NOT NULL'), 'captured_at INTEGER', 'captured_at BIGINT')
            WHERE type = 'table' AND name = 'place';
            UPDATE sqlite_master
            SET sql = replace(sql, 'bytes INTEGER NOT NULL', 'bytes BIGINT NOT NULL')
            WHERE type = 'table' AND name = 'import_run';
            PRAGMA writable_schema = OFF;

            -- Each place's whole Places API (New) document, as 'placedb place'
            -- prints it (less what is computed when asked: openNow): name and id
            -- from the ID, the stored doc with the members its columns stand for
            -- put back (doc_layout,
            -- 4 bits each: displayName, primaryType, rating, userRatingCount)
            -- and the location from the geometry. Needs SpatiaLite's X() and Y()
            -- (ogr2ogr, QGIS and the spatialite shell load it; in sqlite3,
            -- .load mod_spatialite). A spatial view: GDAL lists it as a layer.
            CREATE VIEW place_document AS
            SELECT p.id AS id, p.place_id AS place_id, p.source AS source, r.started_at AS removed_at,
                   json_patch(p.doc, json_remove(
                       json_object('name', 'places/' || p.place_id, 'id', p.place_id,
                                   'location', json_object('latitude', Y(p.geom), 'longitude', X(p.geom)),
                                   'displayName', json_object('text', p.name),
                                   'primaryType', p.primary_type,
                                   'rating', p.rating,
                                   'userRatingCount', p.rating_count),
                       CASE WHEN coalesce(p.doc_layout, 0) & 15 THEN '$.none' ELSE '$.displayName' END,
                       CASE WHEN coalesce(p.doc_layout, 0) & 240 THEN '$.none' ELSE '$.primaryType' END,
                       CASE WHEN coalesce(p.doc_layout, 0) & 3840 THEN '$.none' ELSE '$.rating' END,
                       CASE WHEN coalesce(p.doc_layout, 0) & 61440 THEN '$.none' ELSE '$.userRatingCount' END)) AS document,
                   p.geom AS geom
            FROM place p
            LEFT JOIN import_run r ON r.id = p.removed_run;
            INSERT INTO views_geometry_columns (view_name, view_geometry, view_rowid, f_table_name, f_geometry_column, read_only)
            VALUES ('place_document', 'geom', 'id', 'place', 'geom', 1);
            """)
}
