import CSQLite

/// One forward-only schema step: frozen SQL, never edited after release.
package struct Migration: Sendable {
    package let version: Int
    package let name: String
    package let sql: String

    package init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
