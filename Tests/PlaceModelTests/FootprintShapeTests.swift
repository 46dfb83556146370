import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

@Suite("Footprint shapes")
struct FootprintShapeTests {
    /// Rings in the local plane as a geometry around `origin`.
    func polygon(_ rings: [[(Double, Double)]]) -> GeoJSONGeometry {
        .polygon(rings.map { ring in (ring + [ring[0]]).map { at(east: $0.0, north: $0.1) } })
    }

    func circle(_ n: Int, radius: Double, center: (Double, Double) = (0, 0), clockwise: Bool = false) -> [(
        Double, Double
    )] {
        (0..<n).map { i in
            let a = (clockwise ? -1.0 : 1.0) * 2 * Double.pi * Double(i) / Double(n)
            return (center.0 + radius * cos(a), center.1 + radius * sin(a))
        }
    }

    @Test("a detailed ring is simplified to at most 64 vertices, its area kept within 1%")
    func vertexCap() throws {
        let shape = try #require(FootprintShape.make(polygon([circle(720, radius: 60)]), origin: origin))
        #expect(shape.kind == .area)
        #expect(shape.vertexCount <= 64)
        #expect(shape.vertexCount >= 16, "simplified no more than needed: \(shape.vertexCount) vertices")
        let exact = Double.pi * 60 * 60
        #expect(abs(shape.area - exact) / exact < 0.01, "area \(shape.area) against \(exact)")
        #expect(abs(shape.reach - 60) < 0.5)
    }

    @Test("a small building keeps its corners: half a meter of tolerance removes only what lies on its edges")
    func smallBuildingUnchanged() throws {
        // The L, with extra vertices along its edges (within 0.2 m of them).
        let noisy: [(Double, Double)] = [
            (0, 0), (20, 0.2), (40, 0), (40, 10), (25, 10.1), (10, 10), (10, 40), (0, 40), (-0.1, 20),
        ]
        let shape = try #require(FootprintShape.make(polygon([noisy]), origin: origin))
        #expect(shape.vertexCount == 6)
        #expect(abs(shape.area - 700) < 0.5)
    }

    @Test("holes are kept (clockwise, subtracted) and outer rings run counter-clockwise whatever the input's direction")
    func holesKept() throws {
        let outer = Array(circle(400, radius: 50).reversed()) // clockwise on input
        let hole = circle(300, radius: 20, center: (5, 0)) // counter-clockwise on input
        let shape = try #require(FootprintShape.make(polygon([outer, hole]), origin: origin))
        #expect(shape.partCounts.count == 2)
        #expect(shape.vertexCount <= 64)
        let exact = Double.pi * (50 * 50 - 20 * 20)
        #expect(abs(shape.area - exact) / exact < 0.02, "area \(shape.area) against \(exact)")
        // The rings' own signed areas.
        let parts = shape.partCounts.map(Int.init)
        let outerRing = FootprintShape(
            kind: .area, partCounts: [UInt16(parts[0])], coordinates: Array(shape.coordinates[0..<(2 * parts[0])]))
        let holeRing = FootprintShape(
            kind: .area, partCounts: [UInt16(parts[1])], coordinates: Array(shape.coordinates[(2 * parts[0])...]))
        #expect(outerRing.area > 0)
        #expect(holeRing.area < 0)
    }

    @Test("the same ring from any vertex, in either direction, gives the same shape")
    func startAndDirection() throws {
        let ring = circle(200, radius: 30)
        let shape = try #require(FootprintShape.make(polygon([ring]), origin: origin))
        for start in [1, 57, 133] {
            let rotated = Array(ring[start...] + ring[..<start])
            #expect(FootprintShape.make(polygon([rotated]), origin: origin) == shape)
            #expect(FootprintShape.make(polygon([rotated.reversed()]), origin: origin) == shape)
        }
    }

    @Test("a MultiPolygon of many parts keeps its largest parts whole within 64 vertices")
    func manyParts() throws {
        // 30 squares, 4 vertices each, of growing size (2 to 16.5 m a side), 30 m apart.
        let sides = (0..<30).map { 2 + Double($0) * 0.5 }
        let squares: [[[Coordinate]]] = sides.enumerated().map { i, s in
            let x = Double(i) * 30
            return [[(x, 0), (x + s, 0), (x + s, s), (x, s), (x, 0)].map { at(east: $0.0, north: $0.1) }]
        }
        let shape = try #require(FootprintShape.make(.multiPolygon(squares), origin: origin))
        #expect(shape.vertexCount <= 64)
        // Small squares went, large ones stayed squares (not triangles).
        #expect(shape.partCounts.allSatisfy { $0 == 4 })
        #expect(shape.partCounts.count >= 8)
        // The largest square (the last) is there, and most of the area.
        #expect(shape.bounds.east > 29 * 30 + 16)
        let total = sides.reduce(0) { $0 + $1 * $1 }
        #expect(shape.area > 0.6 * total, "kept \(shape.area) of \(total) m²")
    }

    @Test("points have no footprint; an open line keeps its lines; a closed LineString is an area")
    func kinds() throws {
        #expect(FootprintShape.make(.point(origin), origin: origin) == nil)
        let line = try #require(
            FootprintShape.make(.lineString([at(east: -50), at(east: 0, north: 10), at(east: 50)]), origin: origin))
        #expect(line.kind == .lines)
        #expect(abs(line.length - 2 * (50 * 50 + 10 * 10).squareRoot()) < 0.01)
        let ring = (lShape + [lShape[0]]).map { at(east: $0.0, north: $0.1) }
        let area = try #require(FootprintShape.make(.lineString(ring), origin: origin))
        #expect(area.kind == .area)
        #expect(abs(area.area - 700) < 0.5)
        // A ring without area has no footprint.
        #expect(FootprintShape.make(polygon([[(0, 0), (10, 0), (20, 0)]]), origin: origin) == nil)
    }

    @Test("the blob round-trips, and bytes that are not one are refused")
    func blobRoundTrip() throws {
        let shape = try #require(
            FootprintShape.make(polygon([lShape, [(2, 2), (2, 5), (5, 5), (5, 2)]]), origin: at(east: 3, north: 3)))
        let blob = shape.blob
        #expect(blob.count == 4 + 2 * shape.partCounts.count + 8 * shape.vertexCount)
        #expect(blob[0] == 1 && blob[2] == 2 && blob[3] == 0)
        let back = blob.withUnsafeBytes { FootprintShape(blob: $0) }
        #expect(back == shape)
        func refused(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { FootprintShape(blob: $0) } == nil }
        #expect(refused(Array(blob.dropLast())), "truncated")
        #expect(refused(blob + [0]), "trailing bytes")
        var kind = blob
        kind[0] = 3
        #expect(refused(kind), "unknown kind")
        var short = blob
        short[4] = 2
        short[5] = 0
        #expect(refused(short), "a ring of two vertices")
        var nan = blob
        let at = 4 + 2 * shape.partCounts.count
        nan.replaceSubrange(at..<(at + 4), with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { Array($0) })
        #expect(refused(nan), "a coordinate that is not a number")
        #expect(refused([]))
    }
}
