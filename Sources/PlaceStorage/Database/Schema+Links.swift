import SQLiteDB

extension Schema {
    /// Linking (docs/linking.md): records of several sources, or of one
    /// source under several IDs, that are the same physical place form a
    /// group with one canonical member; queries list the group once and
    /// serve its merged document.
    static let linkMigration = Migration(
        version: 12, name: "place links: groups of records that are the same physical place",
        sql: """
            -- Pairs of places found to be the same place (place.id a < b), with
            -- the same-place probability and its evidence, by import or
            -- `placedb link`. Only pairs at or above the threshold are kept.
            CREATE TABLE place_link (
                a INTEGER NOT NULL,
                b INTEGER NOT NULL,
                probability REAL NOT NULL CHECK (probability >= 0 AND probability <= 1),
                evidence TEXT,
                run INTEGER,
                PRIMARY KEY (a, b),
                CHECK (a < b)
            ) WITHOUT ROWID;
            CREATE INDEX place_link_by_b ON place_link(b);

            -- The user's word (alias files' `same A B` / `different A B`), by
            -- place ID, so a rule naming an ID not stored yet applies when it
            -- arrives. A `different` is never overridden by linking. (a < b)
            CREATE TABLE link_rule (
                a TEXT NOT NULL,
                b TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('same', 'different')),
                -- The ID a `same` line named second: the group's canonical ID
                -- before the source order decides (the round trip of an export
                -- keeps its canonical IDs so).
                preferred TEXT,
                origin TEXT,
                run INTEGER,
                PRIMARY KEY (a, b),
                CHECK (a < b)
            ) WITHOUT ROWID;
            CREATE INDEX link_rule_by_b ON link_rule(b);

            -- The canonical member's place.id of the place's group; NULL for a
            -- place alone. The canonical member has group_id = id.
            ALTER TABLE place ADD COLUMN group_id INTEGER;
            CREATE INDEX place_by_group ON place(group_id) WHERE group_id IS NOT NULL;

            -- One row per group, keyed by its canonical member: the merged
            -- document served for the group (whole, no doc_layout), which
            -- member record gave each member (provenance: member -> place ID),
            -- and the member IDs, canonical first.
            CREATE TABLE place_group (
                id INTEGER PRIMARY KEY REFERENCES place(id) ON DELETE CASCADE,
                doc TEXT NOT NULL,
                provenance TEXT NOT NULL,
                members TEXT NOT NULL
            );

            -- Settings of the linker: `source-order` (JSON array of source
            -- names: ties between captures go to the earlier source).
            CREATE TABLE link_setting (
                name TEXT PRIMARY KEY,
                value TEXT NOT NULL
            );
            """)
}
