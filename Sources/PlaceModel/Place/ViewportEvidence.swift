import Foundation

/// What a place's `viewport` says about the place's size, for the
/// current-place model (docs/current-place.md, "Footprint evidence").
///
/// A viewport is the map view to show a place in, not its outline. Every
/// one of the 166 viewports of the Google fixtures in ../shared/data/google
/// (legacy `geometry.viewport` and v1 `viewport`, Sydney to Tehran) is the
/// service's default view: a square of 0.00269796° (130 of them) or
/// 0.00269966° (36) in latitude and longitude, 300 m north-south and 197 to
/// 249 m east-west, up to 95 m off the place's location, for an ATM as for
/// a town hall or a train station. Such a view says
/// nothing about the size; only a viewport that departs from it (fitted to
/// a park, an airport, a GeoJSON geometry's box) does.
public enum ViewportEvidence: String, Sendable, CaseIterable {
    /// Departs from the default view and is sound: the place's footprint.
    case extent
    /// The default map view: ignored; the type's footprint is used.
    case defaultView = "default map view"
    /// South above north, or west past east by more than half the globe.
    case inverted
    /// West past east by less than half the globe: a view across the
    /// antimeridian (ignored, like the next: rare, and a footprint there
    /// would need a split box).
    case crossesAntimeridian = "crosses the antimeridian"
    /// A side longer than `maxSideMeters`: a region, not a place.
    case tooLarge = "larger than 20 km"
    /// A corner outside -90...90, -180...180.
    case outOfRange = "out of range"

    /// Degrees of each side of the default view (nominally; the fixtures
    /// have 0.00269796° and 0.00269966°).
    public static let defaultSpanDegrees = 0.0027
    /// How far a side may be from `defaultSpanDegrees` and still be the
    /// default view (about 11 m north-south): the store's R*Tree keeps
    /// 32-bit floats rounded outward by up to two units a corner (3e-5°
    /// where |longitude| ≥ 128), so Sydney's 0.00269796° comes back as
    /// 0.00274658°.
    public static let spanToleranceDegrees = 0.0001
    /// Longest side of a viewport taken as a footprint, in meters.
    public static let maxSideMeters = 20_000.0

    /// True for a viewport that is bad input: ignored with a counted
    /// warning on import (the default view is normal, not a warning).
    public var isWarning: Bool {
        switch self {
        case .extent, .defaultView: false
        case .inverted, .crossesAntimeridian, .tooLarge, .outOfRange: true
        }
    }

    /// A viewport as the Places API gives it: `low` (south-west) and `high`
    /// (north-east) corners; east < west means it crosses the antimeridian
    /// (or is inverted, when the gap is more than half the globe).
    public static func classify(south: Double, west: Double, north: Double, east: Double) -> ViewportEvidence {
        guard south.isFinite, west.isFinite, north.isFinite, east.isFinite,
            (-90...90).contains(south), (-90...90).contains(north),
            (-180...180).contains(west), (-180...180).contains(east)
        else { return .outOfRange }
        if south > north { return .inverted }
        if east < west { return east + 360 - west < 180 ? .crossesAntimeridian : .inverted }
        let (width, height) = sizeMeters(south: south, west: west, north: north, east: east)
        if max(width, height) > maxSideMeters { return .tooLarge }
        if abs(north - south - defaultSpanDegrees) <= spanToleranceDegrees
            && abs(east - west - defaultSpanDegrees) <= spanToleranceDegrees
        {
            return .defaultView
        }
        return .extent
    }

    /// A `viewport` member of a place document (`{"low": {"latitude": ..,
    /// "longitude": ..}, "high": {..}}`); nil when it has no four numbers.
    public static func classify(_ viewport: JSONValue?) -> ViewportEvidence? {
        guard let s = viewport?["low"]?["latitude"]?.doubleValue, let w = viewport?["low"]?["longitude"]?.doubleValue,
            let n = viewport?["high"]?["latitude"]?.doubleValue, let e = viewport?["high"]?["longitude"]?.doubleValue
        else { return nil }
        return classify(south: s, west: w, north: n, east: e)
    }

    /// A viewport as the store keeps it (`place_extent`: east + 360 when it
    /// crosses the antimeridian).
    package static func classify(_ rect: GeoRect) -> ViewportEvidence {
        classify(
            south: rect.south, west: rect.west, north: rect.north, east: rect.east > 180 ? rect.east - 360 : rect.east)
    }

    /// Width (east-west, at the middle latitude) and height in meters;
    /// east < west is taken across the antimeridian.
    public static func sizeMeters(south: Double, west: Double, north: Double, east: Double) -> (
        width: Double, height: Double
    ) {
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        let span = east >= west ? east - west : east + 360 - west
        return (span * perDegree * cos((south + north) / 2 * Earth.radiansPerDegree), abs(north - south) * perDegree)
    }
}
