#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaceModel

/// A place's business status as the index keeps it (one byte).
package enum StatusCode: UInt8 {
    case unknown = 0, operational, closedTemporarily, closedPermanently, futureOpening, other

    /// From the column's UTF-8 bytes, without making a string.
    package init(bytes b: UnsafeRawBufferPointer) {
        func equals(_ s: StaticString) -> Bool {
            s.utf8CodeUnitCount == b.count && s.withUTF8Buffer { $0.elementsEqual(b) }
        }
        if equals("OPERATIONAL") { self = .operational }
        else if equals("CLOSED_TEMPORARILY") { self = .closedTemporarily }
        else if equals("CLOSED_PERMANENTLY") { self = .closedPermanently }
        else if equals("FUTURE_OPENING") { self = .futureOpening }
        else { self = .other }
    }

    package var businessStatus: BusinessStatus? {
        switch self {
        case .operational: .operational
        case .closedTemporarily: .closedTemporarily
        case .closedPermanently: .closedPermanently
        case .futureOpening: .futureOpening
        case .unknown, .other: nil
        }
    }
}

/// What a place's footprint in the index is.
package enum FootprintSource: UInt8 {
    /// A square of its type's size around its location.
    case type
    /// Its viewport.
    case viewport
    /// Its stored polygons or lines (`place_footprint`).
    case shape
}

/// Places read from the database, in load order, before the index is built.
package struct PlaceIndexInput {
    package var rowids: [Int64] = []
    package var latitudes: [Double] = []
    package var longitudes: [Double] = []
    package var typeCodes: [UInt16] = []
    package var statuses: [UInt8] = []
    package var sourceCodes: [UInt16] = []
    package var ratingCounts: [Int32] = []
    /// Index into `viewports`, or -1.
    var viewportIndexes: [Int32] = []
    package var viewports: [GeoRect] = []
    /// Index into `shapes` (the stored footprint), or -1.
    package var shapeIndexes: [Int32] = []
    package var shapes = ShapeTable()
    /// Interned primary types (code 0 is "no type") and sources.
    package var types = Interner()
    package var sources = Interner()

    package var count: Int { rowids.count }

    mutating func reserve(_ n: Int) {
        rowids.reserveCapacity(n)
        latitudes.reserveCapacity(n)
        longitudes.reserveCapacity(n)
        typeCodes.reserveCapacity(n)
        statuses.reserveCapacity(n)
        sourceCodes.reserveCapacity(n)
        ratingCounts.reserveCapacity(n)
        viewportIndexes.reserveCapacity(n)
        shapeIndexes.reserveCapacity(n)
    }
}

/// Strings (or their UTF-8 bytes) to small integer codes. Code 0 is nil.
package struct Interner {
    package private(set) var names: [String?] = [nil]
    private var bytes: [[UInt8]] = [[]]
    /// Open addressing over FNV-1a hashes of the bytes: code or 0.
    private var table = [UInt16](repeating: 0, count: 64)

    package func name(_ code: UInt16) -> String? { Int(code) < names.count ? names[Int(code)] : nil }

    private static func hash(_ b: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for x in b { h = (h ^ UInt64(x)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }

    package mutating func code(bytes b: UnsafeRawBufferPointer, isNull: Bool) -> UInt16 {
        if isNull { return 0 }
        let mask = table.count - 1
        var i = Self.hash(b) & mask
        while true {
            let c = table[i]
            if c == 0 { break }
            if bytes[Int(c)].count == b.count && bytes[Int(c)].elementsEqual(b) { return c }
            i = (i + 1) & mask
        }
        // 65,535 distinct values at most; beyond that, share the last code
        // (never reached by real type vocabularies).
        guard names.count < Int(UInt16.max) else { return UInt16(names.count - 1) }
        let c = UInt16(names.count)
        names.append(String(decoding: b, as: UTF8.self))
        bytes.append(Array(b))
        table[i] = c
        if names.count * 2 > table.count { rehash() }
        return c
    }

    private mutating func rehash() {
        table = [UInt16](repeating: 0, count: table.count * 2)
        let mask = table.count - 1
        for c in 1..<bytes.count {
            var i = bytes[c].withUnsafeBytes { Self.hash($0) } & mask
            while table[i] != 0 { i = (i + 1) & mask }
            table[i] = UInt16(c)
        }
    }
}

/// A fixed-size set of slots.
struct SlotSet {
    private var words: [UInt64]
    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }
    @inline(__always) package func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
    @inline(__always) package mutating func insert(_ i: Int) { words[i >> 6] |= 1 << UInt64(i & 63) }
    mutating func formUnion(_ other: SlotSet) { for i in words.indices { words[i] |= other.words[i] } }
    package var byteCount: Int { words.capacity * 8 }
}

/// A neighbour found by the index: its slot and exact great-circle distance.
package struct IndexHit: Equatable {
    package var meters: Double
    package var slot: Int32
}

/// The in-memory spatial index: a k-d tree over the places' unit vectors
/// (earth-centred directions), so there is no special case at the
/// antimeridian or the poles. Nodes keep tight bounding boxes; pruning uses
/// the chord from the query to a box, a lower bound on the great-circle
/// distance to everything inside it, widened by a margin far above rounding.
/// Every surviving candidate is measured with `haversineMeters`, the same
/// function a brute-force scan uses, so results are exact under the sphere.
///
/// Places are stored struct-of-arrays in tree order; a slot is a position in
/// that order. Not thread-safe (queries reuse scratch buffers).
package final class PlaceIndex {
    package struct Node {
        var minX, minY, minZ: Double
        var maxX, maxY, maxZ: Double
        var begin: Int32
        var end: Int32
        /// The right child (the left one follows the node), or -1 for a leaf.
        var right: Int32
        /// The largest footprint radius below this node, in meters.
        var maxExtent: Float
    }

    static let leafSize = 16

    package let rowids: [Int64]
    package let latitudes: [Double]
    package let longitudes: [Double]
    private let xs: [Double]
    private let ys: [Double]
    private let zs: [Double]
    package let typeCodes: [UInt16]
    package let statuses: [UInt8]
    package let sourceCodes: [UInt16]
    package let ratingCounts: [Int32]
    let viewportIndexes: [Int32]
    package let viewports: [GeoRect]
    /// The stored footprint of each slot that has it as its footprint
    /// (index into `shapes`), or -1.
    let shapeIndexes: [Int32]
    package let shapes: ShapeTable
    /// Footprint radius per slot (meters): how far from its location a
    /// visitor of the place may stand. Set by the likelihood model.
    package let extents: [Float]
    package let types: Interner
    package let sources: Interner
    private let nodes: [Node]

    // Query scratch, reused.
    private var heapBounds: [Double] = []
    private var heapNodes: [Int32] = []
    /// rowid -> slot, built on first use (type filters).
    private var slotOfRowid: [Int64: Int32]?
    /// Slots per place type, loaded on first use.
    var typeSlotCache: [String: SlotSet] = [:]

    /// The primary type the index gives a feature that is not a place
    /// (`PlaceStore.notAPlaceSQL`: kept by `import --all-features`, with
    /// neither a name nor a type): never a current-place candidate, left
    /// out of nearby searches by default.
    package static let anonymousType = ""
    /// The prefix of the primary type the index gives an unnamed feature
    /// of a GeoJSON export (`PlaceStore.spatialColumns`: "~parking").
    static let unnamedPrefix = "~"

    /// A primary type as the index reads it, without the unnamed prefix.
    package static func primaryType(_ indexed: String?) -> String? {
        guard let indexed, indexed.hasPrefix(unnamedPrefix) else { return indexed }
        return String(indexed.dropFirst(unnamedPrefix.count))
    }

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
            if name == Self.anonymousType { return anonymous }
            return Self.primaryType(name).map(set.contains) ?? false
        }
        let answer = flags.contains(true) ? flags : nil
        hiddenCodesCache = (primaryTypes, anonymous, answer)
        return answer
    }

    package var count: Int { rowids.count }

    /// Builds the tree. `footprint(i)` gives input place i's footprint
    /// radius and what its footprint is (its stored shape, its viewport, or
    /// a size by type).
    package init(_ input: PlaceIndexInput, footprint: (Int) -> (extent: Double, from: FootprintSource)) {
        let n = input.count
        var points = [TreeBuilder.Point]()
        points.reserveCapacity(n)
        for i in 0..<n {
            let v = UnitVector(latitude: input.latitudes[i], longitude: input.longitudes[i])
            points.append(TreeBuilder.Point(x: v.x, y: v.y, z: v.z, index: Int32(i)))
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(max(1, 2 * n / Self.leafSize + 2))
        if n > 0 {
            points.withUnsafeMutableBufferPointer { p in
                var builder = TreeBuilder(points: p)
                _ = builder.build(0, n, into: &nodes)
            }
        }
        let perm = points.map(\.index)
        func reorder<T>(_ a: [T]) -> [T] { perm.map { a[Int($0)] } }
        rowids = reorder(input.rowids)
        latitudes = reorder(input.latitudes)
        longitudes = reorder(input.longitudes)
        xs = points.map(\.x)
        ys = points.map(\.y)
        zs = points.map(\.z)
        typeCodes = reorder(input.typeCodes)
        statuses = reorder(input.statuses)
        sourceCodes = reorder(input.sourceCodes)
        ratingCounts = reorder(input.ratingCounts)
        viewports = input.viewports
        var extents = [Float](repeating: 0, count: n)
        var viewportIndexes = [Int32](repeating: -1, count: n)
        var shapeIndexes = [Int32](repeating: -1, count: n)
        for (slot, i) in perm.enumerated() {
            let f = footprint(Int(i))
            extents[slot] = Float(f.extent)
            switch f.from {
            case .viewport: viewportIndexes[slot] = input.viewportIndexes[Int(i)]
            case .shape: shapeIndexes[slot] = input.shapeIndexes[Int(i)]
            case .type: break
            }
        }
        self.extents = extents
        self.viewportIndexes = viewportIndexes
        self.shapeIndexes = shapeIndexes
        shapes = input.shapes
        types = input.types
        sources = input.sources
        // Largest extent per node, bottom-up (children follow their parent).
        for i in stride(from: nodes.count - 1, through: 0, by: -1) {
            if nodes[i].right < 0 {
                var m: Float = 0
                for s in Int(nodes[i].begin)..<Int(nodes[i].end) { m = max(m, extents[s]) }
                nodes[i].maxExtent = m
            } else {
                nodes[i].maxExtent = max(nodes[i + 1].maxExtent, nodes[Int(nodes[i].right)].maxExtent)
            }
        }
        self.nodes = nodes
    }

    /// Bytes held by the index (arrays and tree), for reports.
    package var byteCount: Int {
        rowids.capacity * 8 + (latitudes.capacity + longitudes.capacity + xs.capacity + ys.capacity + zs.capacity) * 8
            + typeCodes.capacity * 2 + statuses.capacity + sourceCodes.capacity * 2 + ratingCounts.capacity * 4
            + viewportIndexes.capacity * 4 + viewports.capacity * MemoryLayout<GeoRect>.stride + extents.capacity * 4
            + shapeIndexes.capacity * 4 + shapes.byteCount
            + nodes.capacity * MemoryLayout<Node>.stride + (slotOfRowid?.capacity ?? 0) * 16
            + typeSlotCache.values.reduce(0) { $0 + $1.byteCount }
    }

    package func coordinate(_ slot: Int) -> Coordinate { Coordinate(latitude: latitudes[slot], longitude: longitudes[slot]) }
    package func viewport(_ slot: Int) -> GeoRect? {
        let v = viewportIndexes[slot]
        return v < 0 ? nil : viewports[Int(v)]
    }
    /// The slot's stored footprint (index into `shapes`), when it is its footprint.
    package func shape(_ slot: Int) -> Int? {
        let s = shapeIndexes[slot]
        return s < 0 ? nil : Int(s)
    }

    /// The slot of a database row, or nil when the index does not hold it.
    package func slot(ofRowid rowid: Int64) -> Int32? {
        if slotOfRowid == nil {
            var map = [Int64: Int32](minimumCapacity: count)
            for (i, r) in rowids.enumerated() { map[r] = Int32(i) }
            slotOfRowid = map
        }
        return slotOfRowid![rowid]
    }

    // MARK: Queries

    @inline(__always)
    private func boxChord2(_ node: Node, _ q: UnitVector) -> Double {
        let dx = max(node.minX - q.x, 0, q.x - node.maxX)
        let dy = max(node.minY - q.y, 0, q.y - node.maxY)
        let dz = max(node.minZ - q.z, 0, q.z - node.maxZ)
        return dx * dx + dy * dy + dz * dz
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
    package func nearest(to center: Coordinate, k: Int, maxMeters: Double = .infinity, accept: ((Int) -> Bool)? = nil) -> [IndexHit] {
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
        nodes.withUnsafeBufferPointer { nodes in
            xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
            zs.withUnsafeBufferPointer { zs in
                heap.push(boxChord2(nodes[0], q), 0)
                while let (bound, n) = heap.popMin() {
                    if bound > limit2 { break }
                    let node = nodes[Int(n)]
                    if node.right >= 0 {
                        let l = Int(n) + 1, r = Int(node.right)
                        let bl = boxChord2(nodes[l], q), br = boxChord2(nodes[r], q)
                        if bl <= limit2 { heap.push(bl, Int32(l)) }
                        if br <= limit2 { heap.push(br, Int32(r)) }
                        continue
                    }
                    for s in Int(node.begin)..<Int(node.end) {
                        let dx = xs[s] - q.x, dy = ys[s] - q.y, dz = zs[s] - q.z
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
            }}}
        }
        // Exact distances for the survivors; the k nearest and their ties.
        var hits: [IndexHit] = []
        hits.reserveCapacity(best.count)
        for b in best {
            let d = haversineMeters(center.latitude, center.longitude, latitudes[Int(b.slot)], longitudes[Int(b.slot)])
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

    /// Every place whose footprint may come within `meters` of `center`:
    /// distance minus its extent (when `useExtents`) at most `meters`.
    /// Unordered.
    package func within(_ center: Coordinate, meters: Double, useExtents: Bool, accept: ((Int) -> Bool)? = nil) -> [IndexHit] {
        guard !nodes.isEmpty, meters >= 0 else { return [] }
        let q = UnitVector(latitude: center.latitude, longitude: center.longitude)
        var out: [IndexHit] = []
        var stack: [Int32] = [0]
        nodes.withUnsafeBufferPointer { nodes in
            while let n = stack.popLast() {
                let node = nodes[Int(n)]
                let reach = meters + (useExtents ? Double(node.maxExtent) : 0)
                let limit2 = Chord.squaredThreshold(meters: reach)
                if boxChord2(node, q) > limit2 { continue }
                if node.right >= 0 {
                    stack.append(node.right)
                    stack.append(n + 1)
                    continue
                }
                for s in Int(node.begin)..<Int(node.end) {
                    // The chord rules out most points without trigonometry.
                    let dx = xs[s] - q.x, dy = ys[s] - q.y, dz = zs[s] - q.z
                    if dx * dx + dy * dy + dz * dz > limit2 { continue }
                    let d = haversineMeters(center.latitude, center.longitude, latitudes[s], longitudes[s])
                    let e = useExtents ? Double(extents[s]) : 0
                    if d - e > meters { continue }
                    if let accept, !accept(s) { continue }
                    out.append(IndexHit(meters: d, slot: Int32(s)))
                }
            }
        }
        return out
    }

}

/// A min-heap of (lower bound, node) for best-first search.
private struct NodeHeap {
    package var bounds: [Double]
    package var nodes: [Int32]

    @inline(__always)
    package mutating func push(_ bound: Double, _ node: Int32) {
        bounds.append(bound)
        nodes.append(node)
        var i = bounds.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            if bounds[parent] <= bounds[i] { break }
            bounds.swapAt(parent, i)
            nodes.swapAt(parent, i)
            i = parent
        }
    }

    @inline(__always)
    mutating func popMin() -> (Double, Int32)? {
        guard let lastBound = bounds.popLast(), let lastNode = nodes.popLast() else { return nil }
        if bounds.isEmpty { return (lastBound, lastNode) }
        let top = (bounds[0], nodes[0])
        bounds[0] = lastBound
        nodes[0] = lastNode
        var i = 0
        let n = bounds.count
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            var m = l
            if l + 1 < n && bounds[l + 1] < bounds[l] { m = l + 1 }
            if bounds[i] <= bounds[m] { break }
            bounds.swapAt(i, m)
            nodes.swapAt(i, m)
            i = m
        }
        return top
    }
}

/// Builds the k-d tree: median splits on the axis of largest spread (from
/// a sample of the points), tight bounding boxes bottom-up. The points move
/// with the partitioning, so every pass reads memory in order.
private struct TreeBuilder {
    package struct Point {
        var x: Double
        var y: Double
        var z: Double
        var index: Int32
    }

    package let points: UnsafeMutableBufferPointer<Point>

    @inline(__always)
    package func value(_ p: Int, _ axis: Int) -> Double {
        switch axis {
        case 0: points[p].x
        case 1: points[p].y
        default: points[p].z
        }
    }

    /// Appends the node for points[begin..<end] and its subtree; returns its index.
    package mutating func build(_ begin: Int, _ end: Int, into nodes: inout [PlaceIndex.Node]) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(PlaceIndex.Node(minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0,
                                     begin: Int32(begin), end: Int32(end), right: -1, maxExtent: 0))
        if end - begin <= PlaceIndex.leafSize {
            var minX = Double.infinity, minY = Double.infinity, minZ = Double.infinity
            var maxX = -Double.infinity, maxY = -Double.infinity, maxZ = -Double.infinity
            for p in begin..<end {
                let q = points[p]
                minX = min(minX, q.x); maxX = max(maxX, q.x)
                minY = min(minY, q.y); maxY = max(maxY, q.y)
                minZ = min(minZ, q.z); maxZ = max(maxZ, q.z)
            }
            nodes[Int(index)].minX = minX; nodes[Int(index)].maxX = maxX
            nodes[Int(index)].minY = minY; nodes[Int(index)].maxY = maxY
            nodes[Int(index)].minZ = minZ; nodes[Int(index)].maxZ = maxZ
            return index
        }
        // The axis of largest spread, from at most 256 evenly spaced points.
        let step = max(1, (end - begin) / 256)
        var lo = (Double.infinity, Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity, -Double.infinity)
        var p = begin
        while p < end {
            let q = points[p]
            lo = (min(lo.0, q.x), min(lo.1, q.y), min(lo.2, q.z))
            hi = (max(hi.0, q.x), max(hi.1, q.y), max(hi.2, q.z))
            p += step
        }
        let spreads = (hi.0 - lo.0, hi.1 - lo.1, hi.2 - lo.2)
        let axis = spreads.0 >= spreads.1 ? (spreads.0 >= spreads.2 ? 0 : 2) : (spreads.1 >= spreads.2 ? 1 : 2)
        let mid = (begin + end) / 2
        select(begin, end, mid, axis)
        _ = build(begin, mid, into: &nodes)
        let right = build(mid, end, into: &nodes)
        let l = nodes[Int(index) + 1], r = nodes[Int(right)]
        nodes[Int(index)].right = right
        nodes[Int(index)].minX = min(l.minX, r.minX); nodes[Int(index)].maxX = max(l.maxX, r.maxX)
        nodes[Int(index)].minY = min(l.minY, r.minY); nodes[Int(index)].maxY = max(l.maxY, r.maxY)
        nodes[Int(index)].minZ = min(l.minZ, r.minZ); nodes[Int(index)].maxZ = max(l.maxZ, r.maxZ)
        return index
    }

    /// Quickselect: points[k] gets the element of rank k on `axis`, smaller
    /// ones before it, larger ones after.
    func select(_ begin: Int, _ end: Int, _ k: Int, _ axis: Int) {
        var lo = begin, hi = end - 1
        while lo < hi {
            // Median of three as pivot.
            let mid = lo + (hi - lo) / 2
            let a = value(lo, axis), b = value(mid, axis), c = value(hi, axis)
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = lo, j = hi
            while i <= j {
                while value(i, axis) < pivot { i += 1 }
                while value(j, axis) > pivot { j -= 1 }
                if i <= j {
                    points.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }
}
