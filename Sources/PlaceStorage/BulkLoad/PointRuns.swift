import Foundation
import SQLiteDB
#if canImport(Glibc)
import Glibc
#endif
import PlaceModel

/// Values spilled in sorted runs and merged back (`SortedRuns`): `precedes`
/// is their order, a plain function the merge's comparisons inline.
protocol RunOrdered: BitwiseCopyable {
    static func precedes(_ a: Self, _ b: Self) -> Bool
}

extension UInt64: RunOrdered {
    static func precedes(_ a: UInt64, _ b: UInt64) -> Bool { a < b }
}

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

/// Hilbert-sorted runs of index points (`IndexPoint.curveOrder`).
typealias PointRuns = SortedRuns<IndexPoint>

extension SortedRuns {
    /// Runs in the directory of `db`'s file (where its free space is).
    convenience init(besideDatabase db: Database) {
        self.init(directory: URL(fileURLWithPath: db.path).deletingLastPathComponent().path)
    }
}

/// Sorted runs of fixed-size values spilled to unlinked temporary files
/// beside the database, merged back in one stream: an external merge sort,
/// so a fresh import of any size builds its R*Tree whole while memory holds
/// one chunk and one read buffer per run. The files are unlinked as they are
/// made, so a killed import leaves nothing behind.
final class SortedRuns<Element: RunOrdered> {
    private let directory: String
    private var files: [Int32] = []
    private var lengths: [Int] = []
    /// Points spilled so far.
    private(set) var count = 0

    init(directory: String) {
        self.directory = directory
    }

    deinit {
        for fd in files { close(fd) }
    }

    var isEmpty: Bool { files.isEmpty }

    /// Runs kept apart at most; past this they are merged into one first
    /// (so open files stay few however large the input).
    var maxRuns = 256

    /// The merge's read buffers, all runs together: each run reads
    /// `mergeBuffer / runs` bytes at a time, between `minimumRead` and
    /// 256 KiB (8 MiB: 256 KiB a run up to 32 runs, 43 KiB at 100M points).
    var mergeBuffer = 8 << 20
    var minimumRead = 32 << 10

    /// Writes one run, sorted by `Element.precedes`.
    func spill(_ points: [Element]) throws {
        guard !points.isEmpty else { return }
        if files.count >= maxRuns { try compact() }
        let fd = try newFile()
        files.append(fd)
        try points.withUnsafeBytes { try write(fd, $0) }
        lengths.append(points.count)
        count += points.count
    }

    /// Merges every run into one.
    private func compact() throws {
        let fd = try newFile()
        var buffer: [Element] = []
        let block = 32 << 10 / MemoryLayout<Element>.stride
        buffer.reserveCapacity(block)
        do {
            try merge { e in
                buffer.append(e)
                if buffer.count == block {
                    try buffer.withUnsafeBytes { try write(fd, $0) }
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try buffer.withUnsafeBytes { try write(fd, $0) }
        } catch {
            close(fd)
            throw error
        }
        for old in files { close(old) }
        files = [fd]
        lengths = [count]
    }

    private func newFile() throws -> Int32 { try Self.temporaryFile(in: directory) }

    /// A temporary file in `directory` (beside the database), already unlinked.
    static func temporaryFile(in directory: String) throws -> Int32 {
        var template = Array("\(directory)/.placedb-index-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw PlaceDBError.database(path: directory, reason: "cannot create a temporary file for the spatial index: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    private func write(_ fd: Int32, _ raw: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw PlaceDBError.database(path: directory, reason: "cannot write the spatial index's temporary file: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Calls `body` with every spilled value in order: a tournament (loser
    /// tree) over the runs, so each value costs log2(runs) comparisons, one
    /// per level, against the binary heap's two; the comparisons are
    /// `Element.precedes`, inlined. Each run is read through a buffer of its
    /// own in one memory block.
    func merge(_ body: (Element) throws -> Void) throws {
        let k = files.count
        guard k > 0 else { return }
        let stride = MemoryLayout<Element>.stride
        let block = max(1, min(256 << 10, max(minimumRead, mergeBuffer / k)) / stride)
        let buffers = UnsafeMutablePointer<Element>.allocate(capacity: k * block)
        defer { buffers.deallocate() }
        // Per run: the position in its buffer, the values in its buffer, the
        // values still on file and where they start; then the tree.
        let state = UnsafeMutablePointer<Int>.allocate(capacity: 5 * k)
        defer { state.deallocate() }
        let position = state, filled = state + k, remaining = state + 2 * k, offset = state + 3 * k
        // `tree[0]`: the run whose value is next; `tree[1..<k]`: the loser
        // of the match at each inner node (runs are leaves k..<2k).
        let tree = state + 4 * k
        for r in 0..<k {
            position[r] = 0; filled[r] = 0; remaining[r] = lengths[r]; offset[r] = 0; tree[r] = 0
        }
        let files = self.files

        func refill(_ r: Int) throws {
            let n = min(block, remaining[r])
            position[r] = 0
            filled[r] = n
            guard n > 0 else { return }
            let raw = UnsafeMutableRawPointer(buffers + r * block)
            let bytes = n * stride
            var got = 0
            while got < bytes {
                let m = pread(files[r], raw + got, bytes - got, off_t(offset[r] + got))
                if m < 0 && errno == EINTR { continue }
                guard m > 0 else {
                    throw PlaceDBError.database(path: "(temporary file)", reason: "cannot read back the spatial index's run: \(m < 0 ? String(cString: strerror(errno)) : "it is shorter than written")")
                }
                got += m
            }
            offset[r] += bytes
            remaining[r] -= n
        }
        for r in 0..<k { try refill(r) }

        // An exhausted run loses every match.
        @inline(__always) func beats(_ a: Int, _ b: Int) -> Bool {
            if position[a] == filled[a] { return false }
            if position[b] == filled[b] { return true }
            return Element.precedes(buffers[a * block + position[a]], buffers[b * block + position[b]])
        }
        var winners = [Int](repeating: 0, count: 2 * k)
        for r in 0..<k { winners[k + r] = r }
        if k > 1 {
            for n in Swift.stride(from: k - 1, through: 1, by: -1) {
                let a = winners[2 * n], b = winners[2 * n + 1]
                if beats(b, a) { winners[n] = b; tree[n] = a } else { winners[n] = a; tree[n] = b }
            }
        }
        tree[0] = winners[1]
        while true {
            let w = tree[0]
            if position[w] == filled[w] { return }
            try body(buffers[w * block + position[w]])
            position[w] += 1
            if position[w] == filled[w] { try refill(w) }
            var winner = w
            var n = (w + k) >> 1
            while n >= 1 {
                let other = tree[n]
                if beats(other, winner) { tree[n] = winner; winner = other }
                n >>= 1
            }
            tree[0] = winner
        }
    }
}
