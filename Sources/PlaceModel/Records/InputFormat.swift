/// The record formats `placedb import` reads.
public enum InputFormat: String, Sendable, CaseIterable {
    /// Places API (New) `Place` objects (camelCase).
    case placesV1 = "places-v1"
    /// Legacy Places web service results (snake_case).
    case placesLegacy = "places-legacy"
    /// A GeoJSON Feature with a documented generic place in its properties.
    case geojson = "geojson"
    /// An OpenStreetMap feature as `osmium export` writes it.
    case osm = "osm"
    /// An Overture Maps place feature.
    case overture = "overture"

    /// Picks the format of one record: the envelope member it came from when
    /// there is one (`places` is v1; `result`, `results`, `candidates` are
    /// legacy), else its keys (`place_id` or `geometry` mean legacy).
    /// The source name places of this format are filed under by default.
    public var defaultSource: String {
        switch self {
        case .placesV1, .placesLegacy: "google-places"
        case .geojson: "geojson"
        case .osm: "osm"
        case .overture: "overture"
        }
    }

    /// GeoJSON Features (`"type": "Feature"`, or members of `features`) are
    /// OpenStreetMap when their properties carry `@type` and `@id`, Overture
    /// when they carry `names` or Overture's `categories`+`sources`, else the
    /// generic GeoJSON place.
    static func detect(_ record: SourceRecord) -> InputFormat {
        switch record.container {
        case "places": return .placesV1
        case "result", "results", "candidates": return .placesLegacy
        default:
            let value = record.value
            if record.container == "features" || value["type"]?.stringValue == "Feature" {
                let p = value["properties"]
                if p?["@type"] != nil && p?["@id"] != nil { return .osm }
                if p?["names"]?.objectValue != nil || (p?["categories"] != nil && p?["sources"] != nil) { return .overture }
                return .geojson
            }
            if value["place_id"] != nil || value["geometry"] != nil { return .placesLegacy }
            return .placesV1
        }
    }
}

/// Why a record is not a place placedb can store.
public struct DecodeError: Error, Sendable, Equatable {
    public let message: String
    /// The record's place ID, when it had one.
    public let placeID: String?

    init(_ message: String, placeID: String? = nil) {
        self.message = message
        self.placeID = placeID
    }
}

/// A decoded record: the place, and the source's fields that have no
/// Places API (New) counterpart (kept in the database, not in API output).
public struct DecodedPlace: Sendable {
    public var place: Place
    public var extra: JSONObject
    public var format: InputFormat
    /// IDs the record says stand for this place (or for where it went).
    public var aliases: [AliasEdge] = []
    /// The area or lines the source drew, simplified (GeoJSON formats); nil for points.
    var footprint: FootprintShape?
    /// When the record says it was captured (Unix seconds): the Tehran
    /// scraper's `timestamp`, Overture's `update_time`, OpenStreetMap's
    /// `@timestamp`; nil when it says nothing (`CaptureTime`).
    var capturedAt: Int64?
    /// Why the record is not a place (a GeoJSON feature with neither a name
    /// nor a place type: what it is, "road, path or crossing", "building",
    /// ...); nil for a place. The import skips it and counts it by reason,
    /// unless `ImportOptions.allFeatures`.
    public var skipReason: String?

    init(place: Place, extra: JSONObject, format: InputFormat, aliases: [AliasEdge] = []) {
        self.place = place
        self.extra = extra
        self.format = format
        self.aliases = aliases
    }
}

/// Decodes one record in `format` (nil: detect it).
func decodeRecord(_ record: SourceRecord, format: InputFormat?) throws(DecodeError) -> DecodedPlace {
    guard case .object(let object) = record.value else {
        throw DecodeError("expected a place object, found \(record.value.kindDescription)")
    }
    if object["predictions"] != nil {
        throw DecodeError("autocomplete predictions are not places (no location); import Place Details or search responses")
    }
    if let error = object["error"]?.objectValue {
        let status = error["status"]?.stringValue ?? error["code"]?.intValue.map(String.init) ?? "error"
        throw DecodeError("an API error response (\(status): \(error["message"]?.stringValue ?? "no message")), not a place")
    }
    // A response filed under the ID that was requested:
    // {"requestedId": "...", "place": {...}} (v1) or {"requestedId": "...", "result": {...}} (legacy).
    if let requested = object["requestedId"] {
        guard let requestedID = requested.stringValue, !requestedID.isEmpty else {
            throw DecodeError("requestedId is \(requested.kindDescription), expected a non-empty string")
        }
        let inner: SourceRecord
        if let place = object["place"], place.objectValue != nil {
            inner = SourceRecord(value: place, line: record.line, index: record.index, container: "places")
        } else if let result = object["result"], result.objectValue != nil {
            inner = SourceRecord(value: result, line: record.line, index: record.index, container: "result")
        } else {
            throw DecodeError("a requestedId record needs a \"place\" (Places API (New)) or \"result\" (legacy) object")
        }
        var decoded = try decodeRecord(inner, format: format)
        if decoded.format == .placesLegacy, let list = object["html_attributions"]?.arrayValue,
           let attributions = LegacyPlacesDecoder.attributions(list) {
            decoded.place.document["attributions"] = attributions
        }
        let id = decoded.place.id.rawValue
        if requestedID != id {
            decoded.aliases.append(AliasEdge(aliasID: requestedID, placeID: id, reason: .requestedReturned))
        }
        return decoded
    }
    var decoded: DecodedPlace
    switch format ?? InputFormat.detect(record) {
    case .placesV1: decoded = try PlacesV1Decoder.decode(object)
    case .placesLegacy: decoded = try LegacyPlacesDecoder.decode(object)
    case .geojson: decoded = try GeoJSONDecoders.decodeGeneric(object)
    case .osm: decoded = try GeoJSONDecoders.decodeOSM(object)
    case .overture: decoded = try GeoJSONDecoders.decodeOverture(object)
    }
    // Rules every format shares, applied once here.
    try FieldCheck.clockAndCounts(decoded)
    decoded.place.capPhotos()
    try decoded.place.checkPhotoNames()
    return decoded
}

// MARK: Checks shared by the decoders

enum FieldCheck {
    static func coordinate(latitude: JSONValue?, longitude: JSONValue?, path: String, placeID: String?) throws(DecodeError) -> Coordinate {
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
    static func expect(_ object: JSONObject, _ key: String, _ kind: Kind, path: String? = nil, placeID: String?) throws(DecodeError) {
        guard let value = object[key], value != .null else { return }
        let ok: Bool
        switch kind {
        case .string: ok = value.stringValue != nil
        case .number: ok = value.doubleValue != nil
        case .integer: ok = value.intValue != nil
        case .bool: ok = value.boolValue != nil
        case .object: ok = value.objectValue != nil
        case .array: ok = value.arrayValue != nil
        case .stringArray: ok = value.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false
        }
        if !ok {
            throw DecodeError("\(path ?? key) is \(value.kindDescription), expected \(kind.rawValue)", placeID: placeID)
        }
    }

    /// The members whose values the hours and likelihood code compute
    /// with, checked for every format: `utcOffsetMinutes` within ±18 hours
    /// (the range of real UTC offsets, and of an ISO 8601 offset),
    /// `timeZone.id` a zone of the IANA database this system knows, and
    /// `userRatingCount` in 0...2^31-1 (the API's int32). A value outside
    /// rejects the record (exit 65, or into --rejects with --on-error
    /// skip), as an out-of-range latitude does: docs/reliability.md.
    static func clockAndCounts(_ decoded: DecodedPlace) throws(DecodeError) {
        let doc = decoded.place.document
        let pid = decoded.place.id.rawValue
        let legacy = decoded.format == .placesLegacy
        if let value = doc["utcOffsetMinutes"], value != .null {
            let name = legacy ? "utc_offset" : "utcOffsetMinutes"
            guard let minutes = value.intValue, (-maxOffsetMinutes...maxOffsetMinutes).contains(minutes) else {
                throw DecodeError("\(name) \(numberText(value)) is out of range [-\(maxOffsetMinutes), \(maxOffsetMinutes)] (minutes; a UTC offset is within ±18 hours)", placeID: pid)
            }
        }
        if let zone = doc["timeZone"], zone != .null {
            guard let id = zone["id"]?.stringValue else {
                throw DecodeError("timeZone.id is \(zone["id"]?.kindDescription ?? "missing"), expected a string (an IANA time zone such as Europe/Zurich)", placeID: pid)
            }
            guard ImportOptions.isValidTimeZone(id) else {
                throw DecodeError("timeZone.id '\(id.prefix(64))' is not a time zone this system knows (expected an IANA name such as Europe/Zurich)", placeID: pid)
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

    enum Kind: String {
        case string = "a string", number = "a number", integer = "an integer", bool = "a boolean"
        case object = "an object", array = "an array", stringArray = "an array of strings"
    }
}
