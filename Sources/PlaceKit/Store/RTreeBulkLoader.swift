import SQLiteDB

/// Builds an empty SQLite R*Tree in one pass from points sorted along a
/// Hilbert curve, writing its shadow tables (`_node`, `_rowid`, `_parent`)
/// in the format of SQLite's rtree module: nodes of the size the root node
/// has, a 2-byte depth (root only) and a 2-byte cell count, then cells of an
/// 8-byte big-endian rowid (or child node number) and float32 big-endian
/// bounds (min rounded down, max rounded up, as the module does). Packed
/// full; the module inserts into it as usual afterwards. `rtreecheck()` and
/// SpatiaLite's CheckSpatialIndex() accept the result (tests check both).
struct RTreeBulkLoader {
    let db: Database
    /// The R*Tree's name (`idx_place_geom`).
    let table: String

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

    /// Builds the tree from `points` (rowid, x, y), already in Hilbert order.
    func load(_ points: [(id: Int64, x: Double, y: Double)]) throws {
        guard !points.isEmpty else { return }
        guard let nodeSize = try db.scalar("SELECT length(data) FROM \"\(table)_node\" WHERE nodeno = 1")?.int, nodeSize >= 4 + 24 * 3 else {
            throw SQLiteError(extendedCode: 1, message: "\(table) has no readable root node")
        }
        let fanout = (nodeSize - 4) / 24
        var level: [Entry] = points.map { p in
            Entry(id: p.id, minX: Self.down(p.x), maxX: Self.up(p.x), minY: Self.down(p.y), maxY: Self.up(p.y))
        }
        // Levels bottom up; node numbers are given top down afterwards so
        // the root is node 1.
        var levels: [[[Entry]]] = []
        repeat {
            var nodes: [[Entry]] = []
            var i = 0
            while i < level.count {
                nodes.append(Array(level[i..<min(i + fanout, level.count)]))
                i += fanout
            }
            levels.append(nodes)
            level = nodes.map { cells in
                var e = Entry(id: 0, minX: cells[0].minX, maxX: cells[0].maxX, minY: cells[0].minY, maxY: cells[0].maxY)
                for c in cells.dropFirst() {
                    e.minX = min(e.minX, c.minX); e.maxX = max(e.maxX, c.maxX)
                    e.minY = min(e.minY, c.minY); e.maxY = max(e.maxY, c.maxY)
                }
                return e
            }
        } while levels.last!.count > 1
        // Number the nodes: root 1, then each level below in order.
        var numbers: [[Int64]] = Array(repeating: [], count: levels.count)
        var next: Int64 = 1
        for depth in stride(from: levels.count - 1, through: 0, by: -1) {
            numbers[depth] = levels[depth].indices.map { _ in defer { next += 1 }; return next }
        }
        try db.execute("DELETE FROM \"\(table)_node\"; DELETE FROM \"\(table)_parent\"; DELETE FROM \"\(table)_rowid\";")
        let insertNode = try db.prepare("INSERT INTO \"\(table)_node\" (nodeno, data) VALUES (?, ?)")
        let insertParent = try db.prepare("INSERT INTO \"\(table)_parent\" (nodeno, parentnode) VALUES (?, ?)")
        let insertRowid = try db.prepare("INSERT INTO \"\(table)_rowid\" (rowid, nodeno) VALUES (?, ?)")
        var blob = [UInt8](repeating: 0, count: nodeSize)
        for depth in 0..<levels.count {
            for (n, cells) in levels[depth].enumerated() {
                let nodeno = numbers[depth][n]
                for k in blob.indices { blob[k] = 0 }
                if depth == levels.count - 1 { Self.put16(&blob, 0, UInt16(levels.count - 1)) }
                Self.put16(&blob, 2, UInt16(cells.count))
                for (c, cell) in cells.enumerated() {
                    let o = 4 + c * 24
                    // A leaf cell holds the rowid; an inner cell its child's number.
                    let id = depth == 0 ? cell.id : numbers[depth - 1][n * fanout + c]
                    Self.put64(&blob, o, UInt64(bitPattern: id))
                    Self.put32(&blob, o + 8, cell.minX.bitPattern)
                    Self.put32(&blob, o + 12, cell.maxX.bitPattern)
                    Self.put32(&blob, o + 16, cell.minY.bitPattern)
                    Self.put32(&blob, o + 20, cell.maxY.bitPattern)
                    if depth == 0 {
                        try insertRowid.bind([.integer(cell.id), .integer(nodeno)])
                        try insertRowid.run()
                    } else {
                        try insertParent.bind([.integer(id), .integer(nodeno)])
                        try insertParent.run()
                    }
                }
                try insertNode.bind([.integer(nodeno), .blob(blob)])
                try insertNode.run()
            }
        }
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
