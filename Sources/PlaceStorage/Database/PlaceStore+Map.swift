package import PlaceModel
import SQLiteDB
import Foundation

/// One place as the map page draws it: its point, and its stored
/// footprint when it has one (`place_footprint`).
package struct MapPlaceRow: Sendable {
    package var rowid: Int64
    package var placeID: String
    package var name: String?
    package var primaryType: String?
    package var source: String
    package var point: Coordinate
    package var shape: FootprintShape?
    /// What the stored OpenStreetMap tags say the outline is, where the
    /// type does not: "water" (natural=water, water=*, waterway=*,
    /// landuse=reservoir), "green" (natural=wood, landuse=forest, grass,
    /// meadow, ...), else nil.
    package var cover: String?
}

extension PlaceStore {
    /// Calls `body` with the live, listed places whose point lies in `rect`
    /// and that have a name or a type (features that are not places left
    /// out, told without reading `extra`, which lies past the document),
    /// at most `limit`; when more
    /// are there, a sample spread over a `grid` x `grid` division of the
    /// rectangle (`limit / grid²` a cell, then what the sparse cells left
    /// shared among the full ones) instead, and true. Each
    /// query reads at most its LIMIT of rows from the R*Tree, so the cost
    /// does not grow with the database.
    package func mapPoints(in rect: GeoRect, limit: Int, grid: Int = 8, _ body: (MapPlaceRow) throws -> Void) throws
        -> Bool
    {
        let sql = """
            SELECT p.id, p.place_id, p.name, p.primary_type, p.source, p.geom
            FROM idx_place_geom r JOIN place p ON p.id = r.pkid
            WHERE r.xmin <= ?4 AND r.xmax >= ?2 AND r.ymin <= ?3 AND r.ymax >= ?1 AND p.removed_run IS NULL AND \(listedSQL)
              AND (p.name IS NOT NULL OR p.primary_type IS NOT NULL)
            LIMIT ?5
            """
        return try sampled(sql, rect: rect, limit: limit, grid: grid, extra: [], shapeColumn: nil, body)
    }

    /// Calls `body` with the live places (features that are not places
    /// included: buildings, streets and land use kept by `import
    /// --all-features` draw the basemap; every record of a linked group,
    /// since each drew its own outline) whose stored footprint's extent
    /// meets `rect` and spans at least `minSpan` degrees, at most `limit`,
    /// sampled as `mapPoints` samples; true when some were left out.
    package func mapFootprints(
        in rect: GeoRect, minSpan: Double, limit: Int, grid: Int = 8, _ body: (MapPlaceRow) throws -> Void
    ) throws -> Bool {
        let sql = """
            SELECT p.id, p.place_id, p.name, p.primary_type, p.source, p.geom, f.shape, \(Self.coverSQL)
            FROM place_extent e JOIN place p ON p.id = e.id JOIN place_footprint f ON f.id = p.id
            WHERE e.west <= ?4 AND e.east >= ?2 AND e.south <= ?3 AND e.north >= ?1 AND p.removed_run IS NULL
              AND max(e.east - e.west, e.north - e.south) >= ?6
            LIMIT ?5
            """
        return try sampled(sql, rect: rect, limit: limit, grid: grid, extra: [.real(minSpan)], shapeColumn: 6, body)
    }

    /// The outline's cover by its stored OpenStreetMap tags (`MapPlaceRow.cover`).
    static let coverSQL = """
        CASE WHEN p.extra IS NULL OR instr(p.extra, '"osm"') = 0 THEN NULL \
        WHEN instr(p.extra, '"natural":"water"') > 0 OR instr(p.extra, '"water":') > 0 OR instr(p.extra, '"waterway":') > 0 \
          OR instr(p.extra, '"landuse":"reservoir"') > 0 OR instr(p.extra, '"landuse":"basin"') > 0 THEN 'water' \
        WHEN instr(p.extra, '"natural":"wood"') > 0 OR instr(p.extra, '"natural":"scrub"') > 0 OR instr(p.extra, '"natural":"grassland"') > 0 \
          OR instr(p.extra, '"landuse":"forest"') > 0 OR instr(p.extra, '"landuse":"grass"') > 0 OR instr(p.extra, '"landuse":"meadow"') > 0 \
          OR instr(p.extra, '"landuse":"recreation_ground"') > 0 OR instr(p.extra, '"landuse":"village_green"') > 0 \
          OR instr(p.extra, '"leisure":"park"') > 0 OR instr(p.extra, '"leisure":"garden"') > 0 THEN 'green' END
        """

    /// Runs `sql` (?1-?4 the rectangle, ?5 the limit, then `extra`) on the
    /// whole rectangle; when it holds more than `limit` rows, again on each
    /// cell of a grid with an equal share of the limit.
    private func sampled(
        _ sql: String, rect: GeoRect, limit: Int, grid: Int, extra: [DatabaseValue], shapeColumn: Int?,
        _ body: (MapPlaceRow) throws -> Void
    ) throws -> Bool {
        var rows: [MapPlaceRow] = []
        func read(_ r: GeoRect, _ n: Int, into out: inout [MapPlaceRow]) throws {
            try db.forEachRow(
                sql, [.real(r.south), .real(r.west), .real(r.north), .real(r.east), .integer(Int64(n))] + extra
            ) { row in
                let rowid = try row.int64(0)
                guard let point = row.withBytes(5, { SpatiaLiteBlob.coordinate($0) }) else {
                    throw PlaceDBError.corrupt(
                        path: path, reason: "place row \(rowid) has a geometry that is not a SpatiaLite point")
                }
                var shape: FootprintShape?
                if let c = shapeColumn {
                    guard let s = row.withBytes(c, { FootprintShape(blob: $0) }) else {
                        throw PlaceDBError.corrupt(
                            path: path,
                            reason: "place row \(rowid) has a footprint shape that is not one (place_footprint.shape)")
                    }
                    shape = s
                }
                out.append(
                    MapPlaceRow(
                        rowid: rowid, placeID: try row.string(1), name: row.optionalString(2),
                        primaryType: row.optionalString(3),
                        source: row.optionalString(4) ?? "", point: point, shape: shape,
                        cover: shapeColumn.flatMap { row.optionalString($0 + 1) }))
            }
        }
        try read(rect, limit + 1, into: &rows)
        if rows.count <= limit {
            for r in rows { try body(r) }
            return false
        }
        rows.removeAll()
        // A share of the limit for each cell; then what the sparse cells
        // left, shared among the cells that filled their share, in up to four rounds (the R*Tree
        // answers in the same order, so the larger read starts with the
        // rows already taken).
        let cells = grid * grid
        let dx = (rect.east - rect.west) / Double(grid), dy = (rect.north - rect.south) / Double(grid)
        func cell(_ k: Int) -> GeoRect {
            let i = k / grid, j = k % grid
            return GeoRect(
                south: rect.south + Double(j) * dy, west: rect.west + Double(i) * dx,
                north: rect.south + Double(j + 1) * dy, east: rect.west + Double(i + 1) * dx)
        }
        var share = max(1, limit / cells)
        var seen = Set<Int64>()
        var emitted = 0
        /// Reads `share` rows of each cell of `ks`, sends the new ones to
        /// `body`; the cells that filled their share, or nil once `limit`
        /// rows went out.
        func round(_ ks: some Sequence<Int>) throws -> [Int]? {
            var full: [Int] = []
            for k in ks {
                var found: [MapPlaceRow] = []
                try read(cell(k), share, into: &found)
                if found.count == share { full.append(k) }
                for r in found where seen.insert(r.rowid).inserted {
                    try body(r)
                    emitted += 1
                    if emitted == limit { return nil }
                }
            }
            return full
        }
        guard var full = try round(0..<cells) else { return true }
        // At most 4 more rounds: each shares what is left among the cells
        // that filled their share.
        for _ in 0..<4 where !full.isEmpty && limit - emitted >= full.count {
            share += (limit - emitted) / full.count
            guard let stillFull = try round(full) else { return true }
            full = stillFull
        }
        return true
    }

    /// The landing view's figures, in one read transaction: counts by
    /// source and type (the `info` command's), the extent of the points
    /// (the R*Tree's), and up to `examples` named places, the most rated
    /// first (by the `place` table's order when none is rated).
    package func mapSummary(types: Int = 12, examples: Int = 3) throws -> MapSummary {
        var s = MapSummary()
        try db.transaction(.deferred) {
            s.places = Int(
                try db.scalar(
                    "SELECT count(*) FROM place WHERE removed_run IS NULL AND \(listedSQL.replacingOccurrences(of: "p.", with: ""))"
                )?.int64 ?? 0)
            try db.forEachRow(
                "SELECT source, count(*) FROM place WHERE removed_run IS NULL GROUP BY source ORDER BY 2 DESC, 1"
            ) {
                s.bySource.append(($0.optionalString(0) ?? "(none)", Int($0.optionalInt64(1) ?? 0)))
            }
            try db.forEachRow(
                "SELECT primary_type, count(*) FROM place WHERE removed_run IS NULL GROUP BY primary_type ORDER BY 2 DESC, 1 LIMIT ?",
                [.integer(Int64(types))]
            ) {
                s.byType.append(($0.optionalString(0) ?? "(none)", Int($0.optionalInt64(1) ?? 0)))
            }
            // The R*Tree's root box (one page; the far-fix warning reads the same).
            s.extent = try indexedExtent()
            s.footprints = Int(try db.scalar("SELECT count(*) FROM place_footprint")?.int64 ?? 0)
            s.textIndex = try TextIndex.exists(db)
            // The most rated named places first (an index-less scan stops at
            // the LIMIT only without ORDER BY: read the first thousand).
            try db.forEachRow(
                """
                SELECT p.place_id, p.name, p.primary_type, p.geom FROM (SELECT * FROM place WHERE removed_run IS NULL AND name IS NOT NULL LIMIT 1000) p
                WHERE \(listedSQL) ORDER BY coalesce(p.rating_count, 0) DESC, p.id LIMIT ?
                """, [.integer(Int64(examples))]
            ) { r in
                guard let point = r.withBytes(3, { SpatiaLiteBlob.coordinate($0) }) else { return }
                s.examples.append((try r.string(0), r.optionalString(1) ?? "", r.optionalString(2), point))
            }
        }
        return s
    }

    /// The stored `extra` member of a place (OpenStreetMap tags, Overture
    /// attributes; nil when it has none or there is no such place).
    package func extraJSON(placeID: String) throws -> String? {
        let statement = try db.cachedStatement("SELECT extra FROM place WHERE place_id = ?")
        try statement.bind(.text(placeID), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        return row.optionalString(0)
    }
}
