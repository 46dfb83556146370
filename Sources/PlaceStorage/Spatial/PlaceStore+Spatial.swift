import SQLiteDB
import PlaceModel

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

    /// Every live place (not removed), for the full in-memory index.
    package func loadAllPlaces() throws -> PlaceIndexInput {
        var input = PlaceIndexInput()
        let estimate = Int(try maxRowid())
        input.reserve(min(estimate, 50_000_000))
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
        try db.forEachRow("SELECT \(Self.spatialColumns) FROM place p WHERE p.removed_run IS NULL AND \(listedSQL) ORDER BY p.id") { row in
            let rowid = try row.int64(0)
            while next < extents.count && extents[next].rowid < rowid { next += 1 }
            while nextShape < shapeRowids.count && shapeRowids[nextShape] < rowid { nextShape += 1 }
            try append(row, to: &input, viewport: next < extents.count && extents[next].rowid == rowid ? Int32(next) : -1,
                       shape: nextShape < shapeRowids.count && shapeRowids[nextShape] == rowid ? Int32(nextShape) : -1)
        }
        return input
    }

    /// The live places whose points fall in `rects`, and those whose
    /// viewport meets `extentRects`, restricted by `typeFilter`.
    package func loadPlaces(in rects: [GeoRect], extentRects: [GeoRect] = [], typeFilter: TypeFilter? = nil) throws -> PlaceIndexInput {
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
                let shifted = GeoRect(south: rect.south, west: rect.west + shift, north: rect.north, east: rect.east + shift)
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
        try db.forEachRow("SELECT count(*) FROM (SELECT 1 FROM place_type WHERE type IN (\(list)) LIMIT ?1)",
                          [.integer(Int64(limit + 1))] + arguments) { count = try $0.int64(0) }
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

    /// The stored row by rowid and by place ID (prepared once each: the
    /// store keeps the statements).
    private var storedRowByRowidSQL: String {
        "SELECT p.place_id, \(StoredDocument.servedDocument(recordView)), \(StoredDocument.servedColumns(recordView)) FROM \(StoredDocument.servedFrom) WHERE p.id = ?"
    }
    private var storedRowByPlaceIDSQL: String {
        let member = recordView == .merged ? "p.group_id IS NOT NULL AND p.group_id != p.id" : "0"
        return """
            SELECT p.place_id, \(StoredDocument.servedDocument(recordView)), \(StoredDocument.servedColumns(recordView)), p.removed_run,
                   \(member)
            FROM \(StoredDocument.servedFrom) WHERE p.place_id = ?
            """
    }

    /// Calls `body` with the place ID and the stored document's bytes of
    /// row `rowid` (valid only inside `body`); nil when the row is gone.
    /// The document holds no location: the point comes from the geometry.
    func withStoredRow<T>(rowid: Int64, _ body: (PlaceID, UnsafeRawBufferPointer, Coordinate?) throws -> T) throws -> T? {
        let statement = try storedRowByRowid()
        try statement.bind(integer: rowid, at: 1)
        return try withStoredRow(statement, body)
    }

    /// The statement reading a stored row by rowid, kept by the store: it
    /// runs for each place of a nearby answer, and the statement cache
    /// would hash its text each time. Every use resets it after its step
    /// (`withStoredRow`, `withLocatedRow`), so it is found reset.
    private func storedRowByRowid() throws -> Statement {
        if let statement = storedRowStatement { return statement }
        let statement = try db.prepare(storedRowByRowidSQL)
        storedRowStatement = statement
        return statement
    }

    private func withStoredRow<T>(_ statement: Statement, _ body: (PlaceID, UnsafeRawBufferPointer, Coordinate?) throws -> T) throws -> T? {
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        let coordinate = row.withBytes(2) { SpatiaLiteBlob.coordinate($0) }
        let id = PlaceID(try row.string(0))
        do {
            return try StoredDocument.withDocument(row, docColumn: 1, layoutColumn: 3) { try body(id, $0, coordinate) }
        } catch let e as JSONSyntaxError {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has a corrupt stored document: \(e)")
        }
    }

    /// `withStoredRow(rowid:)` for writers that copy members: the place
    /// ID's bytes, the stored document and the members its columns stand
    /// for (`StoredDocument.withLocatedDocument`), not restored.
    func withLocatedRow<T>(rowid: Int64, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, InsertedMembers, Coordinate?) throws -> T) throws -> T? {
        let statement = try storedRowByRowid()
        try statement.bind(integer: rowid, at: 1)
        return try withLocatedRow(statement, body)
    }

    /// `withLocatedRow(rowid:)` for the place with this ID (removed or
    /// not; with `currentOnly`, nil for a removed one and for a member of
    /// a group other than its canonical one).
    func withLocatedRow<T>(placeID: PlaceID, currentOnly: Bool = false,
                           _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, InsertedMembers, Coordinate?) throws -> T) throws -> T? {
        let statement: Statement
        if let kept = storedRowByIDStatement {
            statement = kept
        } else {
            statement = try db.prepare(storedRowByPlaceIDSQL)
            storedRowByIDStatement = statement
        }
        try statement.bind(.text(placeID.rawValue), at: 1)
        return try withLocatedRow(statement, skip: currentOnly ? { row in
            // Removed, or another member of a group (it answers as its canonical member).
            !row.isNull(3 + StoredDocument.readColumnCount) || row.optionalInt64(4 + StoredDocument.readColumnCount) == 1
        } : nil, body)
    }

    private func withLocatedRow<T>(_ statement: Statement, skip: ((Row) -> Bool)? = nil,
                                   _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, InsertedMembers, Coordinate?) throws -> T) throws -> T? {
        defer { statement.reset() }
        guard let row = try statement.step(), skip?(row) != true else { return nil }
        if row.isNull(0) { _ = try row.string(0) }  // throws as reading it as a String would
        let coordinate = row.withBytes(2) { SpatiaLiteBlob.coordinate($0) }
        // The members buffer is kept between rows (taken out while in use).
        var inserted = insertedScratch
        insertedScratch = InsertedMembers()
        defer { insertedScratch = inserted }
        do {
            return try row.withBytes(0) { id in
                try StoredDocument.withLocatedDocument(row, docColumn: 1, layoutColumn: 3, inserted: &inserted) { try body(id, $0, $1, coordinate) }
            }
        } catch let e as JSONSyntaxError {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(try row.string(0))' has a corrupt stored document: \(e)")
        }
    }

    /// The place ID of row `rowid`.
    package func placeID(rowid: Int64) throws -> PlaceID? {
        let statement = try db.cachedStatement("SELECT place_id FROM place WHERE id = ?")
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        let id = try row.string(0)
        return PlaceID(id)
    }

    /// Whether row `rowid` has any of `types` among its types.
    package func hasAnyType(rowid: Int64, _ types: [String]) throws -> Bool {
        let statement = try db.cachedStatement("SELECT 1 FROM place_type WHERE type = ? AND place = ?")
        for t in types {
            try statement.bind([.text(t), .integer(rowid)])
            defer { statement.reset() }
            if try statement.step() != nil { return true }
        }
        return false
    }

    /// The place of row `rowid` with the fields of `plan` (the others are
    /// skipped, not decoded). `coordinate` (from the geometry) saves reading
    /// the document's location.
    package func place(rowid: Int64, plan: MaskPlan, coordinate: Coordinate? = nil) throws -> Place? {
        try withStoredRow(rowid: rowid) { id, doc, stored in
            if plan.language != nil, !plan.fields.isAll, plan.fields.paths["displayName"]?.isEmpty == false {
                // A part of the name asked for in a language: the name is picked whole, then cut.
                let whole = try decode(id: id, doc: doc, plan: MaskPlan(.all), coordinate: coordinate ?? stored)
                return try localized(whole, plan: MaskPlan(.all, language: plan.language)).masked(plan.fields)
            }
            return try localized(decode(id: id, doc: doc, plan: plan, coordinate: coordinate ?? stored), plan: plan)
        }
    }

    /// The place of row `rowid` as it is served at `time`
    /// (`Place.served(at:)`), with the fields of `plan`: when the plan keeps
    /// an hours member, the place is read whole (the hours engine reads
    /// the business status and time zone too), served, then masked.
    package func servedPlace(rowid: Int64, plan: MaskPlan, coordinate: Coordinate? = nil, at time: HoursQueryTime) throws -> Place? {
        guard plan.keepsHours else { return try place(rowid: rowid, plan: plan, coordinate: coordinate) }
        guard let whole = try place(rowid: rowid, plan: plan.fields.isAll ? plan : MaskPlan(.all, language: plan.language), coordinate: coordinate) else { return nil }
        return whole.served(at: time).masked(plan.fields)
    }

    package func decode(id: PlaceID, doc bytes: UnsafeRawBufferPointer, plan: MaskPlan, coordinate: Coordinate?) throws -> Place {
        var doc: JSONObject
        do {
            doc = try PlaceJSON.decode(bytes, plan: plan, withLocation: coordinate == nil)
        } catch {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has a corrupt stored document: \(error)")
        }
        var c = coordinate
        if c == nil, let lat = doc["location"]?["latitude"]?.doubleValue, let lng = doc["location"]?["longitude"]?.doubleValue {
            c = Coordinate(latitude: lat, longitude: lng)
        }
        guard let c else {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has a stored document without a location")
        }
        if plan.fields.isAll { return Place(id: id, coordinate: c, storedDocument: doc) }
        if plan.keys.allSatisfy({ $0.sub.isEmpty }) {
            // Whole members only: keep them as they are (the location from
            // the geometry when asked for, as the Place initializer does).
            var kept: [(key: String, value: JSONValue)] = []
            for m in doc.members where m.key != "location" && plan.keys.contains(where: { $0.name == m.key }) {
                kept.append(m)
            }
            // Stored documents leave the location to the geometry; it comes last, as Place puts it.
            if plan.keys.contains(where: { $0.name == "location" }) { kept.append(("location", Place.locationValue(c))) }
            return Place(id: id, coordinate: c, maskedDocument: JSONObject(uniqueMembers: kept))
        }
        return Place(id: id, coordinate: c, storedDocument: doc).masked(plan.fields)
    }

    /// Writes the Places API (New) JSON of row `rowid` with the fields of
    /// `plan` (as `Place.apiJSON(fields:)`, compact) straight from the
    /// stored document, then `extra` members; false when the row is gone.
    /// The hours are served at `time` (`Place.served(at:)`).
    /// `skip` sees the stored bytes first: true, and nothing is written (false).
    package func writePlaceJSON(rowid: Int64, plan: MaskPlan, extra: [(String, Double)] = [], servedAt time: HoursQueryTime,
                        skip: ((UnsafeRawBufferPointer) -> Bool)? = nil, into out: inout [UInt8]) throws -> Bool {
        let written: Bool? = try withLocatedRow(rowid: rowid) { id, doc, inserted, coordinate in
            if let skip, skip(doc) { return false }
            do {
                if let localized = try localizedDocument(idBytes: id, doc: doc, inserted: inserted, plan: plan) {
                    // displayName in the language asked for: the document rewritten (rare: only a name that changes).
                    try withOptionalBytes(localized.doc, else: doc) { doc in
                        try PlaceJSON.write(idBytes: id, doc: doc, spans: try spans(doc, all: plan.fields.isAll || plan.keepsHours),
                                            inserted: localized.inserted, location: coordinate, plan: plan, extra: extra, servedAt: time, into: &out)
                    }
                    return true
                }
                try PlaceJSON.write(idBytes: id, doc: doc, spans: try spans(doc, all: plan.fields.isAll || plan.keepsHours),
                                    inserted: inserted, location: coordinate, plan: plan, extra: extra, servedAt: time, into: &out)
            } catch let e as JSONSyntaxError {
                throw PlaceDBError.corrupt(path: path, reason: "place '\(String(decoding: id, as: UTF8.self))' has a corrupt stored document: \(e)")
            }
            return true
        }
        return written != nil
    }

    /// The members of `doc` located into the store's buffer when `all`
    /// (the writer needs them all: hours, `*`), else nil: `PlaceJSON.write`
    /// reads them as far as it needs.
    private func spans(_ doc: UnsafeRawBufferPointer, all: Bool) throws(JSONSyntaxError) -> [JSONParser.MemberSpan]? {
        guard all else { return nil }
        spanScratch.removeAll(keepingCapacity: true)
        try JSONParser.memberSpans(doc, into: &spanScratch)
        return spanScratch
    }

    /// Writes the Place Details answer of `placeID` (compact), as
    /// `placedb place ID --fields MASK` prints it, straight from the stored
    /// document: the members of `plan` (nil: none) as `writePlaceJSON`
    /// writes them, then `trailing` members, then `openNow` at `time` when
    /// asked for and known (as `Place.served(at:).isOpen(at:)` answers).
    /// False when there is no such row (with `currentOnly`, no such
    /// current place: one removed is not written either).
    package func writePlaceDetailsJSON(placeID: PlaceID, plan: MaskPlan?, trailing: [(String, JSONValue)], openNow: Bool,
                                       servedAt time: HoursQueryTime, currentOnly: Bool = false, into out: inout [UInt8]) throws -> Bool {
        let written: Bool? = try withLocatedRow(placeID: placeID, currentOnly: currentOnly) { id, storedDoc, storedInserted, coordinate in
            let localized = try localizedDocument(idBytes: id, doc: storedDoc, inserted: storedInserted, plan: plan)
            return try withOptionalBytes(localized?.doc, else: storedDoc) { doc in
            let inserted = localized?.inserted ?? storedInserted
            do {
                let all = openNow || plan.map { $0.fields.isAll || $0.keepsHours } == true
                let spans = try spans(doc, all: all)
                if let plan {
                    try PlaceJSON.write(idBytes: id, doc: doc, spans: spans, inserted: inserted, location: coordinate, plan: plan, extra: [],
                                        servedAt: time, into: &out)
                } else {
                    PlaceJSON.append("{}", into: &out)
                }
                var members = trailing
                if openNow, let open = try PlaceJSON.isOpen(id: placeID, doc: doc, spans: spans ?? [], location: coordinate, at: time) {
                    members.append(("openNow", .bool(open)))
                }
                PlaceJSON.appendMembers(members, toObjectIn: &out)
            } catch let e as JSONSyntaxError {
                throw PlaceDBError.corrupt(path: path, reason: "place '\(String(decoding: id, as: UTF8.self))' has a corrupt stored document: \(e)")
            }
            return true
            }
        }
        return written != nil
    }

    /// `body` with the bytes of `bytes`, else with `fallback`.
    private func withOptionalBytes<T>(_ bytes: [UInt8]?, else fallback: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard let bytes else { return try body(fallback) }
        return try bytes.withUnsafeBytes(body)
    }

    // MARK: Rows

    private func rectArguments(_ r: GeoRect) -> [DatabaseValue] {
        [.real(r.south), .real(r.west), .real(r.north), .real(r.east)]
    }

    private static func rect(_ row: Row, _ first: Int) throws -> GeoRect {
        var east = try row.double(first + 1)
        if east > 180 { east -= 360 }
        return GeoRect(south: try row.double(first + 2), west: try row.double(first), north: try row.double(first + 3), east: east)
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
            throw PlaceDBError.corrupt(path: path, reason: "place row \(rowid) has a footprint shape that is not one (place_footprint.shape)")
        }
        input.shapes.append(shape)
    }

    /// Appends one row of `spatialColumns`.
    private func append(_ row: Row, to input: inout PlaceIndexInput, viewport: Int32, shape: Int32) throws {
        let rowid = try row.int64(0)
        guard let point = row.withBytes(1, { SpatiaLiteBlob.decodePoint($0) }) else {
            throw PlaceDBError.corrupt(path: path, reason: "place row \(rowid) has a geometry that is not a SpatiaLite point")
        }
        let typeNull = row.isNull(2), sourceNull = row.isNull(5)
        let typeCode = row.withBytes(2) { input.types.code(bytes: $0, isNull: typeNull) }
        let sourceCode = row.withBytes(5) { input.sources.code(bytes: $0, isNull: sourceNull) }
        input.rowids.append(rowid)
        input.latitudes.append(point.latitude)
        input.longitudes.append(point.longitude)
        input.typeCodes.append(typeCode)
        input.ratingCounts.append(Int32(clamping: row.optionalInt64(3) ?? 0))
        input.statuses.append(row.isNull(4) ? StatusCode.unknown.rawValue : row.withBytes(4) { StatusCode(bytes: $0) }.rawValue)
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
            throw PlaceDBError.corrupt(path: path, reason: "place row \(rowid) has a footprint shape that is not one (place_footprint.shape)")
        }
        return shape
    }
}

extension PlaceStore {
    /// The name and primary type of row `rowid` (nil when the row is gone).
    package func nameAndPrimaryType(rowid: Int64) throws -> (name: String?, primaryType: String?)? {
        let statement = try db.cachedStatement("SELECT name, primary_type FROM place WHERE id = ?")
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        return (row.optionalString(0), row.optionalString(1))
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
            let bits = UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8 | UInt32(data[offset + 3])
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
        guard r.west.isFinite, r.east.isFinite, r.south.isFinite, r.north.isFinite, r.west <= r.east, r.south <= r.north else { return nil }
        return r
    }
}
