import Foundation
import Testing
import PlaceKitTestSupport
import PlaceModel

/// Distances on the sphere and the rectangles that cover a circle
/// (PlaceModel's Geodesy); the time readers' tests are PlaceKit's
/// (Tests/PlaceKitTests/GeodesyTests.swift).
@Suite("Geodesy")
struct GeodesyTests {
    @Test("haversine distances on the mean-radius sphere")
    func knownDistances() {
        let r = Earth.meanRadius
        let degree = r * Double.pi / 180
        #expect(
            abs(Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: 0, longitude: 1)) - degree)
                < 1e-6)
        #expect(
            abs(
                Coordinate(latitude: 0, longitude: 179.5).distance(to: Coordinate(latitude: 0, longitude: -179.5))
                    - degree) < 1e-6)
        #expect(
            abs(
                Coordinate(latitude: 90, longitude: 0).distance(to: Coordinate(latitude: -90, longitude: 0)) - Double.pi
                    * r) < 1e-6)
        #expect(
            abs(
                Coordinate(latitude: 89, longitude: 0).distance(to: Coordinate(latitude: 89, longitude: 180)) - 2
                    * degree) < 1e-6)
        let a = Coordinate(latitude: 46.5197, longitude: 6.6323),
            b = Coordinate(latitude: -33.8688, longitude: 151.2093)
        #expect(a.distance(to: b) == b.distance(to: a))
    }

    @Test("the rectangles covering a circle hold every point of it, across the antimeridian and the poles")
    func coveringRectangles() {
        var rng = TestRandom(seed: 12)
        for _ in 0..<2000 {
            let center = [
                Coordinate(latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180)),
                Coordinate(
                    latitude: rng.uniform(-10, 10),
                    longitude: rng.int(2) == 0 ? rng.uniform(179, 180) : rng.uniform(-180, -179)),
                Coordinate(
                    latitude: rng.uniform(88, 90) * (rng.int(2) == 0 ? 1 : -1), longitude: rng.uniform(-180, 180)),
            ][rng.int(3)]
            let meters = pow(10, rng.uniform(0, 7))
            let rects = GeoRect.covering(center: center, meters: meters)
            #expect(
                rects.allSatisfy { $0.west <= $0.east && $0.south <= $0.north && $0.west >= -180 && $0.east <= 180 })
            // Points at the circle's edge, in every direction.
            for k in 0..<16 {
                let bearing = Double(k) / 16 * 2 * Double.pi
                let p = destination(center, meters: meters * 0.999999, bearing: bearing)
                let inside = rects.contains {
                    p.latitude >= $0.south && p.latitude <= $0.north && p.longitude >= $0.west && p.longitude <= $0.east
                }
                #expect(inside, "center \(center) radius \(meters) bearing \(bearing): \(p) not in \(rects)")
            }
        }
        #expect(GeoRect.covering(center: Coordinate(latitude: 0, longitude: 179.99), meters: 5000).count == 2)
        #expect(GeoRect.covering(center: Coordinate(latitude: 89.99, longitude: 0), meters: 5000).first?.west == -180)
    }

    /// The point `meters` from `c` along `bearing` (radians) on the sphere.
    func destination(_ c: Coordinate, meters: Double, bearing: Double) -> Coordinate {
        let d = meters / Earth.meanRadius
        let p1 = c.latitude * Double.pi / 180, l1 = c.longitude * Double.pi / 180
        let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(bearing))
        var l2 = l1 + atan2(sin(bearing) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
        l2 = atan2(sin(l2), cos(l2))
        return Coordinate(latitude: p2 * 180 / Double.pi, longitude: l2 * 180 / Double.pi)
    }
}
