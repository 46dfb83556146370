#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a visitor of a place may stand, as its source drew it: the
/// polygons of an area (holes kept), or the lines of an open way,
/// simplified, in meters east and north of the place's location (an
/// equirectangular plane at the location's latitude: exact enough within
/// the 20 km a footprint may reach).
///
/// Stored in `place_footprint.shape` as a blob, little-endian:
///
/// | bytes | what |
/// |---|---|
/// | 1 | kind: 1 area (closed rings), 2 lines (open polylines) |
/// | 1 | 0 (reserved) |
/// | 2 | part count P (rings or lines), UInt16, at least 1 |
/// | 2 × P | each part's vertex count, UInt16 (a ring at least 3, its first vertex not repeated; a line at least 2) |
/// | 8 × vertices | Float32 east, Float32 north (meters), part after part |
///
/// Rings run counter-clockwise around an area and clockwise around a hole,
/// so their signed areas add up to the area and the fix density need not
/// know which ring is which.
public struct FootprintShape: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        case area = 1
        case lines = 2
    }

    public var kind: Kind
    /// Vertex count of each ring or line.
    public var partCounts: [UInt16]
    /// East, north, east, north, ... in meters from the place's location.
    public var coordinates: [Float]

    /// At most this many vertices a place (the simplification's target).
    package static let maxVertices = 64
    /// The first Douglas–Peucker tolerance, meters; doubled until the
    /// shape fits `maxVertices`.
    package static let tolerance = 0.5

    public var vertexCount: Int { coordinates.count / 2 }

    // MARK: Measures (in Double, from the stored Float32 vertices)

    /// The area in m² (outer rings minus holes); 0 for lines.
    public var area: Double {
        guard kind == .area else { return 0 }
        return coordinates.withUnsafeBufferPointer { c in
            partCounts.withUnsafeBufferPointer { FootprintShape.area(c, $0) }
        }
    }

    /// The length of the lines in meters; 0 for an area.
    public var length: Double {
        guard kind == .lines else { return 0 }
        return coordinates.withUnsafeBufferPointer { c in
            partCounts.withUnsafeBufferPointer { FootprintShape.length(c, $0) }
        }
    }

    package static func area(_ c: UnsafeBufferPointer<Float>, _ parts: UnsafeBufferPointer<UInt16>) -> Double {
        var total = 0.0, start = 0
        for count in parts {
            let n = Int(count)
            var s = 0.0
            for i in 0..<n {
                let j = i + 1 == n ? 0 : i + 1
                s +=
                    Double(c[2 * (start + i)]) * Double(c[2 * (start + j) + 1]) - Double(c[2 * (start + j)])
                    * Double(c[2 * (start + i) + 1])
            }
            total += s / 2
            start += n
        }
        return total
    }

    package static func length(_ c: UnsafeBufferPointer<Float>, _ parts: UnsafeBufferPointer<UInt16>) -> Double {
        var total = 0.0, start = 0
        for count in parts {
            let n = Int(count)
            for i in 1..<max(n, 1) {
                let a = 2 * (start + i - 1), b = 2 * (start + i)
                total += hypot(Double(c[b]) - Double(c[a]), Double(c[b + 1]) - Double(c[a + 1]))
            }
            start += n
        }
        return total
    }

    /// The farthest vertex from the location, in meters.
    public var reach: Double {
        var m: Float = 0
        for i in 0..<vertexCount {
            m = max(
                m,
                (coordinates[2 * i] * coordinates[2 * i] + coordinates[2 * i + 1] * coordinates[2 * i + 1]).squareRoot()
            )
        }
        return Double(m)
    }

    /// The box around the vertices: west, east, south, north offsets in meters.
    package var bounds: (west: Double, east: Double, south: Double, north: Double) {
        var w = Float.infinity, e = -Float.infinity, s = Float.infinity, n = -Float.infinity
        for i in 0..<vertexCount {
            w = min(w, coordinates[2 * i]); e = max(e, coordinates[2 * i])
            s = min(s, coordinates[2 * i + 1]); n = max(n, coordinates[2 * i + 1])
        }
        return (Double(w), Double(e), Double(s), Double(n))
    }

    // MARK: Blob

    /// The stored form (see the type's documentation).
    package var blob: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4 + 2 * partCounts.count + 4 * coordinates.count)
        out.append(kind.rawValue)
        out.append(0)
        func u16(_ v: UInt16) { out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8)) }
        u16(UInt16(partCounts.count))
        for c in partCounts { u16(c) }
        for f in coordinates {
            let b = f.bitPattern
            out.append(UInt8(b & 0xFF)); out.append(UInt8((b >> 8) & 0xFF))
            out.append(UInt8((b >> 16) & 0xFF)); out.append(UInt8(b >> 24))
        }
        return out
    }

    /// Reads a stored blob; nil when the bytes are not one (wrong kind,
    /// sizes that do not add up, a part too short, a coordinate that is not
    /// finite).
    package init?(blob b: UnsafeRawBufferPointer) {
        guard b.count >= 4, let kind = Kind(rawValue: b[0]), b[1] == 0 else { return nil }
        func u16(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
        let parts = Int(u16(2))
        guard parts >= 1, b.count >= 4 + 2 * parts else { return nil }
        var counts: [UInt16] = []
        counts.reserveCapacity(parts)
        var vertices = 0
        let minimum = kind == .area ? 3 : 2
        for p in 0..<parts {
            let c = u16(4 + 2 * p)
            guard c >= minimum else { return nil }
            counts.append(c)
            vertices += Int(c)
        }
        let start = 4 + 2 * parts
        guard b.count == start + 8 * vertices else { return nil }
        var coordinates = [Float](repeating: 0, count: 2 * vertices)
        for i in 0..<(2 * vertices) {
            let o = start + 4 * i
            let bits = UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
            let f = Float(bitPattern: bits)
            guard f.isFinite else { return nil }
            coordinates[i] = f
        }
        self.init(kind: kind, partCounts: counts, coordinates: coordinates)
    }

    /// A shape from its parts' vertex counts and its vertices (meters east
    /// and north of the place's location; rings counter-clockwise around
    /// an area, clockwise around a hole).
    public init(kind: Kind, partCounts: [UInt16], coordinates: [Float]) {
        self.kind = kind
        self.partCounts = partCounts
        self.coordinates = coordinates
    }
}

// MARK: From a GeoJSON geometry

extension FootprintShape {
    package typealias Point = (x: Double, y: Double)

    /// The footprint of a geometry around `origin` (the place's location):
    /// the rings of a Polygon, a MultiPolygon (every part) or a closed
    /// LineString (an area, as `representativePoint` reads it), holes kept;
    /// the lines of an open LineString or a MultiLineString; for a
    /// GeometryCollection, its first area. Nil for points and for shapes
    /// with no area or length left. Simplified with Douglas–Peucker in the
    /// local plane, from `tolerance` meters, doubling it until at most
    /// `maxVertices` remain; rings that shrink to nothing go (small holes
    /// and parts first; the largest part keeps at least a triangle), and if
    /// many parts still do not fit, the largest are kept.
    package static func make(
        _ geometry: GeoJSONGeometry, origin: Coordinate, maxVertices: Int = FootprintShape.maxVertices,
        tolerance: Double = FootprintShape.tolerance
    ) -> FootprintShape? {
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        let cosLat = cos(origin.latitude * Earth.radiansPerDegree)
        func project(_ cs: [Coordinate]) -> [Point] {
            var out: [Point] = []
            out.reserveCapacity(cs.count)
            for c in cs {
                var dl = c.longitude - origin.longitude
                if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
                let p = (x: dl * cosLat * perDegree, y: (c.latitude - origin.latitude) * perDegree)
                if let last = out.last, last.x == p.x && last.y == p.y { continue }
                out.append(p)
            }
            return out
        }
        switch geometry {
        case .polygon(let rings):
            return area([rings.map(project)], maxVertices: maxVertices, tolerance: tolerance)
        case .multiPolygon(let polygons):
            return area(polygons.map { $0.map(project) }, maxVertices: maxVertices, tolerance: tolerance)
        case .lineString(let cs) where cs.count >= 4 && cs.first == cs.last:
            return area([[project(cs)]], maxVertices: maxVertices, tolerance: tolerance)
        case .lineString(let cs):
            return lines([project(cs)], maxVertices: maxVertices, tolerance: tolerance)
        case .multiLineString(let ls):
            return lines(ls.map(project), maxVertices: maxVertices, tolerance: tolerance)
        case .collection(let members):
            for m in members {
                switch m {
                case .polygon, .multiPolygon:
                    return make(m, origin: origin, maxVertices: maxVertices, tolerance: tolerance)
                default: continue
                }
            }
            return nil
        case .point, .multiPoint:
            return nil
        }
    }

    static func signedArea(_ ring: [Point]) -> Double {
        var s = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[i + 1 == ring.count ? 0 : i + 1]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    /// Polygons (each: outer ring, then holes), rings open or closed, in
    /// any direction and from any vertex.
    package static func area(_ polygons: [[[Point]]], maxVertices: Int, tolerance: Double) -> FootprintShape? {
        // Open rings (no repeated first vertex), outer counter-clockwise, holes clockwise.
        var input: [[[Point]]] = []
        var size = 0.0
        for polygon in polygons {
            var rings: [[Point]] = []
            for (i, var ring) in polygon.enumerated() {
                if ring.count > 1, ring.first! == ring.last! { ring.removeLast() }
                let a = ring.count >= 3 ? signedArea(ring) : 0
                if a == 0 {
                    // A ring without area: the polygon has none, or the hole does not count.
                    if i == 0 { break }
                    continue
                }
                if (a > 0) != (i == 0) { ring.reverse() }
                // Start at the lowest vertex: the same ring from any start
                // and direction (osmium writes a closed way both as a line and
                // as an area) simplifies and stores the same.
                let start = ring.indices.min { (ring[$0].y, ring[$0].x) < (ring[$1].y, ring[$1].x) }!
                rings.append(Array(ring[start...] + ring[..<start]))
            }
            if let outer = rings.first {
                input.append(rings)
                for p in outer { size = max(size, abs(p.x), abs(p.y)) }
            }
        }
        guard !input.isEmpty else { return nil }
        // The largest part never vanishes (it keeps at least a triangle);
        // the others go when the tolerance flattens them.
        let largest = input.indices.max { signedArea(input[$0][0]) < signedArea(input[$1][0]) }!
        var t = tolerance
        var kept: [[[Point]]] = []
        while true {
            kept = []
            for (index, rings) in input.enumerated() {
                guard let outer = simplifyRing(rings[0], tolerance: t, keepTriangle: index == largest) else { continue }
                var polygon = [outer]
                for hole in rings.dropFirst() {
                    // A hole smaller than the tolerance's square is noise at this scale.
                    if let h = simplifyRing(hole, tolerance: t, keepTriangle: false), -signedArea(h) > t * t {
                        polygon.append(h)
                    }
                }
                kept.append(polygon)
            }
            let count = kept.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
            if count <= maxVertices || t > 4 * size + 1 { break }
            t *= 2
        }
        // Still too many parts: the largest polygons (and their largest holes) that fit.
        var budget = maxVertices
        var fitted: [[[Point]]] = []
        for polygon in kept.sorted(by: { signedArea($0[0]) > signedArea($1[0]) }) where polygon[0].count <= budget {
            budget -= polygon[0].count
            var rings = [polygon[0]]
            for hole in polygon.dropFirst().sorted(by: { signedArea($0) < signedArea($1) }) where hole.count <= budget {
                budget -= hole.count
                rings.append(hole)
            }
            fitted.append(rings)
        }
        var counts: [UInt16] = [], coordinates: [Float] = []
        for ring in fitted.joined() {
            counts.append(UInt16(ring.count))
            for p in ring { coordinates += [Float(p.x), Float(p.y)] }
        }
        let shape = FootprintShape(kind: .area, partCounts: counts, coordinates: coordinates)
        guard !shape.partCounts.isEmpty, shape.area > 0 else { return nil }
        return shape
    }

    package static func lines(_ input: [[Point]], maxVertices: Int, tolerance: Double) -> FootprintShape? {
        let lines = input.filter { $0.count >= 2 }
        guard !lines.isEmpty else { return nil }
        var size = 0.0
        for l in lines { for p in l { size = max(size, abs(p.x), abs(p.y)) } }
        var t = tolerance
        var kept: [[Point]] = []
        while true {
            kept = lines.map { simplifyChain($0, tolerance: t) }
            if kept.reduce(0, { $0 + $1.count }) <= maxVertices || t > 4 * size + 1 { break }
            t *= 2
        }
        func length(_ l: [Point]) -> Double {
            zip(l, l.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        }
        var budget = maxVertices
        var fitted: [[Point]] = []
        for l in kept.sorted(by: { length($0) > length($1) }) where l.count <= budget {
            budget -= l.count
            fitted.append(l)
        }
        var coordinates: [Float] = []
        for line in fitted { for p in line { coordinates += [Float(p.x), Float(p.y)] } }
        let shape = FootprintShape(kind: .lines, partCounts: fitted.map { UInt16($0.count) }, coordinates: coordinates)
        guard !shape.partCounts.isEmpty, shape.length > 0 else { return nil }
        return shape
    }

    /// Douglas–Peucker on an open chain: the kept points, ends included.
    static func simplifyChain(_ points: [Point], tolerance: Double) -> [Point] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let (i, d) = farthest(points, from: first, to: last)
            if d > tolerance {
                keep[i] = true
                stack.append((first, i))
                stack.append((i, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    /// Douglas–Peucker on a closed ring (open form), split at its first
    /// vertex and the vertex farthest from it. Nil when fewer than three
    /// vertices or no area remain; `keepTriangle` keeps at least the
    /// triangle of those two and the vertex farthest from their line.
    static func simplifyRing(_ ring: [Point], tolerance: Double, keepTriangle: Bool) -> [Point]? {
        let n = ring.count
        guard n >= 3 else { return nil }
        var far = 0, best = -1.0
        for i in 1..<n {
            let d = hypot(ring[i].x - ring[0].x, ring[i].y - ring[0].y)
            if d > best { best = d; far = i }
        }
        let closed = ring + [ring[0]]
        let first = simplifyChain(Array(closed[0...far]), tolerance: tolerance)
        let second = simplifyChain(Array(closed[far...n]), tolerance: tolerance)
        var out = Array(first.dropLast()) + Array(second.dropLast())
        if out.count < 3 && keepTriangle {
            // The vertex farthest from the chord, on either side.
            var k = -1, dk = 0.0
            for i in 1..<n where i != far {
                let d = distanceToLine(ring[i], ring[0], ring[far])
                if d > dk { dk = d; k = i }
            }
            if k > 0 { out = k < far ? [ring[0], ring[k], ring[far]] : [ring[0], ring[far], ring[k]] }
        }
        guard out.count >= 3 else { return nil }
        let a = signedArea(out), original = signedArea(ring)
        guard a != 0, (a > 0) == (original > 0) else { return nil }
        return out
    }

    static func distanceToLine(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len = hypot(dx, dy)
        if len == 0 { return hypot(p.x - a.x, p.y - a.y) }
        return abs((p.x - a.x) * dy - (p.y - a.y) * dx) / len
    }

    /// The point strictly between `first` and `last` farthest from their line (segment when they coincide).
    package static func farthest(_ points: [Point], from first: Int, to last: Int) -> (Int, Double) {
        var index = first, best = -1.0
        guard last > first + 1 else { return (first, -1) }
        for i in (first + 1)..<last {
            let d = distanceToLine(points[i], points[first], points[last])
            if d > best { best = d; index = i }
        }
        return (index, best)
    }
}
