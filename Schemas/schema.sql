-- placedb database schema, version 2 (golden file: a test compares it with what the migrations produce)

-- table: idx_place_geom
CREATE VIRTUAL TABLE "idx_place_geom" USING rtree(pkid, xmin, xmax, ymin, ymax);

-- table: import_run
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
    source_format TEXT NOT NULL,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    removed_at TEXT,
    content_hash INTEGER NOT NULL,
    doc TEXT NOT NULL,
    extra TEXT
, "geom" POINT NOT NULL DEFAULT '');

-- table: place_extent
CREATE VIRTUAL TABLE place_extent USING rtree(id, west, east, south, north);

-- table: place_type
CREATE TABLE place_type (
    place INTEGER NOT NULL REFERENCES place(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    PRIMARY KEY (type, place)
) WITHOUT ROWID;

-- table: schema_migration
CREATE TABLE schema_migration (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- index: place_type_by_place
CREATE INDEX place_type_by_place ON place_type(place);

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
