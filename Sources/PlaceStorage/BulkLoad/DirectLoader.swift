import SQLiteDB
import PlaceModel

/// The loader an import uses: it sets the per-row triggers on `place` aside
/// (SpatiaLite's run `RTreeAlign`, which parses SQL for every row;
/// placedb's own `place_extent_*` ones search each document for a viewport),
/// writes what they would have written itself, and puts them back verbatim,
/// all inside the import's transaction, so no other connection ever sees
/// the table without them and a failed import rolls back to the same
/// triggers. `CheckSpatialIndex()` stays 1 (a test proves it).
///
/// - The spatial index: points wait a chunk at a time, sorted along a
///   Hilbert curve. Into an empty tree (a fresh import) each full chunk is
///   spilled as a sorted run (`PointRuns`) and the tree is built whole from
///   their merge at the end (`RTreeBulkLoader`, on a thread of its own):
///   memory stays bounded by the chunk at any size. Into a tree that has
///   points the chunk is inserted in curve order, which keeps its pages hot.
/// - `place_type`: in a fresh import its rows wait a chunk at a time and go
///   in key order (`PendingTypeRows`).
/// - The file: into a new database, its pages start going to disk before
///   the tree's build (`EarlyWriteback`), so the commit's sync waits less.
final class DirectLoader: BulkLoader {
    private let db: Database
    private let types: TypeRowWriter
    private let indexPoint: Statement
    private let indexExtent: Statement
    private let dropExtent: Statement
    private let writeBackEarly: Bool
    /// The text index: in a fresh import its triggers are set aside too and
    /// its rows written here; always, the new words of the rows written.
    /// Nil: the database has no text index.
    private let text: TextIndexWriter?

    /// The triggers set aside, to be put back.
    private var setAside: [(name: String, sql: String)] = []
    /// Some row was written (SpatiaLite's geometry_columns_time is stamped).
    private var wroteRows = false
    /// The place table was empty when the bulk write began: insert first.
    private(set) var expectsNewRows = false
    /// In a fresh import, `place_type` rows wait to be written in key order, a chunk at a time.
    private var pendingTypes: PendingTypeRows?

    /// Points waiting for the R*Tree, a chunk at a time (512 Ki points of
    /// 24 bytes), sorted along a Hilbert curve.
    private var pendingIndex: [IndexPoint] = []
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
    /// The lowest and highest rowid of the points held or spilled.
    private var rowidRange: (lowest: Int64, highest: Int64) = (.max, .min)

    /// `indexChunk`: points held before a sorted run is spilled.
    /// `writeBackEarly`: the database is a new file (see `EarlyWriteback`).
    init(db: Database, indexChunk: Int, writeBackEarly: Bool = false, buildsTextIndex: Bool = true) throws {
        self.db = db
        text = buildsTextIndex ? try TextIndexWriter(db: db, writesRows: false) : nil
        self.indexChunk = max(1, indexChunk)
        self.writeBackEarly = writeBackEarly
        types = try TypeRowWriter(db: db)
        indexPoint = try db.prepare(
            "INSERT OR REPLACE INTO idx_place_geom (pkid, xmin, xmax, ymin, ymax) VALUES (?, ?, ?, ?, ?)")
        indexExtent = try db.prepare(
            "INSERT OR REPLACE INTO place_extent (id, west, east, south, north) VALUES (?, ?, ?, ?, ?)")
        dropExtent = try db.prepare("DELETE FROM place_extent WHERE id = ?")
    }

    /// Sets the row triggers on `place` aside. Call inside a transaction,
    /// and `finish` before it commits.
    func begin() throws {
        precondition(db.isInTransaction, "a bulk load outside a transaction")
        setAside = []
        expectsNewRows = try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM place)")?.int == 1
        // Into an empty table the text index's rows are written here as the
        // places are (TextIndexWriter); otherwise its triggers keep it.
        text?.writesRows = expectsNewRows
        try db.forEachRow(
            """
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'place'
              AND (name LIKE '%\\_place\\_geom' ESCAPE '\\' OR name LIKE 'place\\_extent\\_%' ESCAPE '\\'
                   OR (?1 AND name LIKE 'place\\_text\\_%' ESCAPE '\\')) ORDER BY name
            """, [.integer(expectsNewRows && text != nil ? 1 : 0)]
        ) { row in
            setAside.append((try row.string(0), try row.string(1)))
        }
        for t in setAside { try db.execute("DROP TRIGGER \"\(t.name)\"") }
        wroteRows = false
        buildTreeWhole = try RTreeBulkLoader(db: db, table: "idx_place_geom").isEmpty()
        // Pairs of 16 bytes, an eighth of a chunk: 1 MiB.
        pendingTypes = expectsNewRows ? try PendingTypeRows(db: db, chunk: indexChunk / 8) : nil
        rewritten = [:]
        spilledRewrites = 0
        runs = nil
        rowidRange = (.max, .min)
    }

    func add(_ place: PreparedPlace, rowid: Int64, isRewrite: Bool, oldTypes: [String]) throws {
        wroteRows = true
        try text?.add(place, rowid: rowid, isRewrite: isRewrite)
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
            rowidRange = (min(rowidRange.lowest, rowid), max(rowidRange.highest, rowid))
            pendingIndex.append(
                IndexPoint(key: place.hilbertKey, rowid: rowid, longitude: c.longitude, latitude: c.latitude))
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
        if let pendingTypes {
            if !isRewrite {
                try pendingTypes.add(rowid: rowid, types: place.types)
                return
            }
            // Written again: its types go in now, all of them (the earlier
            // ones may be still waiting, and are stale).
            try pendingTypes.markRewritten(rowid)
        }
        try types.replace(rowid: rowid, oldTypes: oldTypes, with: place.types, insertAll: pendingTypes != nil)
    }

    /// The seconds the tree's build spent writing on this thread (the rest
    /// it waited for the merge), when built from spilled runs.
    private var treeWriting: Double?

    func rowChanged() { text?.rowChanged() }

    /// Puts the triggers back and stamps SpatiaLite's geometry_columns_time.
    func finish(watcher: (any EndOfWriteWatcher)?) throws {
        // The input is read; the tree's build and the commit are left.
        if writeBackEarly { EarlyWriteback.start(db.path) }
        let whole = buildTreeWhole
        treeWriting = nil
        try flushIndex(final: true)
        watcher?.partEnded(whole ? "spatial index built whole" : "spatial index, last points")
        if let treeWriting { watcher?.lastPartIncluded("(of which the tree's SQLite writes)", seconds: treeWriting) }
        try pendingTypes?.flush()
        pendingTypes = nil
        watcher?.partEnded("place_type, last rows")
        if let text {
            try text.finish()
            watcher?.partEnded("text index: last rows, typo words")
        }
        for t in setAside { try db.execute(t.sql) }
        setAside = []
        expectsNewRows = false
        if wroteRows {
            try db.run(
                """
                UPDATE geometry_columns_time SET last_insert = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
                    last_update = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                WHERE lower(f_table_name) = 'place' AND lower(f_geometry_column) = 'geom'
                """)
        }
        watcher?.partEnded("triggers back")
    }

    private func flushIndex(final: Bool) throws {
        if buildTreeWhole {
            if !rewritten.isEmpty { pendingIndex.removeAll { rewritten[$0.rowid] != nil } }
        } else if duplicatesInChunk {
            // A place written twice in the chunk keeps its last point.
            var seen = Set<Int64>()
            pendingIndex = pendingIndex.reversed().filter { seen.insert($0.rowid).inserted }
            duplicatesInChunk = false
        }
        chunkStart = .max
        IndexPoint.sortAlongCurve(&pendingIndex)
        defer { pendingIndex.removeAll(keepingCapacity: !final) }
        guard buildTreeWhole else {
            for e in pendingIndex { try insertPoint(e) }
            return
        }
        if !final {
            if runs == nil { runs = PointRuns(besideDatabase: db) }
            try runs!.spill(pendingIndex)
            return
        }
        var loader = RTreeBulkLoader(db: db, table: "idx_place_geom")
        // (rowid, leaf) pairs of 16 bytes, a quarter of a chunk: 2 MiB.
        loader.rowidChunk = max(1, indexChunk / 4)
        if let runs, !runs.isEmpty {
            try runs.spill(pendingIndex)
            pendingIndex = [] // its memory is not needed for the merge
            // The runs' merge feeds the loader in curve order, on a thread
            // of its own (the runs are used there alone until it is done).
            let rewritten = self.rewritten
            treeWriting = try loader.load(
                concurrently: runs.count - spilledRewrites,
                rowids: rowidRange.lowest <= rowidRange.highest ? rowidRange.lowest...rowidRange.highest : nil
            ) { emit in
                if rewritten.isEmpty {
                    try runs.merge(emit)
                } else {
                    try runs.merge { p in
                        if rewritten[p.rowid] == nil { try emit(p) }
                    }
                }
            }
        } else if !pendingIndex.isEmpty {
            try loader.load(streaming: pendingIndex.count) { emit in
                for e in pendingIndex { try emit(e) }
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
        try insertPoint(rowid, minX: longitude, maxX: longitude, minY: latitude, maxY: latitude)
    }

    /// A held point, with the float32 bounds it was rounded to (the
    /// R*Tree keeps them as they are: a float32 is exact as a double).
    private func insertPoint(_ p: IndexPoint) throws {
        try insertPoint(p.rowid, minX: Double(p.minX), maxX: Double(p.maxX), minY: Double(p.minY), maxY: Double(p.maxY))
    }

    private func insertPoint(_ rowid: Int64, minX: Double, maxX: Double, minY: Double, maxY: Double) throws {
        indexPoint.reset()
        try indexPoint.bind(.integer(rowid), at: 1)
        try indexPoint.bind(.real(minX), at: 2)
        try indexPoint.bind(.real(maxX), at: 3)
        try indexPoint.bind(.real(minY), at: 4)
        try indexPoint.bind(.real(maxY), at: 5)
        try indexPoint.run()
    }
}
