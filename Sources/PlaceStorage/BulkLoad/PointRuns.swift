import Foundation
import SQLiteDB
#if canImport(Glibc)
import Glibc
#endif
import PlaceModel

/// A point waiting for the R*Tree, with its place on the Hilbert curve.
struct IndexPoint: BitwiseCopyable {
    var key: UInt64
    let rowid: Int64
    let longitude: Double
    let latitude: Double
}

extension IndexPoint {
    /// Along the Hilbert curve, ties by rowid: the order chunks are sorted,
    /// spilled and merged in.
    static func curveOrder(_ p: IndexPoint, _ q: IndexPoint) -> Bool {
        p.key < q.key || (p.key == q.key && p.rowid < q.rowid)
    }

    /// Sorts `points` in `curveOrder`, in place. The standard library's
    /// sort is stable and takes a buffer of half the array (8 MiB beside a
    /// chunk of 16 MiB, the largest thing an import held after SQLite's
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
    convenience init(besideDatabase db: Database, less: @escaping (Element, Element) -> Bool) {
        self.init(directory: URL(fileURLWithPath: db.path).deletingLastPathComponent().path, less: less)
    }
}

/// Sorted runs of fixed-size values spilled to unlinked temporary files
/// beside the database, merged back in one stream: an external merge sort,
/// so a fresh import of any size builds its R*Tree whole while memory holds
/// one chunk and one read buffer per run. The files are unlinked as they are
/// made, so a killed import leaves nothing behind.
final class SortedRuns<Element: BitwiseCopyable> {
    private let directory: String
    /// The order each run is sorted in and the merge follows.
    let less: (Element, Element) -> Bool
    private var files: [Int32] = []
    private var lengths: [Int] = []
    /// Points spilled so far.
    private(set) var count = 0

    init(directory: String, less: @escaping (Element, Element) -> Bool) {
        self.directory = directory
        self.less = less
    }

    deinit {
        for fd in files { close(fd) }
    }

    var isEmpty: Bool { files.isEmpty }

    /// Runs kept apart at most; past this they are merged into one first
    /// (so open files stay few however large the input).
    var maxRuns = 256

    /// Writes one run, sorted by `less`.
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

    /// Calls `body` with every spilled value in order.
    func merge(_ body: (Element) throws -> Void) throws {
        let block = 32 << 10 / MemoryLayout<Element>.stride
        var readers: [Reader] = []
        for (fd, n) in zip(files, lengths) { readers.append(Reader(fd: fd, count: n, block: block)) }
        for r in readers { try r.refill() }
        // A binary min-heap of reader indices by their current value.
        var heap: [Int] = []
        let order = less
        func before(_ a: Int, _ b: Int) -> Bool { order(readers[a].current, readers[b].current) }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && before(heap[l], heap[m]) { m = l }
                if r < heap.count && before(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        heap = readers.indices.filter { readers[$0].hasCurrent }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        while let top = heap.first {
            try body(readers[top].current)
            try readers[top].advance()
            if !readers[top].hasCurrent {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    /// Reads one run back a block at a time.
    private final class Reader {
        let fd: Int32
        var remaining: Int
        var buffer: [Element] = []
        var position = 0
        let block: Int
        var fileOffset = 0

        init(fd: Int32, count: Int, block: Int) {
            self.fd = fd
            self.remaining = count
            self.block = block
        }

        var hasCurrent: Bool { position < buffer.count }
        var current: Element { buffer[position] }

        func advance() throws {
            position += 1
            if position == buffer.count { try refill() }
        }

        func refill() throws {
            let n = min(block, remaining)
            position = 0
            guard n > 0 else { buffer = []; return }
            let bytes = n * MemoryLayout<Element>.stride
            buffer = try [Element](unsafeUninitializedCapacity: n) { b, initialized in
                let raw = UnsafeMutableRawBufferPointer(b)
                var got = 0
                while got < bytes {
                    let r = pread(fd, raw.baseAddress! + got, bytes - got, off_t(fileOffset + got))
                    if r < 0 && errno == EINTR { continue }
                    guard r > 0 else {
                        throw PlaceDBError.database(path: "(temporary file)", reason: "cannot read back the spatial index's run: \(r < 0 ? String(cString: strerror(errno)) : "it is shorter than written")")
                    }
                    got += r
                }
                initialized = n
            }
            fileOffset += bytes
            remaining -= n
        }
    }
}
