import PlaceModel
import SQLiteDB

extension PlaceStore {
    /// The run that stands for `time` in an import of tombstones: a removal,
    /// or an alias edge's recording, happened then, so `resolve` gives that
    /// time again (`removedAt`, `recordedAt`). One finished run per time
    /// and input (`runs` keeps them for the import), named after the input.
    package func recordedRun(at time: String, input: String, what: String, runs: inout [String: Int64]) throws -> Int64
    {
        if let run = runs[time] { return run }
        try db.run(
            """
            INSERT INTO import_run (input, status, started_at, finished_at, options, data_time) VALUES (?1, 'ok', ?2, ?2, '{}', ?2)
            """, [.text("\(input): \(what), recorded at \(time)"), .text(time)])
        let run = db.lastInsertedRowID
        runs[time] = run
        return run
    }

    /// Marks the place `placeID` removed by `run` and takes the tombstone
    /// member out of its extras (it is the removal, not a source field).
    package func markTombstone(_ placeID: String, run: Int64, member: String) throws {
        try db.run(
            """
            UPDATE place SET removed_run = ?1,
                extra = CASE WHEN json_remove(extra, '$."' || ?3 || '"') = '{}' THEN NULL ELSE json_remove(extra, '$."' || ?3 || '"') END
            WHERE place_id = ?2
            """, [.integer(run), .text(placeID), .text(member)])
    }
}
