package import PlaceModel
import SQLiteDB

extension PlaceStore {
    /// A place whose key fields or liveness may differ between two runs:
    /// its state after each (nil: not live then).
    package struct DiffCandidate {
        package let before: PlaceDiff.State?
        package let after: PlaceDiff.State?
    }

    /// One import run as `placedb diff` names it.
    package struct RunRow {
        package let id: Int64
        package let input: String
        package let snapshot: String?
        package let status: String
        package let startedAt: String
        /// The date of the data it brought, when known (`data_time`).
        package let dataTime: String?
    }

    /// The run with this id, or nil.
    package func importRun(_ id: Int64) throws -> RunRow? {
        var out: RunRow?
        try db.forEachRow(
            "SELECT id, input, snapshot, status, started_at, data_time FROM import_run WHERE id = ?", [.integer(id)]
        ) { row in
            out = RunRow(
                id: try row.int64(0), input: row.optionalString(1) ?? "", snapshot: row.optionalString(2),
                status: row.optionalString(3) ?? "", startedAt: row.optionalString(4) ?? "",
                dataTime: row.optionalString(5))
        }
        return out
    }

    /// The completions of `snapshot` (the run each `import --snapshot`
    /// ends with, which marks what it did not see as removed), oldest first.
    package func snapshotCompletions(_ snapshot: String) throws -> [RunRow] {
        var out: [RunRow] = []
        try db.forEachRow(
            """
            SELECT id, input, snapshot, status, started_at, data_time FROM import_run
            WHERE snapshot = ?1 AND input = 'snapshot ' || ?1 AND status = 'ok' ORDER BY id
            """, [.text(snapshot)]
        ) { row in
            out.append(
                RunRow(
                    id: try row.int64(0), input: row.optionalString(1) ?? "", snapshot: row.optionalString(2),
                    status: row.optionalString(3) ?? "", startedAt: row.optionalString(4) ?? "",
                    dataTime: row.optionalString(5)))
        }
        return out
    }

    /// The last run (of `snapshot`'s completions, when given; else any
    /// finished run) that started at or before `time` (what SQLite's
    /// julianday() reads); 0 when none did. Throws `invalidArgument` for a
    /// time SQLite cannot read.
    package func lastRun(atOrBefore time: String, snapshot: String?) throws -> Int64 {
        var valid = false
        try db.forEachRow("SELECT julianday(?) IS NOT NULL", [.text(time)]) { valid = try $0.int64(0) != 0 }
        guard valid else {
            throw PlaceDBError.invalidArgument("'\(time)' is not a date or time (YYYY-MM-DD or RFC 3339)")
        }
        var out: Int64 = 0
        try db.forEachRow(
            """
            SELECT coalesce(max(id), 0) FROM import_run
            WHERE julianday(started_at) <= julianday(?1) AND status = 'ok'
              AND (?2 IS NULL OR (snapshot = ?2 AND input = 'snapshot ' || ?2))
            """, [.text(time), DatabaseValue(snapshot)]
        ) { out = try $0.int64(0) }
        return out
    }

    /// Whether the change log (schema 10) was kept when `run` started:
    /// changes made before it cannot be seen.
    package func changeLogCovers(run: Int64) throws -> Bool {
        var covers = true
        try db.forEachRow(
            """
            SELECT (SELECT julianday(applied_at) FROM schema_migration WHERE version = 10)
                 > (SELECT julianday(started_at) FROM import_run WHERE id = ?)
            """, [.integer(run)]
        ) { covers = $0.optionalInt64(0) != 1 }
        return covers
    }

    /// The number of places (of `source`, when given) live after `run`.
    package func livePlaces(after run: Int64, source: String?) throws -> Int {
        var n = 0
        try db.forEachRow(
            """
            SELECT count(*) FROM place p
            LEFT JOIN place_change c ON c.id = (SELECT id FROM place_change WHERE place = p.id AND run > ?1 ORDER BY run, id LIMIT 1)
            WHERE p.first_run <= ?1 AND (?2 IS NULL OR p.source = ?2)
              AND CASE WHEN c.id IS NOT NULL THEN c.removed_run IS NULL ELSE p.removed_run IS NULL OR p.removed_run > ?1 END
            """, [.integer(run), DatabaseValue(source)]
        ) { n = Int(try $0.int64(0)) }
        return n
    }

    /// The state columns of side `s` (`a` or `b`: the before-image joined
    /// under that name, NULL when the place's row is its state).
    private static func stateColumns(_ s: String) -> String {
        "\(s).id IS NOT NULL, \(s).name, \(s).primary_type, \(s).geom, \(s).removed_run"
    }

    private static let stateOfPlace = """
        FROM place p
        LEFT JOIN place_change a ON a.id = (SELECT id FROM place_change WHERE place = p.id AND run > ?1 ORDER BY run, id LIMIT 1)
        LEFT JOIN place_change b ON b.id = (SELECT id FROM place_change WHERE place = p.id AND run > ?2 ORDER BY run, id LIMIT 1)
        """

    /// Reads one side's state from a row of `stateOfPlace`'s columns:
    /// place_id, first_run, removed_run, name, primary_type, geom, then
    /// `stateColumns` at `column`.
    private func state(_ row: Row, column c: Int, run: Int64) throws -> PlaceDiff.State? {
        let id = row.optionalString(0) ?? ""
        guard try row.int64(1) <= run else { return nil }
        let imaged = try row.int64(c) != 0
        let removedRun = row.optionalInt64(2)
        let removed = imaged ? !row.isNull(c + 4) : removedRun.map { $0 <= run } ?? false
        if removed { return nil }
        let base: Int = imaged ? c + 1 : 3
        let point = row.isNull(base + 2) ? nil : row.withBytes(base + 2) { SpatiaLiteBlob.coordinate($0) }
        return PlaceDiff.State(
            placeID: id, name: row.optionalString(base), primaryType: row.optionalString(base + 1), coordinate: point)
    }

    /// Calls `body` with every place (of `source`, when given) whose key
    /// fields or liveness may differ between the states after `from` and
    /// after `to` (from < to), in row order: the places first seen, removed
    /// or changed by a run in between. One row at a time.
    package func forEachDiffCandidate(from: Int64, to: Int64, source: String?, _ body: (DiffCandidate) throws -> Void)
        throws
    {
        let statement = try db.prepare(
            """
            SELECT p.place_id, p.first_run, p.removed_run, p.name, p.primary_type, p.geom, \(Self.stateColumns("a")), \(Self.stateColumns("b"))
            \(Self.stateOfPlace)
            WHERE p.first_run <= ?2 AND (?3 IS NULL OR p.source = ?3)
              AND (p.first_run > ?1 OR (p.removed_run > ?1 AND p.removed_run <= ?2)
                   OR EXISTS (SELECT 1 FROM place_change c WHERE c.place = p.id AND c.run > ?1 AND c.run <= ?2))
            ORDER BY p.id
            """)
        try statement.bind([.integer(from), .integer(to), DatabaseValue(source)])
        while let row = try statement.step() {
            try body(
                DiffCandidate(before: try state(row, column: 6, run: from), after: try state(row, column: 11, run: to)))
        }
    }

    /// The states of one place ID after `from` and after `to` (nil: not
    /// live then, or no such ID).
    package func diffStates(of placeID: String, from: Int64, to: Int64) throws -> DiffCandidate {
        var out = DiffCandidate(before: nil, after: nil)
        try db.forEachRow(
            """
            SELECT p.place_id, p.first_run, p.removed_run, p.name, p.primary_type, p.geom, \(Self.stateColumns("a")), \(Self.stateColumns("b"))
            \(Self.stateOfPlace)
            WHERE p.place_id = ?3
            """, [.integer(from), .integer(to), .text(placeID)]
        ) { row in
            out = DiffCandidate(
                before: try state(row, column: 6, run: from), after: try state(row, column: 11, run: to))
        }
        return out
    }

    /// An alias edge recorded between two runs.
    package struct RecordedAlias {
        package let aliasID: String
        package let placeID: String
        package let reason: String
        package let confidence: Double
    }

    /// The alias edges recorded by runs after `from` up to `to` (touching a
    /// place of `source`, when given), oldest first.
    package func aliasesRecorded(from: Int64, to: Int64, source: String?) throws -> [RecordedAlias] {
        var out: [RecordedAlias] = []
        try db.forEachRow(
            """
            SELECT a.alias_id, a.place_id, a.reason, a.confidence FROM place_alias a
            WHERE a.run > ?1 AND a.run <= ?2
              AND (?3 IS NULL OR EXISTS (SELECT 1 FROM place p WHERE p.place_id IN (a.alias_id, a.place_id) AND p.source = ?3))
            ORDER BY a.id
            """, [.integer(from), .integer(to), DatabaseValue(source)]
        ) { row in
            out.append(
                RecordedAlias(
                    aliasID: row.optionalString(0) ?? "", placeID: row.optionalString(1) ?? "",
                    reason: row.optionalString(2) ?? "explicit", confidence: row.optionalDouble(3) ?? 1))
        }
        return out
    }
}
