import CPrefetch
package import PlaceModel
package import PlaceStorage

/// The in-memory spatial index: a k-d tree over the places' unit vectors
/// (earth-centred directions), so there is no special case at the
/// antimeridian or the poles. Nodes keep tight bounding boxes; pruning uses
/// the chord from the query to a box, a lower bound on the great-circle
/// distance to everything inside it, widened by a margin far above rounding.
/// Every surviving candidate is measured with `haversineMeters`, the same
/// function a brute-force scan uses, so results are exact under the sphere.
///
/// Places are stored in tree order, a slot being a position in that
/// order: each slot's fields one record (`Slot`), its unit vector one in
/// a column of their own (`Point3`), read for every place of a visited
/// leaf. Not thread-safe (queries reuse scratch buffers).
package final class PlaceIndex {
    /// A node of the tree, 32 bytes, so that two fill a 64-byte cache line:
    /// the root is node 0 (node 1 is an empty leaf, for the alignment) and
    /// the two children of every node lie side by side at an even index,
    /// one line, each pair's subtrees after it (left first). The box is in
    /// `Float`, rounded outward from the points' `Double`s, so it still
    /// holds them all: pruning by it stays a lower bound.
    package struct Node {
        var minX, minY, minZ: Float
        var maxX, maxY, maxZ: Float
        /// A leaf's first slot, or an inner node's first child (the second
        /// follows it).
        var first: Int32
        /// A leaf's number of places (0 for the empty one), or -1 for an
        /// inner node.
        var count: Int16
        /// The largest footprint radius below this node in whole meters,
        /// rounded up; `UInt16.max` for 65,534 m or more (`maxExtent`).
        var extentMeters: UInt16

        @inline(__always) var isLeaf: Bool { count >= 0 }
        /// The largest footprint radius below this node, in meters: at
        /// least the largest, infinite from 65,534 m (no pruning by it).
        @inline(__always) var maxExtent: Double { extentMeters == .max ? .infinity : Double(extentMeters) }
        /// A leaf's slots.
        @inline(__always) var slots: Range<Int> { Int(first)..<Int(first) + Int(count) }

        static let empty = Node(
            minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0, first: 0, count: 0, extentMeters: 0)

        /// `meters` rounded up to whole meters, or `UInt16.max` from
        /// 65,534 m.
        static func extentBound(_ meters: Float) -> UInt16 {
            meters < Float(UInt16.max - 1) ? UInt16(max(0, meters).rounded(.up)) : .max
        }
    }

    /// A place's unit vector, the three coordinates one record (24 bytes),
    /// so that a leaf's points are one run of memory.
    package struct Point3 {
        var x, y, z: Double
    }

    /// What a query reads of one place once the tree has found it: its
    /// point, row, ID's end and what current place ranks it by, one
    /// record (56 bytes), so that a candidate is one or two cache lines
    /// of one page. As eleven columns, a current-place candidate read
    /// eleven pages: at a hundred million places, each a miss of every
    /// cache (docs/spatial-index.md). Largest fields first, so that no
    /// padding falls between them; the stored index writes the records as
    /// they are (their stride is in its header).
    package struct Slot {
        var latitude: Double
        var longitude: Double
        var rowid: Int64
        /// Where the slot's place ID ends in `idBytes` (it starts where
        /// the slot before ends); 0 when the index holds no IDs.
        var idEnd: Int64
        /// Footprint radius (meters): how far from its location a visitor
        /// of the place may stand. Set by the likelihood model.
        var extent: Float
        var ratingCount: Int32
        /// The stored footprint (index into `shapes`) when it is the
        /// slot's footprint, or -1.
        var shapeIndex: Int32
        /// The viewport (index into `viewports`) when it is the slot's
        /// footprint, or -1.
        var viewportIndex: Int32
        var typeCode: UInt16
        var sourceCode: UInt16
        var status: UInt8
        /// Zero: the record's last three bytes, named so that the file
        /// holds no undefined padding (the same places, the same bytes).
        var spare8: UInt8 = 0
        var spare16: UInt16 = 0
    }

    static let leafSize = 16

    /// Every slot's record, in tree order.
    let slotsColumn: Column<Slot>
    let pointsColumn: Column<Point3>
    let viewportsColumn: Column<GeoRect>
    package let shapes: ShapeTable
    package let types: Interner
    package let sources: Interner
    let nodesColumn: Column<Node>
    /// The slots in rowid order (`slot(ofRowid:)` searches it).
    let slotsByRowidColumn: Column<Int32>
    /// Each slot's place ID (UTF-8), end to end: slot s's end is
    /// `idEnds[s]`, its start the previous slot's end. Empty when the
    /// input had no IDs (a regional index).
    let idBytesColumn: Column<UInt8>

    // The slots' fields, each read as if it were a column of its own
    // (`SlotField`: a load at a fixed offset from the slot's record).
    package let rowids: SlotField<Int64>
    package let latitudes: SlotField<Double>
    package let longitudes: SlotField<Double>
    package let typeCodes: SlotField<UInt16>
    package let statuses: SlotField<UInt8>
    package let sourceCodes: SlotField<UInt16>
    package let ratingCounts: SlotField<Int32>
    let viewportIndexes: SlotField<Int32>
    let shapeIndexes: SlotField<Int32>
    package let extents: SlotField<Float>
    let idEnds: SlotField<Int64>

    // The columns as buffers, read through these: `Column`'s own subscript
    // is `@inlinable package`, which this compiler does not inline or
    // specialize in another module (a generic call and a value-witness
    // copy for every value read: a quarter of `current --batch`'s time),
    // while a buffer's subscript is the standard library's. Valid while
    // the index lives.
    @inline(__always) var slots: UnsafeBufferPointer<Slot> { slotsColumn.buffer }
    @inline(__always) var points: UnsafeBufferPointer<Point3> { pointsColumn.buffer }
    @inline(__always) package var viewports: UnsafeBufferPointer<GeoRect> { viewportsColumn.buffer }
    @inline(__always) var nodes: UnsafeBufferPointer<Node> { nodesColumn.buffer }
    @inline(__always) var slotsByRowid: UnsafeBufferPointer<Int32> { slotsByRowidColumn.buffer }
    @inline(__always) var idBytes: UnsafeBufferPointer<UInt8> { idBytesColumn.buffer }

    // Query scratch, reused.
    private var heapBounds: [Double] = []
    private var heapNodes: [Int32] = []
    /// Slots per place type, loaded on first use.
    var typeSlotCache: [String: SlotSet] = [:]

    /// The last `hiddenCodes` answer, kept: queries ask the same again.
    private var hiddenCodesCache: (types: [String], anonymous: Bool, flags: [Bool]?)?

    /// Per type code, whether its places are left out: those whose primary
    /// type (without the unnamed prefix) is one of `primaryTypes`, and with
    /// `anonymous` the features that are not places; nil when no place of
    /// the index is.
    package func hiddenCodes(_ primaryTypes: [String], anonymous: Bool) -> [Bool]? {
        if let c = hiddenCodesCache, c.anonymous == anonymous, c.types == primaryTypes { return c.flags }
        let set = Set(primaryTypes)
        let flags = types.names.map { name -> Bool in
            guard let name else { return false }
            if name == IndexedType.anonymous { return anonymous }
            return IndexedType.primaryType(name).map(set.contains) ?? false
        }
        let answer = flags.contains(true) ? flags : nil
        hiddenCodesCache = (primaryTypes, anonymous, answer)
        return answer
    }

    package var count: Int { slots.count }

    /// Builds the tree. `footprint(i)` gives input place i's footprint
    /// radius and what its footprint is (its stored shape, its viewport, or
    /// a size by type).
    package convenience init(
        _ input: PlaceIndexInput, footprint: (Int) -> (extent: Double, from: FootprintSource)
    ) {
        var extents: [Float] = [], from: [FootprintSource] = []
        extents.reserveCapacity(input.count)
        from.reserveCapacity(input.count)
        for i in 0..<input.count {
            let f = footprint(i)
            extents.append(Float(f.extent))
            from.append(f.from)
        }
        self.init(consuming: input, extents: extents, footprints: from)
    }

    /// Builds the tree over `input`, whose place i has footprint radius
    /// `extents[i]` and footprint `footprints[i]`. Each input array is
    /// freed once what it goes into is built, so that at a hundred million
    /// places the build holds about one copy of the index and one of the
    /// slots' fields (docs/spatial-index.md).
    package convenience init(
        consuming input: consuming PlaceIndexInput, extents: [Float], footprints: [FootprintSource]
    ) {
        let n = input.count
        precondition(extents.count == n && footprints.count == n)
        var points = [TreeBuilder.Point]()
        points.reserveCapacity(n)
        for i in 0..<n {
            let v = UnitVector(latitude: input.latitudes[i], longitude: input.longitudes[i])
            points.append(TreeBuilder.Point(x: v.x, y: v.y, z: v.z, index: Int32(i)))
        }
        var nodes = points.withUnsafeMutableBufferPointer { p in
            var builder = TreeBuilder(points: p)
            return builder.buildTree()
        }
        let perm = points.map(\.index)
        let pointsColumn = Column(points.lazy.map { Point3(x: $0.x, y: $0.y, z: $0.z) })
        points = []
        // The IDs in tree order, and where each slot's ends.
        var ends: [Int64] = []
        var idBytesColumn = Column<UInt8>()
        if input.idEnds.count == n {
            ends.reserveCapacity(n)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(input.idBytes.count)
            for i in perm {
                let start = i == 0 ? 0 : Int(input.idEnds[Int(i) - 1]), end = Int(input.idEnds[Int(i)])
                bytes.append(contentsOf: input.idBytes[start..<end])
                ends.append(Int64(bytes.count))
            }
            idBytesColumn = Column(bytes)
        }
        input.idEnds = []
        input.idBytes = []
        let slotsColumn = Self.slots(of: input, perm: perm, idEnds: ends, extents: extents, footprints: footprints)
        ends = []
        input.rowids = []
        input.latitudes = []
        input.longitudes = []
        input.typeCodes = []
        input.statuses = []
        input.sourceCodes = []
        input.ratingCounts = []
        input.viewportIndexes = []
        input.shapeIndexes = []
        // The input comes in rowid order, so the inverse permutation lists
        // the slots by rowid.
        var inverse = [Int32](repeating: 0, count: n)
        for (slot, i) in perm.enumerated() { inverse[Int(i)] = Int32(slot) }
        // Largest extent per node, bottom-up (children follow their parent).
        let slots = slotsColumn.buffer
        for i in stride(from: nodes.count - 1, through: 0, by: -1) {
            if nodes[i].isLeaf {
                var m: Float = 0
                for s in nodes[i].slots { m = max(m, slots[s].extent) }
                nodes[i].extentMeters = Node.extentBound(m)
            } else {
                let first = Int(nodes[i].first)
                nodes[i].extentMeters = max(nodes[first].extentMeters, nodes[first + 1].extentMeters)
            }
        }
        self.init(
            parts: Parts(
                slots: slotsColumn, points: pointsColumn, viewports: Column(input.viewports), shapes: input.shapes,
                types: input.types, sources: input.sources, nodes: Column(nodes), slotsByRowid: Column(inverse),
                idBytes: idBytesColumn))
    }

    /// Each slot's record, in tree order (`perm[slot]` is its input
    /// place; `idEnds` in tree order, or empty without IDs).
    private static func slots(
        of input: PlaceIndexInput, perm: [Int32], idEnds: [Int64], extents: [Float],
        footprints: [FootprintSource]
    ) -> Column<Slot> {
        let withIDs = idEnds.count == perm.count
        return Column(
            perm.indices.lazy.map { slot -> Slot in
                let i = Int(perm[slot])
                var shape: Int32 = -1, viewport: Int32 = -1
                switch footprints[i] {
                case .viewport: viewport = input.viewportIndexes[i]
                case .shape: shape = input.shapeIndexes[i]
                case .type: break
                }
                return Slot(
                    latitude: input.latitudes[i], longitude: input.longitudes[i], rowid: input.rowids[i],
                    idEnd: withIDs ? idEnds[slot] : 0, extent: extents[i], ratingCount: input.ratingCounts[i],
                    shapeIndex: shape, viewportIndex: viewport, typeCode: input.typeCodes[i],
                    sourceCode: input.sourceCodes[i], status: input.statuses[i])
            })
    }

    /// An index over columns built or read elsewhere (the stored index:
    /// checked by its reader).
    init(parts: Parts) {
        slotsColumn = parts.slots
        pointsColumn = parts.points
        viewportsColumn = parts.viewports
        shapes = parts.shapes
        types = parts.types
        sources = parts.sources
        nodesColumn = parts.nodes
        slotsByRowidColumn = parts.slotsByRowid
        idBytesColumn = parts.idBytes
        let slots = parts.slots.buffer
        rowids = SlotField(slots, \.rowid)
        latitudes = SlotField(slots, \.latitude)
        longitudes = SlotField(slots, \.longitude)
        typeCodes = SlotField(slots, \.typeCode)
        statuses = SlotField(slots, \.status)
        sourceCodes = SlotField(slots, \.sourceCode)
        ratingCounts = SlotField(slots, \.ratingCount)
        viewportIndexes = SlotField(slots, \.viewportIndex)
        shapeIndexes = SlotField(slots, \.shapeIndex)
        extents = SlotField(slots, \.extent)
        idEnds = SlotField(slots, \.idEnd)
    }

    /// Bytes held by the index (arrays and tree), for reports.
    package var byteCount: Int {
        slotsColumn.byteCount + pointsColumn.byteCount + viewportsColumn.byteCount + shapes.byteCount
            + nodesColumn.byteCount + slotsByRowidColumn.byteCount + idBytesColumn.byteCount
            + typeSlotCache.values.reduce(0) { $0 + $1.byteCount }
    }

    package func coordinate(_ slot: Int) -> Coordinate {
        let s = slots[slot]
        return Coordinate(latitude: s.latitude, longitude: s.longitude)
    }
    package func viewport(_ slot: Int) -> GeoRect? {
        let v = viewportIndexes[slot]
        return v < 0 ? nil : viewports[Int(v)]
    }
    /// The slot's stored footprint (index into `shapes`), when it is its footprint.
    package func shape(_ slot: Int) -> Int? {
        let s = shapeIndexes[slot]
        return s < 0 ? nil : Int(s)
    }

    /// Whether the index holds the places' IDs (`withID`).
    package var holdsIDs: Bool { !idBytes.isEmpty }

    /// The place ID of `slot` as UTF-8, when the index holds IDs.
    package func withID<T>(_ slot: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let start = slot == 0 ? 0 : Int(idEnds[slot - 1]), end = Int(idEnds[slot])
        return try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(idBytes)[start..<end]))
    }

    /// Asks for the ID bytes of `slots` (`withID`), so that writing several
    /// answers' IDs waits for memory once, not once per ID.
    package func prefetchIDs(_ slots: some Sequence<Int32>) {
        guard holdsIDs else { return }
        let bytes = idBytes.baseAddress!
        for slot in slots where slot >= 0 && Int(slot) < count {
            cprefetch_read(bytes + (slot == 0 ? 0 : Int(idEnds[Int(slot) - 1])))
        }
    }

    /// Asks for what current place reads of each hit's slot (`candidate`:
    /// its record, and the record before it, where its ID starts), so
    /// that those reads overlap across the hits.
    package func prefetchCandidates(_ hits: [IndexHit]) {
        for hit in hits { prefetchSlot(Int(hit.slot)) }
    }

    /// The slot of a database row, or nil when the index does not hold it.
    package func slot(ofRowid rowid: Int64) -> Int32? {
        var lo = 0, hi = slotsByRowid.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if rowids[Int(slotsByRowid[mid])] < rowid { lo = mid + 1 } else { hi = mid }
        }
        return lo < slotsByRowid.count && rowids[Int(slotsByRowid[lo])] == rowid ? slotsByRowid[lo] : nil
    }

    // MARK: Queries

    @inline(__always)
    private func boxChord2(_ node: Node, _ q: UnitVector) -> Double {
        let dx = max(Double(node.minX) - q.x, 0, q.x - Double(node.maxX))
        let dy = max(Double(node.minY) - q.y, 0, q.y - Double(node.maxY))
        let dz = max(Double(node.minZ) - q.z, 0, q.z - Double(node.maxZ))
        return dx * dx + dy * dy + dz * dz
    }

    /// Asks for the memory that visiting node `n` (`node`, queued) reads:
    /// its children's nodes, or a leaf's points. At a hundred million
    /// places the nodes and points are far apart in a 10 GB file, so each
    /// read is a miss of every cache; asked for when the node is queued,
    /// the reads of every queued branch overlap instead of each waiting for
    /// memory when the node is visited. A hint only: nothing is read wrongly
    /// when it is ignored.
    @inline(__always)
    private func prefetchVisit(_ node: Node, _ n: Int) {
        if !node.isLeaf {
            // Its two children: one cache line.
            cprefetch_read(nodes.baseAddress! + Int(node.first))
        } else if node.count > 0 {
            // A leaf's points: up to 16 records of 24 bytes, one run of up
            // to seven cache lines.
            prefetchRun(points.baseAddress! + Int(node.first), count: Int(node.count))
        }
    }

    /// Asks for every cache line of the `count` values at `start`.
    @inline(__always)
    private func prefetchRun<T>(_ start: UnsafePointer<T>, count: Int) {
        let start = UnsafeRawPointer(start), bytes = count * MemoryLayout<T>.stride
        var offset = 0
        while offset < bytes {
            cprefetch_read(start + offset)
            offset += 64
        }
        cprefetch_read(start + bytes - 1)
    }

    /// Asks for slot `s`'s record (one or two cache lines), and for the
    /// end of the slot before, where its ID starts.
    @inline(__always)
    private func prefetchSlot(_ s: Int) {
        let record = UnsafeRawPointer(slots.baseAddress! + s)
        if s > 0 && holdsIDs { cprefetch_read(idEnds.address(s - 1)) }
        cprefetch_read(record)
        cprefetch_read(record + MemoryLayout<Slot>.stride - 1)
    }

    /// Asks for the nodes and points of each center's descent (at each
    /// node, into the child whose box is nearer), and for the records of
    /// the leaf's slots, all centers in step, a level at a time: each
    /// level's reads of every center overlap, where a query alone waits
    /// for one level before it can ask for the next. A batch calls it for
    /// the lines it is about to answer (`PlaceReader.warmSpatialIndex`);
    /// their queries then find most of what they read in the cache. At a
    /// hundred million places the tree's lower levels miss every cache;
    /// at a million less of it does. A hint only: no answer depends on it.
    /// Returns the leaf each finite center's descent ended at, in order
    /// (for tests).
    @discardableResult
    package func warmDescents(_ centers: [Coordinate]) -> [Int32] {
        guard !centers.isEmpty, !nodes.isEmpty else { return [] }
        let nodes = self.nodes
        var queries: [UnitVector] = []
        // The even index of the pair of children each center descends
        // into next (asked for a level earlier), or -1 once at its leaf.
        var pairs: [Int32] = []
        queries.reserveCapacity(centers.count)
        pairs.reserveCapacity(centers.count)
        let root = nodes[0]
        for c in centers {
            guard c.latitude.isFinite, c.longitude.isFinite else { continue }
            queries.append(UnitVector(latitude: c.latitude, longitude: c.longitude))
            pairs.append(root.isLeaf ? -1 : root.first)
        }
        prefetchVisit(root, 0)
        if root.isLeaf { prefetchSlots(root.slots) }
        var leaves = [Int32](repeating: 0, count: pairs.count)
        var descending = pairs.contains { $0 >= 0 }
        while descending {
            descending = false
            for i in pairs.indices where pairs[i] >= 0 {
                let l = Int(pairs[i])
                let left = nodes[l], right = nodes[l + 1]
                let q = queries[i]
                let (child, n) = boxChord2(right, q) < boxChord2(left, q) ? (right, l + 1) : (left, l)
                prefetchVisit(child, n)
                if child.isLeaf {
                    pairs[i] = -1
                    leaves[i] = Int32(n)
                    prefetchSlots(child.slots)
                } else {
                    pairs[i] = child.first
                    descending = true
                }
            }
        }
        return leaves
    }

    /// Asks for the records of `slots` (what nearby's survivors and
    /// current place's candidates read), and for where the first one's ID
    /// starts.
    private func prefetchSlots(_ slots: Range<Int>) {
        guard !slots.isEmpty else { return }
        if slots.lowerBound > 0 && holdsIDs {
            cprefetch_read(idEnds.address(slots.lowerBound - 1))
        }
        prefetchRun(self.slots.baseAddress! + slots.lowerBound, count: slots.count)
    }

    /// The `k` places nearest to `center` that `accept` lets through, within
    /// `maxMeters`, ascending by distance. Places tied with the k-th one are
    /// all included (so the caller can break ties by place ID); the result
    /// may therefore hold more than `k` hits.
    ///
    /// The search ranks by chord (no trigonometry), keeping every point
    /// whose chord is within 2e-12 (13 µm) of the k-th, far more than the
    /// two formulas can disagree by; the survivors are then measured with
    /// `haversineMeters` and ranked by it.
    package func nearest(to center: Coordinate, k: Int, maxMeters: Double = .infinity, accept: ((Int) -> Bool)? = nil)
        -> [IndexHit]
    {
        guard k > 0, !nodes.isEmpty else { return [] }
        let q = UnitVector(latitude: center.latitude, longitude: center.longitude)
        var best: [(c2: Double, slot: Int32)] = []
        best.reserveCapacity(k + 8)
        var limit2 = Chord.squaredThreshold(meters: maxMeters)
        // The scratch heap moves into a local for the query (no exclusivity
        // checks on the class's storage in the loop) and back after.
        var heap = NodeHeap(bounds: heapBounds, nodes: heapNodes)
        heapBounds = []
        heapNodes = []
        defer {
            heapBounds = heap.bounds
            heapNodes = heap.nodes
        }
        heap.bounds.removeAll(keepingCapacity: true)
        heap.nodes.removeAll(keepingCapacity: true)
        let nodes = self.nodes, points = self.points
        heap.push(boxChord2(nodes[0], q), 0)
        while let (bound, n) = heap.popMin() {
            if bound > limit2 { break }
            let node = nodes[Int(n)]
            if !node.isLeaf {
                let l = Int(node.first), r = l + 1
                let left = nodes[l], right = nodes[r]
                let bl = boxChord2(left, q), br = boxChord2(right, q)
                if bl <= limit2 {
                    heap.push(bl, Int32(l))
                    prefetchVisit(left, l)
                }
                if br <= limit2 {
                    heap.push(br, Int32(r))
                    prefetchVisit(right, r)
                }
                continue
            }
            for s in node.slots {
                let p = points[s]
                let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
                let c2 = dx * dx + dy * dy + dz * dz
                if c2 > limit2 { continue }
                if let accept, !accept(s) { continue }
                var lo = 0, hi = best.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if best[mid].c2 <= c2 { lo = mid + 1 } else { hi = mid }
                }
                best.insert((c2, Int32(s)), at: lo)
                if best.count >= k {
                    let c = best[k - 1].c2.squareRoot() + 2e-12
                    let keep2 = c * c
                    while best.count > k && best[best.count - 1].c2 > keep2 { best.removeLast() }
                    limit2 = min(limit2, keep2)
                }
            }
        }
        // Exact distances for the survivors; the k nearest and their ties.
        var hits: [IndexHit] = []
        hits.reserveCapacity(best.count)
        // What the survivors' answers read, asked for at once so the reads
        // overlap: their records (coordinates, rows, where their IDs end)
        // and where their IDs start.
        for b in best { prefetchSlot(Int(b.slot)) }
        let slots = self.slots
        for b in best {
            let s = slots[Int(b.slot)]
            let d = haversineMeters(center.latitude, center.longitude, s.latitude, s.longitude)
            if d <= maxMeters { hits.append(IndexHit(meters: d, slot: b.slot)) }
        }
        hits.sort { $0.meters < $1.meters }
        if hits.count > k {
            let kth = hits[k - 1].meters
            var end = k
            while end < hits.count && hits[end].meters == kth { end += 1 }
            hits.removeLast(hits.count - end)
        }
        return hits
    }

    /// A squared-chord threshold that keeps everything within `e` meters
    /// more than the arc whose threshold's chord is `chord`
    /// (`Chord.squaredThreshold(meters:)`, its square root): at least
    /// `Chord.squaredThreshold(meters: meters + e)`, without its sine. An
    /// arc's chord grows by at most the length added to the arc (its
    /// derivative is the cosine of half the angle), so chord(m + e) <=
    /// chord(m) + e / R; the threshold's widening is kept. Looser by a few
    /// parts in a million at current place's reaches, which only lets a
    /// few more points be measured with `haversineMeters`.
    @inline(__always)
    static func reachThreshold(chord: Double, plusMeters e: Double) -> Double {
        let c = chord + e / Earth.meanRadius * (1 + 1e-9)
        return c * c
    }

    /// Every place whose footprint may come within `meters` of `center`:
    /// distance minus its extent (when `useExtents`) at most `meters`.
    /// Unordered.
    package func within(_ center: Coordinate, meters: Double, useExtents: Bool, accept: ((Int) -> Bool)? = nil)
        -> [IndexHit]
    {
        guard !nodes.isEmpty, meters >= 0 else { return [] }
        let q = UnitVector(latitude: center.latitude, longitude: center.longitude)
        // A node's reach is `meters` plus its largest extent
        // (`reachThreshold`, no sine per node).
        let chord = Chord.squaredThreshold(meters: meters).squareRoot()
        @inline(__always) func limit2(_ node: Node) -> Double {
            useExtents ? Self.reachThreshold(chord: chord, plusMeters: node.maxExtent) : chord * chord
        }
        var out: [IndexHit] = []
        let nodes = self.nodes, points = self.points
        if boxChord2(nodes[0], q) > limit2(nodes[0]) { return out }
        // Nodes within reach. A node's children are checked when it is
        // visited (one cache line for both), and only those within reach
        // are queued, what visiting them reads asked for then.
        var stack: [Int32] = [0]
        while let n = stack.popLast() {
            let node = nodes[Int(n)]
            if !node.isLeaf {
                let l = Int(node.first), r = l + 1
                let left = nodes[l], right = nodes[r]
                if boxChord2(right, q) <= limit2(right) {
                    stack.append(Int32(r))
                    prefetchVisit(right, r)
                }
                if boxChord2(left, q) <= limit2(left) {
                    stack.append(Int32(l))
                    prefetchVisit(left, l)
                }
                continue
            }
            let limit2 = limit2(node)
            for s in node.slots {
                // The chord rules out most points without trigonometry.
                let p = points[s]
                let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
                if dx * dx + dy * dy + dz * dz > limit2 { continue }
                let d = haversineMeters(center.latitude, center.longitude, latitudes[s], longitudes[s])
                let e = useExtents ? Double(extents[s]) : 0
                if d - e > meters { continue }
                if let accept, !accept(s) { continue }
                out.append(IndexHit(meters: d, slot: Int32(s)))
            }
        }
        return out
    }

}
