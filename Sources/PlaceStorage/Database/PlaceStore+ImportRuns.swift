import PlaceModel
import SQLiteDB

/// What an import run did, as its `import_run` row records it.
package struct ImportRunRecord: Sendable {
    package var formats: [String] = []
    /// The default source of its formats, for a run that named none.
    package var defaultSource: String?
    package var status: String
    package var seconds: Double = 0
    package var bytes: Int64 = 0
    package var records = 0, inserted = 0, updated = 0, unchanged = 0, revived = 0, duplicates = 0
    package var removed = 0, rejected = 0, older = 0
    package var error: String?
    /// The date of the data the run brought (RFC 3339), when known.
    package var dataTime: String?

    package init(status: String) { self.status = status }
}

extension PlaceStore {
    /// Inserts a `running` import_run row and returns its id; the places
    /// the run writes point at it. `options` is the run's settings as JSON.
    package func beginImportRun(input: String, source: String?, snapshot: String?, startedAt: String, options: String)
        throws -> Int64
    {
        try db.run(
            """
            INSERT INTO import_run (input, source, snapshot, status, started_at, options) VALUES (?, ?, ?, 'running', ?, ?)
            """, [.text(input), DatabaseValue(source), DatabaseValue(snapshot), .text(startedAt), .text(options)])
        return db.lastInsertedRowID
    }

    /// Completes the import_run row `run` with what it did.
    package func finishImportRun(_ run: Int64, _ r: ImportRunRecord) throws {
        try db.run(
            """
            UPDATE import_run SET format = ?, source = coalesce(source, ?), status = ?, finished_at = ?, seconds = ?, bytes = ?,
                records = ?, inserted = ?, updated = ?, unchanged = ?, revived = ?, duplicates = ?, removed = ?, rejected = ?, error = ?,
                older = ?, data_time = ?
            WHERE id = ?
            """,
            [
                DatabaseValue(r.formats.sorted().joined(separator: ",").nilIfEmpty),
                DatabaseValue(r.defaultSource),
                .text(r.status), .text(RFC3339.nowMilliseconds()), .real(r.seconds), .integer(r.bytes),
                .integer(Int64(r.records)), .integer(Int64(r.inserted)), .integer(Int64(r.updated)),
                .integer(Int64(r.unchanged)), .integer(Int64(r.revived)), .integer(Int64(r.duplicates)),
                .integer(Int64(r.removed)), .integer(Int64(r.rejected)), DatabaseValue(r.error),
                .integer(Int64(r.older)),
                DatabaseValue(r.dataTime), .integer(run),
            ])
    }

    /// Marks the live places of `source` that no run since `seenSince` saw
    /// as removed by `run`; returns how many.
    package func markUnseenRemoved(source: String, run: Int64, seenSince: Int64) throws -> Int {
        try db.run(
            """
            UPDATE place SET removed_run = ? WHERE source = ? AND removed_run IS NULL AND last_run < ?
            """, [.integer(run), .text(source), .integer(seenSince)])
        return db.changes
    }

    /// The snapshot's two sides for `SnapshotMatcher`: the places `removedRun`
    /// removed, the live places of `source` first seen since `seenSince`, and
    /// how many places of the source were there before.
    package func snapshotCandidates(source: String, removedRun: Int64, seenSince: Int64) throws
        -> (removed: [SnapshotMatcher.Candidate], added: [SnapshotMatcher.Candidate], before: Int)
    {
        let columns = "p.id, p.place_id, p.name, p.geom, p.doc, p.primary_type"
        let removed = try SnapshotMatcher.load(
            db, "SELECT \(columns) FROM place p WHERE p.removed_run = ?", [.integer(removedRun)])
        let added = try SnapshotMatcher.load(
            db,
            """
            SELECT \(columns) FROM place p WHERE p.source = ? AND p.first_run >= ? AND p.removed_run IS NULL
            """, [.text(source), .integer(seenSince)])
        let before =
            try db.scalar(
                "SELECT count(*) FROM place WHERE source = ? AND first_run < ?", [.text(source), .integer(seenSince)])?
            .int ?? 0
        return (removed, added, before)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
