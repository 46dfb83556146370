import Foundation
package import PlaceModel
import PlaceStorage

/// The drawing layer of a footprint, by its primary type and kind.
package enum MapLayer: String, Sendable {
    case street, water, green, building, boundary, area, point

    static let greenTypes: Set<String> = [
        "park", "garden", "playground", "national_park", "protected_area", "cemetery", "golf_course",
        "campground", "dog_park", "botanical_garden", "hiking_area", "picnic_ground", "ski_resort",
        "sports_activity_location", "athletic_field", "zoo", "farm",
    ]
    static let waterTypes: Set<String> = ["waterway", "marina", "beach", "water_park", "fishing_pond", "swimming_pool"]
    static let boundaryTypes: Set<String> = [
        "political", "locality", "sublocality", "neighborhood", "postal_code", "colloquial_area",
        "administrative_area_level_1", "administrative_area_level_2", "country", "archipelago",
    ]
    static let streetTypes: Set<String> = ["route", "railway", "street_address", "intersection", "transit_platform"]

    /// `cover`: what the OpenStreetMap tags say ("water", "green"), which wins.
    package static func of(primaryType: String?, kind: FootprintShape.Kind, cover: String? = nil) -> MapLayer {
        if cover == "water" { return .water }
        if cover == "green" { return .green }
        let t = primaryType ?? ""
        if waterTypes.contains(t) { return .water }
        if kind == .lines { return greenTypes.contains(t) ? .green : .street }
        if greenTypes.contains(t) { return .green }
        if boundaryTypes.contains(t) { return .boundary }
        if t == "landuse" || t == "natural_feature" || t == "plaza" { return .area }
        return .building
    }
}
