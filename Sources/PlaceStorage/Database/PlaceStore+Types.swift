import SQLiteDB

extension PlaceStore {
    /// Whether any place (removed ones too) has `type` among its types: one
    /// probe of `place_type`'s primary key.
    package func holdsType(_ type: String) throws -> Bool {
        let statement = try db.cachedStatement("SELECT 1 FROM place_type WHERE type = ? LIMIT 1")
        try statement.bind(.text(type), at: 1)
        defer { statement.reset() }
        return try statement.step() != nil
    }
}

extension PlaceStore {
    /// The stored document of row `rowid` as stored (the members its
    /// columns stand for are not in it), nil when the row is gone.
    package func withRawDocument<T>(rowid: Int64, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
        try withLocatedRow(rowid: rowid) { _, doc, _, _ in try body(doc) }
    }

    /// What changes when the places change: the last import run, the
    /// largest place row and, from schema 16, the `place_generation`
    /// counter that deletes and edits by any writer raise (`"RUN-ROW-GEN"`).
    /// Page tokens carry it; the same on every connection, unlike
    /// `PRAGMA data_version`.
    package func changeMarker() throws -> String {
        if let m = try indexMarker() { return "\(m.maxRun)-\(m.maxPlace)-\(m.generation)" }
        let statement = try db.cachedStatement(
            "SELECT (SELECT coalesce(max(id), 0) FROM import_run), (SELECT coalesce(max(id), 0) FROM place)")
        defer { statement.reset() }
        guard let row = try statement.step() else { return "0-0" }
        return "\(try row.int64(0))-\(try row.int64(1))"
    }
}
