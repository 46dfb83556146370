import SQLiteDB

/// Writes decoded places with prepared statements: insert a new ID, update a
/// changed one, leave an identical one alone (by a hash of what is stored).
final class PlaceWriter {
    enum Outcome { case inserted, updated, unchanged }

    private let db: Database
    private let source: String
    /// The time written to first_seen / last_seen / updated_at (RFC 3339).
    var timestamp = RFC3339.now()
    private let jsonWriter = JSONWriter()

    init(db: Database, source: String) {
        self.db = db
        self.source = source
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

        let find = try db.cachedStatement("SELECT id, content_hash FROM place WHERE place_id = ?")
        try find.bind([.text(place.id.rawValue)])
        var existing: (rowid: Int64, hash: Int64)?
        if let row = try find.step() { existing = (row.int64(0), row.int64(1)) }
        try find.reset()

        if let existing, existing.hash == contentHash { return .unchanged }

        let geometry = SpatiaLiteBlob.point(place.coordinate)
        let name = place.displayName?.text
        let primaryType = place.primaryType ?? place.types.first
        let columns: [DatabaseValue] = [
            DatabaseValue(name), DatabaseValue(primaryType), DatabaseValue(place.rating), DatabaseValue(place.userRatingCount),
            DatabaseValue(place.businessStatus?.rawValue ?? place.document["businessStatus"]?.stringValue),
            DatabaseValue(place.utcOffsetMinutes), DatabaseValue(place.timeZone),
            .text(source), .text(decoded.format.rawValue), .integer(contentHash),
            .text(String(decoding: doc, as: UTF8.self)), extra.isEmpty ? .null : .text(String(decoding: extra, as: UTF8.self)),
            .blob(geometry), .text(timestamp),
        ]
        let rowid: Int64
        let outcome: Outcome
        if let existing {
            try db.run("""
                UPDATE place SET name = ?, primary_type = ?, rating = ?, rating_count = ?, business_status = ?,
                    utc_offset_minutes = ?, time_zone = ?, source = ?, source_format = ?, content_hash = ?, doc = ?,
                    extra = ?, geom = ?, updated_at = ?, last_seen = ?14, removed_at = NULL
                WHERE id = ?
                """, columns + [.integer(existing.rowid)])
            try db.run("DELETE FROM place_type WHERE place = ?", [.integer(existing.rowid)])
            rowid = existing.rowid
            outcome = .updated
        } else {
            try db.run("""
                INSERT INTO place (name, primary_type, rating, rating_count, business_status, utc_offset_minutes,
                    time_zone, source, source_format, content_hash, doc, extra, geom, updated_at, first_seen, last_seen, place_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?14, ?14, ?14, ?)
                """, columns + [.text(place.id.rawValue)])
            rowid = db.lastInsertedRowID
            outcome = .inserted
        }
        var seen = Set<String>()
        for type in place.types where seen.insert(type).inserted {
            try db.run("INSERT INTO place_type (place, type) VALUES (?, ?)", [.integer(rowid), .text(type)])
        }
        return outcome
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
