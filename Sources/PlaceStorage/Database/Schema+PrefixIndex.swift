import SQLiteDB

extension Schema {
    /// The text index indexes the first letter of its words (FTS5's
    /// `prefix`, `TextIndexSQL.prefixLengths`), so that autocomplete's
    /// one-letter last word reads one list ("Bookshop S"): the
    /// view and the index are made again, and every place indexed anew
    /// (docs/search.md). As with migration 15, a database whose index was
    /// dropped (`placedb text-index drop`) gets it back.
    static let prefixIndexMigration = Migration(
        version: 17, name: "text index: one-letter prefixes",
        sql: """
            \(TextIndexSQL.drop)
            \(TextIndexSQL.create)
            """)
}
