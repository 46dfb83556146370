import SQLiteDB

extension Schema {
    /// Migration 10: what each place was before a run changed its key
    /// fields, so `placedb diff` can say what changed between two runs.
    /// docs/diff.md describes it.
    static let changeLogMigration = Migration(
        version: 10, name: "place_change: each place's key fields before a run changed them",
        sql: """
            -- The before-image of a place's key fields (name, primary type,
            -- point, removed or not), written when a run changes one of them:
            -- the state of a place after run R is the first image with
            -- run > R, else its row in place. Inserts write nothing (a place
            -- did not exist before its first_run), so a fresh import costs
            -- nothing; only changed rows cost a row here. Kept by the trigger
            -- below for every writer (placedb, QGIS, SQL).
            CREATE TABLE place_change (
                id INTEGER PRIMARY KEY,
                place INTEGER NOT NULL REFERENCES place(id) ON DELETE CASCADE,
                -- The run that made the change (removed_run for a removal,
                -- else last_run: an update or revival marks the row seen).
                run INTEGER NOT NULL,
                name TEXT,
                primary_type TEXT,
                geom BLOB,
                removed_run INTEGER
            );
            CREATE INDEX place_change_by_place ON place_change(place, run);

            CREATE TRIGGER place_change_before AFTER UPDATE OF name, primary_type, geom, removed_run ON place
            WHEN old.name IS NOT new.name OR old.primary_type IS NOT new.primary_type OR old.geom IS NOT new.geom
              OR (old.removed_run IS NULL) <> (new.removed_run IS NULL)
            BEGIN
                INSERT INTO place_change (place, run, name, primary_type, geom, removed_run)
                VALUES (old.id,
                        CASE WHEN old.removed_run IS NULL AND new.removed_run IS NOT NULL THEN new.removed_run ELSE new.last_run END,
                        old.name, old.primary_type, old.geom, old.removed_run);
            END;
            """)
}
