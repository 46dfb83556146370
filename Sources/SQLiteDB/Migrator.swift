import CSQLite

/// Applies migrations in order, each in its own transaction, and records them
/// in `schema_migration` and `PRAGMA user_version`. A file written by a newer
/// version (a higher `user_version` than this code knows) is refused.
package struct Migrator: Sendable {
    package let migrations: [Migration]
    /// Names the application in the "newer version" message.
    package let application: String

    package init(application: String, migrations: [Migration]) {
        precondition(
            migrations.enumerated().allSatisfy { $0.offset + 1 == $0.element.version },
            "migrations must be numbered 1, 2, 3, ...")
        self.application = application
        self.migrations = migrations
    }

    package var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The schema version stored in the file.
    package static func storedVersion(_ db: Database) throws -> Int {
        try db.scalar("PRAGMA user_version")?.int ?? 0
    }

    /// Brings `db` up to the latest version. Returns the versions applied.
    @discardableResult
    package func migrate(_ db: Database) throws -> [Int] {
        let current = try Self.storedVersion(db)
        if current > latestVersion {
            throw SQLiteError(
                extendedCode: SQLITE_CANTOPEN,
                message:
                    "\(db.path) has schema version \(current), written by a newer \(application); this version knows up to \(latestVersion)"
            )
        }
        var applied: [Int] = []
        for migration in migrations where migration.version > current {
            try db.transaction(.exclusive) {
                // Re-read inside the lock: another process may have migrated.
                guard try Self.storedVersion(db) < migration.version else { return }
                try db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migration (
                        version INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                    )
                    """)
                // Unless it is not for this file (what it changes is not there).
                let applies = try migration.onlyIf.map { (try db.scalar($0)?.int ?? 0) != 0 } ?? true
                if applies { try db.execute(migration.sql) }
                try db.run(
                    "INSERT INTO schema_migration (version, name) VALUES (?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name)])
                try db.execute("PRAGMA user_version = \(migration.version)")
                applied.append(migration.version)
            }
        }
        return applied
    }
}
