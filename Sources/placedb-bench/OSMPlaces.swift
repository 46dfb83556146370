// OpenStreetMap POIs from `osmium export` GeoJSON text sequences (RFC 8142),
// as places for the current-place evaluation: the feature's geometry (to put
// simulated visitors in it) and the feature itself (for placedb to import,
// as `placedb import` reads it).
import Foundation
import PlaceKit
import PlaceModel

/// One named POI: a node (a point), a way or relation (polygons), or an
/// open way (a line).
struct OSMFeature {
    enum Shape {
        case point(Coordinate)
        /// Polygons, each a list of rings (outer first) of (lng, lat).
        case polygons([[[(Double, Double)]]])
        case line([(Double, Double)])
    }

    let id: String
    let name: String
    /// The GeoJSON feature as the file has it.
    let feature: JSONValue
    let shape: Shape
    /// Where the place is said to be: the node, or a point inside the
    /// largest polygon (on the line for a line).
    let location: Coordinate
    /// The bounding box of a way or relation (nil for a node).
    let viewport: (south: Double, west: Double, north: Double, east: Double)?

    /// The diagonal of the bounding box in meters (0 for a node).
    var extentMeters: Double {
        guard let v = viewport else { return 0 }
        return Coordinate(latitude: v.south, longitude: v.west).distance(
            to: Coordinate(latitude: v.north, longitude: v.east))
    }

    var hasExtent: Bool {
        if case .point = shape { return false }
        return true
    }

    /// A point uniformly at random in the feature: on the node, inside its
    /// polygons (area-weighted, holes excluded), or along its line.
    func visitor(_ rng: inout SplitMix64) -> Coordinate {
        switch shape {
        case .point(let c):
            return c
        case .line(let points):
            let frame = LocalFrame(points)
            let xy = points.map(frame.project)
            var lengths: [Double] = []
            for i in 1..<xy.count { lengths.append(hypot(xy[i].0 - xy[i - 1].0, xy[i].1 - xy[i - 1].1)) }
            let total = lengths.reduce(0, +)
            guard total > 0 else { return location }
            var t = rng.unit() * total
            for (i, l) in lengths.enumerated() {
                if t <= l {
                    let f = l > 0 ? t / l : 0
                    return frame.unproject(
                        (xy[i].0 + f * (xy[i + 1].0 - xy[i].0), xy[i].1 + f * (xy[i + 1].1 - xy[i].1)))
                }
                t -= l
            }
            return frame.unproject(xy.last!)
        case .polygons(let polygons):
            let frame = LocalFrame(polygons.flatMap { $0.first ?? [] })
            let projected = polygons.map { $0.map { $0.map(frame.project) } }
            let areas = projected.map { p in
                max(0, abs(ringArea(p[0])) - p.dropFirst().reduce(0) { $0 + abs(ringArea($1)) })
            }
            let total = areas.reduce(0, +)
            guard total > 0 else { return location }
            var t = rng.unit() * total
            var chosen = 0
            for (i, a) in areas.enumerated() {
                if t <= a { chosen = i; break }
                t -= a
            }
            let rings = projected[chosen]
            let xs = rings[0].map(\.0), ys = rings[0].map(\.1)
            let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
            for _ in 0..<100_000 {
                let p = (x0 + rng.unit() * (x1 - x0), y0 + rng.unit() * (y1 - y0))
                if inside(p, rings) { return frame.unproject(p) }
            }
            return location
        }
    }
}

/// An equirectangular plane (meters) around a set of (lng, lat) points:
/// exact enough at the size of a POI.
struct LocalFrame {
    let lat0: Double
    let lng0: Double
    let cosLat: Double
    static let perDegree = Earth.meanRadius * Double.pi / 180

    init(_ points: [(Double, Double)]) {
        lng0 = points.map(\.0).reduce(0, +) / Double(max(points.count, 1))
        lat0 = points.map(\.1).reduce(0, +) / Double(max(points.count, 1))
        cosLat = cos(lat0 * Double.pi / 180)
    }

    func project(_ p: (Double, Double)) -> (Double, Double) {
        ((p.0 - lng0) * cosLat * Self.perDegree, (p.1 - lat0) * Self.perDegree)
    }

    func unproject(_ p: (Double, Double)) -> Coordinate {
        Coordinate(latitude: lat0 + p.1 / Self.perDegree, longitude: lng0 + p.0 / (cosLat * Self.perDegree))
    }
}

/// Signed area of a ring (shoelace).
func ringArea(_ r: [(Double, Double)]) -> Double {
    guard r.count > 2 else { return 0 }
    var s = 0.0
    for i in 0..<r.count {
        let a = r[i], b = r[(i + 1) % r.count]
        s += a.0 * b.1 - b.0 * a.1
    }
    return s / 2
}

/// Even-odd point-in-polygon over all rings (so holes are outside).
func inside(_ p: (Double, Double), _ rings: [[(Double, Double)]]) -> Bool {
    var odd = false
    for r in rings where r.count > 2 {
        var j = r.count - 1
        for i in 0..<r.count {
            let a = r[i], b = r[j]
            if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 { odd.toggle() }
            j = i
        }
    }
    return odd
}

enum OSMReader {
    static let poiKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "historic", "healthcare"]

    /// The named POIs of one `.geojsonseq` file, a way that is both a
    /// LineString and a MultiPolygon taken once (as the polygon), member
    /// nodes without a POI key or a name left out.
    static func read(_ path: String) throws -> [OSMFeature] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var byID: [String: OSMFeature] = [:]
        var order: [String] = []
        for line in data.split(separator: 0x0A) {
            var bytes = Array(line)
            while let f = bytes.first, f == 0x1E || f == 0x20 { bytes.removeFirst() }
            if bytes.isEmpty { continue }
            let feature = try JSONValue(parsing: bytes)
            guard let props = feature["properties"]?.objectValue, let name = props["name"]?.stringValue,
                let type = props["@type"]?.stringValue, let osmID = props["@id"]?.intValue,
                poiKeys.contains(where: { props[$0] != nil }), let geometry = feature["geometry"]
            else { continue }
            let id = PlaceIDSpelling.osmID(type: type, number: Int64(osmID))
            guard let shape = shape(geometry) else { continue }
            if let existing = byID[id] {
                // Closed ways come as a LineString and a MultiPolygon: keep the area.
                if case .polygons = existing.shape { continue }
                if case .polygons = shape {} else { continue }
            } else {
                order.append(id)
            }
            byID[id] = make(id: id, name: name, feature: feature, shape: shape)
        }
        return order.compactMap { byID[$0] }
    }

    static func shape(_ g: JSONValue) -> OSMFeature.Shape? {
        func pair(_ v: JSONValue) -> (Double, Double)? {
            guard let a = v.arrayValue, a.count >= 2, let x = a[0].doubleValue, let y = a[1].doubleValue else {
                return nil
            }
            return (x, y)
        }
        switch g["type"]?.stringValue {
        case "Point":
            guard let c = g["coordinates"].flatMap(pair) else { return nil }
            return .point(Coordinate(latitude: c.1, longitude: c.0))
        case "LineString":
            let pts = g["coordinates"]?.arrayValue?.compactMap(pair) ?? []
            return pts.count >= 2 ? .line(pts) : nil
        case "MultiPolygon":
            let polys = (g["coordinates"]?.arrayValue ?? []).map { poly in
                (poly.arrayValue ?? []).map { ring in (ring.arrayValue ?? []).compactMap(pair) }.filter {
                    $0.count >= 4
                }
            }.filter { !$0.isEmpty }
            return polys.isEmpty ? nil : .polygons(polys)
        default:
            return nil
        }
    }

    static func make(id: String, name: String, feature: JSONValue, shape: OSMFeature.Shape) -> OSMFeature {
        switch shape {
        case .point(let c):
            return OSMFeature(id: id, name: name, feature: feature, shape: shape, location: c, viewport: nil)
        case .line(let pts):
            let frame = LocalFrame(pts)
            let xy = pts.map(frame.project)
            var half = 0.0
            for i in 1..<xy.count { half += hypot(xy[i].0 - xy[i - 1].0, xy[i].1 - xy[i - 1].1) }
            half /= 2
            var at = frame.unproject(xy[0])
            for i in 1..<xy.count {
                let l = hypot(xy[i].0 - xy[i - 1].0, xy[i].1 - xy[i - 1].1)
                if half <= l {
                    let f = l > 0 ? half / l : 0
                    at = frame.unproject(
                        (xy[i - 1].0 + f * (xy[i].0 - xy[i - 1].0), xy[i - 1].1 + f * (xy[i].1 - xy[i - 1].1)))
                    break
                }
                half -= l
            }
            return OSMFeature(id: id, name: name, feature: feature, shape: shape, location: at, viewport: bbox(pts))
        case .polygons(let polys):
            return OSMFeature(
                id: id, name: name, feature: feature, shape: shape, location: pointInside(polys),
                viewport: bbox(polys.flatMap { $0.first ?? [] }))
        }
    }

    static func bbox(_ pts: [(Double, Double)]) -> (south: Double, west: Double, north: Double, east: Double) {
        (pts.map(\.1).min()!, pts.map(\.0).min()!, pts.map(\.1).max()!, pts.map(\.0).max()!)
    }

    /// A representative point inside the largest polygon: its centroid
    /// when inside, else the middle of the widest inside span of the
    /// horizontal line through the centroid.
    static func pointInside(_ polys: [[[(Double, Double)]]]) -> Coordinate {
        let frame = LocalFrame(polys.flatMap { $0.first ?? [] })
        let projected = polys.map { $0.map { $0.map(frame.project) } }
        let largest = projected.max { abs(ringArea($0[0])) < abs(ringArea($1[0])) }!
        let outer = largest[0]
        var cx = 0.0, cy = 0.0, a = 0.0
        for i in 0..<outer.count {
            let p = outer[i], q = outer[(i + 1) % outer.count]
            let cross = p.0 * q.1 - q.0 * p.1
            a += cross
            cx += (p.0 + q.0) * cross
            cy += (p.1 + q.1) * cross
        }
        if abs(a) < 1e-9 { return frame.unproject(outer[0]) }
        let centroid = (cx / (3 * a), cy / (3 * a))
        if inside(centroid, largest) { return frame.unproject(centroid) }
        var xs: [Double] = []
        for ring in largest {
            for i in 0..<ring.count {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                if (p.1 > centroid.1) != (q.1 > centroid.1) {
                    xs.append(p.0 + (centroid.1 - p.1) * (q.0 - p.0) / (q.1 - p.1))
                }
            }
        }
        xs.sort()
        var best: (Double, Double)?
        var i = 0
        while i + 1 < xs.count {
            if best == nil || xs[i + 1] - xs[i] > best!.1 - best!.0 { best = (xs[i], xs[i + 1]) }
            i += 2
        }
        guard let b = best else { return frame.unproject(outer[0]) }
        return frame.unproject(((b.0 + b.1) / 2, centroid.1))
    }
}
