import SQLiteDB

extension PlaceStore {
    /// True inside `read` or `write`.
    package var isInTransaction: Bool { db.isInTransaction }

    /// Runs `body` in one read transaction (a consistent snapshot; SQLite
    /// takes its locks once instead of per query); inside a transaction,
    /// in that one.
    package func read<T>(_ body: () throws -> T) throws -> T {
        try db.read(body)
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`): all of it
    /// is committed, or none of it when it throws.
    package func write<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(.immediate, body)
    }

    /// Switches a database built with a rollback journal to the WAL, as
    /// every other placedb database is.
    package func switchToWAL() throws {
        try db.execute("PRAGMA journal_mode = WAL")
    }

    /// The writer of this store's places, for an import from `source`.
    package func makeWriter(source: String?, indexChunk: Int) throws -> PlaceWriter {
        try PlaceWriter(db: db, source: source, indexChunk: indexChunk)
    }
}
