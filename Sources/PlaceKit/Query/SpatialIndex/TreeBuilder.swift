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

    /// Appends the node for points[begin..<end] and its subtree; returns its index.
    package mutating func build(_ begin: Int, _ end: Int, into nodes: inout [PlaceIndex.Node]) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(
            PlaceIndex.Node(
                minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0,
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
