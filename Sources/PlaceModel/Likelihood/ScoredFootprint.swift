import Foundation

/// The footprint a candidate was weighed with, in the plane of the fix.
public struct ScoredFootprint: Sendable, Equatable {
    public enum Source: String, Sendable {
        /// The stored area (`polygon`) or lines (`line`) of the place.
        case polygon, line
        /// Its viewport, one that departs from the default map view.
        case viewport
        /// A square of the area of its type's disc.
        case type
    }
    public var source: Source
    /// The box: its centre relative to the fix and half its sides, meters.
    public var centerEast: Double
    public var centerNorth: Double
    public var halfWidth: Double
    public var halfHeight: Double
    /// Where the place's location lies from the fix (the shape's origin).
    public var originEast: Double
    public var originNorth: Double
    /// Area in m² (a polygon's own, a box's; 0 for lines).
    public var area: Double
    /// Length of lines in meters (nil for the others).
    public var length: Double?
}
