import Foundation
import SQLiteDB
import PlaceModel

/// Writes decoded places with statements prepared once: insert a new ID,
/// update a changed one, leave an identical one alone (by a hash of what is
/// stored). Each row points at the import runs that first saw, last saw and
/// last changed it.
///
/// During an import the writer keeps SpatiaLite's spatial index and
/// `place_extent` itself: `beginBulk` sets the per-row triggers on `place`
/// aside (SpatiaLite's run `RTreeAlign`, which parses SQL for every row;
/// placedb's own `place_extent_*` ones search each document for a viewport)
/// and `endBulk` puts them back verbatim, all inside the import's
/// transaction, so no other connection ever sees the table without them and
/// a failed import rolls back to the same triggers. `CheckSpatialIndex()`
/// stays 1 (a test proves it).
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

    private let db: Database
    private let source: String?
    /// The import run (import_run.id) the rows are written for.
    package var run: Int64 = 0
    /// In a snapshot, unchanged places are marked seen (last_run) too.
    package var snapshot = false
    private var setAside: [(name: String, sql: String)] = []
    private var wroteRows = false
    private var bulk = false
    /// The place table was empty when the bulk write began: insert first.
    private var insertFirst = false
    /// The text index's triggers are set aside: it is built whole in `endBulk`.
    private var rebuildText = false
    /// False only in the benchmark's runs without the text index step.
    package var buildsTextIndex = true
    /// In a fresh import, a row already in the text index changed (written
    /// twice, tombstoned, revived): the index is rebuilt from the view at
    /// the end instead (rare: a fresh import's records seldom repeat IDs).
    private var textDirty = false
    /// The words of the places written by this bulk write, for `place_word`.
    private var pendingWords = Set<String>()
    private let insertText: Statement
    private let insertWord: Statement
    /// In a fresh import, `place_type` rows wait to be written in key order, a chunk at a time.
    private var pendingTypes: PendingTypeRows?

    private let find: Statement
    private let touch: Statement
    private let insert: Statement
    private let update: Statement
    private let deleteType: Statement
    private let insertType: Statement
    private let indexPoint: Statement
    private let deletePhotos: Statement
    private let insertPhoto: Statement
    private let indexExtent: Statement
    private let dropExtent: Statement
    private let insertFootprint: Statement
    private let dropFootprint: Statement

    package init(db: Database, source: String?, indexChunk: Int = PlaceWriter.defaultIndexChunk) throws {
        self.db = db
        self.indexChunk = max(1, indexChunk)
        self.source = source
        find = try db.prepare("SELECT id, content_hash, removed_run IS NOT NULL, last_run, coalesce(captured_at, 0), member_captured IS NULL FROM place WHERE place_id = ?")
        readStored = try db.prepare("""
            SELECT doc, geom, extra, coalesce(captured_at, 0), member_captured, time_zone_source, source, \(StoredDocument.readColumns)
            FROM place WHERE id = ?
            """)
        setCaptured = try db.prepare("UPDATE place SET captured_at = ?, member_captured = ? WHERE id = ?")
        tombstone = try db.prepare("UPDATE place SET removed_run = ? WHERE place_id = ? AND removed_run IS NULL")
        touch = try db.prepare("UPDATE place SET last_run = ?, removed_run = NULL WHERE id = ?")
        let columns = "name, primary_type, rating, rating_count, business_status, utc_offset_minutes, time_zone, source, content_hash, doc, extra, geom"
        insert = try db.prepare("""
            INSERT INTO place (\(columns), updated_run, first_run, last_run, place_id, time_zone_source, doc_layout, captured_at, member_captured, text_cell)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?13, ?13, ?13, ?14, ?15, ?16, ?17, ?18, ?19)
            """)
        update = try db.prepare("""
            UPDATE place SET (\(columns), updated_run, last_run, removed_run, time_zone_source, doc_layout, captured_at, member_captured, text_cell)
                = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?13, ?13, NULL, ?15, ?16, ?17, ?18, ?19)
            WHERE id = ?14
            """)
        insertText = try db.prepare(TextIndexSQL.insertRow)
        insertWord = try db.prepare(TextIndexSQL.insertWord)
        deleteType = try db.prepare("DELETE FROM place_type WHERE type = ? AND place = ?")
        insertType = try db.prepare("INSERT OR IGNORE INTO place_type (type, place) VALUES (?, ?)")
        indexPoint = try db.prepare("INSERT OR REPLACE INTO idx_place_geom (pkid, xmin, xmax, ymin, ymax) VALUES (?1, ?2, ?2, ?3, ?3)")
        indexExtent = try db.prepare("INSERT OR REPLACE INTO place_extent (id, west, east, south, north) VALUES (?, ?, ?, ?, ?)")
        dropExtent = try db.prepare("DELETE FROM place_extent WHERE id = ?")
        insertFootprint = try db.prepare("INSERT OR REPLACE INTO place_footprint (id, area, shape) VALUES (?, ?, ?)")
        dropFootprint = try db.prepare("DELETE FROM place_footprint WHERE id = ?")
        deletePhotos = try db.prepare("DELETE FROM place_photo WHERE place = ?")
        insertPhoto = try db.prepare("INSERT INTO place_photo (place, position, name, reference) VALUES (?, ?, ?, ?)")
        insertAlias = try db.prepare("""
            INSERT INTO place_alias (alias_id, place_id, reason, source, confidence, evidence, run)
            VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (alias_id, place_id) DO NOTHING
            """)
    }

    private let insertAlias: Statement
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
        if rebuildText { textDirty = true }
        tombstone.reset()
        try tombstone.bind(.integer(run), at: 1)
        try tombstone.bind(.text(id), at: 2)
        try tombstone.run()
    }

    /// Records an alias edge once (the first record of an edge is kept, so
    /// history is never rewritten). True when it was new.
    @discardableResult
    package func record(_ edge: AliasEdge, source: String?) throws -> Bool {
        insertAlias.reset()
        try insertAlias.bind(.text(edge.aliasID), at: 1)
        try insertAlias.bind(.text(edge.placeID), at: 2)
        try insertAlias.bind(.text(edge.reason.rawValue), at: 3)
        try insertAlias.bind(DatabaseValue(source), at: 4)
        try insertAlias.bind(.real(edge.confidence), at: 5)
        try insertAlias.bind(DatabaseValue(edge.evidence.map { JSONWriter().string($0) }), at: 6)
        try insertAlias.bind(.integer(run), at: 7)
        try insertAlias.run()
        let added = db.changes > 0
        if edge.reason == .requestedReturned {
            // A response for A returned B: A's own record (older, or to come)
            // is a tombstone of B, and A resolves to B.
            try loadRequestedAliases()
            requestedAliases.insert(edge.aliasID)
            try tombstoneRequested(edge.aliasID)
        }
        return added
    }

    /// Sets SpatiaLite's row triggers on `place` aside for a bulk write.
    /// Call inside a transaction, and `endBulk` before it commits.
    package func beginBulk() throws {
        precondition(db.isInTransaction, "beginBulk outside a transaction")
        setAside = []
        insertFirst = try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM place)")?.int == 1
        // Into an empty table the text index is built in one pass at the end
        // (`TextIndex.rebuild`); otherwise its triggers keep it row by row.
        rebuildText = insertFirst
        textDirty = false
        pendingWords = []
        try db.forEachRow("""
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'place'
              AND (name LIKE '%\\_place\\_geom' ESCAPE '\\' OR name LIKE 'place\\_extent\\_%' ESCAPE '\\'
                   OR (?1 AND name LIKE 'place\\_text\\_%' ESCAPE '\\')) ORDER BY name
            """, [.integer(rebuildText ? 1 : 0)]) { row in
            setAside.append((try row.string(0), try row.string(1)))
        }
        for t in setAside { try db.execute("DROP TRIGGER \"\(t.name)\"") }
        wroteRows = false
        bulk = true
        buildTreeWhole = try RTreeBulkLoader(db: db, table: "idx_place_geom").isEmpty()
        // Pairs of 16 bytes, an eighth of a chunk: 1 MiB.
        pendingTypes = insertFirst ? try PendingTypeRows(db: db, chunk: indexChunk / 8) : nil
        rewritten = [:]
        spilledRewrites = 0
        runs = nil
        try loadRequestedAliases()
    }

    /// Points waiting for the R*Tree, a chunk at a time (512 Ki points of
    /// 32 bytes), sorted along a Hilbert curve. Into an empty tree (a fresh
    /// import) each full chunk is spilled as a sorted run (`PointRuns`) and
    /// the tree is built whole from their merge at the end
    /// (`RTreeBulkLoader`): memory stays bounded by the chunk at any size.
    /// Into a tree that has points the chunk is inserted in curve order,
    /// which keeps the tree's pages hot.
    private var pendingIndex: [IndexPoint] = []
    package static let defaultIndexChunk = 1 << 19
    private let indexChunk: Int
    private var duplicatesInChunk = false
    /// Whether the R*Tree was empty when the bulk write began (then it is built whole).
    private var buildTreeWhole = false
    private var runs: PointRuns?
    /// Rows written twice in a whole-tree build: their final points, put in
    /// after the build (their earlier points are left out of it).
    private var rewritten: [Int64: Coordinate] = [:]
    /// Spilled points left out of the build because their row was written again.
    private var spilledRewrites = 0
    /// The first rowid appended to `pendingIndex` since it was last flushed.
    private var chunkStart: Int64 = .max

    private func flushIndex(final: Bool) throws {
        if buildTreeWhole {
            pendingIndex.removeAll { rewritten[$0.rowid] != nil }
        } else if duplicatesInChunk {
            // A place written twice in the chunk keeps its last point.
            var seen = Set<Int64>()
            pendingIndex = pendingIndex.reversed().filter { seen.insert($0.rowid).inserted }
            duplicatesInChunk = false
        }
        chunkStart = .max
        pendingIndex.sort(by: IndexPoint.curveOrder)
        defer { pendingIndex.removeAll(keepingCapacity: !final) }
        guard buildTreeWhole else {
            for e in pendingIndex { try insertPoint(e.rowid, longitude: e.longitude, latitude: e.latitude) }
            return
        }
        if !final {
            if runs == nil { runs = PointRuns(besideDatabase: db, less: IndexPoint.curveOrder) }
            try runs!.spill(pendingIndex)
            return
        }
        var loader = RTreeBulkLoader(db: db, table: "idx_place_geom")
        // (rowid, leaf) pairs of 16 bytes, a quarter of a chunk: 2 MiB.
        loader.rowidChunk = max(1, indexChunk / 4)
        if let runs, !runs.isEmpty {
            try runs.spill(pendingIndex)
            pendingIndex = []  // its memory is not needed for the merge
            // The runs' merge feeds the loader in curve order, on a thread
            // of its own (the runs are used there alone until it is done).
            let rewritten = self.rewritten
            try loader.load(concurrently: runs.count - spilledRewrites) { emit in
                try runs.merge { p in
                    if rewritten[p.rowid] == nil { try emit(p.rowid, p.longitude, p.latitude) }
                }
            }
        } else if !pendingIndex.isEmpty {
            try loader.load(count: pendingIndex.count) { i in
                let e = pendingIndex[i]
                return (e.rowid, e.longitude, e.latitude)
            }
        }
        runs = nil
        // The rows written twice, with their last points.
        for (rowid, c) in rewritten.sorted(by: { $0.key < $1.key }) {
            try insertPoint(rowid, longitude: c.longitude, latitude: c.latitude)
        }
        rewritten = [:]
        spilledRewrites = 0
    }

    /// One point into the R*Tree (replacing the row's earlier one).
    private func insertPoint(_ rowid: Int64, longitude: Double, latitude: Double) throws {
        indexPoint.reset()
        try indexPoint.bind(.integer(rowid), at: 1)
        try indexPoint.bind(.real(longitude), at: 2)
        try indexPoint.bind(.real(latitude), at: 3)
        try indexPoint.run()
    }

    /// Puts the triggers back and stamps SpatiaLite's geometry_columns_time.
    package func endBulk() throws {
        try flushIndex(final: true)
        try pendingTypes?.flush()
        pendingTypes = nil
        if rebuildText && buildsTextIndex && textDirty {
            // Rows the index had were changed with its triggers set aside.
            try db.execute(TextIndexSQL.rebuild)
        }
        if buildsTextIndex || !rebuildText {
            // New words of the typo vocabulary, from the places written
            // (not a scan of the whole index).
            for word in pendingWords.sorted() {
                insertWord.reset()
                try insertWord.bind(.text(word), at: 1)
                try insertWord.bind(.text(TextFolding.reversed(word)), at: 2)
                try insertWord.run()
            }
        }
        pendingWords = []
        rebuildText = false
        for t in setAside { try db.execute(t.sql) }
        setAside = []
        bulk = false
        insertFirst = false
        if wroteRows {
            try db.run("""
                UPDATE geometry_columns_time SET last_insert = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
                    last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE lower(f_table_name) = 'place' AND lower(f_geometry_column) = 'geom'
                """)
        }
    }

    package func upsert(_ decoded: DecodedPlace) throws -> Outcome {
        try write(PreparedPlace(decoded, source: source))
    }

    package func write(_ place: PreparedPlace) throws -> Outcome {
        lastKeptNewer = false
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
        /// The stored `captured_at` (0: unknown, before version 7).
        var capturedAt: Int64
        /// `member_captured` is NULL: every member shares `capturedAt`.
        var uniform: Bool
    }

    private func writePlace(_ place: PreparedPlace) throws -> Outcome {
        let contentHash = place.contentHash
        if insertFirst {
            // The table was empty when this import began, so almost every ID
            // is new: insert, and let the unique index on place_id say when
            // one is not (then the statement is undone and the lookup below
            // decides, as for any import).
            wroteRows = true
            try bindRow(insert, place, contentHash, capturedAt: place.capturedAt, memberCaptured: nil)
            try insert.bind(text: place.id, at: 14)
            do {
                try insert.run()
                let rowid = db.lastInsertedRowID
                try indexText(place, rowid: rowid)
                return try writeRest(place, rowid: rowid, isRewrite: false, oldTypes: [], outcome: .inserted)
            } catch let error as SQLiteError where error.extendedCode == Self.uniqueConstraintFailed {
                insert.rewind()
            }
        }
        find.rewind()
        try find.bind(text: place.id, at: 1)
        var existing: Existing?
        if let row = try find.step() {
            existing = Existing(rowid: try row.int64(0), hash: try row.int64(1), removed: try row.int64(2) != 0, duplicate: try row.int64(3) == run,
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
        wroteRows = true

        try bindRow(insert, place, contentHash, capturedAt: place.capturedAt, memberCaptured: nil)
        try insert.bind(text: place.id, at: 14)
        try insert.run()
        let rowid = db.lastInsertedRowID
        try indexText(place, rowid: rowid)
        return try writeRest(place, rowid: rowid, isRewrite: false, oldTypes: [], outcome: .inserted)
    }

    /// A new row's words for the vocabulary; in a fresh import (the text
    /// index's triggers set aside) its row of the index too.
    private func indexText(_ place: PreparedPlace, rowid: Int64) throws {
        guard bulk else { return }
        guard let t = place.text else { return }
        for w in t.words { pendingWords.insert(w) }
        guard rebuildText && buildsTextIndex && !textDirty else { return }
        insertText.reset()
        try insertText.bind(.integer(rowid), at: 1)
        try insertText.bind(text: t.name, at: 2)
        try insertText.bind(text: t.otherNames, at: 3)
        try insertText.bind(text: t.address, at: 4)
        try insertText.bind(text: t.types, at: 5)
        try insertText.bind(text: t.cell, at: 6)
        try insertText.run()
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
        guard let coordinate = row.withBytes(1, { SpatiaLiteBlob.coordinate($0) }) else { throw corrupt("no readable point geometry") }
        let extra = row.isNull(2) ? JSONObject() : try row.withBytes(2) { try JSONParser.parse($0) }.objectValue ?? JSONObject()
        let memberCaptured = row.optionalString(4)
        let times = try memberCaptured.map { MemberMerge.times(try JSONParser.parse($0)) } ?? [:]
        // The document as a place holds it: with its location (the geometry).
        let document = Place(id: PlaceID(""), coordinate: coordinate, storedDocument: doc).document
        return StoredPlace(document: document, coordinate: coordinate, extra: extra, capturedAt: try row.int64(3),
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
            if rebuildText { textDirty = true }
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
        let m = MemberMerge(stored: old.document, storedCapturedAt: old.capturedAt, storedTimes: old.times, storedExtra: old.extra,
                            record: record.document, recordExtra: record.extra, capturedAt: place.capturedAt,
                            complete: place.format.recordsAreComplete)
        let source = m.recordIsLatest ? place.source : old.source
        let hasZone = m.document["timeZone"]?["id"]?.stringValue != nil
        let zoneSource: TimeZoneSource? = !hasZone ? nil : m.tookTimeZone ? (place.timeZoneSource ?? .data) : (old.timeZoneSource ?? .data)
        let newFootprint = m.tookLocation && place.footprint != nil
        lastKeptNewer = m.keptNewer
        if m.document == old.document && m.extra == old.extra && source == old.source
            && zoneSource == (hasZone ? (old.timeZoneSource ?? .data) : nil) && !newFootprint {
            // The same values: only the capture times may move on.
            let json = m.memberCapturedJSON
            if m.capturedAt != old.capturedAt || json != old.memberCaptured {
                try updateCaptured(existing.rowid, capturedAt: m.capturedAt, memberCaptured: json)
            }
            return try unchanged(existing)
        }
        wroteRows = true
        let location = m.document["location"]
        let coordinate = location.flatMap { l in
            l["latitude"]?.doubleValue.flatMap { lat in l["longitude"]?.doubleValue.map { Coordinate(latitude: lat, longitude: $0) } }
        } ?? old.coordinate
        var merged = Place(id: PlaceID(place.id), coordinate: coordinate, document: m.document)
        merged.timeZoneSource = zoneSource
        var decoded = DecodedPlace(place: merged, extra: m.extra, format: place.format)
        if m.tookLocation { decoded.footprint = place.footprintShape }
        let prepared = PreparedPlace(decoded, source: source, capturedAt: m.capturedAt, captureSource: place.captureSource,
                                     keepsStoredFootprint: !m.tookLocation)
        try bindRow(update, prepared, prepared.contentHash, capturedAt: m.capturedAt, memberCaptured: m.memberCapturedJSON)
        try update.bind(integer: existing.rowid, at: 14)
        try update.run()
        if rebuildText { textDirty = true }
        if bulk, let t = prepared.text { for w in t.words { pendingWords.insert(w) } }
        deletePhotos.reset()
        try deletePhotos.bind(.integer(existing.rowid), at: 1)
        try deletePhotos.run()
        let oldTypes = old.document["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let outcome: Outcome = existing.duplicate ? .duplicate : existing.removed ? .revived : .updated
        return try writeRest(prepared, rowid: existing.rowid, isRewrite: true, oldTypes: oldTypes, outcome: outcome)
    }

    /// SQLITE_CONSTRAINT_UNIQUE (a macro Swift does not import).
    package static let uniqueConstraintFailed: Int32 = 2067

    /// Binds the row's columns (all but 14, the ID or rowid) to `insert` or
    /// `update`. Every parameter is bound again for each row, from the
    /// place's own storage (no per-row C strings or arrays).
    private func bindRow(_ statement: Statement, _ place: PreparedPlace, _ contentHash: Int64, capturedAt: Int64, memberCaptured: String?) throws {
        statement.rewind()
        try statement.bind(text: place.name, at: 1)
        try statement.bind(text: place.primaryType, at: 2)
        try statement.bind(real: place.rating, at: 3)
        try statement.bind(integer: place.ratingCount.map(Int64.init), at: 4)
        try statement.bind(text: place.businessStatus, at: 5)
        try statement.bind(integer: place.utcOffsetMinutes.map(Int64.init), at: 6)
        try statement.bind(text: place.timeZone, at: 7)
        try statement.bind(text: place.source, at: 8)
        try statement.bind(integer: contentHash, at: 9)
        try place.doc.withUnsafeBytes { try statement.bindText(utf8: $0, at: 10) }
        if place.extra.isEmpty {
            try statement.bindNull(at: 11)
        } else {
            try place.extra.withUnsafeBytes { try statement.bindText(utf8: $0, at: 11) }
        }
        try SpatiaLiteBlob.withPoint(place.coordinate) { try statement.bindBlob($0, at: 12) }
        try statement.bind(integer: run, at: 13)
        try statement.bind(text: place.timeZoneSource?.rawValue, at: 15)
        try statement.bind(integer: place.docLayout == 0 ? nil : place.docLayout, at: 16)
        try statement.bind(integer: capturedAt, at: 17)
        try statement.bind(text: memberCaptured, at: 18)
        try statement.bind(integer: TextGrid.key(place.coordinate), at: 19)
    }

    /// What follows the row: its point and extent, its types, its photos.
    /// `isRewrite`: the row existed before this write (its old extent,
    /// footprint and types are replaced).
    private func writeRest(_ place: PreparedPlace, rowid: Int64, isRewrite: Bool,
                           oldTypes: [String], outcome: Outcome) throws -> Outcome {
        if bulk {
            let c = place.coordinate
            if buildTreeWhole && isRewrite {
                // Written earlier in this import (the tree was empty): its
                // point goes in after the build, and its earlier one stays out.
                if rewritten.updateValue(c, forKey: rowid) == nil && rowid < chunkStart { spilledRewrites += 1 }
                if rewritten.count > max(1, indexChunk / 2) {
                    // Many rows written twice (an input repeated in itself):
                    // build the tree from what came so far and go on with
                    // inserts, so memory stays bounded.
                    try flushIndex(final: true)
                    buildTreeWhole = false
                }
            } else {
                if isRewrite { duplicatesInChunk = true }
                if pendingIndex.isEmpty { chunkStart = rowid }
                pendingIndex.append(IndexPoint(key: place.hilbertKey, rowid: rowid, longitude: c.longitude, latitude: c.latitude))
                if pendingIndex.count >= indexChunk { try flushIndex(final: false) }
            }
            // What the place_extent triggers would store.
            if let v = place.extent {
                indexExtent.reset()
                try indexExtent.bind([.integer(rowid), .real(v.west), .real(v.east), .real(v.south), .real(v.north)])
                try indexExtent.run()
            } else if isRewrite {
                dropExtent.reset()
                try dropExtent.bind([.integer(rowid)])
                try dropExtent.run()
            }
        }
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
        let types = place.types
        if let pendingTypes {
            if !isRewrite {
                try pendingTypes.add(rowid: rowid, types: types)
                return try writePhotos(place, rowid: rowid, outcome: outcome)
            }
            // Written again: its types go in now, all of them (the earlier
            // ones may be still waiting, and are stale).
            try pendingTypes.markRewritten(rowid)
        }
        let insertAll = pendingTypes != nil
        for old in oldTypes where !types.contains(old) {
            deleteType.reset()
            try deleteType.bind(.text(old), at: 1)
            try deleteType.bind(.integer(rowid), at: 2)
            try deleteType.run()
        }
        for type in types where insertAll || !oldTypes.contains(type) {
            insertType.rewind()
            try insertType.bind(text: type, at: 1)
            try insertType.bind(integer: rowid, at: 2)
            try insertType.run()
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
              (-90...90).contains(s), (-90...90).contains(n), s <= n, (-180...180).contains(w), (-180...180).contains(e) else { return nil }
        return (w, e < w ? e + 360 : e, s, n)
    }
}

