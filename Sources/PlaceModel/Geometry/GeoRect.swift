#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
            return [
                GeoRect(south: south, west: -180, north: north, east: east),
                GeoRect(south: south, west: west + 360, north: north, east: 180),
            ]
        }
        if east > 180 {
            return [
                GeoRect(south: south, west: west, north: north, east: 180),
                GeoRect(south: south, west: -180, north: north, east: east - 360),
            ]
        }
        return [GeoRect(south: south, west: west, north: north, east: east)]
    }
}
