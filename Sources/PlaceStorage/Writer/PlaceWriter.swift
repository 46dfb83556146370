import Foundation
package import SQLiteDB
package import PlaceModel

/// Writes decoded places with statements prepared once: insert a new ID,
/// update a changed one, leave an identical one alone (by a hash of what is
/// stored). Each row points at the import runs that first saw, last saw and
/// last changed it.
///
/// The tables that index `place` (the spatial index, `place_extent`,
/// `place_type`) are kept by a `BulkLoader`: by default the plain one (the
/// triggers on `place` and a statement per type); between `beginBulk` and
/// `endBulk` the direct one, which an import uses (BulkLoad/, and
/// docs/development.md, "The bulk-loader fence").
package final class PlaceWriter {
    package enum Outcome {
        case inserted, updated, unchanged
        /// A removed place came back (its removal is cleared).
        case revived
        /// The same ID was already written by this run (the later record wins).
        case duplicate
    }

    /// The last write kept stored members because they were captured later
    /// than the record's differing ones (an older dump after a newer one).
    package private(set) var lastKeptNewer = false
    /// The last write merged two captures nothing dates whose values
    /// differed (`MemberMerge.unordered`).
    package private(set) var lastUnordered = false

    private let db: Database
    private let source: String?
    /// The import run (import_run.id) the rows are written for.
    package var run: Int64 = 0
    /// The first run of this import (one `placedb import`, all its files):
    /// a stored member last written before it ties to a record's member of
    /// the same capture time by giving way (a later import wins a tie);
    /// within one import, ties go by content (`MemberMerge`).
    package var importFirstRun: Int64 = 0
    /// In a snapshot, unchanged places are marked seen (last_run) too.
    package var snapshot = false
    /// The database has the text index, and the writes keep it (false once
    /// `dropTextIndex` took it away).
    package private(set) var keepsTextIndex: Bool
    /// Keeps the index tables (`PlainLoader` outside `beginBulk`/`endBulk`).
    private var loader: any BulkLoader
    /// The loader outside a bulk write.
    private var plain: PlainLoader

    private let find: Statement
    private let touch: Statement
    private let insert: Statement
    /// The bytes `insert` and `update` read their texts and blobs from
    /// (`bindRow`): every arena value is bound again before each run.
    private let arena = RowArena()
    private let update: Statement
    /// `insert`'s and `update`'s parameters, bound through these only.
    private let insertBinds: BoundValues
    private let updateBinds: BoundValues
    private let deletePhotos: Statement
    private let insertPhoto: Statement
    private let insertFootprint: Statement
    private let dropFootprint: Statement

    package init(db: Database, source: String?, indexChunk: Int = PlaceWriter.defaultIndexChunk) throws {
        self.db = db
        self.indexChunk = max(1, indexChunk)
        self.source = source
        keepsTextIndex = try TextIndex.exists(db)
        plain = try PlainLoader(db: db, textIndex: keepsTextIndex)
        loader = plain
        find = try db.prepare(
            "SELECT id, content_hash, removed_run IS NOT NULL, last_run, coalesce(captured_at, 0), member_captured IS NULL FROM place WHERE place_id = ?"
        )
        readStored = try db.prepare(
            """
            SELECT doc, geom, extra, coalesce(captured_at, 0), member_captured, time_zone_source, source, \(StoredDocument.readColumns)
            FROM place WHERE id = ?
            """)
        setCaptured = try db.prepare("UPDATE place SET captured_at = ?, member_captured = ? WHERE id = ?")
        tombstone = try db.prepare("UPDATE place SET removed_run = ? WHERE place_id = ? AND removed_run IS NULL")
        touch = try db.prepare("UPDATE place SET last_run = ?, removed_run = NULL WHERE id = ?")
        let columns =
            "name, primary_type, rating, rating_count, business_status, utc_offset_minutes, time_zone, source, content_hash, doc, extra, geom"
        insert = try db.prepare(
            """
            INSERT INTO place (\(columns), updated_run, first_run, last_run, place_id, time_zone_source, doc_layout, captured_at, member_captured, text_cell)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?13, ?13, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
            """)
        update = try db.prepare(
            """
            UPDATE place SET (\(columns), updated_run, last_run, removed_run, time_zone_source, doc_layout, captured_at, member_captured, text_cell)
                = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?13, ?13, NULL, ?15, ?16, ?17, ?18, ?19)
            WHERE id = ?14
            """)
        insertBinds = BoundValues(insert)
        updateBinds = BoundValues(update)
        insertFootprint = try db.prepare("INSERT OR REPLACE INTO place_footprint (id, area, shape) VALUES (?, ?, ?)")
        dropFootprint = try db.prepare("DELETE FROM place_footprint WHERE id = ?")
        deletePhotos = try db.prepare("DELETE FROM place_photo WHERE place = ?")
        insertPhoto = try db.prepare("INSERT INTO place_photo (place, position, name, reference) VALUES (?, ?, ?, ?)")
        insertAlias = try db.prepare(
            """
            INSERT INTO place_alias (alias_id, place_id, reason, source, confidence, evidence, run)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (alias_id, place_id) DO NOTHING
            """)
    }

    private let insertAlias: Statement
    private var backdateAlias: Statement?
    private let readStored: Statement
    private let setCaptured: Statement
    private let tombstone: Statement
    /// IDs a response was requested under that returned another place
    /// (`requested-returned` edges): their own records stay tombstones.
    private var requestedAliases: Set<String> = []
    private var requestedAliasesLoaded = false

    private func loadRequestedAliases() throws {
        guard !requestedAliasesLoaded else { return }
        try db.forEachRow("SELECT alias_id FROM place_alias WHERE reason = 'requested-returned'") { row in
            requestedAliases.insert(try row.string(0))
        }
        requestedAliasesLoaded = true
    }

    /// Marks the record of an ID that a response for it did not return as
    /// removed by this run (a tombstone of the place it resolves to).
    private func tombstoneRequested(_ id: String) throws {
        loader.rowChanged()
        tombstone.reset()
        try tombstone.bind(.integer(run), at: 1)
        try tombstone.bind(.text(id), at: 2)
        try tombstone.run()
    }

    /// Records an alias edge once (the first record of an edge is kept, so
    /// history is never rewritten). True when it was new. With `backdating`
    /// (edges read back with the time they were first recorded: an alias
    /// file or tombstones from `placedb export`), an edge known from a later
    /// run takes this one's record instead: it is the first.
    @discardableResult
    package func record(_ edge: AliasEdge, source: String?, backdating: Bool = false) throws -> Bool {
        // Both statements take the edge as ?1 ... ?7.
        func bindEdge(_ statement: Statement) throws {
            statement.reset()
            try statement.bind(.text(edge.aliasID), at: 1)
            try statement.bind(.text(edge.placeID), at: 2)
            try statement.bind(.text(edge.reason.rawValue), at: 3)
            try statement.bind(DatabaseValue(source), at: 4)
            try statement.bind(.real(edge.confidence), at: 5)
            try statement.bind(DatabaseValue(edge.evidence.map { JSONWriter().string($0) }), at: 6)
            try statement.bind(.integer(run), at: 7)
        }
        try bindEdge(insertAlias)
        try insertAlias.run()
        let added = db.changes > 0
        if !added && backdating {
            if backdateAlias == nil {
                backdateAlias = try db.prepare(
                    """
                    UPDATE place_alias SET reason = ?3, source = ?4, confidence = ?5, evidence = ?6, run = ?7
                    WHERE alias_id = ?1 AND place_id = ?2
                      AND julianday((SELECT started_at FROM import_run WHERE id = ?7)) < julianday((SELECT started_at FROM import_run WHERE id = place_alias.run))
                    """)
            }
            let update = backdateAlias!
            try bindEdge(update)
            try update.run()
        }
        if edge.reason == .requestedReturned {
            // A response for A returned B: A's own record (older, or to come)
            // is a tombstone of B, and A resolves to B.
            try loadRequestedAliases()
            requestedAliases.insert(edge.aliasID)
            try tombstoneRequested(edge.aliasID)
        }
        return added
    }

    /// Takes the text index away (an import with `textIndex` false), in the
    /// caller's transaction, before `beginBulk`: the writes after it keep
    /// none. Returns how many places it held; nil when there was none.
    package func dropTextIndex() throws -> Int? {
        precondition(db.isInTransaction, "dropTextIndex outside a transaction")
        guard keepsTextIndex else { return nil }
        let indexed = try TextIndex.drop(db)
        // The plain loader's statements read the dropped tables.
        plain = try PlainLoader(db: db, textIndex: false)
        loader = plain
        keepsTextIndex = false
        return indexed
    }

    /// Reads again whether the database has the text index (after a
    /// rolled-back `dropTextIndex`, the index is back).
    package func recheckTextIndex() throws {
        let exists = try TextIndex.exists(db)
        guard exists != keepsTextIndex else { return }
        keepsTextIndex = exists
        plain = try PlainLoader(db: db, textIndex: exists)
        loader = plain
    }

    /// Starts a write of many places with the direct loader (`DirectLoader`:
    /// the triggers on `place` set aside, the index tables written by the
    /// loader). Call inside a transaction, and `endBulk` before it commits.
    /// `writeBackEarly`: the database is a new file (its pages start going
    /// to disk before the commit).
    package func beginBulk(writeBackEarly: Bool = false) throws {
        try begin(
            DirectLoader(
                db: db, indexChunk: indexChunk, writeBackEarly: writeBackEarly, buildsTextIndex: keepsTextIndex))
    }

    /// Starts a write of many places kept by `loader` (tests pass the plain one).
    func begin(_ loader: any BulkLoader) throws {
        precondition(db.isInTransaction, "beginBulk outside a transaction")
        try loader.begin()
        self.loader = loader
        try loadRequestedAliases()
    }

    /// Points waiting for the R*Tree, a chunk at a time (`DirectLoader`).
    package static let defaultIndexChunk = 1 << 19
    private let indexChunk: Int

    /// Lets the loader write what waits and put the triggers back; the
    /// writer goes on with the plain loader. The loader names its parts to
    /// `watcher` as they end.
    package func endBulk(watcher: (any EndOfWriteWatcher)? = nil) throws {
        defer { loader = plain }
        try loader.finish(watcher: watcher)
    }

    func upsert(_ decoded: DecodedPlace) throws -> Outcome {
        try write(PreparedPlace(decoded, source: source))
    }

    package func write(_ place: PreparedPlace) throws -> Outcome {
        lastKeptNewer = false
        lastUnordered = false
        for edge in place.aliases { try record(edge, source: place.source) }
        let outcome = try writePlace(place)
        if !requestedAliases.isEmpty, requestedAliases.contains(place.id) {
            // Its record is kept (merged as any other), as a tombstone.
            try tombstoneRequested(place.id)
            return outcome == .revived || outcome == .inserted ? .updated : outcome
        }
        return outcome
    }

    private struct Existing {
        var rowid: Int64
        var hash: Int64
        var removed: Bool
        /// Written by this run already.
        var duplicate: Bool
        /// The run that last wrote or saw it.
        var lastRun: Int64
        /// The stored `captured_at` (0: unknown, before version 7).
        var capturedAt: Int64
        /// `member_captured` is NULL: every member shares `capturedAt`.
        var uniform: Bool
    }

    private func writePlace(_ place: PreparedPlace) throws -> Outcome {
        let contentHash = place.contentHash
        if loader.expectsNewRows {
            // The table was empty when this import began, so almost every ID
            // is new: insert, and let the unique index on place_id say when
            // one is not (then the statement is undone and the lookup below
            // decides, as for any import).
            try bindRow(insertBinds, place, contentHash, capturedAt: place.capturedAt, memberCaptured: nil)
            try insertBinds.bindText(place.id, at: 14, in: arena)
            do {
                try insert.run()
                return try writeRest(
                    place, rowid: db.lastInsertedRowID, isRewrite: false, oldTypes: [], outcome: .inserted)
            } catch let error as SQLiteError where error.extendedCode == Self.uniqueConstraintFailed {
                insert.rewind()
            }
        }
        find.rewind()
        try find.bind(text: place.id, at: 1)
        var existing: Existing?
        if let row = try find.step() {
            existing = Existing(
                rowid: try row.int64(0), hash: try row.int64(1), removed: try row.int64(2) != 0,
                duplicate: try row.int64(3) == run, lastRun: try row.int64(3),
                capturedAt: try row.int64(4), uniform: try row.int64(5) != 0)
        }
        find.rewind()

        if let existing, existing.hash == contentHash, existing.capturedAt <= place.capturedAt {
            // The same record: every stored member is in it, so all of them
            // now date from its capture.
            if existing.capturedAt < place.capturedAt || !existing.uniform {
                try updateCaptured(existing.rowid, capturedAt: place.capturedAt, memberCaptured: nil)
            }
            return try unchanged(existing)
        }
        if let existing { return try merge(place, into: existing) }

        try bindRow(insertBinds, place, contentHash, capturedAt: place.capturedAt, memberCaptured: nil)
        try insertBinds.bindText(place.id, at: 14, in: arena)
        try insert.run()
        return try writeRest(place, rowid: db.lastInsertedRowID, isRewrite: false, oldTypes: [], outcome: .inserted)
    }

    /// Sets a row's capture times (its values unchanged).
    private func updateCaptured(_ rowid: Int64, capturedAt: Int64, memberCaptured: String?) throws {
        setCaptured.reset()
        try setCaptured.bind(.integer(capturedAt), at: 1)
        try setCaptured.bind(DatabaseValue(memberCaptured), at: 2)
        try setCaptured.bind(.integer(rowid), at: 3)
        try setCaptured.run()
    }

    /// A stored place as a merge reads it.
    private struct StoredPlace {
        var document: JSONObject
        var coordinate: Coordinate
        var extra: JSONObject
        var capturedAt: Int64
        var memberCaptured: String?
        var times: [String: Int64]
        var timeZoneSource: TimeZoneSource?
        var source: String
    }

    private func stored(_ rowid: Int64) throws -> StoredPlace {
        readStored.reset()
        defer { readStored.reset() }
        try readStored.bind(.integer(rowid), at: 1)
        guard let row = try readStored.step() else {
            throw PlaceDBError.database(path: db.path, reason: "place row \(rowid) vanished during the import")
        }
        func corrupt(_ what: String) -> PlaceDBError {
            PlaceDBError.corrupt(path: db.path, reason: "place row \(rowid) has \(what)")
        }
        let value = try StoredDocument.withDocument(row, docColumn: 0, layoutColumn: 7) { try JSONParser.parse($0) }
        guard case .object(let doc) = value else { throw corrupt("a stored document that is not an object") }
        guard let coordinate = row.withBytes(1, { SpatiaLiteBlob.coordinate($0) }) else {
            throw corrupt("no readable point geometry")
        }
        let extra =
            row.isNull(2) ? JSONObject() : try row.withBytes(2) { try JSONParser.parse($0) }.objectValue ?? JSONObject()
        let memberCaptured = row.optionalString(4)
        let times = try memberCaptured.map { MemberMerge.times(try JSONParser.parse($0)) } ?? [:]
        // The document as a place holds it: with its location (the geometry).
        let document = Place(id: PlaceID(""), coordinate: coordinate, storedDocument: doc).document
        return StoredPlace(
            document: document, coordinate: coordinate, extra: extra, capturedAt: try row.int64(3),
            memberCaptured: memberCaptured, times: times,
            timeZoneSource: row.optionalString(5).flatMap(TimeZoneSource.init(rawValue:)), source: try row.string(6))
    }

    /// Merges a record into the stored place of its ID, member by member
    /// (`MemberMerge`, docs/merging.md).
    /// The outcome of a record that changed no stored value: a duplicate
    /// within the run, a removed place revived, or unchanged (its run marks
    /// touched where that matters: a revival or a snapshot).
    private func unchanged(_ existing: Existing) throws -> Outcome {
        if existing.duplicate { return .duplicate }
        if existing.removed || snapshot {
            loader.rowChanged()
            touch.reset()
            try touch.bind(.integer(run), at: 1)
            try touch.bind(.integer(existing.rowid), at: 2)
            try touch.run()
        }
        return existing.removed ? .revived : .unchanged
    }

    private func merge(_ place: PreparedPlace, into existing: Existing) throws -> Outcome {
        let old = try stored(existing.rowid)
        let record = try place.recordDocument()
        // The same ID again in one input: the later record wins ties, as it
        // always has (and over a place last written by an earlier import);
        // nothing dating either record, it ties the stored undated members.
        var t = place.capturedAt
        if existing.duplicate, !CaptureTime.isKnown(t) {
            let undated = old.document.keys.compactMap { k in (old.times[k] ?? old.capturedAt) }.filter {
                !CaptureTime.isKnown($0)
            }
            t = max(t, undated.max() ?? t)
        }
        let m = MemberMerge(
            stored: old.document, storedCapturedAt: old.capturedAt, storedTimes: old.times, storedExtra: old.extra,
            record: record.document, recordExtra: record.extra, capturedAt: t,
            complete: place.format.recordsAreComplete, winsTies: existing.duplicate || existing.lastRun < importFirstRun
        )
        let source = m.recordIsLatest ? place.source : old.source
        let hasZone = m.document["timeZone"]?["id"]?.stringValue != nil
        let zoneSource: TimeZoneSource? =
            !hasZone ? nil : m.tookTimeZone ? (place.timeZoneSource ?? .data) : (old.timeZoneSource ?? .data)
        let newFootprint = m.tookLocation && place.footprint != nil
        lastKeptNewer = m.keptNewer
        lastUnordered = m.unordered
        if m.document == old.document && m.extra == old.extra && source == old.source
            && zoneSource == (hasZone ? (old.timeZoneSource ?? .data) : nil) && !newFootprint
        {
            // The same values: only the capture times may move on.
            let json = m.memberCapturedJSON
            if m.capturedAt != old.capturedAt || json != old.memberCaptured {
                try updateCaptured(existing.rowid, capturedAt: m.capturedAt, memberCaptured: json)
            }
            return try unchanged(existing)
        }
        let location = m.document["location"]
        let coordinate =
            location.flatMap { l in
                l["latitude"]?.doubleValue.flatMap { lat in
                    l["longitude"]?.doubleValue.map { Coordinate(latitude: lat, longitude: $0) }
                }
            } ?? old.coordinate
        var merged = Place(id: PlaceID(place.id), coordinate: coordinate, document: m.document)
        merged.timeZoneSource = zoneSource
        var decoded = DecodedPlace(place: merged, extra: m.extra, format: place.format)
        if m.tookLocation { decoded.footprint = place.footprintShape }
        let prepared = PreparedPlace(
            decoded, source: source, capturedAt: m.capturedAt, captureSource: place.captureSource,
            keepsStoredFootprint: !m.tookLocation)
        try bindRow(
            updateBinds, prepared, prepared.contentHash, capturedAt: m.capturedAt, memberCaptured: m.memberCapturedJSON)
        try updateBinds.bind(integer: existing.rowid, at: 14)
        try update.run()
        deletePhotos.reset()
        try deletePhotos.bind(.integer(existing.rowid), at: 1)
        try deletePhotos.run()
        let oldTypes = old.document["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let outcome: Outcome = existing.duplicate ? .duplicate : existing.removed ? .revived : .updated
        return try writeRest(prepared, rowid: existing.rowid, isRewrite: true, oldTypes: oldTypes, outcome: outcome)
    }

    /// SQLITE_CONSTRAINT_UNIQUE (a macro Swift does not import).
    static let uniqueConstraintFailed: Int32 = 2067

    /// Binds the row's columns (all but 14, the ID or rowid) to `insert` or
    /// `update`. Every parameter is bound again for each row, from the
    /// place's own storage (no per-row C strings or arrays).
    private func bindRow(
        _ binds: BoundValues, _ place: PreparedPlace, _ contentHash: Int64, capturedAt: Int64, memberCaptured: String?
    ) throws {
        binds.statement.rewind()
        // The row's texts and blobs go through the arena (bound without
        // SQLite's copy of each), `insert`'s ID (14) after them. Numbers,
        // NULLs and the source are bound only when they change.
        arena.startRow()
        try binds.bindText(place.name, at: 1, in: arena)
        try binds.bindText(place.primaryType, at: 2, in: arena)
        try binds.bind(real: place.rating, at: 3)
        try binds.bind(integer: place.ratingCount.map(Int64.init), at: 4)
        try binds.bindText(place.businessStatus, at: 5, in: arena)
        try binds.bind(integer: place.utcOffsetMinutes.map(Int64.init), at: 6)
        try binds.bindText(place.timeZone, at: 7, in: arena)
        try binds.bind(text: place.source, at: 8)
        try binds.bind(integer: contentHash, at: 9)
        try place.doc.withUnsafeBytes { try binds.bindText(utf8: $0, at: 10, in: arena) }
        if place.extra.isEmpty {
            try binds.bindText(utf8: nil, at: 11, in: arena)
        } else {
            try place.extra.withUnsafeBytes { try binds.bindText(utf8: $0, at: 11, in: arena) }
        }
        try SpatiaLiteBlob.withPoint(place.coordinate) { try binds.bindBlob($0, at: 12, in: arena) }
        try binds.bind(integer: run, at: 13)
        try binds.bindText(place.timeZoneSource?.rawValue, at: 15, in: arena)
        try binds.bind(integer: place.docLayout == 0 ? nil : place.docLayout, at: 16)
        try binds.bind(integer: capturedAt, at: 17)
        try binds.bindText(memberCaptured, at: 18, in: arena)
        try binds.bind(integer: TextGrid.key(place.coordinate), at: 19)
    }

    /// What follows the row: its point and extent, its types, its photos.
    /// `isRewrite`: the row existed before this write (its old extent,
    /// footprint and types are replaced).
    private func writeRest(
        _ place: PreparedPlace, rowid: Int64, isRewrite: Bool,
        oldTypes: [String], outcome: Outcome
    ) throws -> Outcome {
        // Its point, viewport and types.
        try loader.add(place, rowid: rowid, isRewrite: isRewrite, oldTypes: oldTypes)
        // The footprint: written with the row, dropped when a rewrite has none
        // (a new place without one costs no statement).
        if let footprint = place.footprint {
            insertFootprint.reset()
            try insertFootprint.bind([.integer(rowid), .real(footprint.area), .blob(footprint.shape)])
            try insertFootprint.run()
        } else if isRewrite && !place.keepsStoredFootprint {
            dropFootprint.reset()
            try dropFootprint.bind([.integer(rowid)])
            try dropFootprint.run()
        }
        return try writePhotos(place, rowid: rowid, outcome: outcome)
    }

    private func writePhotos(_ place: PreparedPlace, rowid: Int64, outcome: Outcome) throws -> Outcome {
        // The photo index (names and references of `photos[]`, in order),
        // which `photo add` resolves references against.
        for photo in place.photos {
            insertPhoto.reset()
            try insertPhoto.bind(.integer(rowid), at: 1)
            try insertPhoto.bind(.integer(Int64(photo.position)), at: 2)
            try insertPhoto.bind(.text(photo.name), at: 3)
            try insertPhoto.bind(.text(photo.reference), at: 4)
            try insertPhoto.run()
        }
        return outcome
    }
}

extension PlaceWriter {
    /// A viewport as `place_extent` stores it (the rule of the
    /// `place_viewport` view its triggers read): four numbers in range with
    /// south <= north; a viewport across the antimeridian gets east + 360.
    package static func extent(_ viewport: JSONValue?) -> (west: Double, east: Double, south: Double, north: Double)? {
        guard let s = viewport?["low"]?["latitude"]?.doubleValue, let w = viewport?["low"]?["longitude"]?.doubleValue,
            let n = viewport?["high"]?["latitude"]?.doubleValue, let e = viewport?["high"]?["longitude"]?.doubleValue,
            (-90...90).contains(s), (-90...90).contains(n), s <= n, (-180...180).contains(w), (-180...180).contains(e)
        else { return nil }
        return (w, e < w ? e + 360 : e, s, n)
    }
}
