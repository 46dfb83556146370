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
