import SQLiteDB

extension Schema {
    /// The text index indexes the first letter of its words (FTS5's
    /// `prefix`, `TextIndexSQL.prefixLengths`), so that autocomplete's
    /// one-letter last word reads one list ("Bookshop S"): the
    /// view and the index are made again, and every place indexed anew
    /// (docs/search.md). Only where the index is: a database imported
    /// with `--no-text-index`, or whose index was dropped (`placedb
    /// text-index drop`), stays without one (`placedb text-index build`
    /// makes it, with the prefixes).
    static let prefixIndexMigration = Migration(
        version: 17, name: "text index: one-letter prefixes",
        sql: """
            \(TextIndexSQL.drop)
            \(TextIndexSQL.create)
            """,
        onlyIf: TextIndexSQL.exists)
}
