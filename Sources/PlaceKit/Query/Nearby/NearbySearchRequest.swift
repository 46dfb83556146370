import Foundation
public import PlaceModel
import PlaceStorage

/// A nearby search, as the Places API (New) `searchNearby` request.
public struct NearbySearchRequest: Sendable, Equatable {
    public var center: Coordinate
    /// Only places within this many meters (more than 0, at most
    /// `maxRadiusMeters`); nil: no limit (the k nearest).
    public var radiusMeters: Double?
    /// Places with any of these among their types (empty: any type).
    public var includedTypes: [String]
    /// Places with none of these among their types.
    public var excludedTypes: [String]
    /// Places whose primary type is one of these (empty: any).
    public var includedPrimaryTypes: [String]
    public var excludedPrimaryTypes: [String]
    /// 1...`maxResultLimit`.
    public var maxResultCount: Int
    public var rankPreference: RankPreference
    /// Also return places with neither a name nor a type (features of a
    /// whole OpenStreetMap export kept by `import --all-features`: unnamed
    /// roads, crossings, entrances ...), and those of `unlistedTypes`;
    /// false by default.
    public var includeAllFeatures = false
    /// Also return places whose `businessStatus` is `FUTURE_OPENING`
    /// (the API's `includeFutureOpeningBusinesses`); false by default, as
    /// in the API.
    public var includeFutureOpenings = false
    /// The language `displayName` is served in (the API's `languageCode`,
    /// a BCP 47 tag): the place's name in it where it has one, else its
    /// default name (`NameLanguage`). Nil: the default name.
    public var languageCode: String?

    /// Primary types a nearby search leaves out unless asked for: streets
    /// and other lines (named highways, routes, railway lines, rivers and
    /// canals), boundaries, localities (towns and cities: GeoNames cities,
    /// OpenStreetMap `place=city`) and intersections, which are found by name (text search) and
    /// by a type filter, not as what is near a point. A request with
    /// `includedTypes` or `includedPrimaryTypes` lists them when they
    /// match (`--type route`), and `includeAllFeatures` lists them all.
    /// Current place never answers with them (their prior is 0).
    public static let unlistedTypes = [
        "route", "railway", "waterway", "political", "locality", "postal_code", "intersection",
    ]

    public static let maxResultLimit = 1000
    /// The largest radius accepted, in meters: 50 km, the Places API's
    /// bound on `searchNearby`'s circle and on `searchText`'s and
    /// `autocomplete`'s bias and restriction circles (the server's
    /// `/v1/places` routes refused more already). A larger radius is an
    /// `invalidArgument`, never a scan of the whole database.
    public static let maxRadiusMeters = 50_000.0

    public init(
        center: Coordinate, radiusMeters: Double? = nil, includedTypes: [String] = [], excludedTypes: [String] = [],
        includedPrimaryTypes: [String] = [], excludedPrimaryTypes: [String] = [],
        maxResultCount: Int = 20, rankPreference: RankPreference = .distance
    ) {
        self.center = center
        self.radiusMeters = radiusMeters
        self.includedTypes = includedTypes
        self.excludedTypes = excludedTypes
        self.includedPrimaryTypes = includedPrimaryTypes
        self.excludedPrimaryTypes = excludedPrimaryTypes
        self.maxResultCount = maxResultCount
        self.rankPreference = rankPreference
    }

    /// Throws `PlaceDBError.invalidArgument` naming what is wrong.
    public func validate() throws(PlaceDBError) {
        guard center.isValid else {
            throw .invalidArgument(
                "center \(center.latitude),\(center.longitude) is out of range (latitude -90...90, longitude -180...180)"
            )
        }
        if let r = radiusMeters, !(r.isFinite && r > 0 && r <= Self.maxRadiusMeters) {
            throw .invalidArgument(
                "radius \(r) must be a positive number of meters, at most \(Int(Self.maxRadiusMeters))")
        }
        guard (1...Self.maxResultLimit).contains(maxResultCount) else {
            throw .invalidArgument("maxResultCount \(maxResultCount) must be in 1...\(Self.maxResultLimit)")
        }
        if rankPreference == .popularity && radiusMeters == nil {
            throw .invalidArgument("ranking by popularity needs a radius")
        }
        for t in includedTypes + excludedTypes + includedPrimaryTypes + excludedPrimaryTypes where t.isEmpty {
            throw .invalidArgument("an empty place type in a type filter")
        }
    }

    var typeFilter: TypeFilter {
        TypeFilter(
            includedTypes: includedTypes, excludedTypes: excludedTypes,
            includedPrimaryTypes: includedPrimaryTypes, excludedPrimaryTypes: excludedPrimaryTypes,
            includeAnonymous: includeAllFeatures,
            hiddenPrimaryTypes: includeAllFeatures || !includedTypes.isEmpty || !includedPrimaryTypes.isEmpty
                ? [] : Self.unlistedTypes)
    }
}
