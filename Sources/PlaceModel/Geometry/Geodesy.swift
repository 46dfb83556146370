#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The distance model placedb ranks by: great circles on a sphere of the
/// Earth's mean radius (IUGG R1 = 6,371,008.8 m), computed with the
/// haversine formula. On the WGS 84 ellipsoid the same distances differ by up
/// to about 0.5% (more north-south near the poles, less east-west at the
/// equator); rankings are exact under the sphere, not the ellipsoid.
package enum Earth {
    /// The mean radius R1 of WGS 84 (IUGG), in meters.
    public static let meanRadius = 6_371_008.8
    package static let radiansPerDegree = Double.pi / 180
}

extension Coordinate {
    /// The great-circle distance to `other` in meters on the sphere of
    /// `Earth.meanRadius` (haversine). Correct across the antimeridian and at
    /// the poles; this is the distance every ranking in placedb uses.
    public func distance(to other: Coordinate) -> Double {
        haversineMeters(latitude, longitude, other.latitude, other.longitude)
    }

}

/// Haversine distance in meters between two positions in degrees. The one
/// function both the index and the brute-force reference use, so rankings
/// agree bit for bit.
@inline(__always)
package func haversineMeters(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
    let r = Earth.radiansPerDegree
    let s1 = sin((lat2 - lat1) * r * 0.5)
    let s2 = sin((lng2 - lng1) * r * 0.5)
    let a = s1 * s1 + cos(lat1 * r) * cos(lat2 * r) * s2 * s2
    return 2 * Earth.meanRadius * asin(min(1, a.squareRoot()))
}

/// A point on the unit sphere (earth-centred, earth-fixed directions).
package struct UnitVector {
    package var x: Double
    package var y: Double
    package var z: Double

    package init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    package init(latitude: Double, longitude: Double) {
        let r = Earth.radiansPerDegree
        let p = latitude * r, l = longitude * r
        let c = cos(p)
        x = c * cos(l)
        y = c * sin(l)
        z = sin(p)
    }
}

/// Conversions between great-circle meters and chord lengths on the unit
/// sphere, which the index compares because they need no trigonometry.
package enum Chord {
    /// The chord of an arc of `meters` (clamped to half the circumference).
    @inline(__always)
    static func fromMeters(_ meters: Double) -> Double {
        let half = min(max(meters, 0) / (2 * Earth.meanRadius), Double.pi / 2)
        return 2 * sin(half)
    }

    /// A squared-chord threshold that keeps everything within `meters`,
    /// widened by far more than the rounding of either distance formula
    /// (a few 1e-16 on the unit sphere, under a nanometer), so pruning by
    /// it never drops a point the haversine formula puts inside.
    @inline(__always)
    package static func squaredThreshold(meters: Double) -> Double {
        if meters.isInfinite { return .infinity }
        let c = fromMeters(meters) * (1 + 1e-9) + 1e-12
        return c * c
    }
}

/// A latitude/longitude rectangle in degrees with west <= east (it never
/// crosses the antimeridian; `GeoRect.covering` splits a region that does).
package struct GeoRect: Equatable, CustomStringConvertible {
    package var south: Double
    package var west: Double
    package var north: Double
    package var east: Double

    package init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    package var description: String { "[\(south),\(west) .. \(north),\(east)]" }

    package static let world = GeoRect(south: -90, west: -180, north: 90, east: 180)

    /// Rectangles that together cover every point within `meters` of
    /// `center` (one, or two when the region crosses the antimeridian; the
    /// whole longitude range when it reaches a pole). Slightly generous, so a
    /// point the haversine formula puts inside is always covered.
    package static func covering(center: Coordinate, meters: Double) -> [GeoRect] {
        let r = Earth.radiansPerDegree
        // Generous by a part in 1e9 and 6 mm: a prefilter, never the test.
        let angle = meters / Earth.meanRadius * (1 + 1e-9) + 1e-9
        if angle >= Double.pi { return [.world] }
        let angleDeg = angle / r
        let south = center.latitude - angleDeg
        let north = center.latitude + angleDeg
        if north >= 90 || south <= -90 {
            return [GeoRect(south: max(south, -90), west: -180, north: min(north, 90), east: 180)]
        }
        // The cap does not reach a pole: its longitudes span +-asin(sin a / cos lat).
        let ratio = sin(angle) / cos(center.latitude * r)
        if ratio >= 1 { return [GeoRect(south: south, west: -180, north: north, east: 180)] }
        let dLng = asin(ratio) / r * (1 + 1e-9) + 1e-9
        if dLng >= 180 { return [GeoRect(south: south, west: -180, north: north, east: 180)] }
        let west = center.longitude - dLng
        let east = center.longitude + dLng
        if west < -180 {
            return [GeoRect(south: south, west: -180, north: north, east: east),
                    GeoRect(south: south, west: west + 360, north: north, east: 180)]
        }
        if east > 180 {
            return [GeoRect(south: south, west: west, north: north, east: 180),
                    GeoRect(south: south, west: -180, north: north, east: east - 360)]
        }
        return [GeoRect(south: south, west: west, north: north, east: east)]
    }
}
