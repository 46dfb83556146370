import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage
import PlaceKitTestSupport

/// The in-memory k-d tree answers exactly what a brute-force scan with the
/// same great-circle distance answers: nearest (with ties), within (with and
/// without footprint extents), filters, at the antimeridian and the poles.
@Suite("PlaceIndex")
struct PlaceIndexTests {
    /// `points` as index input (rowid = 100 + position), with footprint
    /// radius `extent(i)`.
    static func index(_ points: [(Double, Double)], extent: (Int) -> Double = { _ in 0 }) -> PlaceIndex {
        var input = PlaceIndexInput()
        for (i, p) in points.enumerated() {
            input.rowids.append(Int64(100 + i))
            input.latitudes.append(p.0)
            input.longitudes.append(p.1)
            input.typeCodes.append(0)
            input.statuses.append(StatusCode.unknown.rawValue)
            input.sourceCodes.append(0)
            input.ratingCounts.append(0)
            input.viewportIndexes.append(-1)
            input.shapeIndexes.append(-1)
        }
        return PlaceIndex(input) { (extent($0), .type) }
    }

    /// Clusters at the antimeridian, both poles, the equator and a city, plus
    /// points spread over the globe: where a k-d tree on lat/lng would fail.
    static func points(_ count: Int, seed: UInt64) -> [(Double, Double)] {
        var g = TestRandom(seed: seed)
        let centres: [(Double, Double)] = [
            (0, 179.9999), (0, -179.9999), (89.9999, 0), (-89.9999, 45), (0, 0), (46.52, 6.63),
        ]
        return (0..<count).map { i in
            if i % 3 == 0 {
                // Uniform on the sphere.
                return (
                    asin(Double.random(in: -1...1, using: &g)) * 180 / .pi, Double.random(in: -180..<180, using: &g)
                )
            }
            let c = centres[i % centres.count]
            let lat = max(-90, min(90, c.0 + Double.random(in: -0.01...0.01, using: &g)))
            var lng = c.1 + Double.random(in: -0.01...0.01, using: &g)
            if lng >= 180 { lng -= 360 }
            if lng < -180 { lng += 360 }
            return (lat, lng)
        }
    }

    static let queries: [Coordinate] = [
        Coordinate(latitude: 0, longitude: 180), Coordinate(latitude: 0, longitude: -179.99995),
        Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0),
        Coordinate(latitude: 46.5205, longitude: 6.6301), Coordinate(latitude: 0.001, longitude: -0.001),
        Coordinate(latitude: -33.8688, longitude: 151.2093),
    ]

    func brute(_ points: [(Double, Double)], _ q: Coordinate) -> [(meters: Double, rowid: Int64)] {
        points.enumerated().map {
            (haversineMeters(q.latitude, q.longitude, $0.element.0, $0.element.1), Int64(100 + $0.offset))
        }
        .sorted { $0.meters < $1.meters }
    }

    @Test(
        "nearest gives the k nearest a brute-force scan gives, in order, at the antimeridian, the poles and a city",
        arguments: [1, 7, 40])
    func nearestMatchesBruteForce(k: Int) {
        let points = Self.points(2000, seed: 16)
        let index = Self.index(points)
        for q in Self.queries {
            let got = index.nearest(to: q, k: k)
            let want = brute(points, q)
            #expect(got.count >= k)
            #expect(got.map(\.meters) == Array(want.prefix(got.count).map(\.meters)), "\(q)")
            // Slots map back to the rowids of the places at those distances.
            for hit in got {
                let rowid = index.rowids[Int(hit.slot)]
                #expect(
                    haversineMeters(q.latitude, q.longitude, points[Int(rowid - 100)].0, points[Int(rowid - 100)].1)
                        == hit.meters)
                #expect(index.slot(ofRowid: rowid) == hit.slot)
            }
        }
    }

    @Test("places tied with the k-th are all returned, so callers can order ties by ID")
    func tiesAreKept() {
        // Four places at the same point, one farther.
        let points = [(10.0, 20.0), (10.0, 20.0), (10.0, 20.0), (10.0, 20.0), (10.01, 20.0)]
        let index = Self.index(points)
        let hits = index.nearest(to: Coordinate(latitude: 10.001, longitude: 20), k: 2)
        #expect(hits.count == 4)
        #expect(Set(hits.map { index.rowids[Int($0.slot)] }) == [100, 101, 102, 103])
    }

    @Test("maxMeters and accept limit nearest exactly as they limit a scan")
    func nearestWithLimitAndFilter() {
        let points = Self.points(1500, seed: 7)
        let index = Self.index(points)
        let q = Coordinate(latitude: 46.5205, longitude: 6.6301)
        let even: (Int) -> Bool = { index.rowids[$0] % 4 != 1 }
        let got = index.nearest(to: q, k: 25, maxMeters: 900, accept: even)
        let want = brute(points, q).filter { $0.rowid % 4 != 1 && $0.meters <= 900 }.prefix(25)
        #expect(got.map { index.rowids[Int($0.slot)] } == want.map(\.rowid))
        #expect(!got.isEmpty)
    }

    @Test("within finds every place whose footprint reaches the radius, and no other", arguments: [false, true])
    func withinMatchesBruteForce(useExtents: Bool) {
        let points = Self.points(1500, seed: 99)
        let extent: (Int) -> Double = { Double($0 % 5) * 150 }
        let index = Self.index(points, extent: extent)
        for q in Self.queries {
            for radius in [0.0, 50, 500, 5_000] {
                let got = Set(
                    index.within(q, meters: radius, useExtents: useExtents).map { index.rowids[Int($0.slot)] })
                let want = Set(
                    points.indices.filter {
                        haversineMeters(q.latitude, q.longitude, points[$0].0, points[$0].1)
                            - (useExtents ? extent($0) : 0) <= radius
                    }.map { Int64(100 + $0) })
                #expect(got == want, "\(q) within \(radius) m")
            }
        }
    }

    @Test("a slot's record is 56 bytes without padding, and each field reads as its column did")
    func slotLayout() {
        typealias S = PlaceIndex.Slot
        #expect(MemoryLayout<S>.stride == 56 && MemoryLayout<S>.size == 56)
        let offsets: [(PartialKeyPath<S>, Int)] = [
            (\S.latitude, 0), (\S.longitude, 8), (\S.rowid, 16), (\S.idEnd, 24), (\S.extent, 32),
            (\S.ratingCount, 36), (\S.shapeIndex, 40), (\S.viewportIndex, 44), (\S.typeCode, 48),
            (\S.sourceCode, 50), (\S.status, 52), (\S.spare8, 53), (\S.spare16, 54),
        ]
        for (field, offset) in offsets { #expect(MemoryLayout<S>.offset(of: field) == offset, "\(field)") }
        // Each field, read through `SlotField`, is the input place's value.
        let points = Self.points(500, seed: 9)
        let extent: (Int) -> Double = { Double($0 % 5) * 11.5 }
        let index = Self.index(points, extent: extent)
        #expect(index.count == 500 && index.rowids.count == 500)
        for slot in 0..<index.count {
            let i = Int(index.rowids[slot]) - 100
            #expect(index.latitudes[slot] == points[i].0 && index.longitudes[slot] == points[i].1)
            #expect(index.extents[slot] == Float(extent(i)))
            #expect(index.slots[slot].spare8 == 0 && index.slots[slot].spare16 == 0)
        }
    }

    @Test("nodes are 32 bytes, two children in one 64-byte line, each box holds its points and extents")
    func nodeLayout() {
        #expect(MemoryLayout<PlaceIndex.Node>.stride == 32)
        let points = Self.points(3000, seed: 5)
        let extent: (Int) -> Double = { Double($0 % 7) * 97.3 + ($0 == 11 ? 1e6 : 0) }
        let index = Self.index(points, extent: extent)
        let nodes = index.nodes
        #expect(Int(bitPattern: nodes.baseAddress) % 64 == 0)
        #expect(nodes.count >= 2 && nodes[1].isLeaf && nodes[1].count == 0)
        var seen = [Int](repeating: 0, count: index.count)
        var stack = [0]
        while let n = stack.popLast() {
            let node = nodes[n]
            if node.isLeaf {
                #expect(node.count > 0 && Int(node.count) <= PlaceIndex.leafSize)
                for s in node.slots {
                    seen[s] += 1
                    let p = index.points[s]
                    #expect(Double(node.minX) <= p.x && p.x <= Double(node.maxX), "slot \(s) x")
                    #expect(Double(node.minY) <= p.y && p.y <= Double(node.maxY), "slot \(s) y")
                    #expect(Double(node.minZ) <= p.z && p.z <= Double(node.maxZ), "slot \(s) z")
                    #expect(Double(index.extents[s]) <= node.maxExtent, "slot \(s) extent")
                }
                continue
            }
            let first = Int(node.first)
            #expect(first % 2 == 0 && first > n, "node \(n): children at \(first)")
            for c in [first, first + 1] {
                let child = nodes[c]
                #expect(node.minX <= child.minX && child.maxX <= node.maxX && node.minZ <= child.minZ)
                #expect(child.maxExtent <= node.maxExtent)
                stack.append(c)
            }
        }
        // Every place in exactly one leaf; the continent-sized footprint
        // rounds up to an infinite bound, never down.
        #expect(seen.allSatisfy { $0 == 1 })
        #expect(nodes[0].maxExtent == .infinity)
        #expect(PlaceIndex.Node.extentBound(123.4) == 124 && PlaceIndex.Node.extentBound(0) == 0)
        #expect(PlaceIndex.Node.extentBound(65_533.5) == 65_534 && PlaceIndex.Node.extentBound(65_534.5) == .max)
    }

    @Test("a batch's warm-up descends each center to a leaf whose box holds it, and changes no answer")
    func warmDescentsReachTheLeaf() {
        let points = Self.points(3000, seed: 12)
        let index = Self.index(points)
        let before = Self.queries.map { index.nearest(to: $0, k: 10).map(\.slot) }
        // Each place's own point lies in the box of the leaf it is in, and
        // on the way down the nearer child of a pair is the one holding it
        // (the places spread over the sphere, every third one: the others
        // crowd round a few centres, closer than the boxes' Float
        // rounding, where siblings' boxes overlap and the left one is
        // taken).
        let centers = stride(from: 0, to: 1200, by: 3).map {
            Coordinate(latitude: points[$0].0, longitude: points[$0].1)
        }
        let leaves = index.warmDescents(centers + [Coordinate(latitude: .nan, longitude: 6.6)])
        #expect(leaves.count == centers.count, "a center that is not finite is left out")
        for (c, n) in zip(centers, leaves) {
            let node = index.nodes[Int(n)]
            let p = UnitVector(latitude: c.latitude, longitude: c.longitude)
            #expect(node.isLeaf && node.count > 0)
            #expect(Double(node.minX) <= p.x && p.x <= Double(node.maxX), "\(c)")
            #expect(Double(node.minY) <= p.y && p.y <= Double(node.maxY), "\(c)")
            #expect(Double(node.minZ) <= p.z && p.z <= Double(node.maxZ), "\(c)")
        }
        #expect(index.warmDescents([]).isEmpty)
        #expect(Self.queries.map { index.nearest(to: $0, k: 10).map(\.slot) } == before)
        // A tree that is one leaf.
        let small = Self.index(Array(points.prefix(5)))
        #expect(small.nodes[0].isLeaf)
        #expect(small.warmDescents(Self.queries) == Array(repeating: 0, count: Self.queries.count))
    }

    @Test("a node's reach threshold is never tighter than the exact one for that reach")
    func reachThresholdBoundsTheExactOne() {
        // From a centimeter to beyond half the circumference, extents from
        // none to a continent.
        let lengths: [Double] = [0, 0.01, 1, 20, 65, 500, 5_000, 150_000, 2e6, 1e7, 2e7, 3e7]
        for m in lengths {
            let chord = Chord.squaredThreshold(meters: m).squareRoot()
            for e in lengths {
                let bound = PlaceIndex.reachThreshold(chord: chord, plusMeters: e)
                let exact = Chord.squaredThreshold(meters: m + e)
                #expect(bound >= exact, "\(m) m + \(e) m: \(bound) < \(exact)")
                // And not much looser where current place uses it.
                if m + e <= 10_000 { #expect(bound <= exact * (1 + 1e-6) + 1e-20, "\(m) m + \(e) m") }
            }
        }
    }

    @Test("an empty index answers nothing, and k 0 asks for nothing")
    func empty() {
        let index = Self.index([])
        #expect(index.nearest(to: Coordinate(latitude: 0, longitude: 0), k: 5).isEmpty)
        #expect(index.within(Coordinate(latitude: 0, longitude: 0), meters: 1e7, useExtents: false).isEmpty)
        #expect(Self.index([(1, 2)]).nearest(to: Coordinate(latitude: 0, longitude: 0), k: 0).isEmpty)
    }
}
