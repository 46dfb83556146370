public import Foundation

/// The current-place model: how likely the visitor is at each nearby place,
/// given a location fix and its horizontal accuracy.
///
/// For place i and fix z, `likelihood(i) = w(i) p(z | i) / (ρ + Σ_j w(j) p(z | j))`
/// and the "none of these" mass is `ρ / (ρ + Σ_j w(j) p(z | j))`, so the list
/// sums to at most 1. The parts:
///
/// - **Fix error** `p(z | i)`: the fix is the visitor's position plus a 2-D
///   normal error with the same standard deviation σ on each axis. The
///   accuracy is read as the radius of the 68% circle (Android's
///   `Location.getAccuracy()` convention; iOS documents a radius too), so
///   σ = accuracy / √(−2 ln 0.32) ≈ accuracy / 1.51.
/// - **Footprint**: the visitor stands anywhere in the place, uniformly: in
///   its stored shape (polygons or lines) when it has one; else in its
///   viewport when that says something about its size (`viewportRule`:
///   by default only a viewport that departs from the map service's
///   default view, see `ViewportEvidence`); else in a square of the area of
///   a disc whose radius comes from its primary type (`footprintRadius`: a
///   cafe 2 m, a hotel 5 m, a park 100 m, an airport 1.5 km). The density
///   of the fix is the footprint convolved with the error: for a box, a
///   product of differences of normal CDFs along each axis.
/// - **Prior** `w(i)`, a product of factors: type (`typeFactors`: 0 for what
///   one cannot be at, such as a country, a route or a postal code; small for
///   a locality or a neighbourhood), popularity (`(1 + min(ratingCount, popularityCap) /
///   popularityScale) ^ popularityExponent`), source confidence
///   (`sourceWeights`, by the `source` a place was imported under), business
///   status (`closedTemporarilyFactor`; CLOSED_PERMANENTLY is never a
///   candidate), opening hours at the query time when known
///   (`closedFactor` when closed; see `isOpen`), and whether the place has
///   a stored shape (`extentFactor`, 1 by default).
/// - **None of these** `ρ` (`noneDensity`, per square meter): the visitor is
///   at no listed place; it dominates where no place is near the fix.
///
/// Candidates are the places whose footprint comes within `cutoffSigmas` σ
/// of the fix; beyond that a density is below e^−8 of its peak.
public struct LikelihoodModel: Sendable {
    /// The probability that the true position is within `accuracy` of the
    /// fix (0.68: one standard deviation's worth in one dimension, the
    /// Android convention).
    public var accuracyProbability = 0.68
    /// Candidates lie within this many σ of the fix (plus their footprint);
    /// a 2-D normal puts e^-8 (0.03%) of its mass farther out.
    public var cutoffSigmas = 4.0
    /// Accuracies are clamped to this range, in meters.
    public var accuracyRange: ClosedRange<Double> = 1...100_000
    /// The density of "none of these" visits, per square meter.
    public var noneDensity = 1e-7
    /// Prior factor by primary type; types not listed have 1.
    public var typeFactors: [String: Double] = LikelihoodModel.defaultTypeFactors
    /// Footprint radius in meters by primary type, for places without a
    /// usable viewport; other types get `defaultFootprintRadius`.
    public var footprintRadius: [String: Double] = LikelihoodModel.defaultFootprintRadius
    public var defaultFootprintRadius = 2.0
    /// Viewports (and stored shapes) reaching farther than this from the
    /// place (meters) are not taken as its footprint (a city's viewport is
    /// not where one stands).
    public var maxViewportRadius = 20_000.0
    /// Which viewports are footprints.
    public var viewportRule = ViewportRule.beyondDefaultView

    /// Which viewports the model takes as a place's footprint.
    public enum ViewportRule: String, Sendable, CaseIterable {
        /// Only a viewport that departs from the default map view and is
        /// sound (`ViewportEvidence.extent`); the default view, an inverted
        /// viewport, one across the antimeridian or one larger than 20 km
        /// leave the type's footprint.
        case beyondDefaultView = "beyond-default"
        /// Every viewport in range, the default view included (the
        /// simpler rule, kept for the evaluation's comparison).
        case always
    }
    public var popularityScale = 25.0
    public var popularityExponent = 0.25
    /// Rating counts above this count as this many: the popularity factor
    /// is at most `(1 + popularityCap / popularityScale) ^ popularityExponent`
    /// (9.5 by default), so one record with an absurd count (2^31 ratings
    /// gave 96) cannot take a neighbourhood's whole likelihood. 200,000 is
    /// above the most-rated place in the real data placedb is evaluated
    /// on (120,959), so real answers do not change.
    public var popularityCap = 200_000
    /// Prior factor by import source (`placedb import --source`); others 1.
    public var sourceWeights: [String: Double] = [:]
    public var closedTemporarilyFactor = 0.05
    /// Prior factor for a place with a stored footprint (the polygons or
    /// lines of an OSM way or relation, an Overture or GeoJSON area): more
    /// than 1 says such places draw more visits than points do. 1 by
    /// default: with visits spread evenly over places, every other value
    /// loses top-1 overall; the evaluation's `--model extentFactor=`
    /// measures the trade (docs/current-place.md, "The extent factor").
    public var extentFactor = 1.0
    /// Types whose places are buildings that hold others (a named building
    /// of an OpenStreetMap export: "premise"): one whose area holds the
    /// location of another candidate place is not a candidate itself (its
    /// places stand for it); one that holds none keeps its type's prior.
    public var containerTypes: Set<String> = ["premise"]
    /// Prior factor for an unnamed feature of a GeoJSON export that has a
    /// place type (an OpenStreetMap bench, waste basket, ATM or car park
    /// without a name): a place, found by nearby, but not one Current Place
    /// answers with (every Google place has a name). 0 by default; the
    /// evaluation's `--model unnamedFactor=` measures other values
    /// (docs/osm-exports.md).
    public var unnamedFactor = 0.0
    /// Prior factor for a named place of no known kind: an OpenStreetMap
    /// feature whose only tags are a name, an address, a note (an office
    /// without `office=*`, a closed pub, a plaque, a bridge, a GPS waypoint).
    /// Such a feature may be a place one visits or not; its data does not
    /// say; the evaluation's `--model untypedFactor=` measures other values
    /// (docs/osm-tags.md).
    public var untypedFactor = 0.5
    public var futureOpeningFactor = 0.05
    /// Prior factor for a place that is closed at the query time.
    public var closedFactor = 0.2
    /// How many of the most likely candidates have their opening hours
    /// checked (the rest count as unknown; their mass is small).
    public var hoursCandidates = 20
    /// An answer is `approximate` (the fix too coarse to name a place)
    /// when its `approximateListLength` most likely candidates hold less
    /// than this share of the mass and there are more candidates than
    /// that, whatever the list's length and type filter
    /// (docs/current-place.md#approximate-fixes).
    public var approximateMass = 0.5
    /// The list `approximateMass` is measured on: the default list's 5.
    public var approximateListLength = 5
    /// Whether a place is open at a time: true, false, or nil when unknown.
    /// The default asks the hours engine (`Place.isOpen(at:)`: current and
    /// regular opening hours in the place's time zone); a place whose
    /// business status already weighs it down (closed temporarily, future
    /// opening) is not counted twice.
    public var isOpen: @Sendable (Place, Date) -> Bool? = LikelihoodModel.openFromHours

    /// The default `isOpen`.
    public static let openFromHours: @Sendable (Place, Date) -> Bool? = { place, date in
        switch place.businessStatus {
        case .closedTemporarily?, .futureOpening?, .closedPermanently?: return nil
        default: break
        }
        switch place.isOpen(at: date).state {
        case .open: return true
        case .closed: return false
        case .unknown: return nil
        }
    }

    public init() {}

    /// σ of each axis of the fix error for `accuracy` meters.
    public func sigma(accuracy: Double) -> Double {
        let a = min(max(accuracy, accuracyRange.lowerBound), accuracyRange.upperBound)
        return a / (-2 * log(1 - accuracyProbability)).squareRoot()
    }

    package func typeFactor(_ type: String?) -> Double {
        guard let type else { return untypedFactor }
        return typeFactors[type] ?? 1
    }

    package func radius(forType type: String?) -> Double {
        guard let type else { return defaultFootprintRadius }
        return footprintRadius[type] ?? defaultFootprintRadius
    }

    package func popularityFactor(_ ratingCount: Int) -> Double {
        ratingCount <= 0
            ? 1 : pow(1 + Double(min(ratingCount, max(popularityCap, 0))) / popularityScale, popularityExponent)
    }

    package func statusFactor(_ status: BusinessStatus?) -> Double {
        switch status {
        case .closedPermanently: 0
        case .closedTemporarily: closedTemporarilyFactor
        case .futureOpening: futureOpeningFactor
        case .operational, nil: 1
        }
    }

    package func sourceFactor(_ source: String?) -> Double {
        guard let source else { return 1 }
        return sourceWeights[source] ?? 1
    }

    /// Types one cannot be "at": none or little of the mass.
    public static let defaultTypeFactors: [String: Double] = {
        var t: [String: Double] = [:]
        for none in [
            "country", "continent", "political", "postal_code", "postal_code_prefix", "postal_code_suffix",
            "postal_town", "route", "plus_code", "geocode", "street_number", "archipelago",
            "administrative_area_level_1", "administrative_area_level_2", "administrative_area_level_3",
            "administrative_area_level_4", "administrative_area_level_5", "administrative_area_level_6",
            "administrative_area_level_7", "school_district",
            // Kinds of named OpenStreetMap features without a place tag
            // (docs/osm-tags.md): a street ("route" above), a railway
            // line, a river or canal, a platform or stop (its station
            // is the place), an entrance (its building or place is).
            // A place that closed (only lifecycle tags: "disused:amenity"),
            // a fire hydrant or a defibrillator.
            "railway", "waterway", "transit_platform", "entrance", "disused", "emergency_equipment",
        ] {
            t[none] = 0
        }
        for little in [
            "locality", "sublocality", "sublocality_level_1", "sublocality_level_2", "sublocality_level_3",
            "sublocality_level_4", "sublocality_level_5", "neighborhood", "colloquial_area",
            "natural_feature", "street_address", "intersection", "landuse", "protected_area",
        ] {
            t[little] = 0.05
        }
        // A named building ("premise") with a place inside it weighs
        // nothing: the places inside stand for it (`CurrentPlace`).
        // A named structure (a tower, a wall, a bridge, a power line) may
        // be where one is, as a named building may.
        for part in ["premise", "subpremise", "floor", "room", "structure"] { t[part] = 0.3 }
        return t
    }()

    /// Radius (meters) of where a visitor may stand at a place of each type
    /// that has no usable viewport. A shop's or a cafe's location marks it
    /// to within a couple of meters (phone fixes err by more), so small
    /// places are near-points; buildings get a few meters; grounds (parks,
    /// campuses, stadiums, airports) keep their size.
    public static let defaultFootprintRadius: [String: Double] = [
        // Buildings one walks around in.
        "supermarket": 8, "grocery_store": 5, "department_store": 12, "home_improvement_store": 12,
        "furniture_store": 10, "electronics_store": 4, "market": 10, "lodging": 5, "hotel": 5, "hostel": 3,
        "guest_house": 3, "preschool": 5, "library": 5, "city_hall": 6, "courthouse": 6, "police": 4,
        "fire_station": 4, "embassy": 4, "church": 5, "place_of_worship": 5, "mosque": 5, "synagogue": 4,
        "hindu_temple": 4, "movie_theater": 8, "performing_arts_theater": 9, "museum": 10, "art_gallery": 4,
        "gym": 5, "swimming_pool": 8, "car_wash": 4, "car_repair": 4, "car_dealer": 8, "gas_station": 8,
        "tourist_attraction": 5, "historical_landmark": 5, "visitor_center": 4, "bus_station": 10,
        "subway_station": 10, "light_rail_station": 6, "transit_station": 10, "ferry_terminal": 12, "parking": 10,
        // Grounds.
        "school": 40, "primary_school": 35, "secondary_school": 50, "university": 200, "hospital": 60,
        "shopping_mall": 80, "train_station": 60, "campground": 80, "rv_park": 60, "park": 100,
        "national_park": 2000, "protected_area": 2000, "playground": 15, "garden": 30, "botanical_garden": 100,
        "zoo": 150,
        "amusement_park": 200, "aquarium": 40, "stadium": 100, "arena": 60, "sports_complex": 50,
        "athletic_field": 40, "golf_course": 300, "cemetery": 100, "marina": 60, "beach": 120, "ski_resort": 500,
        "airport": 1500, "locality": 2000, "sublocality": 800, "neighborhood": 500, "natural_feature": 300,
    ]
}
