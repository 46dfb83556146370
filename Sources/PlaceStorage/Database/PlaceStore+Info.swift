package import PlaceModel
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif

extension PlaceStore {
    /// What the database holds, in one read transaction.
    package func info() throws -> DatabaseInfo {
        var info = DatabaseInfo()
        info.path = path
        var st = stat()
        if stat(path, &st) == 0 { info.fileBytes = Int(st.st_size) }
        func counts(_ sql: String) throws -> [DatabaseInfo.Count] {
            var out: [DatabaseInfo.Count] = []
            try db.forEachRow(sql) {
                out.append(
                    DatabaseInfo.Count(name: $0.optionalString(0) ?? "(none)", count: Int($0.optionalInt64(1) ?? 0)))
            }
            return out
        }
        try db.transaction(.deferred) {
            info.schemaVersion = try Self.storedSchemaVersion(db)
            info.textIndex = try TextIndex.exists(db)
            if info.textIndex {
                info.textCounts = try textCountState().rawValue
                info.wordLists = try wordListsState()
            }
            try db.forEachRow("SELECT count(*), count(*) FILTER (WHERE removed_run IS NULL) FROM place") { row in
                info.places = Int((row.optionalInt64(0) ?? 0))
                info.livePlaces = Int((row.optionalInt64(1) ?? 0))
            }
            info.removedPlaces = info.places - info.livePlaces
            info.bySource = try counts(
                "SELECT source, count(*) FROM place WHERE removed_run IS NULL GROUP BY source ORDER BY 2 DESC, 1")
            info.removedBySource = try counts(
                "SELECT source, count(*) FROM place WHERE removed_run IS NOT NULL GROUP BY source ORDER BY 2 DESC, 1")
            info.byType = try counts(
                "SELECT primary_type, count(*) FROM place WHERE removed_run IS NULL GROUP BY primary_type ORDER BY 2 DESC, 1"
            )
            info.byStatus = try counts(
                "SELECT business_status, count(*) FROM place WHERE removed_run IS NULL GROUP BY business_status ORDER BY 2 DESC, 1"
            )
            info.aliasesByReason = try counts(
                "SELECT reason, count(*) FROM place_alias GROUP BY reason ORDER BY 2 DESC, 1")
            info.aliases = info.aliasesByReason.reduce(0) { $0 + $1.count }
            try db.forEachRow(
                """
                SELECT id, input, format, source, snapshot, status, started_at, finished_at, records, inserted, updated, removed
                FROM import_run ORDER BY id
                """
            ) { r in
                info.runs.append(
                    DatabaseInfo.Run(
                        id: Int((r.optionalInt64(0) ?? 0)), input: r.optionalString(1) ?? "",
                        format: r.optionalString(2), source: r.optionalString(3), snapshot: r.optionalString(4),
                        status: r.optionalString(5) ?? "", startedAt: r.optionalString(6) ?? "",
                        finishedAt: r.optionalString(7),
                        records: Int((r.optionalInt64(8) ?? 0)), inserted: Int((r.optionalInt64(9) ?? 0)),
                        updated: Int((r.optionalInt64(10) ?? 0)), removed: Int((r.optionalInt64(11) ?? 0))))
            }
            try db.forEachRow(
                """
                SELECT snapshot, count(*), max(coalesce(finished_at, started_at)) FROM import_run
                WHERE snapshot IS NOT NULL AND status = 'ok' GROUP BY snapshot ORDER BY snapshot
                """
            ) { r in
                info.snapshots.append(
                    (r.optionalString(0) ?? "", Int((r.optionalInt64(1) ?? 0)), r.optionalString(2) ?? ""))
            }
            // The extent from the spatial index's R*Tree (plain SQLite: no
            // SpatiaLite needed), live places only.
            try db.forEachRow(
                """
                SELECT min(r.xmin), min(r.ymin), max(r.xmax), max(r.ymax)
                FROM idx_place_geom r JOIN place p ON p.id = r.pkid WHERE p.removed_run IS NULL
                """
            ) { r in
                if !r.isNull(0) {
                    info.boundingBox = (
                        (r.optionalDouble(0) ?? 0), (r.optionalDouble(1) ?? 0), (r.optionalDouble(2) ?? 0),
                        (r.optionalDouble(3) ?? 0)
                    )
                }
            }
            // Bytes per table and index, where this SQLite has dbstat.
            if let stat = try? db.prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC, 1") {
                var sizes: [DatabaseInfo.Size] = []
                while let r = try stat.step() {
                    sizes.append(
                        DatabaseInfo.Size(name: r.optionalString(0) ?? "", bytes: Int((r.optionalInt64(1) ?? 0))))
                }
                info.sizes = sizes
            }
        }
        return info
    }
}
