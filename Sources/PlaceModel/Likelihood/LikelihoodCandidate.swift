import Foundation

/// What the current-place model needs to know of one place near a fix:
/// the values `LikelihoodModel.score(candidates:fix:time:)` weighs, and
/// nothing read from a database.
public struct LikelihoodCandidate: Sendable {
    /// What the feature is, as far as the model cares.
    public enum Kind: Sendable, Equatable {
        /// A named place (or one from a source where every place has a name).
        case place
        /// An unnamed feature of a GeoJSON export that has a place type (a
        /// bench, an ATM): weighed with `LikelihoodModel.unnamedFactor`.
        case unnamed
        /// A feature that is not a place (a road, a crossing): never a candidate.
        case notAPlace
    }

    public var location: Coordinate
    /// The great-circle distance from the fix, when the caller measured it
    /// (a spatial index does); nil: the haversine distance.
    public var distanceMeters: Double?
    public var kind: Kind
    public var primaryType: String?
    public var ratingCount: Int
    /// The `source` the place was imported under (`LikelihoodModel.sourceWeights`).
    public var source: String?
    public var businessStatus: BusinessStatus?
    /// The place's stored footprint (polygons or lines), in meters east and
    /// north of `location`.
    public var shape: FootprintShape?
    public var viewport: Viewport?
    /// For a container type (`LikelihoodModel.containerTypes`: a named
    /// building) with an area: whether its area holds the location of
    /// another place that can be a candidate. Such a container is not a
    /// candidate: the place inside stands for it.
    public var holdsAnotherPlace: Bool
    /// The place, for its opening hours at the time of the query (nil:
    /// its hours count as unknown). `LikelihoodModel.isOpen` reads it.
    public var details: Place?

    public init(
        location: Coordinate, distanceMeters: Double? = nil, kind: Kind = .place, primaryType: String? = nil,
        ratingCount: Int = 0, source: String? = nil, businessStatus: BusinessStatus? = nil,
        shape: FootprintShape? = nil, viewport: Viewport? = nil, holdsAnotherPlace: Bool = false, details: Place? = nil
    ) {
        self.location = location
        self.distanceMeters = distanceMeters
        self.kind = kind
        self.primaryType = primaryType
        self.ratingCount = ratingCount
        self.source = source
        self.businessStatus = businessStatus
        self.shape = shape
        self.viewport = viewport
        self.holdsAnotherPlace = holdsAnotherPlace
        self.details = details
    }
}
