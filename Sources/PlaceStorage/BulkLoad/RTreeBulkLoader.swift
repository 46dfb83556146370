import Foundation
import SQLiteDB
import PlaceModel

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
    /// (rowid, x, y) in Hilbert order. Each node is written as it fills, so
    /// memory holds one open node per level whatever the count.
    func load(count: Int, point: (Int) -> (id: Int64, x: Double, y: Double)) throws {
        try load(streaming: count) { emit in
            for i in 0..<count {
                let p = point(i)
                try emit(IndexPoint(key: 0, rowid: p.id, longitude: p.x, latitude: p.y))
            }
        }
    }

    /// Builds the tree from exactly `count` points that `produce` hands to
    /// its `emit` in Hilbert order, on this thread.
    func load(streaming count: Int, produce: (_ emit: (IndexPoint) throws -> Void) throws -> Void) throws {
        guard count > 0 else { return }
        var builder = try prepare(count: count)
        let writer = try Writer(db: db, table: table)
        try builder.build(produce: produce) { try writer.apply($0) }
    }

    /// The same, with the points' production and the nodes' making on a
    /// thread of its own, handing nodes and `_rowid` pairs to this thread,
    /// which writes them: at the end of an import the reading thread is
    /// idle, and merging runs, packing nodes and sorting pairs is about half
    /// of the tree's build. `produce` runs only on that thread.
    ///
    /// `rowids`: the lowest and highest rowid among the points, when known;
    /// dense ones (a fresh import's) go to `_rowid` through `RowidBuckets`
    /// instead of sorted runs. Returns the seconds this thread spent
    /// writing (the rest it waited).
    @discardableResult
    func load(
        concurrently count: Int, rowids: ClosedRange<Int64>? = nil,
        produce: @escaping (_ emit: (IndexPoint) throws -> Void) throws -> Void
    ) throws -> Double {
        guard count > 0 else { return 0 }
        var builder = try prepare(count: count)
        if let rowids, RowidBuckets.fits(count: count, lowest: rowids.lowerBound, highest: rowids.upperBound) {
            builder.buckets = try RowidBuckets(
                directory: URL(fileURLWithPath: db.path).deletingLastPathComponent().path,
                lowest: rowids.lowerBound, highest: rowids.upperBound, width: rowidChunk)
        }
        let writer = try Writer(db: db, table: table)
        let queue = BoundedQueue<Output>(capacity: 64)
        let finished = DispatchSemaphore(value: 0)
        let work = UncheckedSendable(builder), points = UncheckedSendable(produce)
        let thread = Thread {
            var builder = work.value
            let produce = points.value
            do {
                try builder.build(produce: produce) { output in
                    if !queue.push(output) { throw Stopped() }
                }
            } catch is Stopped {
            } catch {
                _ = queue.push(.failed(error as? SQLiteError ?? SQLiteError(extendedCode: 10, message: "\(error)")))
            }
            queue.close()
            finished.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        defer { finished.wait() }
        var writing = 0.0
        do {
            while let output = queue.pop() {
                let started = MonotonicClock.now()
                try writer.apply(output)
                writing += MonotonicClock.now() - started
            }
        } catch {
            queue.cancel()
            throw error
        }
        return writing
    }

    private struct Stopped: Error {}

    /// The builder for `count` points, sized from the tree's root node.
    private func prepare(count: Int) throws -> Builder {
        guard let nodeSize = try db.scalar("SELECT length(data) FROM \"\(table)_node\" WHERE nodeno = 1")?.int,
            nodeSize >= 4 + 24 * 3
        else {
            throw SQLiteError(extendedCode: 1, message: "\(table) has no readable root node")
        }
        try db.execute(
            "DELETE FROM \"\(table)_node\"; DELETE FROM \"\(table)_parent\"; DELETE FROM \"\(table)_rowid\";")
        return Builder(
            table: table, count: count, nodeSize: nodeSize, rowidChunk: rowidChunk,
            pairRuns: SortedRuns(besideDatabase: db))
    }

    /// What the builder hands to the writer.
    enum Output: Sendable {
        /// A node's number and its blob.
        case node(Int64, [UInt8])
        /// (child, parent) node numbers, for `_parent`.
        case parents([Int64])
        /// `_rowid` pairs, in rowid order.
        case rowids([RowidNode])
        case failed(SQLiteError)
    }

    /// Writes the builder's output into the shadow tables (the database's thread).
    private final class Writer {
        let insertNode: Statement
        let insertParent: Statement
        let insertRowids: MultiRowInsert
        /// The same rows with the rowid left to SQLite, which gives the
        /// next after the largest: it appends without searching the B-tree
        /// for each row (those searches were an eighth of this thread's time).
        let appendRowids: MultiRowInsert
        /// The largest rowid in `_rowid` (empty when the build begins).
        var lastRowid: Int64 = 0

        init(db: Database, table: String) throws {
            insertNode = try db.prepare("INSERT INTO \"\(table)_node\" (nodeno, data) VALUES (?, ?)")
            insertParent = try db.prepare("INSERT INTO \"\(table)_parent\" (nodeno, parentnode) VALUES (?, ?)")
            insertRowids = try MultiRowInsert(db: db, into: "\"\(table)_rowid\"", columns: ["rowid", "nodeno"])
            appendRowids = try MultiRowInsert(db: db, into: "\"\(table)_rowid\"", columns: ["nodeno"])
        }

        func apply(_ output: Output) throws {
            switch output {
            case .node(let nodeno, let blob):
                insertNode.rewind()
                try insertNode.bind(integer: nodeno, at: 1)
                try blob.withUnsafeBytes { try insertNode.bindBlob($0, at: 2) }
                try insertNode.run()
            case .parents(let pairs):
                for k in stride(from: 0, to: pairs.count, by: 2) {
                    insertParent.rewind()
                    try insertParent.bind(integer: pairs[k], at: 1)
                    try insertParent.bind(integer: pairs[k + 1], at: 2)
                    try insertParent.run()
                }
            case .rowids(let batch):
                guard let last = batch.last?.rowid else { return }
                // The batch's rowids increase: when they run on from the
                // largest without a gap, SQLite's own numbering gives them.
                if batch[0].rowid == lastRowid + 1 && last == lastRowid + Int64(batch.count) {
                    try appendRowids.insert(count: batch.count) { statement, i, first in
                        try statement.bind(integer: batch[i].nodeno, at: first)
                    }
                } else {
                    try insertRowids.insert(count: batch.count) { statement, i, first in
                        try statement.bind(integer: batch[i].rowid, at: first)
                        try statement.bind(integer: batch[i].nodeno, at: first + 1)
                    }
                }
                lastRowid = last
            case .failed(let error):
                throw error
            }
        }
    }

    /// Packs the points into nodes, each made as it fills, and pairs each
    /// point with its leaf; touches no database (it may run on another thread).
    ///
    /// Each level's open node is written in place as its cells come (in
    /// the shadow table's byte order), with its bounds kept beside it, so a
    /// node costs one copy of its bytes when it is handed over.
    private struct Builder {
        let table: String
        let count: Int
        let fanout: Int
        let levelCount: Int
        let nodeSize: Int
        let rowidChunk: Int
        /// (rowid, leaf) pairs for `_rowid`, written in rowid order at the end.
        var pairs: [RowidNode] = []
        let pairRuns: SortedRuns<RowidNode>
        /// Instead of `pairs` and `pairRuns`, for dense rowids.
        var buckets: RowidBuckets?
        // The root is node 1; every other node gets the next number as it is
        // made (a parent right after its last child).
        var nextNumber: Int64 = 2
        /// The node open at each depth (leaves at 0, the root at
        /// `levelCount - 1`): a node is made as soon as it is full and its
        /// bounds go up as a cell of its parent, so memory holds one node
        /// per level, not a level of the tree.
        let open: OpenNodes

        /// The open nodes' memory: bytes, cell counts, bounds, and the ids
        /// of their cells (rowids in a leaf, child numbers above).
        final class OpenNodes {
            let bytes: UnsafeMutableRawPointer
            let cells: UnsafeMutablePointer<Int>
            let bounds: UnsafeMutablePointer<Entry>
            let ids: UnsafeMutablePointer<Int64>

            init(levels: Int, nodeSize: Int, fanout: Int) {
                bytes = .allocate(byteCount: levels * nodeSize, alignment: 8)
                bytes.initializeMemory(as: UInt8.self, repeating: 0, count: levels * nodeSize)
                cells = .allocate(capacity: levels)
                cells.initialize(repeating: 0, count: levels)
                bounds = .allocate(capacity: levels)
                bounds.initialize(repeating: Builder.emptyBounds, count: levels)
                ids = .allocate(capacity: levels * fanout)
                ids.initialize(repeating: 0, count: levels * fanout)
            }

            deinit {
                bytes.deallocate()
                cells.deallocate()
                bounds.deallocate()
                ids.deallocate()
            }
        }

        static let emptyBounds = Entry(id: 0, minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)

        init(table: String, count: Int, nodeSize: Int, rowidChunk: Int, pairRuns: SortedRuns<RowidNode>) {
            self.table = table
            self.count = count
            self.nodeSize = nodeSize
            self.rowidChunk = max(1, rowidChunk)
            self.pairRuns = pairRuns
            fanout = (nodeSize - 4) / 24
            var n = count, levels = 1
            while n > fanout { n = (n + fanout - 1) / fanout; levels += 1 }
            levelCount = levels
            open = OpenNodes(levels: levels, nodeSize: nodeSize, fanout: fanout)
        }

        /// Room for the pairs' radix sort.
        var scratch: [RowidNode] = []

        mutating func spillPairs() throws {
            RowidNode.sortByRowid(&pairs, scratch: &scratch)
            try pairRuns.spill(pairs)
            pairs.removeAll(keepingCapacity: true)
        }

        /// Adds a cell to the node open at `depth`, making the node when it
        /// is full (never the root's: it is made last, by `close`).
        @inline(__always)
        mutating func add(
            id: Int64, minX: Float, maxX: Float, minY: Float, maxY: Float, depth: Int,
            _ out: (Output) throws -> Void
        ) throws {
            let c = open.cells[depth]
            let o = open.bytes + depth * nodeSize + 4 + c * 24
            o.storeBytes(of: UInt64(bitPattern: id).bigEndian, as: UInt64.self)
            o.storeBytes(of: minX.bitPattern.bigEndian, toByteOffset: 8, as: UInt32.self)
            o.storeBytes(of: maxX.bitPattern.bigEndian, toByteOffset: 12, as: UInt32.self)
            o.storeBytes(of: minY.bitPattern.bigEndian, toByteOffset: 16, as: UInt32.self)
            o.storeBytes(of: maxY.bitPattern.bigEndian, toByteOffset: 20, as: UInt32.self)
            open.ids[depth * fanout + c] = id
            let b = open.bounds + depth
            b.pointee.minX = min(b.pointee.minX, minX); b.pointee.maxX = max(b.pointee.maxX, maxX)
            b.pointee.minY = min(b.pointee.minY, minY); b.pointee.maxY = max(b.pointee.maxY, maxY)
            open.cells[depth] = c + 1
            if c + 1 == fanout && depth < levelCount - 1 { try make(depth: depth, out) }
        }

        /// Makes the node open at `depth` and adds it to its parent (unless it is the root).
        mutating func make(depth: Int, _ out: (Output) throws -> Void) throws {
            let isRoot = depth == levelCount - 1
            let nodeno: Int64 = isRoot ? 1 : nextNumber
            if !isRoot { nextNumber += 1 }
            let n = open.cells[depth]
            let base = open.bytes + depth * nodeSize
            if isRoot { base.storeBytes(of: UInt16(depth).bigEndian, as: UInt16.self) }
            base.storeBytes(of: UInt16(n).bigEndian, toByteOffset: 2, as: UInt16.self)
            let blob = [UInt8](UnsafeRawBufferPointer(start: base, count: nodeSize))
            // Only the header and the cells were written: clear them for the next node.
            base.initializeMemory(as: UInt8.self, repeating: 0, count: 4 + n * 24)
            let ids = open.ids + depth * fanout
            // A leaf cell holds a rowid; an inner cell a child's number.
            if depth == 0 {
                if let buckets {
                    for k in 0..<n { try buckets.add(RowidNode(rowid: ids[k], nodeno: nodeno)) }
                } else {
                    for k in 0..<n {
                        pairs.append(RowidNode(rowid: ids[k], nodeno: nodeno))
                        if pairs.count >= rowidChunk { try spillPairs() }
                    }
                }
            } else {
                var parents: [Int64] = []
                parents.reserveCapacity(2 * n)
                for k in 0..<n { parents.append(ids[k]); parents.append(nodeno) }
                try out(.parents(parents))
            }
            try out(.node(nodeno, blob))
            let bounds = open.bounds[depth]
            open.bounds[depth] = Self.emptyBounds
            open.cells[depth] = 0
            if !isRoot {
                try add(
                    id: nodeno, minX: bounds.minX, maxX: bounds.maxX, minY: bounds.minY, maxY: bounds.maxY,
                    depth: depth + 1, out)
            }
        }

        /// Makes the nodes left open, the last of each level and the root.
        mutating func close(_ out: (Output) throws -> Void) throws {
            for depth in 0..<levelCount - 1 where open.cells[depth] > 0 {
                try make(depth: depth, out)
            }
            try make(depth: levelCount - 1, out)
        }

        mutating func build(
            produce: (_ emit: (IndexPoint) throws -> Void) throws -> Void,
            _ out: (Output) throws -> Void
        ) throws {
            // Each level is cut into nodes of `fanout` cells in order, the
            // last one short, as a level-by-level packing cuts it.
            var emitted = 0
            try withoutActuallyEscaping(out) { out in
                try produce { p in
                    guard emitted < count else {
                        throw SQLiteError(extendedCode: 1, message: "\(table): more points than the \(count) announced")
                    }
                    emitted += 1
                    try add(id: p.rowid, minX: p.minX, maxX: p.maxX, minY: p.minY, maxY: p.maxY, depth: 0, out)
                }
            }
            guard emitted == count else {
                throw SQLiteError(extendedCode: 1, message: "\(table): \(emitted) points of the \(count) announced")
            }
            try close(out)
            // `_rowid` in rowid order: the ranges read back in order, the
            // pairs of one chunk sorted, or the merge of the spilled runs.
            let batchSize = 4096
            if let buckets {
                try buckets.forEachInOrder(batch: batchSize) { try out(.rowids($0)) }
                self.buckets = nil
            } else if pairRuns.isEmpty {
                RowidNode.sortByRowid(&pairs, scratch: &scratch)
                for k in stride(from: 0, to: pairs.count, by: batchSize) {
                    try out(.rowids(Array(pairs[k..<min(k + batchSize, pairs.count)])))
                }
            } else {
                try spillPairs()
                pairs = []
                scratch = []
                var batch: [RowidNode] = []
                batch.reserveCapacity(batchSize)
                try pairRuns.merge { p in
                    batch.append(p)
                    if batch.count == batchSize {
                        try out(.rowids(batch))
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty { try out(.rowids(batch)) }
            }
        }
    }

    /// A point's rowid and the leaf node holding it.
    struct RowidNode: BitwiseCopyable, RunOrdered {
        let rowid: Int64
        let nodeno: Int64

        static func precedes(_ a: RowidNode, _ b: RowidNode) -> Bool { a.rowid < b.rowid }

        /// Sorts by rowid (the rowids are distinct): a least-significant-digit
        /// radix sort, 11 bits a pass and only as many passes as the largest
        /// rowid needs (two up to 4 Mi places), through `scratch`: no
        /// comparisons, where a comparison sort would be a large part of
        /// the tree builder's time. Negative rowids (never made by an import)
        /// go to a comparison sort.
        static func sortByRowid(_ a: inout [RowidNode], scratch: inout [RowidNode]) {
            var bits: UInt64 = 0
            var negative = false
            for p in a { bits |= UInt64(bitPattern: p.rowid); if p.rowid < 0 { negative = true } }
            guard a.count > 256, !negative else {
                a.sort { $0.rowid < $1.rowid }
                return
            }
            if scratch.count != a.count { scratch = a }
            let radix = 11, mask: UInt64 = (1 << 11) - 1
            var counts = [Int](repeating: 0, count: 1 << radix)
            var shift: UInt64 = 0
            while shift < 64 && bits >> shift != 0 {
                for k in counts.indices { counts[k] = 0 }
                a.withUnsafeBufferPointer { source in
                    for p in source { counts[Int((UInt64(bitPattern: p.rowid) >> shift) & mask)] += 1 }
                }
                var start = 0
                for k in counts.indices { let c = counts[k]; counts[k] = start; start += c }
                a.withUnsafeBufferPointer { source in
                    scratch.withUnsafeMutableBufferPointer { target in
                        for p in source {
                            let digit = Int((UInt64(bitPattern: p.rowid) >> shift) & mask)
                            target[counts[digit]] = p
                            counts[digit] += 1
                        }
                    }
                }
                swap(&a, &scratch)
                shift += UInt64(radix)
            }
        }
    }
}

/// A value handed over to one other thread, which alone uses it from then on.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
