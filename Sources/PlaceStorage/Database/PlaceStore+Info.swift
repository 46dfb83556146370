package import PlaceModel
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif

extension PlaceStore {
    /// What the database holds, in one read transaction: the places
    /// counted in one pass over `place`; bytes by table and index
    /// (`dbstat`, which reads every page of the file) only in a file of at
    /// most `sizesUpTo` bytes.
    package func info(sizesUpTo limit: Int = .max) throws -> DatabaseInfo {
        var info = DatabaseInfo()
        info.path = path
        var st = stat()
        if stat(path, &st) == 0 { info.fileBytes = Int(st.st_size) }
        let sizes = info.fileBytes <= limit
        func counts(_ sql: String) throws -> [DatabaseInfo.Count] {
            var out: [DatabaseInfo.Count] = []
            try db.forEachRow(sql) {
                out.append(
                    DatabaseInfo.Count(name: $0.optionalString(0) ?? "(none)", count: Int($0.optionalInt64(1) ?? 0)))
            }
            return out
        }
        info.sizesMeasured = sizes
        try db.transaction(.deferred) {
            info.schemaVersion = try Self.storedSchemaVersion(db)
            info.textIndex = try TextIndex.exists(db)
            if info.textIndex {
                info.textCounts = try textCountState().rawValue
                info.wordLists = try wordListsState()
            }
            try countPlaces(into: &info)
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
            info.boundingBox = try extent(removed: info.removedPlaces > 0)
            // Bytes per table and index, where this SQLite has dbstat.
            if sizes,
                let stat = try? db.prepare("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC, 1")
            {
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

    /// The places, live and removed, by source, and the live ones by
    /// primary type and businessStatus: one pass over `place` (a
    /// `GROUP BY` a column would scan it once per count, and sort it),
    /// each list by count, largest first, then by name in byte order,
    /// places without a value first, as "(none)".
    private func countPlaces(into info: inout DatabaseInfo) throws {
        var live: [String?: Int] = [:], removed: [String?: Int] = [:]
        var types: [String?: Int] = [:], statuses: [String?: Int] = [:]
        try db.forEachRow("SELECT source, primary_type, business_status, removed_run IS NULL FROM place") { row in
            let source = row.optionalString(0)
            guard (row.optionalInt64(3) ?? 0) != 0 else {
                removed[source, default: 0] += 1
                return
            }
            live[source, default: 0] += 1
            types[row.optionalString(1), default: 0] += 1
            statuses[row.optionalString(2), default: 0] += 1
        }
        func sorted(_ counts: [String?: Int]) -> [DatabaseInfo.Count] {
            counts.sorted { a, b in
                if a.value != b.value { return a.value > b.value }
                guard let x = b.key else { return false }
                guard let y = a.key else { return true }
                return y.utf8.lexicographicallyPrecedes(x.utf8)
            }.map { DatabaseInfo.Count(name: $0.key ?? "(none)", count: $0.value) }
        }
        info.bySource = sorted(live)
        info.removedBySource = sorted(removed)
        info.byType = sorted(types)
        info.byStatus = sorted(statuses)
        info.livePlaces = live.values.reduce(0, +)
        info.removedPlaces = removed.values.reduce(0, +)
        info.places = info.livePlaces + info.removedPlaces
    }

    /// The live places' extent from the spatial index's R*Tree (plain
    /// SQLite: no SpatiaLite needed), rounded outwards as it stores boxes.
    /// With no removed place, the union of its root node's boxes: SQLite
    /// keeps each node's box in its parent the union of the node's, through
    /// inserts and deletes, so that is every entry's without reading them.
    /// Otherwise the entries of live places, joined one by one.
    private func extent(removed: Bool) throws -> (west: Double, south: Double, east: Double, north: Double)? {
        if !removed, let root = try rtreeRootExtent() { return root }
        var box: (Double, Double, Double, Double)?
        try db.forEachRow(
            """
            SELECT min(r.xmin), min(r.ymin), max(r.xmax), max(r.ymax)
            FROM idx_place_geom r JOIN place p ON p.id = r.pkid WHERE p.removed_run IS NULL
            """
        ) { r in
            if !r.isNull(0) {
                box = (
                    (r.optionalDouble(0) ?? 0), (r.optionalDouble(1) ?? 0), (r.optionalDouble(2) ?? 0),
                    (r.optionalDouble(3) ?? 0)
                )
            }
        }
        return box
    }

    /// The union of the boxes in the root node of `idx_place_geom` (node 1:
    /// a 2-byte depth and a 2-byte count, then per entry an 8-byte id and
    /// xmin, xmax, ymin, ymax as 4-byte floats, all big-endian); nil where
    /// it has no entry or is not of that form.
    package func rtreeRootExtent() throws -> (west: Double, south: Double, east: Double, north: Double)? {
        var box: (west: Double, south: Double, east: Double, north: Double)?
        try db.forEachRow("SELECT data FROM idx_place_geom_node WHERE nodeno = 1") { row in
            row.withBytes(0) { bytes in
                guard bytes.count >= 4 else { return }
                let count = Int(bytes[2]) << 8 | Int(bytes[3])
                guard count > 0, bytes.count >= 4 + count * 24 else { return }
                func float(_ at: Int) -> Double {
                    var bits: UInt32 = 0
                    for k in 0..<4 { bits = bits << 8 | UInt32(bytes[at + k]) }
                    return Double(Float(bitPattern: bits))
                }
                var w = Double.infinity, s = Double.infinity, e = -Double.infinity, n = -Double.infinity
                for i in 0..<count {
                    let at = 4 + i * 24 + 8
                    w = min(w, float(at))
                    e = max(e, float(at + 4))
                    s = min(s, float(at + 8))
                    n = max(n, float(at + 12))
                }
                box = (w, s, e, n)
            }
        }
        return box
    }
}
