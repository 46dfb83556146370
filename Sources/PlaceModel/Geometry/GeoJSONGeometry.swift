/// A GeoJSON geometry (RFC 7946), in longitude/latitude degrees.
package enum GeoJSONGeometry: Equatable {
    case point(Coordinate)
    case multiPoint([Coordinate])
    case lineString([Coordinate])
    case multiLineString([[Coordinate]])
    /// Rings: the first is the outer boundary, the others are holes.
    case polygon([[Coordinate]])
    case multiPolygon([[[Coordinate]]])
    case collection([GeoJSONGeometry])

    /// Parses a GeoJSON geometry object; the message says what is wrong.
    ///
    /// Every geometry it returns has a position to put the place at: empty
    /// and degenerate geometries of every type are refused, each with its
    /// reason (a Point without a position, a LineString or a line of a
    /// MultiLineString with fewer than 2 positions, an empty MultiPoint,
    /// MultiLineString, Polygon or MultiPolygon, a ring with fewer than 4
    /// positions once closed, a polygon of a MultiPolygon without rings, an
    /// empty GeometryCollection or one with an empty member, a coordinate
    /// that is not a finite number or is out of range). An empty
    /// MultiLineString trapped (exit 132) and an empty GeometryCollection put
    /// the place at 0,0 before these checks (docs/reliability.md).
    package static func parse(_ value: JSONValue, placeID: String?) throws(DecodeError) -> GeoJSONGeometry {
        guard let object = value.objectValue else {
            throw DecodeError("geometry is \(value.kindDescription), expected an object", placeID: placeID)
        }
        guard let type = object["type"]?.stringValue else {
            throw DecodeError("geometry has no type", placeID: placeID)
        }
        if type == "GeometryCollection" {
            guard let members = object["geometries"]?.arrayValue else {
                throw DecodeError("GeometryCollection has no geometries array", placeID: placeID)
            }
            guard !members.isEmpty else {
                throw DecodeError("GeometryCollection has no geometries: a place needs a location", placeID: placeID)
            }
            var parsed: [GeoJSONGeometry] = []
            for m in members { parsed.append(try parse(m, placeID: placeID)) }
            return .collection(parsed)
        }
        guard let coordinates = object["coordinates"] else {
            throw DecodeError("\(type) geometry has no coordinates", placeID: placeID)
        }
        func position(_ v: JSONValue) throws(DecodeError) -> Coordinate {
            guard let a = v.arrayValue, a.count >= 2, let lng = a[0].doubleValue, let lat = a[1].doubleValue else {
                throw DecodeError("\(type) has a position that is not [longitude, latitude]", placeID: placeID)
            }
            guard lng.isFinite, lat.isFinite else {
                throw DecodeError("\(type) has a position that is not a finite number", placeID: placeID)
            }
            guard (-90...90).contains(lat) else {
                throw DecodeError(
                    "latitude \(FieldCheck.formatNumber(lat)) is out of range [-90, 90]", placeID: placeID)
            }
            guard (-180...180).contains(lng) else {
                throw DecodeError(
                    "longitude \(FieldCheck.formatNumber(lng)) is out of range [-180, 180]", placeID: placeID)
            }
            return Coordinate(latitude: lat, longitude: lng)
        }
        func list(_ v: JSONValue, minimum: Int) throws(DecodeError) -> [Coordinate] {
            guard let a = v.arrayValue else {
                throw DecodeError("\(type) coordinates are not an array", placeID: placeID)
            }
            var out: [Coordinate] = []
            out.reserveCapacity(a.count)
            for p in a { out.append(try position(p)) }
            if out.isEmpty {
                throw DecodeError("\(type) has an empty list of positions: a place needs a location", placeID: placeID)
            }
            if out.count < minimum {
                throw DecodeError("\(type) needs at least \(minimum) positions, has \(out.count)", placeID: placeID)
            }
            return out
        }
        func nested(_ v: JSONValue, minimum: Int) throws(DecodeError) -> [[Coordinate]] {
            guard let a = v.arrayValue else {
                throw DecodeError("\(type) coordinates are not an array", placeID: placeID)
            }
            guard !a.isEmpty else {
                throw DecodeError("\(type) has no lines: a place needs a location", placeID: placeID)
            }
            var out: [[Coordinate]] = []
            out.reserveCapacity(a.count)
            for r in a { out.append(try list(r, minimum: minimum)) }
            return out
        }
        /// A polygon's rings, each closed: GeoJSON repeats a ring's first
        /// position at its end, and some writers leave it out. Every use of
        /// a ring (its area, centroid, inside test, normalized form, the
        /// stored footprint) takes the last edge from that repetition, so an
        /// open ring is closed here, once, before the minimum is checked.
        func rings(_ v: JSONValue) throws(DecodeError) -> [[Coordinate]] {
            guard let a = v.arrayValue else {
                throw DecodeError("\(type) coordinates are not an array", placeID: placeID)
            }
            var out: [[Coordinate]] = []
            out.reserveCapacity(a.count)
            for r in a {
                var ring = try list(r, minimum: 1)
                if ring.count > 1, ring.first != ring.last { ring.append(ring[0]) }
                if ring.count < 4 {
                    throw DecodeError(
                        "\(type) needs at least 4 positions in a ring, has \(ring.count)", placeID: placeID)
                }
                out.append(ring)
            }
            return out
        }
        switch type {
        case "Point": return .point(try position(coordinates))
        case "MultiPoint": return .multiPoint(try list(coordinates, minimum: 1))
        case "LineString": return .lineString(try list(coordinates, minimum: 2))
        case "MultiLineString": return .multiLineString(try nested(coordinates, minimum: 2))
        case "Polygon":
            let polygon = try rings(coordinates)
            if polygon.isEmpty { throw DecodeError("Polygon has no rings", placeID: placeID) }
            return .polygon(polygon)
        case "MultiPolygon":
            guard let a = coordinates.arrayValue else {
                throw DecodeError("MultiPolygon coordinates are not an array", placeID: placeID)
            }
            if a.isEmpty { throw DecodeError("MultiPolygon has no polygons", placeID: placeID) }
            var polygons: [[[Coordinate]]] = []
            polygons.reserveCapacity(a.count)
            for (i, p) in a.enumerated() {
                let polygon = try rings(p)
                // Refused, not left out: a member dropped would be one the source never had.
                if polygon.isEmpty {
                    throw DecodeError("MultiPolygon polygon \(i + 1) of \(a.count) has no rings", placeID: placeID)
                }
                polygons.append(polygon)
            }
            return .multiPolygon(polygons)
        default:
            throw DecodeError("unknown geometry type \"\(type)\"", placeID: placeID)
        }
    }

    /// Every position, for the bounding box.
    var positions: [Coordinate] {
        switch self {
        case .point(let c): [c]
        case .multiPoint(let cs), .lineString(let cs): cs
        case .multiLineString(let ls): ls.flatMap { $0 }
        case .polygon(let rings): rings.first ?? []
        case .multiPolygon(let ps): ps.flatMap { $0.first ?? [] }
        case .collection(let gs): gs.flatMap(\.positions)
        }
    }

    /// The bounding box of the positions (of a polygon, its outer ring);
    /// nil only for a geometry `parse` refuses (one without positions).
    package var boundingBox: (low: Coordinate, high: Coordinate)? {
        let ps = positions
        guard let first = ps.first else { return nil }
        var lo = first, hi = first
        for p in ps {
            lo.latitude = min(lo.latitude, p.latitude); lo.longitude = min(lo.longitude, p.longitude)
            hi.latitude = max(hi.latitude, p.latitude); hi.longitude = max(hi.longitude, p.longitude)
        }
        return (lo, hi)
    }

    /// The bounding box as a Places API viewport (`low`/`high`), or nil for a point.
    package var viewport: (low: Coordinate, high: Coordinate)? {
        if case .point = self { return nil }
        guard let box = boundingBox, box.low != box.high else { return nil }
        return box
    }

    /// A point that lies on or inside the geometry: the point itself; the
    /// middle of a line by length; for an area, its centroid when that lies
    /// inside, else the middle of the widest inside stretch of a horizontal
    /// line through it (what GEOS calls a point on surface). A closed
    /// LineString counts as an area (osmium writes closed ways so).
    package var representativePoint: Coordinate {
        switch self {
        case .point(let c): return c
        case .multiPoint(let cs): return cs[0]
        case .lineString(let cs):
            if cs.count >= 4, cs.first == cs.last { return Self.pointInPolygon([cs]) }
            return Self.midpoint(cs)
        case .multiLineString(let ls):
            let longest = ls.max { Self.length($0) < Self.length($1) } ?? ls[0]
            return Self.midpoint(longest)
        case .polygon(let rings): return Self.pointInPolygon(rings)
        case .multiPolygon(let ps):
            let largest = ps.max { abs(Self.signedArea($0[0])) < abs(Self.signedArea($1[0])) } ?? ps[0]
            return Self.pointInPolygon(largest)
        case .collection(let gs):
            // Prefer an area, then a line, then a point.
            if let area = gs.first(where: {
                if case .polygon = $0 { true } else if case .multiPolygon = $0 { true } else { false }
            }) {
                return area.representativePoint
            }
            // `parse` refuses an empty collection; a hand-built one has no
            // point to give, and 0,0 would be a place in the Gulf of Guinea.
            precondition(!gs.isEmpty, "an empty GeometryCollection has no representative point")
            return gs[0].representativePoint
        }
    }

    /// True when `c` lies inside the area (outer ring, not in a hole), or on
    /// a line of the geometry within `tolerance` degrees.
    package func contains(_ c: Coordinate, tolerance: Double = 1e-9) -> Bool {
        switch self {
        case .point(let p):
            return abs(p.latitude - c.latitude) <= tolerance && abs(p.longitude - c.longitude) <= tolerance
        case .multiPoint(let ps): return ps.contains { GeoJSONGeometry.point($0).contains(c, tolerance: tolerance) }
        case .lineString(let cs):
            if cs.count >= 4, cs.first == cs.last, Self.inside(c, [cs]) { return true }
            return Self.onLine(c, cs, tolerance)
        case .multiLineString(let ls): return ls.contains { Self.onLine(c, $0, tolerance) }
        case .polygon(let rings): return Self.inside(c, rings) || rings.contains { Self.onLine(c, $0, tolerance) }
        case .multiPolygon(let ps): return ps.contains { GeoJSONGeometry.polygon($0).contains(c, tolerance: tolerance) }
        case .collection(let gs): return gs.contains { $0.contains(c, tolerance: tolerance) }
        }
    }

    // MARK: Planar helpers (degrees; fine at the scale of one place)

    package static func length(_ cs: [Coordinate]) -> Double {
        zip(cs, cs.dropFirst()).reduce(0) { $0 + hypot($1.1.longitude - $1.0.longitude, $1.1.latitude - $1.0.latitude) }
    }

    static func midpoint(_ cs: [Coordinate]) -> Coordinate {
        let half = length(cs) / 2
        var walked = 0.0
        for (a, b) in zip(cs, cs.dropFirst()) {
            let d = hypot(b.longitude - a.longitude, b.latitude - a.latitude)
            if walked + d >= half && d > 0 {
                let t = (half - walked) / d
                return Coordinate(
                    latitude: a.latitude + t * (b.latitude - a.latitude),
                    longitude: a.longitude + t * (b.longitude - a.longitude))
            }
            walked += d
        }
        return cs[cs.count / 2]
    }

    static func signedArea(_ ring: [Coordinate]) -> Double {
        var s = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) { s += a.longitude * b.latitude - b.longitude * a.latitude }
        return s / 2
    }

    package static func centroid(_ ring: [Coordinate]) -> Coordinate? {
        var a = 0.0, cx = 0.0, cy = 0.0
        let o = ring[0]
        for (p, q) in zip(ring, ring.dropFirst()) {
            let x0 = p.longitude - o.longitude, y0 = p.latitude - o.latitude
            let x1 = q.longitude - o.longitude, y1 = q.latitude - o.latitude
            let cross = x0 * y1 - x1 * y0
            a += cross
            cx += (x0 + x1) * cross
            cy += (y0 + y1) * cross
        }
        guard abs(a) > 1e-18 else { return nil }
        return Coordinate(latitude: o.latitude + cy / (3 * a), longitude: o.longitude + cx / (3 * a))
    }

    /// Even-odd rule over all rings (holes included).
    package static func inside(_ c: Coordinate, _ rings: [[Coordinate]]) -> Bool {
        var odd = false
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > c.latitude) != (b.latitude > c.latitude) {
                let x =
                    a.longitude + (c.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                if c.longitude < x { odd.toggle() }
            }
        }
        return odd
    }

    static func onLine(_ c: Coordinate, _ cs: [Coordinate], _ tolerance: Double) -> Bool {
        for (a, b) in zip(cs, cs.dropFirst()) {
            let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
            let len2 = dx * dx + dy * dy
            var t = len2 > 0 ? ((c.longitude - a.longitude) * dx + (c.latitude - a.latitude) * dy) / len2 : 0
            t = max(0, min(1, t))
            let px = a.longitude + t * dx, py = a.latitude + t * dy
            if hypot(c.longitude - px, c.latitude - py) <= max(tolerance, 1e-12) { return true }
        }
        return false
    }

    /// The same ring whatever its start and direction: starts at its
    /// smallest vertex and runs counter-clockwise, so a closed way and its
    /// area (osmium writes both) give the very same point.
    package static func normalized(_ ring: [Coordinate]) -> [Coordinate] {
        guard ring.count >= 4, ring.first == ring.last else { return ring }
        var open = Array(ring.dropLast())
        if signedArea(ring) < 0 { open.reverse() }
        let start = open.indices.min {
            (open[$0].latitude, open[$0].longitude) < (open[$1].latitude, open[$1].longitude)
        }!
        let rotated = Array(open[start...] + open[..<start])
        return rotated + [rotated[0]]
    }

    /// `rings` closed (`parse` closes open ones: without the last edge the
    /// centroid and the inside test mean nothing; a fuzzed open crossing
    /// ring once put the point at longitude -19176).
    static func pointInPolygon(_ unnormalized: [[Coordinate]]) -> Coordinate {
        let rings = unnormalized.map(normalized)
        let outer = rings[0]
        // Inside the outer ring and in no hole (`inside` counts crossings
        // of all rings, which a hole reaching outside the outer ring fools).
        func inArea(_ c: Coordinate) -> Bool {
            inside(c, [outer]) && !rings.dropFirst().contains { inside(c, [$0]) }
        }
        if let c = centroid(outer), inArea(c) { return c }
        // Scan lines through the centroid's latitude, then through the
        // middle of the box, nudged off vertices.
        let lats = outer.map(\.latitude)
        let minLat = lats.min()!, maxLat = lats.max()!
        var candidates: [Double] = []
        if let c = centroid(outer) { candidates.append(c.latitude) }
        for f in [0.5, 0.37, 0.63, 0.25, 0.75, 0.1, 0.9] { candidates.append(minLat + (maxLat - minLat) * f) }
        for var y in candidates {
            if rings.contains(where: { $0.contains { $0.latitude == y } }) { y += (maxLat - minLat) * 1e-7 }
            var xs: [Double] = []
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > y) != (b.latitude > y) {
                    xs.append(a.longitude + (y - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude))
                }
            }
            xs.sort()
            // The widest span whose middle is inside: in a valid polygon
            // every other span is; a hole that crosses its outer ring
            // (invalid, but found in the wild and by the fuzzer) makes
            // spans outside the outer ring.
            var spans: [(width: Double, x: Double)] = []
            var i = 0
            while i + 1 < xs.count {
                let w = xs[i + 1] - xs[i]
                if w > 0 { spans.append((w, (xs[i] + xs[i + 1]) / 2)) }
                i += 2
            }
            for span in spans.sorted(by: { $0.width > $1.width }) {
                let c = Coordinate(latitude: y, longitude: span.x)
                if inArea(c) { return c }
            }
        }
        // Holes that cover the outer ring wherever the scan lines cross it
        // (invalid): a point of the outer ring's area, holes ignored.
        if rings.count > 1 { return pointInPolygon([unnormalized[0]]) }
        // Degenerate (zero-area) ring: a vertex lies on it.
        return outer[0]
    }
}

#if canImport(Glibc)
    import Glibc
#endif
