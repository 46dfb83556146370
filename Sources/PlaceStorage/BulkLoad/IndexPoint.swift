import Foundation
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// A point waiting for the R*Tree, with its place on the Hilbert curve: 24
/// bytes (21 and padding). The coordinates are kept as the R*Tree stores
/// them, float32 bounds rounded outwards: the lower bound, and one bit per
/// axis saying whether the upper bound is the next float (the coordinate
/// fell between two floats) or the same (it is one).
struct IndexPoint: BitwiseCopyable, RunOrdered {
    let rowid: Int64
    /// The Hilbert key (`Hilbert.key`, 32 bits).
    let key: UInt32
    let minX: Float
    let minY: Float
    /// Bit 0: maxX is minX.nextUp; bit 1: maxY is minY.nextUp.
    private let inexact: UInt8

    init(key: UInt64, rowid: Int64, longitude: Double, latitude: Double) {
        self.rowid = rowid
        self.key = UInt32(truncatingIfNeeded: key)
        minX = RTreeBulkLoader.down(longitude)
        minY = RTreeBulkLoader.down(latitude)
        inexact = (Double(minX) != longitude ? 1 : 0) | (Double(minY) != latitude ? 2 : 0)
    }

    var maxX: Float { inexact & 1 != 0 ? minX.nextUp : minX }
    var maxY: Float { inexact & 2 != 0 ? minY.nextUp : minY }

    /// The coordinates as the R*Tree reads them back (float32, rounded down).
    var longitude: Double { Double(minX) }
    var latitude: Double { Double(minY) }

    static func precedes(_ p: IndexPoint, _ q: IndexPoint) -> Bool { curveOrder(p, q) }
}

extension IndexPoint {
    /// Along the Hilbert curve, ties by rowid: the order chunks are sorted,
    /// spilled and merged in.
    static func curveOrder(_ p: IndexPoint, _ q: IndexPoint) -> Bool {
        p.key < q.key || (p.key == q.key && p.rowid < q.rowid)
    }

    /// Sorts `points` in `curveOrder`, in place. The standard library's
    /// sort is stable and takes a buffer of half the array (6 MiB beside a
    /// chunk of 12 MiB, the largest thing an import held after SQLite's
    /// page cache); a stable order buys nothing here, since no two points
    /// compare equal (a row has one point). An introsort: quicksort on the
    /// median of three, insertion sort below 16 points, heapsort past a
    /// depth of 2 log2(n), so never worse than n log n.
    static func sortAlongCurve(_ points: inout [IndexPoint]) {
        guard points.count > 1 else { return }
        points.withUnsafeMutableBufferPointer { a in
            var depth = 0
            var n = a.count
            while n > 0 { depth += 2; n >>= 1 }
            introsort(a, 0, a.count, depth)
        }
    }

    @inline(__always)
    private static func less(_ a: UnsafeMutableBufferPointer<IndexPoint>, _ i: Int, _ j: Int) -> Bool {
        curveOrder(a[i], a[j])
    }

    /// Sorts a[low..<high].
    private static func introsort(_ a: UnsafeMutableBufferPointer<IndexPoint>, _ low: Int, _ high: Int, _ depth: Int) {
        var low = low, high = high, depth = depth
        while high - low > 16 {
            if depth == 0 {
                heapsort(a, low, high)
                return
            }
            depth -= 1
            // The median of the first, middle and last goes to `low` as the pivot.
            let mid = low + (high - low) / 2, last = high - 1
            if less(a, mid, low) { a.swapAt(mid, low) }
            if less(a, last, low) { a.swapAt(last, low) }
            if less(a, last, mid) { a.swapAt(last, mid) }
            a.swapAt(low, mid)
            let pivot = a[low]
            // Hoare's partition: a[low+1...j] <= pivot <= a[j+1..<high].
            var i = low, j = high
            while true {
                repeat { i += 1 } while i < high && curveOrder(a[i], pivot)
                repeat { j -= 1 } while curveOrder(pivot, a[j])
                if i >= j { break }
                a.swapAt(i, j)
            }
            a.swapAt(low, j)
            // Recurse into the smaller side, loop on the larger.
            if j - low < high - j - 1 {
                introsort(a, low, j, depth)
                low = j + 1
            } else {
                introsort(a, j + 1, high, depth)
                high = j
            }
        }
        // Insertion sort of the short rest.
        if high - low > 1 {
            for k in (low + 1)..<high {
                let v = a[k]
                var m = k
                while m > low && curveOrder(v, a[m - 1]) {
                    a[m] = a[m - 1]
                    m -= 1
                }
                a[m] = v
            }
        }
    }

    private static func heapsort(_ a: UnsafeMutableBufferPointer<IndexPoint>, _ low: Int, _ high: Int) {
        let n = high - low
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end && curveOrder(a[low + child], a[low + child + 1]) { child += 1 }
                if !curveOrder(a[low + root], a[low + child]) { return }
                a.swapAt(low + root, low + child)
                root = child
            }
        }
        for start in stride(from: n / 2 - 1, through: 0, by: -1) { siftDown(start, n) }
        for end in stride(from: n - 1, to: 0, by: -1) {
            a.swapAt(low, low + end)
            siftDown(0, end)
        }
    }
}
