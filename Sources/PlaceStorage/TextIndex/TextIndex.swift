package import SQLiteDB
package import PlaceModel

/// The text index's checks and maintenance, on any connection.
package enum TextIndex {
    package static func noFTS5(path: String) -> PlaceDBError {
        PlaceDBError.database(
            path: path,
            reason:
                "this SQLite library has no FTS5 (full-text search), which placedb's text index needs; use a build with FTS5 (Debian's libsqlite3-0 has it)"
        )
    }

    /// Whether the linked SQLite has FTS5.
    package static func hasFTS5(_ db: Database) -> Bool {
        (try? db.scalar("SELECT sqlite_compileoption_used('ENABLE_FTS5')")?.int) == 1
            || (try? db.scalar("SELECT fts5(NULL)")) != nil
    }

    /// Builds the index from `place` in one pass (a fresh import, with the
    /// triggers set aside), then its words.
    package static func rebuild(_ db: Database) throws {
        try db.execute(TextIndexSQL.rebuild)
        try refreshWords(db)
    }

    /// Adds the index's new words to the typo vocabulary.
    package static func refreshWords(_ db: Database) throws {
        try db.execute(TextIndexSQL.refreshWords)
    }

    /// Whether the database has the text index (`place_text`).
    package static func exists(_ db: Database) throws -> Bool {
        try db.scalar(TextIndexSQL.exists)?.int == 1
    }

    /// Takes the index away (`TextIndexSQL.drop`); inside the caller's
    /// transaction. Returns how many places it held (0 when it had none
    /// or was not there).
    @discardableResult
    package static func drop(_ db: Database) throws -> Int {
        guard try exists(db) else { return 0 }
        let indexed = try db.scalar("SELECT count(*) FROM place_text_docsize")?.int ?? 0
        try db.execute(TextIndexSQL.drop)
        return indexed
    }

    /// Creates the index as migration 11 does (`TextIndexSQL.create`: one
    /// FTS5 rebuild, then the typo words), then optimizes it as a fresh
    /// import does; inside the caller's transaction.
    /// False when it was there already (nothing is done).
    package static func create(_ db: Database) throws -> Bool {
        guard try !exists(db) else { return false }
        guard hasFTS5(db) else { throw noFTS5(path: db.path) }
        // Every write keeps text_cell; a row written before migration 11 by
        // nothing else has none.
        try db.execute(
            """
            UPDATE place SET text_cell = CAST((ST_Y(geom) + 90) * 100 AS INTEGER) * 100000 + CAST((ST_X(geom) + 180) * 100 AS INTEGER)
            WHERE text_cell IS NULL
            """)
        try db.execute(TextIndexSQL.create)
        // Its segments merged into one, as a fresh import leaves them.
        try db.execute(TextIndexSQL.optimize)
        return true
    }
}
