import Foundation
public import PlaceModel
import PlaceStorage

/// A text search, as the Places API (New) `searchText` request: words to
/// find in places' names, addresses and types, optionally biased toward or
/// restricted to an area.
public struct TextSearchRequest: Sendable, Equatable {
    public var textQuery: String
    /// Places nearer its center rank higher (a bias, not a filter).
    public var locationBias: SearchArea?
    /// Only places inside it (its center biases too).
    public var locationRestriction: SearchArea?
    /// Only places with one of these among their types (empty: any).
    public var includedTypes: [String]
    /// 1...`maxResultLimit`.
    public var maxResultCount: Int
    /// RELEVANCE (default) or DISTANCE (nearest match first; needs a bias or restriction).
    public var rankByDistance = false
    /// The language `displayName` is served in (`NameLanguage`); names are
    /// matched in every language stored, whatever it is.
    public var languageCode: String?
    /// Accepted for compatibility (part of what a page token stands for).
    public var regionCode: String?
    /// Only places open at the time of the search (`openNow`), from their
    /// hours as `placedb open` evaluates them; a place whose hours are
    /// unknown is left out.
    public var openNow = false
    /// Only places rated at least this (`minRating`: 0...5, rounded up to
    /// the next 0.5 as the API does); unrated places are left out.
    public var minRating: Double?
    /// Only places with one of these price levels (`PRICE_LEVEL_FREE` ...;
    /// empty: any, unpriced places included).
    public var priceLevels: [String] = []
    /// `strictTypeFiltering`: accepted; `includedTypes` always filter here.
    public var strictTypeFiltering = false
    /// Also places marked `pureServiceAreaBusiness` (left out by default, as by the API).
    public var includePureServiceAreaBusinesses = false
    /// Also places whose `businessStatus` is `FUTURE_OPENING` (left out by default, as by the API).
    public var includeFutureOpenings = false
    /// `evOptions.connectorTypes`: only places whose `evChargeOptions` list
    /// one of these connector types (empty: no such filter).
    public var evConnectorTypes: [String] = []
    /// `evOptions.minimumChargingRateKw`: only places with a connector at
    /// least this fast in their `evChargeOptions`.
    public var evMinimumChargingRateKw: Double?
    /// Whether `evOptions` was given at all (then places without
    /// `evChargeOptions` are left out).
    public var evOptions = false
    /// `pageToken`: the `nextPageToken` of an earlier answer to the same
    /// request on the same database (`TextSearchPageToken`).
    public var pageToken: String?

    public static let maxResultLimit = 1000
    /// How many results pages reach at most, as in the API (three pages of 20).
    public static let maxPagedResults = 60
    /// The price levels a filter may name, in the order of their numbers.
    public static let priceLevelNames = [
        "PRICE_LEVEL_UNSPECIFIED", "PRICE_LEVEL_FREE", "PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE",
        "PRICE_LEVEL_EXPENSIVE", "PRICE_LEVEL_VERY_EXPENSIVE",
    ]
    /// `evOptions.connectorTypes` values, in the order of their numbers.
    public static let evConnectorTypeNames = [
        "EV_CONNECTOR_TYPE_UNSPECIFIED", "EV_CONNECTOR_TYPE_OTHER", "EV_CONNECTOR_TYPE_J1772",
        "EV_CONNECTOR_TYPE_TYPE_2", "EV_CONNECTOR_TYPE_CHADEMO", "EV_CONNECTOR_TYPE_CCS_COMBO_1",
        "EV_CONNECTOR_TYPE_CCS_COMBO_2", "EV_CONNECTOR_TYPE_TESLA", "EV_CONNECTOR_TYPE_UNSPECIFIED_GB_T",
        "EV_CONNECTOR_TYPE_UNSPECIFIED_WALL_OUTLET", "EV_CONNECTOR_TYPE_NACS",
    ]
    /// Longer queries are refused (`invalidArgument`; the CLI exits 64).
    public static let maxQueryLength = 1000

    public init(
        textQuery: String, locationBias: SearchArea? = nil, locationRestriction: SearchArea? = nil,
        includedTypes: [String] = [], maxResultCount: Int = 20
    ) {
        self.textQuery = textQuery
        self.locationBias = locationBias
        self.locationRestriction = locationRestriction
        self.includedTypes = includedTypes
        self.maxResultCount = maxResultCount
    }

    public func validate() throws(PlaceDBError) {
        let n = textQuery.count
        if n > Self.maxQueryLength {
            throw .invalidArgument("textQuery is \(n) characters long; at most \(Self.maxQueryLength) are accepted")
        }
        guard (1...Self.maxResultLimit).contains(maxResultCount) else {
            throw .invalidArgument("maxResultCount \(maxResultCount) must be in 1...\(Self.maxResultLimit)")
        }
        try locationBias?.validate("locationBias")
        try locationRestriction?.validate("locationRestriction")
        for t in includedTypes where t.isEmpty { throw .invalidArgument("an empty place type in includedType") }
        if rankByDistance && locationBias == nil && locationRestriction == nil {
            throw .invalidArgument("rankPreference DISTANCE needs a locationBias or locationRestriction")
        }
        if let r = minRating, !(r.isFinite && r >= 0 && r <= 5) {
            throw .invalidArgument("minRating must be between 0 and 5 (in steps of 0.5), not \(r)")
        }
        for p in priceLevels where !Self.priceLevelNames.dropFirst().contains(p) {
            throw .invalidArgument(
                "priceLevels: unknown price level '\(p.prefix(100))'; expected \(Self.priceLevelNames.dropFirst().joined(separator: ", "))"
            )
        }
        for c in evConnectorTypes where !Self.evConnectorTypeNames.contains(c) {
            throw .invalidArgument(
                "evOptions.connectorTypes: unknown connector type '\(c.prefix(100))'; expected \(Self.evConnectorTypeNames.joined(separator: ", "))"
            )
        }
        if let kw = evMinimumChargingRateKw, !(kw.isFinite && kw >= 0) {
            throw .invalidArgument(
                "evOptions.minimumChargingRateKw must be a number of kilowatts, at least 0, not \(kw)")
        }
    }

    /// Reads a Places API (New) `searchText` request body: every field of
    /// the discovery document (docs/server.md lists what each does here).
    /// `textQuery` is required; `pageSize` wins over `maxResultCount`;
    /// `routingParameters` and `searchAlongRouteParameters` are checked
    /// and not used (placedb computes no routes). Other keys are refused.
    public init(json: JSONObject) throws(PlaceDBError) {
        try RequestReader.checkKeys(json, allowed: Self.jsonFields)
        guard let q = json["textQuery"] else { throw .invalidArgument("textQuery is required") }
        guard let text = q.stringValue else {
            throw .invalidArgument("textQuery must be a string, not \(q.kindDescription)")
        }
        var types: [String] = []
        if let t = json["includedType"] {
            guard let s = t.stringValue else {
                throw .invalidArgument("includedType must be a string, not \(t.kindDescription)")
            }
            if !s.isEmpty { types = [s] }
        }
        var count = 20
        if let n = try RequestReader.int(json["pageSize"], "pageSize") {
            count = n
        } else if let n = try RequestReader.int(json["maxResultCount"], "maxResultCount") {
            count = n
        }
        self.init(
            textQuery: text, locationBias: try SearchArea(json: json["locationBias"], "locationBias"),
            locationRestriction: try SearchArea(json: json["locationRestriction"], "locationRestriction"),
            includedTypes: types, maxResultCount: count)
        languageCode = try RequestReader.languageCode(json["languageCode"])
        if let r = json["regionCode"] {
            guard let code = r.stringValue else {
                throw .invalidArgument("regionCode must be a string, not \(r.kindDescription)")
            }
            regionCode = code
        }
        if let r = json["rankPreference"] {
            switch r.stringValue {
            case "RELEVANCE", "RANK_PREFERENCE_UNSPECIFIED": rankByDistance = false
            case "DISTANCE": rankByDistance = true
            default:
                throw .invalidArgument("rankPreference must be RELEVANCE or DISTANCE, not \(JSONWriter().string(r))")
            }
        }
        openNow = try RequestReader.bool(json["openNow"], "openNow") ?? false
        if let r = try RequestReader.double(json["minRating"], "minRating") {
            guard r >= 0 && r <= 5 else {
                throw .invalidArgument("minRating must be between 0 and 5 (in steps of 0.5), not \(r)")
            }
            minRating = (r * 2).rounded(.up) / 2
        }
        if let levels = json["priceLevels"] {
            guard let list = levels.arrayValue else {
                throw .invalidArgument("priceLevels must be an array, not \(levels.kindDescription)")
            }
            for (i, level) in list.enumerated() {
                guard let name = try RequestReader.enumName(level, "priceLevels[\(i)]", Self.priceLevelNames),
                    name != "PRICE_LEVEL_UNSPECIFIED"
                else {
                    throw .invalidArgument(
                        "priceLevels[\(i)]: PRICE_LEVEL_UNSPECIFIED is no price level; expected \(Self.priceLevelNames.dropFirst().joined(separator: ", "))"
                    )
                }
                priceLevels.append(name)
            }
        }
        strictTypeFiltering = try RequestReader.bool(json["strictTypeFiltering"], "strictTypeFiltering") ?? false
        includePureServiceAreaBusinesses =
            try RequestReader.bool(json["includePureServiceAreaBusinesses"], "includePureServiceAreaBusinesses")
            ?? false
        includeFutureOpenings =
            try RequestReader.bool(json["includeFutureOpeningBusinesses"], "includeFutureOpeningBusinesses") ?? false
        if let ev = json["evOptions"] {
            guard let o = ev.objectValue else {
                throw .invalidArgument("evOptions must be an object, not \(ev.kindDescription)")
            }
            try RequestReader.checkKeys(o, allowed: ["connectorTypes", "minimumChargingRateKw"])
            evOptions = true
            if let types = o["connectorTypes"] {
                guard let list = types.arrayValue else {
                    throw .invalidArgument("evOptions.connectorTypes must be an array, not \(types.kindDescription)")
                }
                for (i, t) in list.enumerated() {
                    if let name = try RequestReader.enumName(
                        t, "evOptions.connectorTypes[\(i)]", Self.evConnectorTypeNames)
                    {
                        evConnectorTypes.append(name)
                    }
                }
            }
            evMinimumChargingRateKw = try RequestReader.double(
                o["minimumChargingRateKw"], "evOptions.minimumChargingRateKw")
        }
        if let t = json["pageToken"] {
            guard let token = t.stringValue else {
                throw .invalidArgument("pageToken must be a string, not \(t.kindDescription)")
            }
            if !token.isEmpty { pageToken = token }
        }
        try RequestReader.routingParameters(json["routingParameters"], "routingParameters")
        if let route = json["searchAlongRouteParameters"] {
            guard let o = route.objectValue else {
                throw .invalidArgument("searchAlongRouteParameters must be an object, not \(route.kindDescription)")
            }
            try RequestReader.checkKeys(o, allowed: ["polyline"])
            guard let line = o["polyline"]?.objectValue else {
                throw .invalidArgument(
                    "searchAlongRouteParameters.polyline is required: {\"encodedPolyline\": \"...\"}")
            }
            try RequestReader.checkKeys(line, allowed: ["encodedPolyline"])
            guard let encoded = line["encodedPolyline"]?.stringValue, !encoded.isEmpty else {
                throw .invalidArgument("searchAlongRouteParameters.polyline.encodedPolyline must be a non-empty string")
            }
        }
        if locationBias != nil && locationRestriction != nil {
            throw .invalidArgument("locationBias and locationRestriction cannot both be set")
        }
        try validate()
    }

    /// The request fields `init(json:)` reads: those of the discovery
    /// document's `SearchTextRequest`.
    public static let jsonFields: Set<String> = [
        "textQuery", "locationBias", "locationRestriction", "includedType", "strictTypeFiltering",
        "maxResultCount", "pageSize", "pageToken", "rankPreference", "languageCode", "regionCode",
        "openNow", "minRating", "priceLevels", "evOptions", "includePureServiceAreaBusinesses",
        "includeFutureOpeningBusinesses", "routingParameters", "searchAlongRouteParameters",
    ]
}
