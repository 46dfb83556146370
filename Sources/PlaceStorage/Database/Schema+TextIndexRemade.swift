import SQLiteDB

/// The migrations that make the text index again (its view and FTS5 table
/// changed): every place indexed anew (docs/search.md).
extension Schema {
    /// The text index reads a place's names in every language
    /// (`extra.localizedNames`), where the view of migration 11 read 37
    /// languages by name. A database whose index was dropped (`placedb
    /// text-index drop`) gets it back.
    static let languagesMigration = Migration(
        version: 15, name: "text index: names in every language", sql: TextIndexSQL.remake)

    /// The text index indexes the first letter of its words (FTS5's
    /// `prefix`, `TextIndexSQL.prefixLengths`), so that autocomplete's
    /// one-letter last word reads one list ("Bookshop S"). Only where the
    /// index is: a database imported with `--no-text-index`, or whose index
    /// was dropped (`placedb text-index drop`), stays without one (`placedb
    /// text-index build` makes it, with the prefixes).
    static let prefixIndexMigration = Migration(
        version: 17, name: "text index: one-letter prefixes", sql: TextIndexSQL.remake,
        onlyIf: TextIndexSQL.exists)

    /// Each grid cell's word starts with `TextGrid.mark` (U+E000), so that
    /// the index's one-letter prefix lists `f` and `k` hold the words that
    /// start with those letters, not every place's cell words too: at 10M
    /// places the list `k` held 10M rows, and autocomplete's "Papadopoulos
    /// K" took a second (docs/search.md). Only where the index is.
    static let cellMarkMigration = Migration(
        version: 18, name: "text index: grid cell words out of the one-letter prefix lists", sql: TextIndexSQL.remake,
        onlyIf: TextIndexSQL.exists)
}

extension Schema {
    /// The stored counts of the text index's common words and prefixes
    /// (`placedb text-index analyze`), empty until it runs. Only where the
    /// index is.
    static let textCountMigration = Migration(
        version: 19, name: "text index: stored counts of common words and prefixes", sql: TextIndexSQL.countTables,
        onlyIf: TextIndexSQL.exists)
}
