import Foundation

/// A map view around a place, as the Places API gives it (`viewport`): its
/// south-west (`low`) and north-east (`high`) corners. A view across the
/// antimeridian has `high.longitude` below `low.longitude` (or above 180,
/// as the store keeps it: east + 360).
public struct Viewport: Sendable, Equatable {
    public var low: Coordinate
    public var high: Coordinate

    public init(low: Coordinate, high: Coordinate) {
        self.low = low
        self.high = high
    }
}
