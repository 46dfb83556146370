import Foundation
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

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
            throw PlaceDBError.database(
                path: directory,
                reason: "cannot create a temporary file for the spatial index: \(String(cString: strerror(errno)))")
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
                throw PlaceDBError.database(
                    path: directory,
                    reason: "cannot write the spatial index's temporary file: \(String(cString: strerror(errno)))")
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
                    throw PlaceDBError.database(
                        path: "(temporary file)",
                        reason:
                            "cannot read back the spatial index's run: \(m < 0 ? String(cString: strerror(errno)) : "it is shorter than written")"
                    )
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
