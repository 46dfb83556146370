public import Foundation
public import PlaceModel
import PlaceStorage

extension NearbySearchRequest {
    /// Reads a Places API (New) `searchNearby` request body:
    /// `locationRestriction.circle.center` / `.radius`, `includedTypes`,
    /// `excludedTypes`, `includedPrimaryTypes`, `excludedPrimaryTypes`,
    /// `maxResultCount`, `rankPreference` (`DISTANCE`, `POPULARITY`;
    /// unspecified is POPULARITY, as in the API, or DISTANCE without a radius),
    /// `includeFutureOpeningBusinesses`, `languageCode` (the language of
    /// `displayName`). `regionCode` is accepted and ignored,
    /// `routingParameters` checked and ignored (no routing offline:
    /// docs/server.md); other keys are refused.
    public init(json: JSONObject) throws(PlaceDBError) {
        try RequestReader.checkKeys(
            json,
            allowed: [
                "locationRestriction", "includedTypes", "excludedTypes", "includedPrimaryTypes",
                "excludedPrimaryTypes", "maxResultCount", "rankPreference", "languageCode", "regionCode",
                "includeFutureOpeningBusinesses", "routingParameters",
            ])
        guard let restriction = json["locationRestriction"] else {
            throw .invalidArgument("locationRestriction.circle is required")
        }
        guard let circle = restriction["circle"]?.objectValue else {
            throw .invalidArgument("locationRestriction.circle must be an object with center and radius")
        }
        let center = try RequestReader.coordinate(circle["center"], "locationRestriction.circle.center")
        var radius: Double?
        if let r = circle["radius"] {
            guard let v = r.doubleValue else {
                throw .invalidArgument("locationRestriction.circle.radius must be a number, not \(r.kindDescription)")
            }
            radius = v
        }
        // The API's default is POPULARITY; without a radius (the CLI's
        // batch allows none) popularity cannot rank, so distance does.
        let byDefault: RankPreference = radius == nil ? .distance : .popularity
        var rank = byDefault
        if let r = json["rankPreference"] {
            switch r.stringValue {
            case "DISTANCE": rank = .distance
            case "RANK_PREFERENCE_UNSPECIFIED": rank = byDefault
            case "POPULARITY": rank = .popularity
            default:
                throw .invalidArgument("rankPreference must be DISTANCE or POPULARITY, not \(JSONWriter().string(r))")
            }
        }
        self.init(
            center: center, radiusMeters: radius,
            includedTypes: try RequestReader.strings(json["includedTypes"], "includedTypes"),
            excludedTypes: try RequestReader.strings(json["excludedTypes"], "excludedTypes"),
            includedPrimaryTypes: try RequestReader.strings(json["includedPrimaryTypes"], "includedPrimaryTypes"),
            excludedPrimaryTypes: try RequestReader.strings(json["excludedPrimaryTypes"], "excludedPrimaryTypes"),
            maxResultCount: try RequestReader.int(json["maxResultCount"], "maxResultCount") ?? 20,
            rankPreference: rank)
        includeFutureOpenings =
            try RequestReader.bool(json["includeFutureOpeningBusinesses"], "includeFutureOpeningBusinesses") ?? false
        languageCode = try RequestReader.languageCode(json["languageCode"])
        try RequestReader.routingParameters(json["routingParameters"], "routingParameters")
        try validate()
    }
}

extension CurrentPlaceRequest {
    /// Parses an RFC 3339 time (`2026-05-01T12:30:00Z`, `...+02:00`, with
    /// optional fractional seconds, kept) as an instant: `RFC3339.parse`,
    /// the parser `HoursQueryTime(parsing:)` reads with too. Nil when
    /// malformed (a date that does not exist included) or without an
    /// offset (see `HoursQueryTime(parsing:)` for wall-clock times).
    public static func parseTime(_ text: String) -> Date? { RFC3339.date(text) }

    /// Reads `{"location": {"latitude": .., "longitude": ..},
    /// "accuracyMeters": .., "time": "RFC 3339"}`, with optional
    /// `includedTypes`, `maxResultCount` and `languageCode` (the language
    /// of `displayName`).
    public init(json: JSONObject, defaultAccuracy: Double = 20) throws(PlaceDBError) {
        try RequestReader.checkKeys(
            json, allowed: ["location", "accuracyMeters", "time", "includedTypes", "maxResultCount", "languageCode"])
        let location = try RequestReader.coordinate(json["location"], "location")
        var accuracy = defaultAccuracy
        if let a = json["accuracyMeters"] {
            guard let v = a.doubleValue else {
                throw .invalidArgument("accuracyMeters must be a number, not \(a.kindDescription)")
            }
            accuracy = v
        }
        var at: HoursQueryTime?
        if let t = json["time"] {
            guard let s = t.stringValue, let parsed = HoursQueryTime(parsing: s) else {
                throw .invalidArgument(
                    "time must be an RFC 3339 time such as 2026-05-01T12:30:00Z, 2026-05-01T12:30 (the wall clock at each place) or now, not \(JSONWriter().string(t))"
                )
            }
            at = parsed
        }
        self.init(
            location: location, accuracyMeters: accuracy,
            includedTypes: try RequestReader.strings(json["includedTypes"], "includedTypes"),
            maxResultCount: try RequestReader.int(json["maxResultCount"], "maxResultCount")
                ?? CurrentPlaceRequest.defaultResultCount)
        self.at = at
        languageCode = try RequestReader.languageCode(json["languageCode"])
        try validate()
    }
}

/// Typed reads of request fields, each failure naming the field.
enum RequestReader {
    static func checkKeys(_ o: JSONObject, allowed: Set<String>) throws(PlaceDBError) {
        for key in o.keys where !allowed.contains(key) {
            throw .invalidArgument("unknown field '\(key)'; expected \(allowed.sorted().joined(separator: ", "))")
        }
    }

    static func coordinate(_ v: JSONValue?, _ name: String) throws(PlaceDBError) -> Coordinate {
        guard let v else { throw .invalidArgument("\(name) is required") }
        guard let lat = v["latitude"]?.doubleValue, let lng = v["longitude"]?.doubleValue else {
            throw .invalidArgument("\(name) must be {\"latitude\": number, \"longitude\": number}")
        }
        return Coordinate(latitude: lat, longitude: lng)
    }

    static func strings(_ v: JSONValue?, _ name: String) throws(PlaceDBError) -> [String] {
        guard let v else { return [] }
        guard let a = v.arrayValue else {
            throw .invalidArgument("\(name) must be an array of strings, not \(v.kindDescription)")
        }
        var out: [String] = []
        for e in a {
            guard let s = e.stringValue else {
                throw .invalidArgument("\(name) must be an array of strings; found \(e.kindDescription)")
            }
            out.append(s)
        }
        return out
    }

    /// `languageCode`: a BCP 47 tag (`NameLanguage.isValidTag`); empty is none.
    static func languageCode(_ v: JSONValue?, _ name: String = "languageCode") throws(PlaceDBError) -> String? {
        guard let v else { return nil }
        guard let code = v.stringValue else {
            throw .invalidArgument("\(name) must be a string, not \(v.kindDescription)")
        }
        if code.isEmpty { return nil }
        guard NameLanguage.isValidTag(code) else {
            throw .invalidArgument(
                "\(name) '\(code.prefix(40))' is not a language tag (BCP 47: en, sv, en-GB, zh-Hant)")
        }
        return code
    }

    static func bool(_ v: JSONValue?, _ name: String) throws(PlaceDBError) -> Bool? {
        guard let v else { return nil }
        guard case .bool(let b) = v else {
            throw .invalidArgument("\(name) must be true or false, not \(JSONWriter().string(v))")
        }
        return b
    }

    static func double(_ v: JSONValue?, _ name: String) throws(PlaceDBError) -> Double? {
        guard let v else { return nil }
        guard let d = v.doubleValue, d.isFinite else {
            throw .invalidArgument("\(name) must be a number, not \(JSONWriter().string(v))")
        }
        return d
    }

    /// One of `values` (the discovery document's enum, in the order of its
    /// numbers: Google's clients send a number), or a 400 naming the field.
    static func enumName(_ v: JSONValue?, _ name: String, _ values: [String]) throws(PlaceDBError) -> String? {
        guard let v else { return nil }
        if let n = v.intValue, case .int = v, n >= 0, n < values.count { return values[Int(n)] }
        guard let s = v.stringValue, values.contains(s) else {
            throw .invalidArgument(
                "\(name) must be one of \(values.joined(separator: ", ")), not \(JSONWriter().string(v).prefix(100))")
        }
        return s
    }

    /// `routingParameters` (`origin`, `travelMode`, `routingPreference`,
    /// `routeModifiers`) checked against the discovery document's shape;
    /// placedb computes no routes (docs/server.md), so nothing is kept.
    static func routingParameters(_ v: JSONValue?, _ name: String) throws(PlaceDBError) {
        guard let v else { return }
        guard let o = v.objectValue else {
            throw .invalidArgument("\(name) must be an object, not \(v.kindDescription)")
        }
        try checkKeys(o, allowed: ["origin", "travelMode", "routingPreference", "routeModifiers"])
        if o["origin"] != nil {
            let c = try coordinate(o["origin"], "\(name).origin")
            guard c.isValid else {
                throw .invalidArgument("\(name).origin \(c.latitude),\(c.longitude) is out of range")
            }
        }
        _ = try enumName(
            o["travelMode"], "\(name).travelMode",
            ["TRAVEL_MODE_UNSPECIFIED", "DRIVE", "BICYCLE", "WALK", "TWO_WHEELER"])
        _ = try enumName(
            o["routingPreference"], "\(name).routingPreference",
            ["ROUTING_PREFERENCE_UNSPECIFIED", "TRAFFIC_UNAWARE", "TRAFFIC_AWARE", "TRAFFIC_AWARE_OPTIMAL"])
        if let m = o["routeModifiers"] {
            guard let mo = m.objectValue else {
                throw .invalidArgument("\(name).routeModifiers must be an object, not \(m.kindDescription)")
            }
            try checkKeys(mo, allowed: ["avoidTolls", "avoidHighways", "avoidFerries", "avoidIndoor"])
            for (k, x) in mo.members { _ = try bool(x, "\(name).routeModifiers.\(k)") }
        }
    }

    static func int(_ v: JSONValue?, _ name: String) throws(PlaceDBError) -> Int? {
        guard let v else { return nil }
        guard let i = v.intValue else {
            throw .invalidArgument("\(name) must be an integer, not \(JSONWriter().string(v))")
        }
        return i
    }
}
