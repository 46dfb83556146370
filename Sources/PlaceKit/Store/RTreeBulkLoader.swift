import SQLiteDB

/// Builds an empty SQLite R*Tree in one pass from points sorted along a
/// Hilbert curve, writing its shadow tables (`_node`, `_rowid`, `_parent`)
/// in the format of SQLite's rtree module: nodes of the size the root node
/// has, a 2-byte depth (root only) and a 2-byte cell count, then cells of an
/// 8-byte big-endian rowid (or child node number) and float32 big-endian
/// bounds (min rounded down, max rounded up, as the module does). Packed
/// full; the module inserts into it as usual afterwards. `rtreecheck()` and
/// SpatiaLite's CheckSpatialIndex() accept the result (tests check both).
///
/// The `_rowid` table (each point's leaf) is written in rowid order, not in
/// the curve's: the pairs are sorted a chunk at a time and, past one chunk,
/// spilled as sorted runs beside the database and merged, so its B-tree is
/// appended to instead of being inserted into at random.
struct RTreeBulkLoader {
    let db: Database
    /// The R*Tree's name (`idx_place_geom`).
    let table: String

    /// `_rowid` pairs held in memory before a sorted run is spilled.
    var rowidChunk = 1 << 18

    init(db: Database, table: String) {
        self.db = db
        self.table = table
    }

    struct Entry {
        let id: Int64
        var minX: Float, maxX: Float, minY: Float, maxY: Float
    }

    static func down(_ d: Double) -> Float {
        var f = Float(d)
        if Double(f) > d { f = f.nextDown }
        return f
    }

    static func up(_ d: Double) -> Float {
        var f = Float(d)
        if Double(f) < d { f = f.nextUp }
        return f
    }

    /// True when the tree holds nothing and can be built whole.
    func isEmpty() throws -> Bool {
        try db.scalar("SELECT NOT EXISTS (SELECT 1 FROM \"\(table)_rowid\")")?.int == 1
    }

    /// Builds the tree from `count` points, `point(i)` giving the i-th
    /// (rowid, x, y) in Hilbert order. Leaves are written as they fill, so
    /// memory holds only one node per 51 points above the leaves.
    func load(count: Int, point: (Int) -> (id: Int64, x: Double, y: Double)) throws {
        try load(streaming: count) { emit in
            for i in 0..<count {
                let p = point(i)
                try emit(p.id, p.x, p.y)
            }
        }
    }

    /// Builds the tree from exactly `count` points that `produce` hands to
    /// its `emit` (rowid, x, y) in Hilbert order.
    func load(streaming count: Int, produce: (_ emit: (Int64, Double, Double) throws -> Void) throws -> Void) throws {
        guard count > 0 else { return }
        guard let nodeSize = try db.scalar("SELECT length(data) FROM \"\(table)_node\" WHERE nodeno = 1")?.int, nodeSize >= 4 + 24 * 3 else {
            throw SQLiteError(extendedCode: 1, message: "\(table) has no readable root node")
        }
        let fanout = (nodeSize - 4) / 24
        try db.execute("DELETE FROM \"\(table)_node\"; DELETE FROM \"\(table)_parent\"; DELETE FROM \"\(table)_rowid\";")
        let insertNode = try db.prepare("INSERT INTO \"\(table)_node\" (nodeno, data) VALUES (?, ?)")
        let insertParent = try db.prepare("INSERT INTO \"\(table)_parent\" (nodeno, parentnode) VALUES (?, ?)")
        let insertRowids = try MultiRowInsert(db: db, into: "\"\(table)_rowid\"", columns: ["rowid", "nodeno"])
        var blob = [UInt8](repeating: 0, count: nodeSize)
        // (rowid, leaf) pairs for `_rowid`, written in rowid order at the end.
        var pairs: [RowidNode] = []
        var pairRuns: SortedRuns<RowidNode>?
        let byRowid: (RowidNode, RowidNode) -> Bool = { $0.rowid < $1.rowid }
        func spillPairs() throws {
            pairs.sort(by: byRowid)
            if pairRuns == nil {
                pairRuns = SortedRuns(besideDatabase: db, less: byRowid)
            }
            try pairRuns!.spill(pairs)
            pairs.removeAll(keepingCapacity: true)
        }
        // The root is node 1; every other node gets the next number as it is
        // written, leaves first.
        var nextNumber: Int64 = 2
        let levelCount = { () -> Int in
            var n = count, levels = 1
            while n > fanout { n = (n + fanout - 1) / fanout; levels += 1 }
            return levels
        }()

        /// Writes one node; returns its number and bounds (an Entry whose id is the number).
        func write(_ cells: ArraySlice<Entry>, depth: Int) throws -> Entry {
            let isRoot = depth == levelCount - 1
            let nodeno: Int64 = isRoot ? 1 : nextNumber
            if !isRoot { nextNumber += 1 }
            for k in blob.indices { blob[k] = 0 }
            if isRoot { Self.put16(&blob, 0, UInt16(depth)) }
            Self.put16(&blob, 2, UInt16(cells.count))
            var bounds = Entry(id: nodeno, minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)
            for (c, cell) in cells.enumerated() {
                let o = 4 + c * 24
                Self.put64(&blob, o, UInt64(bitPattern: cell.id))
                Self.put32(&blob, o + 8, cell.minX.bitPattern)
                Self.put32(&blob, o + 12, cell.maxX.bitPattern)
                Self.put32(&blob, o + 16, cell.minY.bitPattern)
                Self.put32(&blob, o + 20, cell.maxY.bitPattern)
                bounds.minX = min(bounds.minX, cell.minX); bounds.maxX = max(bounds.maxX, cell.maxX)
                bounds.minY = min(bounds.minY, cell.minY); bounds.maxY = max(bounds.maxY, cell.maxY)
                // A leaf cell holds a rowid; an inner cell a child's number.
                if depth == 0 {
                    pairs.append(RowidNode(rowid: cell.id, nodeno: nodeno))
                    if pairs.count >= rowidChunk { try spillPairs() }
                } else {
                    insertParent.rewind()
                    try insertParent.bind(integer: cell.id, at: 1)
                    try insertParent.bind(integer: nodeno, at: 2)
                    try insertParent.run()
                }
            }
            insertNode.rewind()
            try insertNode.bind(integer: nodeno, at: 1)
            try blob.withUnsafeBytes { try insertNode.bindBlob($0, at: 2) }
            try insertNode.run()
            return bounds
        }

        var level: [Entry] = []
        level.reserveCapacity(count / fanout + 1)
        var leaf: [Entry] = []
        leaf.reserveCapacity(fanout)
        var emitted = 0
        try produce { id, x, y in
            guard emitted < count else {
                throw SQLiteError(extendedCode: 1, message: "\(table): more points than the \(count) announced")
            }
            leaf.append(Entry(id: id, minX: Self.down(x), maxX: Self.up(x), minY: Self.down(y), maxY: Self.up(y)))
            emitted += 1
            if leaf.count == fanout || emitted == count {
                level.append(try write(leaf[...], depth: 0))
                leaf.removeAll(keepingCapacity: true)
            }
        }
        guard emitted == count else {
            throw SQLiteError(extendedCode: 1, message: "\(table): \(emitted) points of the \(count) announced")
        }
        func insert(_ batch: [RowidNode]) throws {
            try insertRowids.insert(count: batch.count) { statement, i, first in
                try statement.bind(integer: batch[i].rowid, at: first)
                try statement.bind(integer: batch[i].nodeno, at: first + 1)
            }
        }
        if let runs = pairRuns {
            try spillPairs()
            pairs = []
            var batch: [RowidNode] = []
            batch.reserveCapacity(insertRowids.rowsPerStatement)
            try runs.merge { p in
                batch.append(p)
                if batch.count == insertRowids.rowsPerStatement {
                    try insert(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try insert(batch)
        } else {
            pairs.sort(by: byRowid)
            try insert(pairs)
        }
        var depth = 1
        while depth < levelCount {
            var upper: [Entry] = []
            var i = 0
            while i < level.count {
                upper.append(try write(level[i..<min(i + fanout, level.count)], depth: depth))
                i += fanout
            }
            level = upper
            depth += 1
        }
    }

    /// A point's rowid and the leaf node holding it.
    struct RowidNode {
        let rowid: Int64
        let nodeno: Int64
    }

    static func put16(_ b: inout [UInt8], _ o: Int, _ v: UInt16) {
        b[o] = UInt8(v >> 8); b[o + 1] = UInt8(v & 0xFF)
    }
    static func put32(_ b: inout [UInt8], _ o: Int, _ v: UInt32) {
        for i in 0..<4 { b[o + i] = UInt8((v >> (24 - 8 * UInt32(i))) & 0xFF) }
    }
    static func put64(_ b: inout [UInt8], _ o: Int, _ v: UInt64) {
        for i in 0..<8 { b[o + i] = UInt8((v >> (56 - 8 * UInt64(i))) & 0xFF) }
    }
}
