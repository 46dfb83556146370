import SQLiteDB

/// What one connection knows about its text index between queries: the
/// number of places holding each phrase the queries asked for (BM25's
/// document frequencies, `bm25_counted`), kept until the file changes.
package final class TextIndexStatistics {
    /// `bm25_counted` is registered on the connection.
    var registered = false
    /// Rows of `place_text` matching `{text columns} : phrase`, by phrase.
    var counts: [String: Int64] = [:]
    /// Match expressions more places match than the number given
    /// (`PlaceStore.allTextMatches`), by expression.
    var crowded: [String: Int] = [:]
    /// The largest `place.id` (`PlaceStore.placeRowBound`), once asked.
    var placeRowBound: Int64?
    /// The file's state the counts hold for: `PRAGMA data_version` (other
    /// connections' commits) and this connection's total changes.
    var version: (data: Int64, changes: Int) = (-1, -1)
    /// Inside `PlaceStore.withTextStatistics`: the version was checked for
    /// this query.
    var checked = false
    /// `place_text_count` holds for the file as it is (`PlaceStore
    /// .textCountState`): a phrase's count is looked up there first.
    var stored = false
    /// The stored word lists beside the database (`WordLists`);
    /// `wordListsHold`: made from the index as it is (checked with the
    /// version). While they do not hold, the file is looked for again
    /// whenever it changes (`wordListsFile`: its version when last
    /// looked, `.some(nil)` when there was none; `nil` never): a new file
    /// written beside a running server is read from its next query on.
    var wordLists: WordLists?
    var wordListsFile: FileVersion?? = nil
    var wordListsHold = false
    /// The lists' rank inputs hold too (`WordLists.ranksHold`: no place
    /// changed since they were written).
    var ranksHold = false
    /// Matches answered from the word lists on this connection (for tests
    /// and `--explain`-style checks that they were read).
    package var answeredFromWordLists = 0
    /// Matches given unread (`TextCandidate.unread`) on this connection.
    package var unreadMatches = 0
    /// Matched rows read one by one (`matchedCandidate`) on this connection.
    package var matchedRowsRead = 0
    /// Counts kept at most (a query asks for a few; this bounds memory).
    static let capacity = 100_000

    init() {}
}

/// Whether the stored counts of common words and prefixes
/// (`PlaceStore.analyzeTextIndex`) hold for the text index as it is.
package enum TextCountState: String, Sendable {
    /// Counted on the index as it is: queries read them.
    case current
    /// Counted on an earlier state of it: queries count instead.
    case stale
    /// Never counted (shown as `none`).
    case unanalyzed = "none"

    /// The state of `db`'s stored counts: current while FTS5's structure
    /// and averages records are those `place_text_counted` holds (the
    /// first changes with every write to the index, the second with every
    /// row added or taken away); `unanalyzed` without a row (or without
    /// the table, as before migration 19). A change to a place that leaves
    /// the index as it was (a rating, a link) keeps them current.
    static func of(_ db: Database) throws -> TextCountState {
        guard try db.scalar(TextIndexSQL.countedTableExists)?.int64 == 1 else { return .unanalyzed }
        func values(_ sql: String) throws -> [DatabaseValue]? {
            let statement = try db.cachedStatement(sql)
            defer { statement.reset() }
            guard let row = try statement.step() else { return nil }
            return [row[0], row[1]]
        }
        guard let stored = try values(TextIndexSQL.storedCountedState) else { return .unanalyzed }
        return try stored == values(TextIndexSQL.countedState) ? .current : .stale
    }
}
