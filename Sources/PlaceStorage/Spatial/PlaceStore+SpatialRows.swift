import SQLiteDB
package import PlaceModel

/// Reading places for the spatial index, with plain SQLite: the `place`
/// columns queries rank on, the point from SpatiaLite's geometry blob,
/// SpatiaLite's R*Tree `idx_place_geom` for regions, `place_extent` (the
/// viewports, an R*Tree kept by triggers) and `place_footprint` (the stored
/// polygons and lines) for footprints.
extension PlaceStore {
    /// The primary type reads as `IndexedType.anonymous` ("") for a
    /// feature that is not a place (`notAPlaceSQL`).
    /// An unnamed GeoJSON feature's type reads with the prefix
    /// `IndexedType.unnamedPrefix` ("~cafe"), so the model can weigh it
    /// (`LikelihoodModel.unnamedFactor`).
    static let spatialColumns = """
        p.id, p.geom, CASE WHEN p.name IS NOT NULL THEN p.primary_type WHEN \(notAPlaceSQL) THEN '' \
        WHEN p.primary_type IS NOT NULL AND instr(coalesce(p.extra, ''), '"unnamed"') > 0 THEN '~' || p.primary_type \
        ELSE p.primary_type END, p.rating_count, p.business_status, p.source
        """

    /// True for a place that queries list: one alone, or the canonical
    /// member of its group (the group is listed once, with its merged
    /// document; docs/linking.md); every record in the unmerged view.
    var listedSQL: String {
        recordView == .merged ? "(p.group_id IS NULL OR p.group_id = p.id)" : "1"
    }

    /// True for a feature kept by `import --all-features` that is not a
    /// place: neither a name nor a type, and marked so in its `extra`
    /// (`notAPlace`: why). A place a narrow field mask left without a name
    /// and types is still a place.
    static let notAPlaceSQL = """
        (p.primary_type IS NULL AND p.name IS NULL AND instr(coalesce(p.extra, ''), '"notAPlace"') > 0)
        """

    /// The largest rowid in `place` (0 when empty): an instant size estimate.
    package func maxRowid() throws -> Int64 {
        try db.scalar("SELECT max(id) FROM place")?.int64 ?? 0
    }

    /// SQLite's data version for this connection: it changes when another
    /// connection commits, so a cached index can tell it is stale.
    package func dataVersion() throws -> Int64 {
        try db.scalar("PRAGMA data_version")?.int64 ?? 0
    }

    /// The state a stored spatial index must match, or nil for a database
    /// older than `place_generation` (its index is built in memory).
    package func indexMarker() throws -> IndexMarker? {
        guard try db.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'place_generation'") != nil
        else { return nil }
        let statement = try db.cachedStatement(
            """
            SELECT (SELECT n FROM place_generation WHERE id = 1), (SELECT coalesce(max(id), 0) FROM place),
                   (SELECT coalesce(max(id), 0) FROM import_run)
            """)
        defer { statement.reset() }
        guard let row = try statement.step(), !row.isNull(0) else { return nil }
        return IndexMarker(generation: try row.int64(0), maxPlace: try row.int64(1), maxRun: try row.int64(2))
    }

    /// The state the word lists' rank inputs must match: `indexMarker`,
    /// its generation raised by `place_rating_generation` (the changed
    /// ratings, which the rank inputs hold and the spatial index does not;
    /// both counters only grow, so their sum moves when either does).
    package func rankMarker() throws -> IndexMarker? {
        guard var marker = try indexMarker() else { return nil }
        if try db.scalar("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'place_rating_generation'")
            != nil
        {
            marker.generation += try db.scalar("SELECT n FROM place_rating_generation WHERE id = 1")?.int64 ?? 0
        }
        return marker
    }

    /// Every live place (not removed), for the full in-memory index.
    package func loadAllPlaces() throws -> PlaceIndexInput {
        var input = PlaceIndexInput()
        let estimate = Int(try maxRowid())
        // Reserved, not touched: pages never written are not resident.
        input.reserve(estimate)
        input.idEnds.reserveCapacity(estimate)
        // Viewports first, sorted by rowid to merge with the rows, which
        // come in rowid order.
        var extents: [(rowid: Int64, rect: GeoRect)] = []
        try db.forEachRow("SELECT id, west, east, south, north FROM place_extent") { row in
            extents.append((try row.int64(0), try Self.rect(row, 1)))
        }
        extents.sort { $0.rowid < $1.rowid }
        input.viewports = extents.map(\.rect)
        // Footprints come in rowid order (the table's key).
        var shapeRowids: [Int64] = []
        try db.forEachRow("SELECT id, shape FROM place_footprint ORDER BY id") { row in
            shapeRowids.append(try row.int64(0))
            try appendShape(row, 1, rowid: try row.int64(0), to: &input)
        }
        var next = 0, nextShape = 0
        try db.forEachRow(
            "SELECT \(Self.spatialColumns), p.place_id FROM place p WHERE p.removed_run IS NULL AND \(listedSQL) ORDER BY p.id"
        ) { row in
            row.withBytes(6) { input.idBytes.append(contentsOf: $0) }
            input.idEnds.append(Int64(input.idBytes.count))
            let rowid = try row.int64(0)
            while next < extents.count && extents[next].rowid < rowid { next += 1 }
            while nextShape < shapeRowids.count && shapeRowids[nextShape] < rowid { nextShape += 1 }
            try append(
                row, to: &input, viewport: next < extents.count && extents[next].rowid == rowid ? Int32(next) : -1,
                shape: nextShape < shapeRowids.count && shapeRowids[nextShape] == rowid ? Int32(nextShape) : -1)
        }
        return input
    }

    /// The live places whose points fall in `rects`, and those whose
    /// viewport meets `extentRects`, restricted by `typeFilter`.
    package func loadPlaces(in rects: [GeoRect], extentRects: [GeoRect] = [], typeFilter: TypeFilter? = nil) throws
        -> PlaceIndexInput
    {
        var input = PlaceIndexInput()
        var seen = Set<Int64>()
        // ?1-?4: the rectangle (`rectArguments`); the filter's follow.
        let condition = typeFilter?.condition(after: 4)
        let filter = condition.map { " AND \($0.sql)" } ?? ""
        let byPoint = """
            SELECT \(Self.spatialColumns), e.west, e.east, e.south, e.north, f.shape
            FROM idx_place_geom r JOIN place p ON p.id = r.pkid LEFT JOIN place_extent e ON e.id = p.id
            LEFT JOIN place_footprint f ON f.id = p.id
            WHERE r.xmin <= ?4 AND r.xmax >= ?2 AND r.ymin <= ?3 AND r.ymax >= ?1 AND p.removed_run IS NULL AND \(listedSQL)\(filter)
            """
        for rect in rects {
            try db.forEachRow(byPoint, rectArguments(rect) + (condition?.arguments ?? [])) { row in
                guard seen.insert(try row.int64(0)).inserted else { return }
                try appendWithViewport(row, to: &input)
            }
        }
        if extentRects.isEmpty { return input }
        // Viewports crossing the antimeridian are stored with east + 360, so
        // each rectangle is also tried shifted by a turn. A stored footprint
        // lies in its place's viewport (both come from the geometry).
        let byExtent = """
            SELECT \(Self.spatialColumns), e.west, e.east, e.south, e.north, f.shape
            FROM place_extent e JOIN place p ON p.id = e.id LEFT JOIN place_footprint f ON f.id = p.id
            WHERE e.west <= ?4 AND e.east >= ?2 AND e.south <= ?3 AND e.north >= ?1 AND p.removed_run IS NULL AND \(listedSQL)\(filter)
            """
        for rect in extentRects {
            for shift in [0.0, 360.0] {
                let shifted = GeoRect(
                    south: rect.south, west: rect.west + shift, north: rect.north, east: rect.east + shift)
                try db.forEachRow(byExtent, rectArguments(shifted) + (condition?.arguments ?? [])) { row in
                    guard seen.insert(try row.int64(0)).inserted else { return }
                    try appendWithViewport(row, to: &input)
                }
            }
        }
        return input
    }

    /// The places having any of `types`, read by type rather than by
    /// region (for types few places have: localities), or nil when more
    /// than `limit` places have them.
    package func loadPlaces(ofTypes types: [String], limit: Int) throws -> PlaceIndexInput? {
        guard !types.isEmpty else { return PlaceIndexInput() }
        let list = types.indices.map { "?\($0 + 2)" }.joined(separator: ", ")
        let arguments: [DatabaseValue] = types.map { .text($0) }
        var count: Int64 = 0
        try db.forEachRow(
            "SELECT count(*) FROM (SELECT 1 FROM place_type WHERE type IN (\(list)) LIMIT ?1)",
            [.integer(Int64(limit + 1))] + arguments
        ) { count = try $0.int64(0) }
        if count > limit { return nil }
        var input = PlaceIndexInput()
        var seen = Set<Int64>()
        let sql = """
            SELECT \(Self.spatialColumns), e.west, e.east, e.south, e.north, f.shape
            FROM place p LEFT JOIN place_extent e ON e.id = p.id LEFT JOIN place_footprint f ON f.id = p.id
            WHERE p.id IN (SELECT place FROM place_type WHERE type IN (\(list)) LIMIT ?1) AND p.removed_run IS NULL AND \(listedSQL)
            """
        try db.forEachRow(sql, [.integer(Int64(limit + 1))] + arguments) { row in
            guard seen.insert(try row.int64(0)).inserted else { return }
            try appendWithViewport(row, to: &input)
        }
        return input
    }

    /// The rowids of the places that have `type` among their types.
    package func rowids(ofType type: String, _ body: (Int64) -> Void) throws {
        try db.forEachRow("SELECT place FROM place_type WHERE type = ?", [.text(type)]) { body(try $0.int64(0)) }
    }

    // MARK: Rows

    private func rectArguments(_ r: GeoRect) -> [DatabaseValue] {
        [.real(r.south), .real(r.west), .real(r.north), .real(r.east)]
    }

    private static func rect(_ row: Row, _ first: Int) throws -> GeoRect {
        var east = try row.double(first + 1)
        if east > 180 { east -= 360 }
        return GeoRect(
            south: try row.double(first + 2), west: try row.double(first), north: try row.double(first + 3), east: east)
    }

    private func appendWithViewport(_ row: Row, to input: inout PlaceIndexInput) throws {
        var viewport: Int32 = -1
        if !row.isNull(6) {
            viewport = Int32(input.viewports.count)
            input.viewports.append(try Self.rect(row, 6))
        }
        var shape: Int32 = -1
        if !row.isNull(10) {
            shape = Int32(input.shapes.count)
            try appendShape(row, 10, rowid: try row.int64(0), to: &input)
        }
        try append(row, to: &input, viewport: viewport, shape: shape)
    }

    /// Appends the footprint blob in column `column` to the input's shapes.
    private func appendShape(_ row: Row, _ column: Int, rowid: Int64, to input: inout PlaceIndexInput) throws {
        guard let shape = row.withBytes(column, { FootprintShape(blob: $0) }) else {
            throw PlaceDBError.corrupt(
                path: path, reason: "place row \(rowid) has a footprint shape that is not one (place_footprint.shape)")
        }
        input.shapes.append(shape)
    }

    /// Appends one row of `spatialColumns`.
    private func append(_ row: Row, to input: inout PlaceIndexInput, viewport: Int32, shape: Int32) throws {
        let rowid = try row.int64(0)
        guard let point = row.withBytes(1, { SpatiaLiteBlob.decodePoint($0) }) else {
            throw PlaceDBError.corrupt(
                path: path, reason: "place row \(rowid) has a geometry that is not a SpatiaLite point")
        }
        let typeNull = row.isNull(2), sourceNull = row.isNull(5)
        let typeCode = row.withBytes(2) { input.types.code(bytes: $0, isNull: typeNull) }
        let sourceCode = row.withBytes(5) { input.sources.code(bytes: $0, isNull: sourceNull) }
        input.rowids.append(rowid)
        input.latitudes.append(point.latitude)
        input.longitudes.append(point.longitude)
        input.typeCodes.append(typeCode)
        input.ratingCounts.append(Int32(clamping: row.optionalInt64(3) ?? 0))
        input.statuses.append(
            row.isNull(4) ? StatusCode.unknown.rawValue : row.withBytes(4) { StatusCode(bytes: $0) }.rawValue)
        input.sourceCodes.append(sourceCode)
        input.viewportIndexes.append(viewport)
        input.shapeIndexes.append(shape)
    }
}

extension SpatiaLiteBlob {
    /// The coordinate of a SpatiaLite point blob (either byte order), or nil
    /// when the bytes are not one.
    static func decodePoint(_ b: UnsafeRawBufferPointer) -> Coordinate? {
        coordinate(b)
    }
}

extension PlaceStore {
    /// The stored footprint of row `rowid` (`place_footprint`), nil when
    /// it has none; a blob that is not a shape throws.
    package func footprintShape(rowid: Int64) throws -> FootprintShape? {
        let statement = try db.cachedStatement("SELECT shape FROM place_footprint WHERE id = ?")
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        guard let shape = row.withBytes(0, { FootprintShape(blob: $0) }) else {
            throw PlaceDBError.corrupt(
                path: path, reason: "place row \(rowid) has a footprint shape that is not one (place_footprint.shape)")
        }
        return shape
    }
}

extension PlaceStore {
    /// The box around every indexed place (removed ones too), from the
    /// root node of the spatial index's R*Tree: the union of its cells'
    /// boxes, one page read whatever the database's size. The R*Tree keeps
    /// single-precision bounds rounded outwards. Nil for an empty database
    /// or an index that cannot be read.
    package func indexedExtent() throws -> GeoRect? {
        var rect: GeoRect?
        try db.forEachRow("SELECT data FROM idx_place_geom_node WHERE nodeno = 1") { row in
            rect = row.withBytes(0) { Self.rootExtent($0) }
        }
        return rect
    }

    /// Parses an R*Tree node (SQLite's format: 2 bytes of depth, 2 of cell
    /// count, then cells of an 8-byte ID and xmin, xmax, ymin, ymax as
    /// big-endian 32-bit floats).
    static func rootExtent(_ data: UnsafeRawBufferPointer) -> GeoRect? {
        guard data.count >= 4 else { return nil }
        let cells = Int(data[2]) << 8 | Int(data[3])
        let size = 8 + 4 * 4
        guard cells > 0, data.count >= 4 + cells * size else { return nil }
        func float(_ offset: Int) -> Double {
            let bits =
                UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8
                | UInt32(data[offset + 3])
            return Double(Float(bitPattern: bits))
        }
        var r = GeoRect(south: .infinity, west: .infinity, north: -.infinity, east: -.infinity)
        for i in 0..<cells {
            let base = 4 + i * size + 8
            r.west = min(r.west, float(base))
            r.east = max(r.east, float(base + 4))
            r.south = min(r.south, float(base + 8))
            r.north = max(r.north, float(base + 12))
        }
        guard r.west.isFinite, r.east.isFinite, r.south.isFinite, r.north.isFinite, r.west <= r.east, r.south <= r.north
        else { return nil }
        return r
    }
}
