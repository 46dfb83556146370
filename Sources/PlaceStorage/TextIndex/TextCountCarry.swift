import SQLiteDB

/// Keeps the stored counts of common words and prefixes
/// (`PlaceStore.analyzeTextIndex`) current through an import, so that an
/// analyzed database stays analyzed as regions and new captures of them are
/// imported (docs/search.md).
///
/// Begun in an import's write transaction (`PlaceStore.beginTextCountCarry`),
/// when the counts are current: it notes the largest place row and
/// `PRAGMA data_version`, and temp triggers copy, the first time this
/// connection changes a place at or below that row in a way the index sees
/// (a rename, a new document, a move, a removal or a revival, a deletion),
/// the columns the index's text is made of as they were.
/// Finished in a transaction of its own once that one committed
/// (`PlaceStore.finishTextCountCarry`; FTS5 writes its last segment and its
/// averages at the commit, so the state the counts are stored with is read
/// after it), when no other connection wrote since: the text the index
/// now holds of the places past that row and of the changed ones, and the
/// text it held of the changed ones before, go into two temp FTS5 tables
/// (the same tokenizer and prefix lists), and each stored phrase's count
/// moves by the places holding it now less those that held it before.
/// The index's state is stored with them. The counts are then FTS5's own
/// for the phrases stored (a phrase the import makes common is not added:
/// it is counted when asked, as before). Else they are left as they were,
/// stale, and queries count.
package final class TextCountCarry {
    private let db: Database
    /// The largest place row when the write began.
    private let maxPlace: Int64

    /// `PRAGMA data_version` in the import's transaction: the same after
    /// its commit unless another connection wrote.
    private let dataVersion: Int64?

    /// Nil when the database has no current counts (never analyzed, or
    /// stale already): there is nothing to carry. Call in the write
    /// transaction of the import.
    init?(db: Database) throws {
        guard try TextIndex.exists(db), try TextCountState.of(db) == .current else { return nil }
        self.db = db
        maxPlace = try db.scalar("SELECT coalesce(max(id), 0) FROM place")?.int64 ?? 0
        dataVersion = try db.scalar("PRAGMA data_version")?.int64
        // Any left by a carry whose finish failed go first: the triggers
        // hold the row they guard.
        try db.execute(TextIndexSQL.dropCarry)
        try db.execute(TextIndexSQL.carryTriggers(maxPlace: maxPlace))
    }

    /// Brings the counts up to the index as the import left it; returns
    /// whether they are current. Call in a write transaction of its own,
    /// after the import's committed. The temp triggers and tables are
    /// dropped either way.
    @discardableResult
    func finish() throws -> Bool {
        defer { try? db.execute(TextIndexSQL.dropCarry) }
        // Another connection wrote since: what it changed is not known.
        guard try db.scalar("PRAGMA data_version")?.int64 == dataVersion else { return false }
        // Nothing changed in the index: the counts are still current.
        if try TextCountState.of(db) == .current { return true }
        try db.execute(TextIndexSQL.carriedTables)
        try db.run(TextIndexSQL.fillAdded, [.integer(maxPlace)])
        let added = db.changes
        // The index holds exactly those (one that disagrees with its
        // places is left to a new analysis).
        guard try db.scalar(TextIndexSQL.indexedAdded, [.integer(maxPlace)])?.int64 == Int64(added) else {
            return false
        }
        try db.execute(TextIndexSQL.fillGone)
        var phrases: [String] = []
        try db.forEachRow(TextIndexSQL.storedPhrases) { phrases.append(try $0.string(0)) }
        for phrase in phrases {
            let now = try db.scalar(TextIndexSQL.addedCount, [.text(phrase)])?.int64 ?? 0
            let before = try db.scalar(TextIndexSQL.goneCount, [.text(phrase)])?.int64 ?? 0
            guard now != before else { continue }
            try db.run(TextIndexSQL.addToCount, [.text(phrase), .integer(now - before)])
        }
        try db.execute(TextIndexSQL.storeCountedState)
        return true
    }
}

extension PlaceStore {
    /// Starts keeping the stored counts current through the import whose
    /// write transaction this is (`TextCountCarry`); nil when there are
    /// none current to keep.
    package func beginTextCountCarry() throws -> TextCountCarry? {
        precondition(db.isInTransaction, "beginTextCountCarry outside a transaction")
        return try TextCountCarry(db: db)
    }

    /// Brings the counts up to the index as the import left it, in a write
    /// transaction of its own, once the import's committed; false when
    /// they are left stale (another writer wrote since, or the index does
    /// not hold what its places say).
    @discardableResult
    package func finishTextCountCarry(_ carry: TextCountCarry) throws -> Bool {
        try write { try carry.finish() }
    }

    /// Drops what `beginTextCountCarry` made (after a finish that failed:
    /// its transaction rolled back with the drop in it).
    package func dropTextCountCarry() {
        try? db.execute(TextIndexSQL.dropCarry)
    }
}
