/// Builds the k-d tree: median splits on the axis of largest spread (from
/// a sample of the points), tight bounding boxes bottom-up. The points move
/// with the partitioning, so every pass reads memory in order.
struct TreeBuilder {
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

    /// The tree over every point (`PlaceIndex.Node`): the root at 0, an
    /// empty leaf at 1, then each node's two children side by side at an
    /// even index, each pair's subtrees after it, left first. No node for
    /// no point.
    package mutating func buildTree() -> [PlaceIndex.Node] {
        guard !points.isEmpty else { return [] }
        var nodes = [PlaceIndex.Node](repeating: .empty, count: 2)
        nodes.reserveCapacity(2 * points.count / PlaceIndex.leafSize * 2 + 4)
        fill(0, 0, points.count, into: &nodes)
        return nodes
    }

    /// Sets node `index` to the node for points[begin..<end], appending its
    /// subtree.
    mutating func fill(_ index: Int, _ begin: Int, _ end: Int, into nodes: inout [PlaceIndex.Node]) {
        if end - begin <= PlaceIndex.leafSize {
            var minX = Double.infinity, minY = Double.infinity, minZ = Double.infinity
            var maxX = -Double.infinity, maxY = -Double.infinity, maxZ = -Double.infinity
            for p in begin..<end {
                let q = points[p]
                minX = min(minX, q.x); maxX = max(maxX, q.x)
                minY = min(minY, q.y); maxY = max(maxY, q.y)
                minZ = min(minZ, q.z); maxZ = max(maxZ, q.z)
            }
            nodes[index] = PlaceIndex.Node(
                minX: Self.down(minX), minY: Self.down(minY), minZ: Self.down(minZ),
                maxX: Self.up(maxX), maxY: Self.up(maxY), maxZ: Self.up(maxZ),
                first: Int32(begin), count: Int16(end - begin), extentMeters: 0)
            return
        }
        // The axis of largest spread, from at most 256 evenly spaced points.
        let step = max(1, (end - begin) / 256)
        var lo = (Double.infinity, Double.infinity, Double.infinity),
            hi = (-Double.infinity, -Double.infinity, -Double.infinity)
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
        let first = nodes.count
        nodes.append(.empty)
        nodes.append(.empty)
        fill(first, begin, mid, into: &nodes)
        fill(first + 1, mid, end, into: &nodes)
        let l = nodes[first], r = nodes[first + 1]
        nodes[index] = PlaceIndex.Node(
            minX: min(l.minX, r.minX), minY: min(l.minY, r.minY), minZ: min(l.minZ, r.minZ),
            maxX: max(l.maxX, r.maxX), maxY: max(l.maxY, r.maxY), maxZ: max(l.maxZ, r.maxZ),
            first: Int32(first), count: -1, extentMeters: 0)
    }

    /// The largest `Float` at most `x`, and the smallest at least `x`: a
    /// box in `Float` that holds every point of the `Double` one.
    static func down(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) > x ? f.nextDown : f
    }
    static func up(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
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
