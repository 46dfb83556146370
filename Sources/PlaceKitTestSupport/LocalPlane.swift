import Foundation
public import PlaceModel

// Places laid out in meters on a local plane around (46.5, 6.6), for the
// tests of footprints, fix densities and the current place (PlaceModel's
// and PlaceKit's).

/// The plane's origin.
public let origin = Coordinate(latitude: 46.5, longitude: 6.6)

/// The point `east` and `north` meters from `origin`.
public func at(east: Double, north: Double = 0) -> Coordinate {
    let perDegLat = Earth.meanRadius * Double.pi / 180
    return Coordinate(
        latitude: 46.5 + north / perDegLat, longitude: 6.6 + east / (perDegLat * cos(46.5 * Double.pi / 180)))
}

/// Positions `(east, north)` meters from (46.5, 6.6) as GeoJSON `[lng, lat]` text.
public func lngLat(_ points: [(Double, Double)]) -> String {
    "["
        + points.map { p in
            let c = at(east: p.0, north: p.1)
            return "[\(c.longitude),\(c.latitude)]"
        }.joined(separator: ",") + "]"
}

/// A generic GeoJSON feature with a Polygon of `rings` (meters around (46.5, 6.6), closed here).
public func polygonFeature(
    _ id: String, _ rings: [[(Double, Double)]], type: String = "supermarket", extra: String = ""
) -> String {
    let coordinates = rings.map { lngLat($0 + [$0[0]]) }.joined(separator: ",")
    return
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Polygon","coordinates":[\#(coordinates)]},"properties":{"name":"\#(id)","types":["\#(type)"]\#(extra)}}"#
}

/// The L-shaped building of the tests: 40 m x 10 m along the bottom, 10 m x 30 m up the left (700 m²).
public let lShape: [(Double, Double)] = [(0, 0), (40, 0), (40, 10), (10, 10), (10, 40), (0, 40)]

/// The point `meters` due east of `point` (a degree of longitude taken as
/// 111,195 m at the equator): the same-place scorer's tests place records
/// along one parallel.
public func east(of point: Coordinate, _ meters: Double) -> Coordinate {
    Coordinate(
        latitude: point.latitude, longitude: point.longitude + meters / (111_195 * cos(point.latitude * .pi / 180)))
}
