import CSQLite

extension Database {
    /// Registers `bm25_counted(table, counts, w0, w1, ...)` on this
    /// connection: the score of FTS5's `bm25(table, w0, w1, ...)` (the same
    /// formula and constants), except that `counts` may give the number of
    /// rows holding each phrase of the query (decimal numbers separated by
    /// spaces, in the order the phrases appear in the MATCH expression; a
    /// missing one is counted as bm25() counts it). bm25() reads the whole
    /// doclist of every phrase on each query before it scores a row; a
    /// caller that keeps the counts pays that once. Also registers
    /// `bm25_prefixed(table, counts, prefix, prefixRows, columns, text0,
    /// ..., w0, w1, ...)`: that score as if the expression also held
    /// `"prefix" *`, the prefix's words looked for in the row's texts
    /// given (NULL for a row without one; CSQLite/bm25_counted.h). Throws
    /// when the library has no FTS5.
    package func registerCountedBM25() throws {
        let rc = csqlite_register_bm25_counted(handle)
        guard rc == SQLITE_OK else {
            throw SQLiteError(
                extendedCode: rc, message: "cannot register bm25_counted (no FTS5 in this SQLite library?)")
        }
    }

    /// `PRAGMA data_version`: changes when another connection commits a
    /// change to the file (not on this connection's own commits: see
    /// `totalChanges`).
    package func dataVersion() throws -> Int64 {
        try scalar("PRAGMA data_version")?.int64 ?? 0
    }
}
