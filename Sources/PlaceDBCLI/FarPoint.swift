import PlaceKit
import PlaceModel

/// A query point far from every place of the database: most often latitude
/// and longitude given the wrong way round. One warning line on stderr
/// (the answer is still given): how far the point is from the box around
/// the places, and the swapped point when that one is inside the box.
enum FarPoint {
    /// A point more than this beyond the box around the places is far.
    static let thresholdMeters = 100_000.0

    /// The distance from `point` to the nearest point of `box` (the box's
    /// edge on the side the point is, across the antimeridian too).
    static func distance(from point: Coordinate, to box: GeoRect) -> Double {
        let lat = min(max(point.latitude, box.south), box.north)
        var lng = point.longitude
        if lng < box.west || lng > box.east {
            // The nearer edge, going either way round the Earth.
            func gap(_ a: Double, _ b: Double) -> Double {
                let d = abs(a - b).truncatingRemainder(dividingBy: 360); return min(d, 360 - d)
            }
            lng = gap(lng, box.west) <= gap(lng, box.east) ? box.west : box.east
        }
        return point.distance(to: Coordinate(latitude: lat, longitude: lng))
    }

    static func contains(_ box: GeoRect, _ p: Coordinate) -> Bool {
        (box.south...box.north).contains(p.latitude) && (box.west...box.east).contains(p.longitude)
    }

    /// The warning for `point` (as typed: `text`), nil when it is near the
    /// places or the database has none.
    static func warning(point: Coordinate, text: String, extent: GeoRect?) -> String? {
        guard let box = extent else { return nil }
        let d = distance(from: point, to: box)
        guard d > thresholdMeters else { return nil }
        var message =
            "the point \(text) is \(kilometres(d)) km from the places of the database"
            + " (latitude \(degrees(box.south)) to \(degrees(box.north)), longitude \(degrees(box.west)) to \(degrees(box.east)))"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, abs(point.longitude) <= 90 {
            let swapped = Coordinate(latitude: point.longitude, longitude: point.latitude)
            if distance(from: swapped, to: box) <= thresholdMeters {
                message +=
                    "; did you mean \(parts[1].filter { $0 != " " }),\(parts[0].filter { $0 != " " })? (LAT,LNG: latitude first)"
            }
        }
        return message
    }

    /// Warns on stderr when `point` is far from the places `reader` holds.
    static func warn(_ context: CommandContext, reader: PlaceReader, point: Coordinate, text: String) {
        guard let extent = try? reader.placesExtent(), let message = warning(point: point, text: text, extent: extent)
        else { return }
        context.console.errLine("placedb \(context.spec.name): warning: \(message)")
    }

    static func kilometres(_ meters: Double) -> String {
        DigitGrouping.grouped(Int64((meters / 1000).rounded()))
    }

    static func degrees(_ x: Double) -> String {
        "\((x * 100).rounded() / 100)"
    }
}
