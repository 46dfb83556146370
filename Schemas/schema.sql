-- placedb database schema, version 20 (golden file: a test compares it with what the migrations produce)

-- table: idx_place_geom
CREATE VIRTUAL TABLE "idx_place_geom" USING rtree(pkid, xmin, xmax, ymin, ymax);

-- table: import_run
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
    bytes BIGINT NOT NULL DEFAULT 0,
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
, older INTEGER NOT NULL DEFAULT 0, data_time TEXT);

-- table: link_rule
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

-- table: link_setting
CREATE TABLE link_setting (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- table: photo_image
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

-- table: place
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
    content_hash BIGINT NOT NULL,
    doc TEXT NOT NULL,
    extra TEXT
, "geom" POINT NOT NULL DEFAULT '', time_zone_source TEXT CHECK (time_zone_source IN ('data', 'import-option')), doc_layout INTEGER, captured_at BIGINT, member_captured TEXT, text_cell INTEGER, group_id INTEGER);

-- table: place_alias
CREATE TABLE "place_alias" (
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

-- table: place_change
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

-- table: place_extent
CREATE VIRTUAL TABLE place_extent USING rtree(id, west, east, south, north);

-- table: place_footprint
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

-- table: place_generation
CREATE TABLE place_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);

-- table: place_group
CREATE TABLE place_group (
    id INTEGER PRIMARY KEY REFERENCES place(id) ON DELETE CASCADE,
    doc TEXT NOT NULL,
    provenance TEXT NOT NULL,
    members TEXT NOT NULL
);

-- table: place_link
CREATE TABLE place_link (
    a INTEGER NOT NULL,
    b INTEGER NOT NULL,
    probability REAL NOT NULL CHECK (probability >= 0 AND probability <= 1),
    evidence TEXT,
    run INTEGER,
    PRIMARY KEY (a, b),
    CHECK (a < b)
) WITHOUT ROWID;

-- table: place_photo
CREATE TABLE place_photo (
    place INTEGER NOT NULL REFERENCES place(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    reference TEXT NOT NULL,
    PRIMARY KEY (place, position)
) WITHOUT ROWID;

-- table: place_rating_generation
CREATE TABLE place_rating_generation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
);

-- table: place_text
CREATE VIRTUAL TABLE place_text USING fts5(name, other_names, address, types, cell,
    content = 'place_text_source', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '1');

-- table: place_text_count
CREATE TABLE place_text_count (
    -- How many places hold each common word ("museo") and word
    -- prefix ("ha" *) of the index, as placedb text-index analyze
    -- counted them: BM25 weighs each phrase by that number, and
    -- counting a common one reads its whole list (at 10M places,
    -- "s" * 228 ms on every new connection). Phrases held by fewer
    -- places than the analysis' threshold are counted when asked.
    -- Used only while place_text_counted holds the index's state.
    phrase TEXT PRIMARY KEY,
    places INTEGER NOT NULL
) WITHOUT ROWID;

-- table: place_text_counted
CREATE TABLE place_text_counted (
    -- One row: the state the counts hold for. FTS5's structure and
    -- averages records (place_text_data rows 10 and 1; every write
    -- to the index changes the first): a reader uses the counts
    -- only while both are the same; else it counts, as without
    -- them. place_generation.n and max(place.id) when they were
    -- counted, or carried through an import, for the record. No
    -- row: never analyzed.
    id INTEGER PRIMARY KEY CHECK (id = 1),
    structure BLOB NOT NULL,
    averages BLOB,
    generation INTEGER NOT NULL,
    max_place INTEGER
);

-- table: place_text_vocab
CREATE VIRTUAL TABLE place_text_vocab USING fts5vocab(place_text, row);

-- table: place_type
CREATE TABLE place_type (
    type TEXT NOT NULL,
    place INTEGER NOT NULL,
    PRIMARY KEY (type, place)
) WITHOUT ROWID;

-- table: place_word
CREATE TABLE place_word (
    word TEXT PRIMARY KEY,
    reversed TEXT NOT NULL
) WITHOUT ROWID;

-- table: schema_migration
CREATE TABLE schema_migration (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- index: link_rule_by_b
CREATE INDEX link_rule_by_b ON link_rule(b);

-- index: photo_image_by_reference
CREATE INDEX photo_image_by_reference ON photo_image(reference);

-- index: place_alias_by_place
CREATE INDEX place_alias_by_place ON place_alias(place_id);

-- index: place_by_group
CREATE INDEX place_by_group ON place(group_id) WHERE group_id IS NOT NULL;

-- index: place_change_by_place
CREATE INDEX place_change_by_place ON place_change(place, run);

-- index: place_link_by_b
CREATE INDEX place_link_by_b ON place_link(b);

-- index: place_photo_by_reference
CREATE INDEX place_photo_by_reference ON place_photo(reference);

-- index: place_word_by_reversed
CREATE INDEX place_word_by_reversed ON place_word(reversed);

-- view: place_document
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

-- view: place_history
CREATE VIEW place_history AS
SELECT p.id, p.place_id, p.name, p.source,
       f.started_at AS first_seen, l.started_at AS last_seen,
       u.started_at AS updated_at, r.started_at AS removed_at
FROM place p
JOIN import_run f ON f.id = p.first_run
JOIN import_run l ON l.id = p.last_run
JOIN import_run u ON u.id = p.updated_run
LEFT JOIN import_run r ON r.id = p.removed_run;

-- view: place_text_source
CREATE VIEW place_text_source AS
SELECT p.id AS id,
       p.name AS name,
       replace(replace(json_extract(p.extra, '$.osm.tags.alt_name', '$.osm.tags.old_name', '$.osm.tags.official_name', '$.osm.tags.short_name', '$.osm.tags.loc_name', '$.osm.tags.int_name', '$.osm.tags.nat_name', '$.osm.tags.reg_name', '$.osm.tags.brand', '$.overture.brand.names.primary'), '[null', '['), ',null', ',')
|| (WITH RECURSIVE m(o, acc, n) AS (
    SELECT CASE WHEN json_type(p.extra, '$.localizedNames') = 'object' THEN json_extract(p.extra, '$.localizedNames') ELSE '{}' END, '', 0
    UNION ALL
    SELECT json_remove(o, '$."' || substr(o, 3, instr(substr(o, 3), '"') - 1) || '"'),
           acc || CASE WHEN json_type(o, '$."' || substr(o, 3, instr(substr(o, 3), '"') - 1) || '"') = 'text' THEN ' ' || json_extract(o, '$."' || substr(o, 3, instr(substr(o, 3), '"') - 1) || '"') ELSE '' END,
           n + 1
    FROM m WHERE length(o) > 2 AND n < 400 AND instr(substr(o, 3, instr(substr(o, 3), '"') - 1), '\') = 0
) SELECT acc FROM m ORDER BY n DESC LIMIT 1) AS other_names,
       CASE WHEN instr(p.doc, '"formattedAddress"') > 0 THEN json_extract(p.doc, '$.formattedAddress') END AS address,
       trim(coalesce(p.primary_type, '') || ' ' || CASE WHEN instr(p.doc, '"types"') > 0 THEN coalesce(
    replace(replace(json_extract(p.doc, '$.types'), '"point_of_interest"', ''), '"establishment"', ''), '') ELSE '' END) AS types,
       char(57344) || 'f' || (p.text_cell / 100000) || 'x' || (p.text_cell % 100000)
           || ' ' || char(57344) || 'k' || (p.text_cell / 100000 / 10) || 'x' || (p.text_cell % 100000 / 10) AS cell
FROM place p WHERE p.removed_run IS NULL;

-- view: place_viewport
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

-- trigger: ggi_place_geom
CREATE TRIGGER "ggi_place_geom" BEFORE INSERT ON "place"
FOR EACH ROW BEGIN
SELECT RAISE(ROLLBACK, 'place.geom violates Geometry constraint [geom-type or SRID not allowed]')
WHERE (SELECT geometry_type FROM geometry_columns
WHERE Lower(f_table_name) = Lower('place') AND Lower(f_geometry_column) = Lower('geom')
AND GeometryConstraints(NEW."geom", geometry_type, srid) = 1) IS NULL;
END;

-- trigger: ggu_place_geom
CREATE TRIGGER "ggu_place_geom" BEFORE UPDATE OF "geom" ON "place"
FOR EACH ROW BEGIN
SELECT RAISE(ROLLBACK, 'place.geom violates Geometry constraint [geom-type or SRID not allowed]')
WHERE (SELECT geometry_type FROM geometry_columns
WHERE Lower(f_table_name) = Lower('place') AND Lower(f_geometry_column) = Lower('geom')
AND GeometryConstraints(NEW."geom", geometry_type, srid) = 1) IS NULL;
END;

-- trigger: gid_place_geom
CREATE TRIGGER "gid_place_geom" AFTER DELETE ON "place"
FOR EACH ROW BEGIN
DELETE FROM "idx_place_geom" WHERE pkid=OLD.ROWID;
END;

-- trigger: gii_place_geom
CREATE TRIGGER "gii_place_geom" AFTER INSERT ON "place"
FOR EACH ROW BEGIN
DELETE FROM "idx_place_geom" WHERE pkid=NEW.ROWID;
SELECT RTreeAlign('idx_place_geom', NEW.ROWID, NEW."geom");
END;

-- trigger: giu_place_geom
CREATE TRIGGER "giu_place_geom" AFTER UPDATE OF "geom" ON "place"
FOR EACH ROW BEGIN
DELETE FROM "idx_place_geom" WHERE pkid=NEW.ROWID;
SELECT RTreeAlign('idx_place_geom', NEW.ROWID, NEW."geom");
END;

-- trigger: place_change_before
CREATE TRIGGER place_change_before AFTER UPDATE OF name, primary_type, geom, removed_run ON place
WHEN old.name IS NOT new.name OR old.primary_type IS NOT new.primary_type OR old.geom IS NOT new.geom
  OR (old.removed_run IS NULL) <> (new.removed_run IS NULL)
BEGIN
    INSERT INTO place_change (place, run, name, primary_type, geom, removed_run)
    VALUES (old.id,
            CASE WHEN old.removed_run IS NULL AND new.removed_run IS NOT NULL THEN new.removed_run ELSE new.last_run END,
            old.name, old.primary_type, old.geom, old.removed_run);
END;

-- trigger: place_extent_delete
CREATE TRIGGER place_extent_delete AFTER DELETE ON place
BEGIN
    DELETE FROM place_extent WHERE id = OLD.id;
END;

-- trigger: place_extent_insert
CREATE TRIGGER place_extent_insert AFTER INSERT ON place
WHEN instr(NEW.doc, '"viewport"') > 0
BEGIN
    INSERT OR REPLACE INTO place_extent (id, west, east, south, north)
    SELECT id, west, east, south, north FROM place_viewport WHERE id = NEW.id;
END;

-- trigger: place_extent_update
CREATE TRIGGER place_extent_update AFTER UPDATE OF doc ON place
BEGIN
    DELETE FROM place_extent WHERE id = OLD.id;
    INSERT INTO place_extent (id, west, east, south, north)
    SELECT id, west, east, south, north FROM place_viewport WHERE id = NEW.id;
END;

-- trigger: place_generation_delete
CREATE TRIGGER place_generation_delete AFTER DELETE ON place
BEGIN
    UPDATE place_generation SET n = n + 1;
END;

-- trigger: place_generation_footprint_delete
CREATE TRIGGER place_generation_footprint_delete AFTER DELETE ON place_footprint
BEGIN
    UPDATE place_generation SET n = n + 1;
END;

-- trigger: place_generation_footprint_insert
CREATE TRIGGER place_generation_footprint_insert AFTER INSERT ON place_footprint
BEGIN
    UPDATE place_generation SET n = n + 1;
END;

-- trigger: place_generation_footprint_update
CREATE TRIGGER place_generation_footprint_update AFTER UPDATE ON place_footprint
BEGIN
    UPDATE place_generation SET n = n + 1;
END;

-- trigger: place_generation_update
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

-- trigger: place_rating_generation_update
CREATE TRIGGER place_rating_generation_update AFTER UPDATE OF rating ON place
WHEN old.rating IS NOT new.rating
BEGIN
    UPDATE place_rating_generation SET n = n + 1;
END;

-- trigger: place_text_delete
CREATE TRIGGER place_text_delete BEFORE DELETE ON place
BEGIN
    INSERT INTO place_text (place_text, rowid, name, other_names, address, types, cell) SELECT 'delete', * FROM place_text_source WHERE id = OLD.id;
END;

-- trigger: place_text_insert
CREATE TRIGGER place_text_insert AFTER INSERT ON place WHEN NEW.removed_run IS NULL
BEGIN
    INSERT INTO place_text (rowid, name, other_names, address, types, cell) SELECT * FROM place_text_source WHERE id = NEW.id;
END;

-- trigger: place_text_unindex
CREATE TRIGGER place_text_unindex BEFORE UPDATE OF name, primary_type, doc, extra, text_cell, removed_run ON place
WHEN OLD.removed_run IS NOT NEW.removed_run OR OLD.name IS NOT NEW.name OR OLD.primary_type IS NOT NEW.primary_type OR OLD.doc IS NOT NEW.doc OR OLD.extra IS NOT NEW.extra OR OLD.text_cell IS NOT NEW.text_cell
BEGIN
    INSERT INTO place_text (place_text, rowid, name, other_names, address, types, cell) SELECT 'delete', * FROM place_text_source WHERE id = OLD.id;
END;

-- trigger: place_text_update
CREATE TRIGGER place_text_update AFTER UPDATE OF name, primary_type, doc, extra, text_cell, removed_run ON place
WHEN OLD.removed_run IS NOT NEW.removed_run OR OLD.name IS NOT NEW.name OR OLD.primary_type IS NOT NEW.primary_type OR OLD.doc IS NOT NEW.doc OR OLD.extra IS NOT NEW.extra OR OLD.text_cell IS NOT NEW.text_cell
BEGIN
    INSERT INTO place_text (rowid, name, other_names, address, types, cell) SELECT * FROM place_text_source WHERE id = NEW.id;
END;

-- trigger: tmd_place_geom
CREATE TRIGGER "tmd_place_geom" AFTER DELETE ON "place"
FOR EACH ROW BEGIN
UPDATE geometry_columns_time SET last_delete = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE Lower(f_table_name) = Lower('place') AND Lower(f_geometry_column) = Lower('geom');
END;

-- trigger: tmi_place_geom
CREATE TRIGGER "tmi_place_geom" AFTER INSERT ON "place"
FOR EACH ROW BEGIN
UPDATE geometry_columns_time SET last_insert = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE Lower(f_table_name) = Lower('place') AND Lower(f_geometry_column) = Lower('geom');
END;

-- trigger: tmu_place_geom
CREATE TRIGGER "tmu_place_geom" AFTER UPDATE ON "place"
FOR EACH ROW BEGIN
UPDATE geometry_columns_time SET last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE Lower(f_table_name) = Lower('place') AND Lower(f_geometry_column) = Lower('geom');
END;

-- geometry_columns: place.geom type 1 dimension 2 srid 4326 spatial_index 1
