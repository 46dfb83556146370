import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel
import PlaceStorage

/// Builds or drops the text index of an existing database (`placedb
/// text-index build|drop`), one write transaction each, while no import
/// writes it (`ImportLock`).
public enum TextIndexMaintenance {
    /// Builds the text index as a new database has it (migration 11's SQL:
    /// one FTS5 rebuild over every live place, then the typo words).
    /// Returns false when the database had it already (nothing is done).
    public static func build(databasePath: String? = nil, waiting: ((_ otherImport: Int32?) -> Void)? = nil) throws
        -> Bool
    {
        try withStore(databasePath, waiting: waiting) { try $0.buildTextIndex() }
    }

    /// Drops the text index (its FTS5 table, view, typo words and
    /// triggers). Returns how many places it held; nil when there was none.
    public static func drop(databasePath: String? = nil, waiting: ((_ otherImport: Int32?) -> Void)? = nil) throws
        -> Int?
    {
        try withStore(databasePath, waiting: waiting) { try $0.dropTextIndex() }
    }

    /// Counts how many places hold each common word and word prefix of the
    /// text index and stores those at least `minPlaces` hold, so that
    /// searches and autocompletes read them instead of counting them
    /// (`PlaceStore.analyzeTextIndex`). Nil when there is no text index.
    /// Returns the words and prefixes stored, and the prefixes counted.
    public static func analyze(
        databasePath: String? = nil, minPlaces: Int64 = defaultMinPlaces,
        waiting: ((_ otherImport: Int32?) -> Void)? = nil
    ) throws -> (words: Int, prefixes: Int, counted: Int)? {
        try withStore(databasePath, waiting: waiting) { store in
            try store.analyzeTextIndex(minPlaces: minPlaces).map { ($0.words, $0.prefixes, $0.counted) }
        }
    }

    /// Writes the text index's word lists beside the database
    /// (`DB.placetext`), which searches read instead of FTS5's lists while
    /// they hold for the index as it is (`PlaceStore.writeWordLists`). Nil
    /// when there is no text index; else the words, postings and bytes written.
    public static func writeLists(databasePath: String? = nil, waiting: ((_ otherImport: Int32?) -> Void)? = nil)
        throws -> (words: Int, postings: Int, bytes: Int)?
    {
        try withStore(databasePath, waiting: waiting) { store in
            try store.writeWordLists().map { ($0.words, $0.postings, $0.bytes) }
        }
    }

    /// `analyze`'s threshold unless told (`PlaceStore.defaultCountThreshold`).
    public static let defaultMinPlaces: Int64 = PlaceStore.defaultCountThreshold

    /// Opens an existing database for writing while no import writes it
    /// (`ImportLock`), for maintenance commands (text index, linking).
    static func withStore<T>(
        _ databasePath: String?, waiting: ((_ otherImport: Int32?) -> Void)?, _ body: (PlaceStore) throws -> T
    ) throws -> T {
        let path = try PlaceStore.resolvePath(databasePath)
        var st = stat()
        guard stat(path, &st) == 0 else { throw PlaceDBError.noDatabase(path: path) }
        let lock = ImportLock.acquire(for: path, waiting: waiting)
        defer { withExtendedLifetime(lock) {} }
        let store = try PlaceStore(path: path, writable: true)
        return try body(store)
    }
}
