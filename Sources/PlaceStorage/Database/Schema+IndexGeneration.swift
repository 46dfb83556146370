import SQLiteDB

extension Schema {
    /// Migration 16: a counter that moves whenever a place changes in a way
    /// the stored spatial index holds, so an index file beside the database
    /// can tell it is stale (docs/spatial-index.md).
    static let indexGenerationMigration = Migration(
        version: 16, name: "place_generation: what a stored spatial index must not miss",
        sql: """
            -- One row. n counts the changes to places that a stored spatial
            -- index holds: a removed row, a changed column it reads (the point,
            -- name, type, rating count, status, source, removal, group, extra,
            -- and doc, which holds the viewport) and any change to a footprint.
            -- New places raise max(place.id) instead, so an import of new
            -- places costs nothing here. Kept by triggers for every writer
            -- (placedb, QGIS, SQL).
            CREATE TABLE place_generation (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                n INTEGER NOT NULL
            );
            INSERT INTO place_generation (id, n) VALUES (1, 0);

            CREATE TRIGGER place_generation_update AFTER UPDATE OF
                geom, name, primary_type, rating_count, business_status, source, removed_run, group_id, extra, doc
            ON place
            WHEN old.geom IS NOT new.geom OR old.name IS NOT new.name OR old.primary_type IS NOT new.primary_type
              OR old.rating_count IS NOT new.rating_count OR old.business_status IS NOT new.business_status
              OR old.source IS NOT new.source OR old.removed_run IS NOT new.removed_run
              OR old.group_id IS NOT new.group_id OR old.extra IS NOT new.extra OR old.doc IS NOT new.doc
            BEGIN
                UPDATE place_generation SET n = n + 1;
            END;

            CREATE TRIGGER place_generation_delete AFTER DELETE ON place
            BEGIN
                UPDATE place_generation SET n = n + 1;
            END;

            CREATE TRIGGER place_generation_footprint_insert AFTER INSERT ON place_footprint
            BEGIN
                UPDATE place_generation SET n = n + 1;
            END;

            CREATE TRIGGER place_generation_footprint_update AFTER UPDATE ON place_footprint
            BEGIN
                UPDATE place_generation SET n = n + 1;
            END;

            CREATE TRIGGER place_generation_footprint_delete AFTER DELETE ON place_footprint
            BEGIN
                UPDATE place_generation SET n = n + 1;
            END;
            """)

    /// Migration 20: a counter of changed ratings. The text index's word
    /// lists hold each place's rating for `minRating` (`RankInputs`) and
    /// hold while it and `place_generation` are what they were; the stored
    /// spatial index does not hold ratings, so they do not move its counter.
    static let ratingGenerationMigration = Migration(
        version: 20, name: "place_rating_generation: what the word lists' rank inputs must not miss",
        sql: """
            -- One row. n counts the changes to places' ratings (new and
            -- removed places move place_generation or max(place.id)). Kept by
            -- a trigger for every writer. (Written to run again over itself,
            -- as tests that take a database back to an older version do.)
            CREATE TABLE IF NOT EXISTS place_rating_generation (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                n INTEGER NOT NULL
            );
            INSERT OR IGNORE INTO place_rating_generation (id, n) VALUES (1, 0);

            DROP TRIGGER IF EXISTS place_rating_generation_update;
            CREATE TRIGGER place_rating_generation_update AFTER UPDATE OF rating ON place
            WHEN old.rating IS NOT new.rating
            BEGIN
                UPDATE place_rating_generation SET n = n + 1;
            END;
            """)
}
