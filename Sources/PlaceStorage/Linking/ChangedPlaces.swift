import SQLiteDB

/// The places an importer changed, tracked on the connection that writes
/// them, so that linking's pass after the import finds them without
/// reading every place's runs (which have no index: at 10M places that
/// read alone took 2.8 s for an import of 100 places).
///
/// - New places: every row past `rowidBefore` (rowids only grow: placedb
///   never names a new row's id).
/// - Changed, removed and revived places: a temporary trigger on this
///   connection notes each row whose `updated_run` or `removed_run` an
///   update changes, in `temp.link_changed`. The table's rows go with the
///   transaction that wrote them: a rolled-back import leaves none.
///
/// The table and trigger are created outside any transaction (a rollback
/// cannot take them away); another connection, or a writer other than
/// placedb, is not tracked, and the pass then finds the places by their
/// runs, as without tracking.
package struct ChangedPlaces: Sendable {
    /// The largest place row when tracking began.
    package let rowidBefore: Int64

    static let table = "link_changed"
    static let trigger = "link_changed_update"

    /// Whether `db` is tracking (its trigger exists).
    static func isTracking(_ db: Database) throws -> Bool {
        try db.scalar(
            "SELECT EXISTS (SELECT 1 FROM sqlite_temp_master WHERE type = 'trigger' AND name = ?)", [.text(trigger)])?
            .int64 == 1
    }
}

extension PlaceStore {
    /// Begins tracking the places this connection's writes change (again
    /// from now, if it was). Call it outside a transaction.
    package func trackChangedPlaces() throws -> ChangedPlaces {
        try db.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS \(ChangedPlaces.table) (id INTEGER PRIMARY KEY);
            DELETE FROM temp.\(ChangedPlaces.table);
            CREATE TEMP TRIGGER IF NOT EXISTS \(ChangedPlaces.trigger)
            AFTER UPDATE OF updated_run, removed_run ON main.place
            WHEN old.updated_run IS NOT new.updated_run OR old.removed_run IS NOT new.removed_run
            BEGIN
                INSERT OR IGNORE INTO \(ChangedPlaces.table) (id) VALUES (new.id);
            END;
            """)
        return ChangedPlaces(rowidBefore: try db.scalar("SELECT max(id) FROM place")?.int64 ?? 0)
    }

    /// Ends tracking (the trigger and table dropped).
    package func stopTrackingChangedPlaces() {
        try? db.execute(
            "DROP TRIGGER IF EXISTS temp.\(ChangedPlaces.trigger); DROP TABLE IF EXISTS temp.\(ChangedPlaces.table);")
    }

}
