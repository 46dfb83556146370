import SQLiteDB

/// Writes decoded places with statements prepared once: insert a new ID,
/// update a changed one, leave an identical one alone (by a hash of what is
/// stored).
///
/// During an import the writer keeps SpatiaLite's spatial index and
/// `place_extent` itself: `beginBulk` sets the per-row triggers on `place`
/// aside (SpatiaLite's run `RTreeAlign`, which parses SQL for every row;
/// placedb's own `place_extent_*` ones search each document for a viewport)
/// and `endBulk` puts them back verbatim, all inside the import's
/// transaction, so no other connection ever sees the table without them and
/// a failed import rolls back to the same triggers. `CheckSpatialIndex()`
/// stays 1 (a test proves it).
final class PlaceWriter {
    enum Outcome { case inserted, updated, unchanged }

    private let db: Database
    private let source: String
    /// The time written to first_seen / last_seen / updated_at (RFC 3339).
    var timestamp = RFC3339.now()
    private let jsonWriter = JSONWriter()
    private var setAside: [(name: String, sql: String)] = []
    private var wroteRows = false
    private var bulk = false

    private let find: Statement
    private let insert: Statement
    private let update: Statement
    private let deleteTypes: Statement
    private let insertType: Statement
    private let indexPoint: Statement
    private let indexExtent: Statement
    private let dropExtent: Statement

    init(db: Database, source: String) throws {
        self.db = db
        self.source = source
        find = try db.prepare("SELECT id, content_hash FROM place WHERE place_id = ?")
        insert = try db.prepare("""
            INSERT INTO place (name, primary_type, rating, rating_count, business_status, utc_offset_minutes,
                time_zone, source, source_format, content_hash, doc, extra, geom, updated_at, first_seen, last_seen, place_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?14, ?14, ?14, ?)
            """)
        update = try db.prepare("""
            UPDATE place SET name = ?, primary_type = ?, rating = ?, rating_count = ?, business_status = ?,
                utc_offset_minutes = ?, time_zone = ?, source = ?, source_format = ?, content_hash = ?, doc = ?,
                extra = ?, geom = ?, updated_at = ?, last_seen = ?14, removed_at = NULL
            WHERE id = ?
            """)
        deleteTypes = try db.prepare("DELETE FROM place_type WHERE place = ?")
        insertType = try db.prepare("INSERT INTO place_type (place, type) VALUES (?, ?)")
        indexPoint = try db.prepare("INSERT OR REPLACE INTO idx_place_geom (pkid, xmin, xmax, ymin, ymax) VALUES (?1, ?2, ?2, ?3, ?3)")
        indexExtent = try db.prepare("INSERT OR REPLACE INTO place_extent (id, west, east, south, north) VALUES (?, ?, ?, ?, ?)")
        dropExtent = try db.prepare("DELETE FROM place_extent WHERE id = ?")
    }

    /// Sets SpatiaLite's row triggers on `place` aside for a bulk write.
    /// Call inside a transaction, and `endBulk` before it commits.
    func beginBulk() throws {
        precondition(db.isInTransaction, "beginBulk outside a transaction")
        setAside = []
        try db.forEachRow("""
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'place'
              AND (name LIKE '%\\_place\\_geom' ESCAPE '\\' OR name LIKE 'place\\_extent\\_%' ESCAPE '\\') ORDER BY name
            """) { row in
            setAside.append((row.string(0) ?? "", row.string(1) ?? ""))
        }
        for t in setAside { try db.execute("DROP TRIGGER \"\(t.name)\"") }
        wroteRows = false
        bulk = true
    }

    /// Puts the triggers back and stamps SpatiaLite's geometry_columns_time.
    func endBulk() throws {
        for t in setAside { try db.execute(t.sql) }
        setAside = []
        bulk = false
        if wroteRows {
            try db.run("""
                UPDATE geometry_columns_time SET last_insert = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
                    last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE lower(f_table_name) = 'place' AND lower(f_geometry_column) = 'geom'
                """)
        }
    }

    func upsert(_ decoded: DecodedPlace) throws -> Outcome {
        let place = decoded.place
        var doc: [UInt8] = []
        doc.reserveCapacity(512)
        jsonWriter.write(.object(place.document), into: &doc)
        var extra: [UInt8] = []
        if !decoded.extra.isEmpty { jsonWriter.write(.object(decoded.extra), into: &extra) }
        var hash = FNV1a()
        hash.add(doc)
        hash.add([0])
        hash.add(extra)
        hash.add(Array(decoded.format.rawValue.utf8))
        hash.add(Array(source.utf8))
        let contentHash = Int64(bitPattern: hash.value)

        try find.bind([.text(place.id.rawValue)])
        var existing: (rowid: Int64, hash: Int64)?
        if let row = try find.step() { existing = (row.int64(0), row.int64(1)) }
        try find.reset()

        if let existing, existing.hash == contentHash { return .unchanged }
        wroteRows = true

        let name = place.displayName?.text
        let primaryType = place.primaryType ?? place.types.first
        let columns: [DatabaseValue] = [
            DatabaseValue(name), DatabaseValue(primaryType), DatabaseValue(place.rating), DatabaseValue(place.userRatingCount),
            DatabaseValue(place.document["businessStatus"]?.stringValue),
            DatabaseValue(place.utcOffsetMinutes), DatabaseValue(place.timeZone),
            .text(source), .text(decoded.format.rawValue), .integer(contentHash),
            .text(String(decoding: doc, as: UTF8.self)), extra.isEmpty ? .null : .text(String(decoding: extra, as: UTF8.self)),
            .blob(SpatiaLiteBlob.point(place.coordinate)), .text(timestamp),
        ]
        let rowid: Int64
        let outcome: Outcome
        if let existing {
            try update.bind(columns + [.integer(existing.rowid)])
            try update.run()
            try deleteTypes.bind([.integer(existing.rowid)])
            try deleteTypes.run()
            rowid = existing.rowid
            outcome = .updated
        } else {
            try insert.bind(columns + [.text(place.id.rawValue)])
            try insert.run()
            rowid = db.lastInsertedRowID
            outcome = .inserted
        }
        if bulk {
            let c = place.coordinate
            try indexPoint.bind([.integer(rowid), .real(c.longitude), .real(c.latitude)])
            try indexPoint.run()
            // What the place_extent triggers would store.
            if let v = Self.extent(place.document["viewport"]) {
                try indexExtent.bind([.integer(rowid), .real(v.west), .real(v.east), .real(v.south), .real(v.north)])
                try indexExtent.run()
            } else if outcome == .updated {
                try dropExtent.bind([.integer(rowid)])
                try dropExtent.run()
            }
        }
        var seen = Set<String>()
        for type in place.types where seen.insert(type).inserted {
            try insertType.bind([.integer(rowid), .text(type)])
            try insertType.run()
        }
        return outcome
    }
}

extension PlaceWriter {
    /// A viewport as `place_extent` stores it (the rule of the
    /// `place_viewport` view its triggers read): four numbers in range with
    /// south <= north; a viewport across the antimeridian gets east + 360.
    static func extent(_ viewport: JSONValue?) -> (west: Double, east: Double, south: Double, north: Double)? {
        guard let s = viewport?["low"]?["latitude"]?.doubleValue, let w = viewport?["low"]?["longitude"]?.doubleValue,
              let n = viewport?["high"]?["latitude"]?.doubleValue, let e = viewport?["high"]?["longitude"]?.doubleValue,
              (-90...90).contains(s), (-90...90).contains(n), s <= n, (-180...180).contains(w), (-180...180).contains(e) else { return nil }
        return (w, e < w ? e + 360 : e, s, n)
    }
}

/// 64-bit FNV-1a, to tell whether a record changed.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ bytes: [UInt8]) {
        for b in bytes {
            value ^= UInt64(b)
            value = value &* 0x0000_0100_0000_01B3
        }
    }
}
