package enum FieldCheck {
    package static func coordinate(latitude: JSONValue?, longitude: JSONValue?, path: String, placeID: String?)
        throws(DecodeError) -> Coordinate
    {
        guard let latitude, let longitude else {
            throw DecodeError("no location (\(path)): a place needs a coordinate", placeID: placeID)
        }
        guard let lat = latitude.doubleValue else {
            throw DecodeError("\(path) latitude is \(latitude.kindDescription), expected a number", placeID: placeID)
        }
        guard let lng = longitude.doubleValue else {
            throw DecodeError("\(path) longitude is \(longitude.kindDescription), expected a number", placeID: placeID)
        }
        guard (-90...90).contains(lat) else {
            throw DecodeError("latitude \(formatNumber(lat)) is out of range [-90, 90]", placeID: placeID)
        }
        guard (-180...180).contains(lng) else {
            throw DecodeError("longitude \(formatNumber(lng)) is out of range [-180, 180]", placeID: placeID)
        }
        return Coordinate(latitude: lat, longitude: lng)
    }

    static func formatNumber(_ d: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.writeNumber(d, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Checks the JSON type of a field when it is present.
    package static func expect(_ object: JSONObject, _ key: String, _ kind: Kind, path: String? = nil, placeID: String?)
        throws(DecodeError)
    {
        guard let value = object[key], value != .null else { return }
        if !has(value, kind) { throw typeError(path ?? key, value, kind, placeID: placeID) }
    }

    /// "`name` is a string, expected an object": a member of the wrong JSON type.
    package static func typeError(_ name: String, _ value: JSONValue, _ kind: Kind, placeID: String?) -> DecodeError {
        DecodeError("\(name) is \(value.kindDescription), expected \(kind.rawValue)", placeID: placeID)
    }

    /// True when `value` is of JSON type `kind`.
    package static func has(_ value: JSONValue, _ kind: Kind) -> Bool {
        switch kind {
        case .string: value.stringValue != nil
        case .number: value.doubleValue != nil
        case .integer: value.intValue != nil
        case .bool: value.boolValue != nil
        case .object: value.objectValue != nil
        case .array: value.arrayValue != nil
        case .stringArray: value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
        }
    }

    /// The members whose values the hours and likelihood code compute
    /// with, checked for every format: `utcOffsetMinutes` within ±18 hours
    /// (the range of real UTC offsets, and of an ISO 8601 offset),
    /// `timeZone.id` a zone of the IANA database this system knows, and
    /// `userRatingCount` in 0...2^31-1 (the API's int32). A value outside
    /// rejects the record (exit 65, or into --rejects with --on-error
    /// skip), as an out-of-range latitude does: docs/reliability.md.
    package static func clockAndCounts(_ decoded: DecodedPlace) throws(DecodeError) {
        let doc = decoded.place.document
        let pid = decoded.place.id.rawValue
        let legacy = decoded.format == .placesLegacy
        if let value = doc["utcOffsetMinutes"], value != .null {
            let name = legacy ? "utc_offset" : "utcOffsetMinutes"
            guard let minutes = value.intValue, (-maxOffsetMinutes...maxOffsetMinutes).contains(minutes) else {
                throw DecodeError(
                    "\(name) \(numberText(value)) is out of range [-\(maxOffsetMinutes), \(maxOffsetMinutes)] (minutes; a UTC offset is within ±18 hours)",
                    placeID: pid)
            }
        }
        if let zone = doc["timeZone"], zone != .null {
            guard let id = zone["id"]?.stringValue else {
                throw DecodeError(
                    "timeZone.id is \(zone["id"]?.kindDescription ?? "missing"), expected a string (an IANA time zone such as Europe/Zurich)",
                    placeID: pid)
            }
            guard TimeZoneIdentifier.isValid(id) else {
                throw DecodeError(
                    "timeZone.id '\(id.prefix(64))' is not a time zone this system knows (expected an IANA name such as Europe/Zurich)",
                    placeID: pid)
            }
        }
        if let value = doc["userRatingCount"], value != .null {
            let name = legacy ? "user_ratings_total" : "userRatingCount"
            guard let count = value.intValue, (0...Int(Int32.max)).contains(count) else {
                throw DecodeError("\(name) \(numberText(value)) is out of range [0, \(Int32.max)]", placeID: pid)
            }
        }
    }

    /// ±18 hours, in minutes.
    static let maxOffsetMinutes = 18 * 60

    private static func numberText(_ value: JSONValue) -> String {
        switch value {
        case .int(let i): String(i)
        case .double(let d): formatNumber(d)
        default: value.kindDescription
        }
    }

    package enum Kind: String {
        case string = "a string", number = "a number", integer = "an integer", bool = "a boolean"
        case object = "an object", array = "an array", stringArray = "an array of strings"
    }
}
