import CSQLite

/// One forward-only schema step: frozen SQL, never edited after release.
package struct Migration: Sendable {
    package let version: Int
    package let name: String
    package let sql: String
    /// A query whose first value says whether `sql` applies to this file
    /// (0 or NULL: it does not, as when what it changes is not there); the
    /// version is recorded either way. nil: always applies.
    package let onlyIf: String?

    package init(version: Int, name: String, sql: String, onlyIf: String? = nil) {
        self.version = version
        self.name = name
        self.sql = sql
        self.onlyIf = onlyIf
    }
}
