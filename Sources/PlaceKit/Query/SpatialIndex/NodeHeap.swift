/// A min-heap of (lower bound, node) for best-first search.
struct NodeHeap {
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
