import SQLiteDB
package import PlaceModel

/// Reading stored rows by rowid and by place ID: the stored document, the
/// place decoded or served, its Places JSON written straight from the
/// document (a nearby or current-place answer's places, Place Details).
extension PlaceStore {
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
    func withStoredRow<T>(rowid: Int64, _ body: (PlaceID, UnsafeRawBufferPointer, Coordinate?) throws -> T) throws -> T?
    {
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

    private func withStoredRow<T>(
        _ statement: Statement, _ body: (PlaceID, UnsafeRawBufferPointer, Coordinate?) throws -> T
    ) throws -> T? {
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
    func withLocatedRow<T>(
        rowid: Int64, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, InsertedMembers, Coordinate?) throws -> T
    ) throws -> T? {
        let statement = try storedRowByRowid()
        try statement.bind(integer: rowid, at: 1)
        return try withLocatedRow(statement, body)
    }

    /// `withLocatedRow(rowid:)` for the place with this ID (removed or
    /// not; with `currentOnly`, nil for a removed one and for a member of
    /// a group other than its canonical one).
    func withLocatedRow<T>(
        placeID: PlaceID, currentOnly: Bool = false,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, InsertedMembers, Coordinate?) throws -> T
    ) throws -> T? {
        let statement: Statement
        if let kept = storedRowByIDStatement {
            statement = kept
        } else {
            statement = try db.prepare(storedRowByPlaceIDSQL)
            storedRowByIDStatement = statement
        }
        try statement.bind(.text(placeID.rawValue), at: 1)
        return try withLocatedRow(
            statement,
            skip: currentOnly
                ? { row in
                    // Removed, or another member of a group (it answers as its canonical member).
                    !row.isNull(3 + StoredDocument.readColumnCount)
                        || row.optionalInt64(4 + StoredDocument.readColumnCount) == 1
                } : nil, body)
    }

    private func withLocatedRow<T>(
        _ statement: Statement, skip: ((Row) -> Bool)? = nil,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, InsertedMembers, Coordinate?) throws -> T
    ) throws -> T? {
        defer { statement.reset() }
        guard let row = try statement.step(), skip?(row) != true else { return nil }
        if row.isNull(0) { _ = try row.string(0) } // throws as reading it as a String would
        let coordinate = row.withBytes(2) { SpatiaLiteBlob.coordinate($0) }
        // The members buffer is kept between rows (taken out while in use).
        var inserted = insertedScratch
        insertedScratch = InsertedMembers()
        defer { insertedScratch = inserted }
        do {
            return try row.withBytes(0) { id in
                try StoredDocument.withLocatedDocument(row, docColumn: 1, layoutColumn: 3, inserted: &inserted) {
                    try body(id, $0, $1, coordinate)
                }
            }
        } catch let e as JSONSyntaxError {
            throw PlaceDBError.corrupt(
                path: path, reason: "place '\(try row.string(0))' has a corrupt stored document: \(e)")
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
    package func servedPlace(rowid: Int64, plan: MaskPlan, coordinate: Coordinate? = nil, at time: HoursQueryTime)
        throws -> Place?
    {
        guard plan.keepsHours else { return try place(rowid: rowid, plan: plan, coordinate: coordinate) }
        guard
            let whole = try place(
                rowid: rowid, plan: plan.fields.isAll ? plan : MaskPlan(.all, language: plan.language),
                coordinate: coordinate)
        else { return nil }
        return whole.served(at: time).masked(plan.fields)
    }

    package func decode(id: PlaceID, doc bytes: UnsafeRawBufferPointer, plan: MaskPlan, coordinate: Coordinate?) throws
        -> Place
    {
        var doc: JSONObject
        do {
            doc = try PlaceJSON.decode(bytes, plan: plan, withLocation: coordinate == nil)
        } catch {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has a corrupt stored document: \(error)")
        }
        var c = coordinate
        if c == nil, let lat = doc["location"]?["latitude"]?.doubleValue,
            let lng = doc["location"]?["longitude"]?.doubleValue
        {
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
            if plan.keys.contains(where: { $0.name == "location" }) {
                kept.append(("location", Place.locationValue(c)))
            }
            return Place(id: id, coordinate: c, maskedDocument: JSONObject(uniqueMembers: kept))
        }
        return Place(id: id, coordinate: c, storedDocument: doc).masked(plan.fields)
    }

    /// Writes the Places API (New) JSON of row `rowid` with the fields of
    /// `plan` (as `Place.apiJSON(fields:)`, compact) straight from the
    /// stored document, then `extra` members; false when the row is gone.
    /// The hours are served at `time` (`Place.served(at:)`).
    /// `skip` sees the stored bytes first: true, and nothing is written (false).
    package func writePlaceJSON(
        rowid: Int64, plan: MaskPlan, extra: [(String, Double)] = [], servedAt time: HoursQueryTime,
        skip: ((UnsafeRawBufferPointer) -> Bool)? = nil, into out: inout [UInt8]
    ) throws -> Bool {
        if skip == nil, plan.needsNoDocument {
            // Only `id` and `name`, which the place ID gives: the document is
            // not read (a nearby or current-place batch asking for IDs).
            let statement = try db.cachedStatement("SELECT place_id FROM place WHERE id = ?")
            try statement.bind(.integer(rowid), at: 1)
            defer { statement.reset() }
            guard let row = try statement.step() else { return false }
            if row.isNull(0) { _ = try row.string(0) } // throws as reading it as a String would
            row.withBytes(0) { PlaceJSON.writeIDOnly(idBytes: $0, plan: plan, extra: extra, into: &out) }
            return true
        }
        let written: Bool? = try withLocatedRow(rowid: rowid) { id, doc, inserted, coordinate in
            if let skip, skip(doc) { return false }
            do {
                if let localized = try localizedDocument(idBytes: id, doc: doc, inserted: inserted, plan: plan) {
                    // displayName in the language asked for: the document rewritten (rare: only a name that changes).
                    try withOptionalBytes(localized.doc, else: doc) { doc in
                        try PlaceJSON.write(
                            idBytes: id, doc: doc, spans: try spans(doc, all: plan.fields.isAll || plan.keepsHours),
                            inserted: localized.inserted, location: coordinate, plan: plan, extra: extra,
                            servedAt: time, into: &out)
                    }
                    return true
                }
                try PlaceJSON.write(
                    idBytes: id, doc: doc, spans: try spans(doc, all: plan.fields.isAll || plan.keepsHours),
                    inserted: inserted, location: coordinate, plan: plan, extra: extra, servedAt: time, into: &out)
            } catch let e as JSONSyntaxError {
                throw PlaceDBError.corrupt(
                    path: path,
                    reason: "place '\(String(decoding: id, as: UTF8.self))' has a corrupt stored document: \(e)")
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
    package func writePlaceDetailsJSON(
        placeID: PlaceID, plan: MaskPlan?, trailing: [(String, JSONValue)], openNow: Bool,
        servedAt time: HoursQueryTime, currentOnly: Bool = false, into out: inout [UInt8]
    ) throws -> Bool {
        let written: Bool? = try withLocatedRow(placeID: placeID, currentOnly: currentOnly) {
            id, storedDoc, storedInserted, coordinate in
            let localized = try localizedDocument(idBytes: id, doc: storedDoc, inserted: storedInserted, plan: plan)
            return try withOptionalBytes(localized?.doc, else: storedDoc) { doc in
                let inserted = localized?.inserted ?? storedInserted
                do {
                    let all = openNow || plan.map { $0.fields.isAll || $0.keepsHours } == true
                    let spans = try spans(doc, all: all)
                    if let plan {
                        try PlaceJSON.write(
                            idBytes: id, doc: doc, spans: spans, inserted: inserted, location: coordinate, plan: plan,
                            extra: [],
                            servedAt: time, into: &out)
                    } else {
                        PlaceJSON.append("{}", into: &out)
                    }
                    var members = trailing
                    if openNow,
                        let open = try PlaceJSON.isOpen(
                            id: placeID, doc: doc, spans: spans ?? [], location: coordinate, at: time)
                    {
                        members.append(("openNow", .bool(open)))
                    }
                    PlaceJSON.appendMembers(members, toObjectIn: &out)
                } catch let e as JSONSyntaxError {
                    throw PlaceDBError.corrupt(
                        path: path,
                        reason: "place '\(String(decoding: id, as: UTF8.self))' has a corrupt stored document: \(e)")
                }
                return true
            }
        }
        return written != nil
    }

    /// `body` with the bytes of `bytes`, else with `fallback`.
    private func withOptionalBytes<T>(
        _ bytes: [UInt8]?, else fallback: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        guard let bytes else { return try body(fallback) }
        return try bytes.withUnsafeBytes(body)
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
