#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import PlaceModel
import PlaceStorage

/// One street drawn as many ways answers once. OpenStreetMap draws a
/// street as a way per stretch (a new way wherever a tag changes: a bridge,
/// a speed limit, one-way), so a text search for "Carrer Sant Salvador"
/// found each stretch. Places of a segment type (`StreetSegments.types`)
/// with the same type and name whose lines touch or come within
/// `joinMeters` of each other (through any chain of such stretches) are
/// one street, answered by its stretch nearest the search's focus (with no
/// focus, the first stored; in a nearby listing, the one that ranks
/// first). That stretch is a real place with its own ID, so every answer
/// can still be fetched, and the street's other stretches stay in the
/// database.
/// Two streets of one name in two towns never touch, so they stay two.
///
/// Why not link them (docs/linking.md)? Linking says two records are one
/// place and merges their documents into one; each stretch is a different
/// part of the street with its own geometry, and a long street's ends are
/// kilometres apart, which the linker (every member must fit the group)
/// rightly refuses.
enum StreetSegments {
    /// Primary types of places drawn in stretches.
    static let types = TextRanking.segmentTypes
    /// Stretches this close (meters) are one: touching ways share a node
    /// (0 m); the two carriageways of one avenue lie 5 to 30 m apart.
    static let joinMeters = 30.0

    /// A stretch in a plane of meters around a reference point.
    struct Stretch {
        var lines: [[(x: Double, y: Double)]]
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    }

    /// The indices (0..<count, ascending) to keep: every item that is not
    /// a stretch, and one of each street, the best by `better`. `key(i)`
    /// is item i's type and name (nil when it is no stretch), `shape(i)`
    /// its stored lines around `location(i)`.
    static func representatives(
        count: Int, key: (Int) -> String?, location: (Int) -> Coordinate,
        shape: (Int) throws -> FootprintShape?, better: (Int, Int) -> Bool
    ) rethrows -> [Int] {
        var groups: [String: [Int]] = [:]
        var kept: [Int] = []
        for i in 0..<count {
            if let k = key(i) { groups[k, default: []].append(i) } else { kept.append(i) }
        }
        for (_, members) in groups {
            if members.count == 1 { kept.append(members[0]); continue }
            let origin = location(members[0])
            let stretches = try members.map { try Self.stretch(location($0), shape($0), origin: origin) }
            var parent = Array(0..<members.count)
            func root(_ i: Int) -> Int {
                var i = i
                while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
                return i
            }
            for a in 0..<members.count {
                for b in (a + 1)..<members.count where root(a) != root(b) {
                    if Self.near(stretches[a], stretches[b]) { parent[root(a)] = root(b) }
                }
            }
            var best: [Int: Int] = [:]
            for m in 0..<members.count {
                let r = root(m)
                if let current = best[r], !better(members[m], members[current]) { continue }
                best[r] = m
            }
            kept += best.values.map { members[$0] }
        }
        return kept.sorted()
    }

    static func stretch(_ location: Coordinate, _ shape: FootprintShape?, origin: Coordinate) -> Stretch {
        let perDegree = Earth.meanRadius * Double.pi / 180
        let cosLat = cos(origin.latitude * Double.pi / 180)
        var dl = location.longitude - origin.longitude
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let x0 = dl * cosLat * perDegree, y0 = (location.latitude - origin.latitude) * perDegree
        var lines: [[(x: Double, y: Double)]] = []
        if let shape {
            var start = 0
            for count in shape.partCounts {
                var line: [(x: Double, y: Double)] = []
                for v in start..<(start + Int(count)) {
                    line.append((x0 + Double(shape.coordinates[2 * v]), y0 + Double(shape.coordinates[2 * v + 1])))
                }
                // A ring's closing edge.
                if shape.kind == .area, let first = line.first { line.append(first) }
                lines.append(line)
                start += Int(count)
            }
        }
        if lines.isEmpty { lines = [[(x0, y0)]] }
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for line in lines {
            for p in line {
                box = (min(box.minX, p.x), min(box.minY, p.y), max(box.maxX, p.x), max(box.maxY, p.y))
            }
        }
        return Stretch(lines: lines, box: box)
    }

    /// Whether two stretches come within `joinMeters` of each other.
    static func near(_ a: Stretch, _ b: Stretch) -> Bool {
        let d = joinMeters
        if a.box.minX - d > b.box.maxX || b.box.minX - d > a.box.maxX || a.box.minY - d > b.box.maxY
            || b.box.minY - d > a.box.maxY
        {
            return false
        }
        for la in a.lines {
            for lb in b.lines {
                for i in 0..<max(1, la.count - 1) {
                    let p = la[i], q = la[min(i + 1, la.count - 1)]
                    for j in 0..<max(1, lb.count - 1) {
                        if segmentDistance(p, q, lb[j], lb[min(j + 1, lb.count - 1)]) <= d { return true }
                    }
                }
            }
        }
        return false
    }

    /// The distance between segments pq and rs in the plane.
    static func segmentDistance(
        _ p: (x: Double, y: Double), _ q: (x: Double, y: Double),
        _ r: (x: Double, y: Double), _ s: (x: Double, y: Double)
    ) -> Double {
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        let d1 = cross(r, s, p), d2 = cross(r, s, q), d3 = cross(p, q, r), d4 = cross(p, q, s)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return 0 }
        return min(pointSegment(p, r, s), pointSegment(q, r, s), pointSegment(r, p, q), pointSegment(s, p, q))
    }

    static func pointSegment(_ p: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double))
        -> Double
    {
        let dx = b.x - a.x, dy = b.y - a.y
        let l2 = dx * dx + dy * dy
        let t = l2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2))
        let ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y
        return (ex * ex + ey * ey).squareRoot()
    }

    /// The grouping key of a place: its primary type and folded name, nil
    /// when it is not of a segment type or has no name.
    static func key(primaryType: String?, name: String?) -> String? {
        guard let primaryType, types.contains(primaryType), let name else { return nil }
        let words = TextFolding.words(name)
        return words.isEmpty ? nil : primaryType + "\u{1F}" + words.joined(separator: " ")
    }
}
