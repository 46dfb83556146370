import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// The spatial index's bulk build (PlaceStorage's BulkLoad: the Hilbert
/// key, sorted runs and their merge, index points, rowid ranges); the
/// tests that build it through an import are PlaceKit's
/// (Tests/PlaceKitTests/GeoJSONImportTests.swift).
@Suite("Spatial index maintenance")
struct SpatialIndexTests {
    @Test("the Hilbert key is the textbook curve (xy2d with rotations), and neighbours on it are neighbours on the map")
    func hilbertKey() {
        // The textbook form, one bit a level, rotating the coordinates.
        func reference(_ c: Coordinate) -> UInt64 {
            let n: UInt32 = 1 << 16
            var x = UInt32(min(Double(n - 1), max(0, (c.longitude + 180) / 360 * Double(n))))
            var y = UInt32(min(Double(n - 1), max(0, (c.latitude + 90) / 180 * Double(n))))
            var d: UInt64 = 0
            var s = n / 2
            while s > 0 {
                let rx: UInt32 = (x & s) > 0 ? 1 : 0, ry: UInt32 = (y & s) > 0 ? 1 : 0
                d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
                if ry == 0 {
                    if rx == 1 { x = n - 1 - x; y = n - 1 - y }
                    swap(&x, &y)
                }
                s /= 2
            }
            return d
        }
        var rng = TestRandom(seed: 5)
        var points = [
            Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 90, longitude: 180),
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 89.999, longitude: -179.999),
        ]
        for _ in 0..<20000 {
            points.append(Coordinate(latitude: rng.unit() * 180 - 90, longitude: rng.unit() * 360 - 180))
        }
        for p in points {
            #expect(Hilbert.key(p) == reference(p), "\(p)")
            // The table-driven key and the level-by-level one it is built from.
            let (x, y) = Hilbert.cell(p)
            #expect(Hilbert.levels(x, y, count: 16, state: 0).bits == reference(p), "\(p)")
        }
        // Four levels then four more, carrying the orientation, are the
        // eight levels at once: what lets the key read the curve a table
        // entry (four levels) at a time. Every orientation, every 8-bit x, y.
        var composed = 0
        for state in 0..<4 {
            for x in 0..<256 as Range<UInt32> {
                for y in 0..<256 as Range<UInt32> {
                    let high = Hilbert.levels(x >> 4, y >> 4, count: 4, state: state)
                    let low = Hilbert.levels(x & 15, y & 15, count: 4, state: high.state)
                    let whole = Hilbert.levels(x, y, count: 8, state: state)
                    if whole.bits != (high.bits << 8 | low.bits) || whole.state != low.state { composed += 1 }
                }
            }
        }
        #expect(composed == 0, "\(composed) of 262,144 compositions differ")
        // Cells one step apart on the curve share an edge.
        let cell = 360.0 / 65536, row = 180.0 / 65536
        var byKey: [UInt64: (Int, Int)] = [:]
        for i in 0..<64 {
            for j in 0..<64 {
                byKey[
                    Hilbert.key(
                        Coordinate(latitude: -90 + (Double(j) + 0.5) * row, longitude: -180 + (Double(i) + 0.5) * cell))
                ] = (i, j)
            }
        }
        for k in 0..<4095 as Range<UInt64> {
            guard let a = byKey[k], let b = byKey[k + 1] else {
                Issue.record("cell \(k) of the first 4096 missing"); continue
            }
            #expect(abs(a.0 - b.0) + abs(a.1 - b.1) == 1)
        }
    }

    @Test(
        "sorted runs merge every value in order, also past the open-run limit (merged into one on the way)",
        arguments: [2, 5, 1000])
    func sortedRuns(maxRuns: Int) throws {
        let dir = try TempDirectory()
        let runs = SortedRuns<UInt64>(directory: dir.path)
        runs.maxRuns = maxRuns
        var rng = TestRandom(seed: 3)
        var all: [UInt64] = []
        for _ in 0..<23 {
            let chunk = (0..<(1 + Int(rng.unit() * 700))).map { _ in UInt64(rng.unit() * 1e12) }
            all += chunk
            try runs.spill(chunk.sorted())
        }
        var merged: [UInt64] = []
        try runs.merge { merged.append($0) }
        #expect(merged == all.sorted())
        #expect(runs.count == all.count)
    }

    @Test(
        "the runs' tournament merge: one run, runs of one value, equal values across runs, reads of one value or a few",
        arguments: [1, 3, 10_000])
    func tournamentMerge(readValues: Int) throws {
        let dir = try TempDirectory()
        var rng = TestRandom(seed: 41)
        for runCount in [1, 2, 3, 7, 8, 9, 64, 100] {
            let runs = SortedRuns<UInt64>(directory: dir.path)
            runs.mergeBuffer = 0
            runs.minimumRead = readValues * 8
            var all: [UInt64] = []
            for r in 0..<runCount {
                // Few distinct values (ties between runs), some runs of one value.
                let length = r % 4 == 1 ? 1 : Int(rng.unit() * 300)
                let chunk = (0..<length).map { _ in UInt64(rng.unit() * 40) }
                all += chunk
                try runs.spill(chunk.sorted())
            }
            var merged: [UInt64] = []
            try runs.merge { merged.append($0) }
            #expect(merged == all.sorted(), "\(runCount) runs, reads of \(readValues)")
        }
    }

    @Test("an index point is 24 bytes and keeps the float32 box the R*Tree stores: rounded down, and up")
    func indexPointBounds() {
        #expect(MemoryLayout<IndexPoint>.stride == 24)
        var rng = TestRandom(seed: 43)
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 180, -180, 90, -90, 13.4050, -73.9857, 1e-30, Double(Float(2.3)),
            Double(Float(-2.3).nextUp),
        ]
        for _ in 0..<2000 { values.append(rng.unit() * 360 - 180) }
        for x in values {
            let y = -x / 2
            let p = IndexPoint(key: 7, rowid: 9, longitude: x, latitude: y)
            #expect(p.minX == RTreeBulkLoader.down(x) && p.maxX == RTreeBulkLoader.up(x), "\(x)")
            #expect(p.minY == RTreeBulkLoader.down(y) && p.maxY == RTreeBulkLoader.up(y), "\(y)")
            #expect(Double(p.minX) <= x && Double(p.maxX) >= x && Double(p.minY) <= y && Double(p.maxY) >= y)
        }
    }

    @Test(
        "the (rowid, leaf) radix sort orders like a comparison sort: small, dense, sparse and huge rowids, and reused room"
    )
    func rowidRadixSort() {
        var rng = TestRandom(seed: 21)
        var scratch: [RTreeBulkLoader.RowidNode] = []
        for (count, maxRowid) in [
            (0, 10), (5, 10), (300, 400), (131_072, 1_000_000), (4000, 1 << 40), (70_000, Int64.max / 2),
            (131_072, 3_000_000),
        ] as [(Int, Int64)] {
            var rowids = Set<Int64>()
            while rowids.count < count { rowids.insert(Int64.random(in: 1...max(Int64(count), maxRowid), using: &rng)) }
            var pairs = rowids.shuffled(using: &rng).map { RTreeBulkLoader.RowidNode(rowid: $0, nodeno: $0 % 977) }
            let expected = pairs.sorted { $0.rowid < $1.rowid }
            RTreeBulkLoader.RowidNode.sortByRowid(&pairs, scratch: &scratch)
            #expect(pairs.map(\.rowid) == expected.map(\.rowid), "\(count) pairs up to \(maxRowid)")
            #expect(pairs.map(\.nodeno) == expected.map(\.nodeno))
        }
    }
    @Test(
        "rowid ranges hand (rowid, leaf) pairs back in rowid order: dense, with gaps, one range, many, past the range limit"
    )
    func rowidBuckets() throws {
        let dir = try TempDirectory()
        var rng = TestRandom(seed: 31)
        for (count, lowest, gapEvery, width) in [
            (1, 1, 0, 4), (1000, 1, 0, 1000), (1000, 1, 0, 7), (5000, 40, 3, 64), (20_000, 1, 0, 1),
            (3000, 1 << 40, 5, 100),
        ] as [(Int, Int64, Int, Int)] {
            var rowids: [Int64] = []
            var next = lowest
            while rowids.count < count {
                rowids.append(next)
                next += gapEvery > 0 && rowids.count % gapEvery == 0 ? 2 : 1
            }
            let pairs = rowids.shuffled(using: &rng).map { RTreeBulkLoader.RowidNode(rowid: $0, nodeno: 2 + $0 % 977) }
            #expect(RowidBuckets.fits(count: count, lowest: rowids.first!, highest: rowids.last!))
            let buckets = try RowidBuckets(
                directory: dir.path, lowest: rowids.first!, highest: rowids.last!, width: width)
            #expect(buckets.width >= width)
            for p in pairs { try buckets.add(p) }
            var got: [RTreeBulkLoader.RowidNode] = []
            var batches = 0
            try buckets.forEachInOrder(batch: 100) { batch in
                #expect(batch.count <= 100)
                got += batch
                batches += 1
            }
            let want = pairs.sorted { $0.rowid < $1.rowid }
            #expect(got.map(\.rowid) == want.map(\.rowid), "\(count) pairs from \(lowest), ranges of \(width)")
            #expect(got.map(\.nodeno) == want.map(\.nodeno))
            #expect(batches == (count + 99) / 100)
        }
        // Sparse rowids are left to sorted runs; a rowid outside the range is an error, not a crash.
        #expect(!RowidBuckets.fits(count: 10, lowest: 1, highest: 1000))
        #expect(!RowidBuckets.fits(count: 10, lowest: -(1 << 62), highest: 1 << 62))
        let small = try RowidBuckets(directory: dir.path, lowest: 10, highest: 20, width: 4)
        #expect(throws: PlaceDBError.self) { try small.add(RTreeBulkLoader.RowidNode(rowid: 21, nodeno: 2)) }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".placedb-index") }
                .isEmpty)
    }

    @Test(
        "the chunk's in-place sort orders points like the standard sort: random, sorted, reversed, one key for all, short runs"
    )
    func indexPointSort() {
        var rng = TestRandom(seed: 29)
        func point(_ key: UInt64, _ rowid: Int64) -> IndexPoint {
            IndexPoint(key: key, rowid: rowid, longitude: Double(rowid), latitude: -Double(key))
        }
        var cases: [(String, [IndexPoint])] = []
        for count in [0, 1, 2, 15, 16, 17, 33, 1000, 100_000] {
            cases.append(
                (
                    "random \(count)",
                    (0..<count).map { point(UInt64(rng.unit() * 1e6), Int64($0)) }.shuffled(using: &rng)
                ))
        }
        let many = (0..<50_000).map { point(UInt64($0 / 7), Int64($0 * 3)) }
        cases.append(("sorted", many))
        cases.append(("reversed", many.reversed()))
        cases.append(("one key", (0..<20_000).map { point(42, Int64($0)) }.shuffled(using: &rng)))
        cases.append(("organ pipe", (0..<20_000).map { point(UInt64(min($0, 20_000 - $0)), Int64($0)) }))
        cases.append(("few keys", (0..<30_000).map { point(UInt64($0 % 3), Int64($0)) }.shuffled(using: &rng)))
        for (name, input) in cases {
            var got = input
            IndexPoint.sortAlongCurve(&got)
            let want = input.sorted(by: IndexPoint.curveOrder)
            #expect(got.map(\.key) == want.map(\.key), "\(name)")
            #expect(got.map(\.rowid) == want.map(\.rowid), "\(name)")
            #expect(got.map(\.longitude) == want.map(\.longitude), "\(name)")
        }
    }
}
