import Foundation
package import PlaceModel
import PlaceStorage

/// A town or region a query named, as the database knows it.
package struct MatchedLocality: Sendable, Equatable {
    /// What the match was made from.
    package enum Source: String, Sendable {
        /// A place of a locality type (`locality`, `administrative_area_level_*`,
        /// `sublocality`, ...; GeoNames cities are such places) by its name or
        /// another of its names.
        case name
        /// A place of a locality type by a GeoNames alternate name.
        case alternateName = "alternate-name"
        /// A place of a locality type by a name from `LocalityMatcher.aliases`.
        case alias
        /// Places whose addresses name it (`addressComponents` of type
        /// `locality`, or a part of `formattedAddress` between commas).
        case address
    }

    /// The locality's place ID (nil when it comes from addresses).
    package var placeID: String?
    package var name: String
    package var source: Source
    /// The provider of the locality place (`geonames`, `google-places`, `osm`),
    /// or `addresses`.
    package var provider: String
    package var center: Coordinate
    /// The area searched: the place's viewport, a circle sized by its
    /// population or type, or the box of the addresses' places.
    package var area: SearchArea
    package var radiusMeters: Double
    package var population: Int?
    /// How many places' addresses named it (source `address`).
    package var addressCount: Int?
}
