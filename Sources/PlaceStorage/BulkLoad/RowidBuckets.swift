import Foundation
import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

/// The (rowid, leaf) pairs of an R*Tree's build, handed back in rowid
/// order by distributing them over ranges of rowids instead of sorting
/// them: a fresh import's rowids are dense (1...N), so each range of
/// `width` rowids holds at most `width` pairs, written to its own region of
/// one unlinked temporary file through a small buffer, and read back range
/// by range into a table indexed by rowid. Each pair is written once and
/// read once, with no comparison, where sorted runs of pairs would be
/// merged more than once at 100M places (more runs than can be open at
/// once) and written again each time.
///
/// Each pair is kept as 8 bytes on the way (the rowid's place in its range
/// and the leaf, 32 bits each): the pairs' file is half the size of 16-byte
/// pairs'.
///
/// Memory: one buffer of 512 pairs (4 KiB) per range, at most 1024 ranges
/// (the width grows past that), in one block, and one range's table while
/// reading back.
final class RowidBuckets {
    typealias Pair = RTreeBulkLoader.RowidNode

    private let directory: String
    private let lowest: Int64
    private let highest: Int64
    /// Rowids per range.
    let width: Int
    private let fd: Int32
    private let ranges: Int
    /// Range r's buffer: `bufferPairs` packed pairs from `buffers + r * bufferPairs`.
    private let buffers: UnsafeMutablePointer<UInt64>
    /// Pairs waiting in each range's buffer.
    private let buffered: UnsafeMutablePointer<Int>
    /// Pairs written so far to each range's region.
    private var written: [Int]
    private static let bufferPairs = 512

    /// Ranges at most (beyond, each range is wider).
    static let maxRanges = 1024

    /// Whether rowids `lowest...highest` of `count` pairs are dense enough
    /// for ranges: a range's table is as long as the range, so the ranges'
    /// total length is kept within a few times the pairs.
    static func fits(count: Int, lowest: Int64, highest: Int64) -> Bool {
        guard count > 0, highest >= lowest else { return false }
        let (span, overflow) = highest.subtractingReportingOverflow(lowest)
        return !overflow && span < Int64(UInt32.max) * Int64(maxRanges) && span / 4 < Int64(count)
    }

    /// Pairs whose rowids are in `lowest...highest` (`fits`), ranges of at
    /// least `width` rowids, beside the database in `directory`.
    init(directory: String, lowest: Int64, highest: Int64, width: Int) throws {
        self.directory = directory
        self.lowest = lowest
        self.highest = highest
        let span = Int(highest - lowest) + 1
        let w = max(1, width, (span + Self.maxRanges - 1) / Self.maxRanges)
        self.width = w
        ranges = (span + w - 1) / w
        buffers = .allocate(capacity: ranges * Self.bufferPairs)
        buffered = .allocate(capacity: ranges)
        buffered.initialize(repeating: 0, count: ranges)
        written = Array(repeating: 0, count: ranges)
        do {
            fd = try SortedRuns<UInt64>.temporaryFile(in: directory)
        } catch {
            buffers.deallocate()
            buffered.deallocate()
            throw error
        }
    }

    deinit {
        close(fd)
        buffers.deallocate()
        buffered.deallocate()
    }

    func add(_ p: Pair) throws {
        guard p.rowid >= lowest && p.rowid <= highest else {
            throw PlaceDBError.database(
                path: directory, reason: "the spatial index's rowid \(p.rowid) is outside the range announced")
        }
        guard p.nodeno > 0 && p.nodeno <= Int64(UInt32.max) else {
            throw PlaceDBError.database(
                path: directory, reason: "the spatial index's node number \(p.nodeno) does not fit in 32 bits")
        }
        let d = Int(p.rowid - lowest)
        let r = d / width
        let n = buffered[r]
        buffers[r * Self.bufferPairs + n] = UInt64(d - r * width) << 32 | UInt64(p.nodeno)
        buffered[r] = n + 1
        if n + 1 == Self.bufferPairs { try flush(r) }
    }

    private func flush(_ r: Int) throws {
        let n = buffered[r]
        guard n > 0 else { return }
        guard written[r] + n <= width else {
            throw PlaceDBError.database(
                path: directory, reason: "the spatial index's rowids repeat (range \(r) holds more than \(width))")
        }
        let offset = (r * width + written[r]) * MemoryLayout<UInt64>.stride
        let raw = UnsafeRawBufferPointer(start: buffers + r * Self.bufferPairs, count: n * MemoryLayout<UInt64>.stride)
        var done = 0
        while done < raw.count {
            let k = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
            if k < 0 {
                if errno == EINTR { continue }
                throw PlaceDBError.database(
                    path: directory,
                    reason: "cannot write the spatial index's temporary file: \(String(cString: strerror(errno)))")
            }
            done += k
        }
        written[r] += n
        buffered[r] = 0
    }

    /// Calls `body` with every pair added, in rowid order, in batches.
    func forEachInOrder(batch batchSize: Int, _ body: ([Pair]) throws -> Void) throws {
        for r in 0..<ranges { try flush(r) }
        var leafOf = [UInt32](repeating: 0, count: width)
        var read: [UInt64] = []
        var batch: [Pair] = []
        batch.reserveCapacity(batchSize)
        for r in written.indices where written[r] > 0 {
            let n = written[r]
            let offset = r * width * MemoryLayout<UInt64>.stride
            read = try [UInt64](unsafeUninitializedCapacity: n) { b, initialized in
                let raw = UnsafeMutableRawBufferPointer(b)
                var got = 0
                while got < raw.count {
                    let k = pread(fd, raw.baseAddress! + got, raw.count - got, off_t(offset + got))
                    if k < 0 && errno == EINTR { continue }
                    guard k > 0 else {
                        throw PlaceDBError.database(
                            path: directory,
                            reason:
                                "cannot read back the spatial index's temporary file: \(k < 0 ? String(cString: strerror(errno)) : "it is shorter than written")"
                        )
                    }
                    got += k
                }
                initialized = n
            }
            // Node numbers are positive: 0 marks a rowid not in the tree.
            let start = lowest + Int64(r * width)
            let limit = min(width, Int(highest - start) + 1)
            read.withUnsafeBufferPointer { read in
                leafOf.withUnsafeMutableBufferPointer { leafOf in
                    for p in read { leafOf[Int(p >> 32)] = UInt32(truncatingIfNeeded: p) }
                }
            }
            for k in 0..<limit where leafOf[k] != 0 {
                batch.append(Pair(rowid: start + Int64(k), nodeno: Int64(leafOf[k])))
                leafOf[k] = 0
                if batch.count == batchSize {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try body(batch) }
    }
}
