import SQLiteDB

extension Schema {
    /// The text index reads a place's names in every language
    /// (`extra.localizedNames`), where the view of migration 11 read 37
    /// languages by name: the view and the index are made again, and every
    /// place indexed anew (docs/search.md). A database whose index was
    /// dropped (`placedb text-index drop`) gets it back.
    static let languagesMigration = Migration(
        version: 15, name: "text index: names in every language",
        sql: """
            \(TextIndexSQL.drop)
            \(TextIndexSQL.create)
            """)
}
