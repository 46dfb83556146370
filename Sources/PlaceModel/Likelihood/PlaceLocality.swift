/// The locality a location fix falls in, from the places of the database
/// that stand for localities (OpenStreetMap `place=city/town/village`
/// points and administrative boundaries, Google `locality` and `political`
/// records, GeoNames cities imported as `locality` places): what a current
/// place answer names when the fix is too coarse to name a place
/// (`PlaceLikelihoodList.approximate`).
public struct PlaceLocality: Sendable, Equatable {
    public var placeID: PlaceID
    public var displayName: LocalizedText?
    public var primaryType: String?
    public var location: Coordinate
    /// From the fix to the place's location (its point, or the point an
    /// area is stored at).
    public var distanceMeters: Double
    /// Whether the place's stored area holds the fix (else it is the
    /// nearest locality point).
    public var containsFix: Bool

    public init(
        placeID: PlaceID, displayName: LocalizedText?, primaryType: String?, location: Coordinate,
        distanceMeters: Double, containsFix: Bool
    ) {
        self.placeID = placeID
        self.displayName = displayName
        self.primaryType = primaryType
        self.location = location
        self.distanceMeters = distanceMeters
        self.containsFix = containsFix
    }
}
