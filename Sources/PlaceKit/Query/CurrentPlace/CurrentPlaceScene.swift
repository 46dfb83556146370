import Foundation
public import PlaceModel
import PlaceStorage

/// What the current-place model saw for one fix: its answer and, for each
/// place listed, the footprint it weighed (same order), and the stored
/// streets around it (the picture's basemap).
public struct CurrentPlaceScene: Sendable {
    public var request: CurrentPlaceRequest
    public var result: PlaceLikelihoodList
    /// `footprints[i]` belongs to `result.placeLikelihoods[i]`.
    public var footprints: [FootprintOutline]
    /// The lines of the stored streets (places of primary type "route")
    /// that meet the picture's view (`view()`), in meters from the fix,
    /// nearest its centre first: at most `maxDrawnStreets` streets and
    /// `maxStreetVertices` vertices.
    public var streets: [[FootprintOutline.Point]] = []

    /// At most this many streets are drawn, the nearest the view's centre first.
    public static let maxDrawnStreets = 400
    /// The streets drawn hold at most this many vertices in all.
    public static let maxStreetVertices = 20_000
    /// Streets are read only for a view at most this wide (meters): wider,
    /// they would be a grey mesh, and reading them would read every street
    /// of a city.
    public static let maxStreetViewMeters = 3_000.0
}
