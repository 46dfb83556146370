import SQLiteDB

extension Schema {
    /// Place IDs that every client can use (docs/formats.md#place-ids):
    /// every stored ID with a `/` is rewritten to placedb's one spelling,
    /// one path segment: OpenStreetMap's `osm:node/1` as `osm:n1` (`way`
    /// w, `relation` r, `area` a), any other `/` as `%2F` (its `%` as
    /// `%25` first), as `PlaceIDSpelling.canonical` writes them; old
    /// spellings go on resolving because every entry point canonicalizes
    /// what it is given. The alias reason `cid` is added (a Google place's
    /// Maps CID, `cid:{digits}`), and the CIDs of the places stored are
    /// recorded, as an import now does.
    static let spellingMigration = Migration(
        version: 13, name: "one place ID spelling that fits one path segment; Maps CIDs as aliases",
        sql: """
            -- Every stored ID with a '/' and its new spelling.
            CREATE TEMP TABLE respelled (old TEXT PRIMARY KEY, new TEXT NOT NULL) WITHOUT ROWID;
            WITH ids(id) AS (
                SELECT place_id FROM place WHERE instr(place_id, '/') > 0
                UNION SELECT alias_id FROM place_alias WHERE instr(alias_id, '/') > 0
                UNION SELECT place_id FROM place_alias WHERE instr(place_id, '/') > 0
                UNION SELECT a FROM link_rule WHERE instr(a, '/') > 0
                UNION SELECT b FROM link_rule WHERE instr(b, '/') > 0
                UNION SELECT preferred FROM link_rule WHERE instr(preferred, '/') > 0
            ), parts(id, letter, num) AS (
                SELECT id,
                       CASE WHEN id GLOB 'osm:node/*' THEN 'n' WHEN id GLOB 'osm:way/*' THEN 'w'
                            WHEN id GLOB 'osm:relation/*' THEN 'r' WHEN id GLOB 'osm:area/*' THEN 'a' END,
                       substr(id, instr(id, '/') + 1)
                FROM ids
            )
            INSERT INTO respelled (old, new)
            SELECT id, CASE
                WHEN letter IS NOT NULL AND num <> '' AND (num NOT GLOB '*[^0-9]*'
                     OR (num GLOB '-*' AND substr(num, 2) <> '' AND substr(num, 2) NOT GLOB '*[^0-9]*'))
                THEN 'osm:' || letter || num
                ELSE replace(replace(id, '%', '%25'), '/', '%2F') END
            FROM parts;

            -- Places, and the names of their photos in their documents.
            UPDATE place SET
                doc = CASE WHEN instr(doc, '"places/' || place_id || '/photos/') > 0
                           THEN replace(doc, '"places/' || place_id || '/photos/', '"places/' || r.new || '/photos/') ELSE doc END,
                place_id = r.new
            FROM temp.respelled r WHERE r.old = place.place_id;
            UPDATE place_photo SET name = 'places/' || r.new || substr(place_photo.name, length(r.old) + 8)
            FROM place p, temp.respelled r
            WHERE p.id = place_photo.place AND r.new = p.place_id AND place_photo.name GLOB 'places/*'
              AND substr(place_photo.name, 8, length(r.old) + 8) = r.old || '/photos/';
            UPDATE photo_image SET name = 'places/' || r.new || substr(photo_image.name, length(r.old) + 8)
            FROM temp.respelled r
            WHERE photo_image.name GLOB 'places/*' AND substr(photo_image.name, 8, length(r.old) + 8) = r.old || '/photos/';

            -- Alias edges: the table rebuilt for the new reason, IDs respelled.
            CREATE TABLE place_alias_v13 (
                id INTEGER PRIMARY KEY,
                alias_id TEXT NOT NULL,
                place_id TEXT NOT NULL,
                reason TEXT NOT NULL CHECK (reason IN ('moved', 'redrawn', 'renumbered', 'merged', 'split', 'requested-returned', 'deprecated', 'explicit', 'cid')),
                source TEXT,
                confidence REAL NOT NULL DEFAULT 1 CHECK (confidence > 0 AND confidence <= 1),
                evidence TEXT,
                run INTEGER NOT NULL,
                UNIQUE (alias_id, place_id)
            );
            INSERT INTO place_alias_v13 (id, alias_id, place_id, reason, source, confidence, evidence, run)
            SELECT id, coalesce((SELECT new FROM temp.respelled WHERE old = alias_id), alias_id),
                   coalesce((SELECT new FROM temp.respelled WHERE old = place_alias.place_id), place_id),
                   reason, source, confidence, evidence, run
            FROM place_alias;
            DROP TABLE place_alias;
            ALTER TABLE place_alias_v13 RENAME TO place_alias;
            CREATE INDEX place_alias_by_place ON place_alias(place_id);

            -- Linking rules (a < b kept: the new spellings may sort otherwise).
            CREATE TEMP TABLE rules AS
            SELECT coalesce((SELECT new FROM temp.respelled WHERE old = a), a) AS a,
                   coalesce((SELECT new FROM temp.respelled WHERE old = b), b) AS b,
                   kind, coalesce((SELECT new FROM temp.respelled WHERE old = preferred), preferred) AS preferred, origin, run
            FROM link_rule
            WHERE a IN (SELECT old FROM temp.respelled) OR b IN (SELECT old FROM temp.respelled) OR preferred IN (SELECT old FROM temp.respelled);
            DELETE FROM link_rule
            WHERE a IN (SELECT old FROM temp.respelled) OR b IN (SELECT old FROM temp.respelled) OR preferred IN (SELECT old FROM temp.respelled);
            INSERT INTO link_rule (a, b, kind, preferred, origin, run)
            SELECT min(a, b), max(a, b), kind, preferred, origin, run FROM temp.rules;
            DROP TABLE temp.rules;

            -- Groups: member IDs and provenance by ID; the merged document's
            -- photo names by the OpenStreetMap prefixes.
            UPDATE place_group SET
                members = (SELECT json_group_array(coalesce(r.new, j.value))
                           FROM (SELECT value FROM json_each(place_group.members) ORDER BY key) j
                           LEFT JOIN temp.respelled r ON r.old = j.value),
                provenance = (SELECT json_group_object(j.key, coalesce(r.new, j.value))
                              FROM (SELECT key, value FROM json_each(place_group.provenance) ORDER BY id) j
                              LEFT JOIN temp.respelled r ON r.old = j.value),
                doc = replace(replace(replace(replace(doc, 'places/osm:node/', 'places/osm:n'), 'places/osm:way/', 'places/osm:w'),
                                      'places/osm:relation/', 'places/osm:r'), 'places/osm:area/', 'places/osm:a')
            WHERE instr(members, '/') > 0 OR instr(provenance, '/') > 0 OR instr(doc, 'places/osm:') > 0;
            DROP TABLE temp.respelled;

            -- The Maps CID of each place whose document has one: an alias
            -- cid:{digits} (the digits of the cid= parameter of googleMapsUri).
            INSERT INTO place_alias (alias_id, place_id, reason, source, confidence, run)
            SELECT 'cid:' || cid, place_id, 'cid', source, 1, last_run FROM (
                SELECT place_id, source, last_run,
                       CASE WHEN instr(v, '&') > 0 THEN substr(v, 1, instr(v, '&') - 1) ELSE v END AS cid
                FROM (SELECT place_id, source, last_run,
                             substr(u, CASE WHEN instr(u, '?cid=') > 0 THEN instr(u, '?cid=') ELSE instr(u, '&cid=') END + 5) AS v, u
                      FROM (SELECT place_id, source, last_run, json_extract(doc, '$.googleMapsUri') AS u
                            FROM place WHERE instr(doc, 'cid=') > 0))
                WHERE typeof(u) = 'text' AND (instr(u, '?cid=') > 0 OR instr(u, '&cid=') > 0))
            WHERE cid <> '' AND length(cid) <= 20 AND cid NOT GLOB '*[^0-9]*'
            ON CONFLICT (alias_id, place_id) DO NOTHING;
            """)
}
