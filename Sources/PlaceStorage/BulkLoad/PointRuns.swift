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

    /// A temporary file beside the database, already unlinked.
    private func newFile() throws -> Int32 {
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
