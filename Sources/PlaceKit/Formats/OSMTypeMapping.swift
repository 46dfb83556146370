import PlaceModel
import PlaceStorage
/// OpenStreetMap tags -> Places API (New) types (Table A names where one
/// fits). The first match is the primary type; every mapped key adds its
/// type, and "point_of_interest" closes the list. Unmapped values of a POI
/// key fall back to the key's generic type (`shop=*` -> store, ...).
enum OSMTypeMapping {
    /// Keys, in the order they decide the primary type.
    static let keys = ["amenity", "shop", "tourism", "leisure", "healthcare", "office", "craft", "historic", "sport", "public_transport", "railway", "aeroway"]

    static let byTag: [String: [String: String]] = [
        "amenity": [
            "restaurant": "restaurant", "cafe": "cafe", "bar": "bar", "pub": "pub", "biergarten": "bar",
            "fast_food": "fast_food_restaurant", "food_court": "food_court", "ice_cream": "ice_cream_shop",
            "bank": "bank", "atm": "atm", "bureau_de_change": "finance", "pharmacy": "pharmacy",
            "hospital": "hospital", "clinic": "medical_clinic", "doctors": "doctor", "dentist": "dentist",
            "veterinary": "veterinary_care", "school": "school", "university": "university", "college": "university",
            "kindergarten": "preschool", "library": "library", "place_of_worship": "place_of_worship",
            "parking": "parking", "bicycle_parking": "parking", "fuel": "gas_station", "charging_station": "electric_vehicle_charging_station",
            "car_rental": "car_rental", "car_wash": "car_wash", "taxi": "taxi_stand", "bus_station": "bus_station",
            "ferry_terminal": "ferry_terminal", "police": "police", "fire_station": "fire_station", "post_office": "post_office",
            "townhall": "city_hall", "courthouse": "courthouse", "embassy": "embassy", "cinema": "movie_theater",
            "theatre": "performing_arts_theater", "arts_centre": "cultural_center", "community_centre": "community_center",
            "nightclub": "night_club", "casino": "casino", "marketplace": "market", "toilets": "public_bathroom",
            "post_box": "post_office", "shelter": "point_of_interest", "drinking_water": "point_of_interest",
            "social_facility": "social_services_organization", "nursing_home": "assisted_living_facility",
        ],
        "shop": [
            "supermarket": "supermarket", "convenience": "convenience_store", "bakery": "bakery", "butcher": "butcher_shop",
            "clothes": "clothing_store", "shoes": "shoe_store", "books": "book_store", "hairdresser": "hair_salon",
            "beauty": "beauty_salon", "jewelry": "jewelry_store", "electronics": "electronics_store", "mobile_phone": "cell_phone_store",
            "computer": "electronics_store", "furniture": "furniture_store", "hardware": "hardware_store", "doityourself": "home_improvement_store",
            "florist": "florist", "sports": "sporting_goods_store", "mall": "shopping_mall", "department_store": "department_store",
            "car": "car_dealer", "car_repair": "car_repair", "bicycle": "bicycle_store", "pet": "pet_store", "optician": "store",
            "gift": "gift_shop", "alcohol": "liquor_store", "wine": "liquor_store", "confectionery": "candy_store",
            "chemist": "drugstore", "greengrocer": "grocery_store", "deli": "deli", "laundry": "laundry", "dry_cleaning": "laundry",
            "travel_agency": "travel_agency", "kiosk": "store", "tobacco": "store", "toys": "toy_store", "garden_centre": "garden_center",
        ],
        "tourism": [
            "hotel": "hotel", "hostel": "hostel", "motel": "motel", "guest_house": "guest_house", "apartment": "lodging",
            "chalet": "lodging", "alpine_hut": "mountain_hut", "camp_site": "campground", "caravan_site": "rv_park",
            "museum": "museum", "gallery": "art_gallery", "attraction": "tourist_attraction", "viewpoint": "observation_deck",
            "information": "visitor_center", "zoo": "zoo", "aquarium": "aquarium", "theme_park": "amusement_park",
            "artwork": "tourist_attraction", "picnic_site": "picnic_ground",
        ],
        "leisure": [
            "park": "park", "playground": "playground", "sports_centre": "sports_complex", "stadium": "stadium",
            "fitness_centre": "gym", "swimming_pool": "swimming_pool", "garden": "garden", "golf_course": "golf_course",
            "marina": "marina", "pitch": "sports_activity_location", "ice_rink": "ice_skating_rink", "water_park": "water_park",
            "nature_reserve": "national_park", "dog_park": "dog_park", "bowling_alley": "bowling_alley",
        ],
        "healthcare": [
            "hospital": "hospital", "clinic": "medical_clinic", "doctor": "doctor", "dentist": "dentist", "pharmacy": "pharmacy",
            "physiotherapist": "physiotherapist",
        ],
        "railway": ["station": "train_station", "halt": "train_station", "tram_stop": "transit_station"],
        "aeroway": ["aerodrome": "airport", "terminal": "airport"],
        "public_transport": ["station": "transit_station"],
    ]

    /// The generic type of a key when its value is not mapped.
    static let fallback: [String: String] = [
        "amenity": "point_of_interest", "shop": "store", "tourism": "tourist_attraction", "leisure": "point_of_interest",
        "healthcare": "health", "office": "corporate_office", "craft": "point_of_interest", "historic": "historical_landmark",
    ]

    /// The Places types of a feature's tags; empty when no key maps.
    static func types(_ tags: JSONObject) -> [String] {
        var out: [String] = []
        func add(_ t: String) { if !out.contains(t) { out.append(t) } }
        for key in keys {
            guard let value = tags[key]?.stringValue else { continue }
            for v in value.split(separator: ";").map({ String($0.trimmingSpaces) }) {
                if let t = byTag[key]?[v] {
                    add(t)
                } else if key == "amenity" && v == "place_of_worship" {
                    add("place_of_worship")
                } else if let t = fallback[key] {
                    add(t)
                }
            }
        }
        // Religion refines a place of worship, as Google's types do.
        if out.contains("place_of_worship") {
            switch tags["religion"]?.stringValue {
            case "christian": add("church")
            case "muslim": add("mosque")
            case "jewish": add("synagogue")
            case "hindu": add("hindu_temple")
            default: break
            }
        }
        if !out.isEmpty { add("point_of_interest") }
        if out.count > 1 { out.removeAll { $0 == "point_of_interest" }; out.append("point_of_interest") }
        return out
    }
}

/// What a feature of a whole OpenStreetMap export is when no POI key types
/// it (docs/osm-exports.md): a named street, railway, boundary, platform,
/// building ... gets the type of its kind, so the likelihood model can weigh
/// it (`LikelihoodModel.defaultTypeFactors`); a feature with neither a name
/// nor a place tag is not a place, and the reason it is skipped names what
/// it is.
extension OSMTypeMapping {
    /// The type of a named feature without a place type, by what its tags
    /// say it is; nil when they say nothing known (it stays untyped).
    static func kind(_ tags: JSONObject) -> String? {
        func tag(_ k: String) -> String? { tags[k]?.stringValue }
        if let p = tag("place") {
            switch p {
            case "country", "state", "region", "province", "county", "municipality", "district": return "political"
            case "city", "town", "village", "hamlet", "isolated_dwelling", "farm", "locality", "allotments": return "locality"
            case "suburb", "quarter", "neighbourhood", "city_block", "borough", "plot": return "neighborhood"
            case "square": return "plaza"
            case "island", "islet", "archipelago": return "natural_feature"
            default: return "locality"
            }
        }
        if tag("boundary") != nil || tag("type") == "boundary" || tag("admin_level") != nil { return "political" }
        if platformValues.contains(where: { tag($0.key).map($0.value.contains) ?? false }) { return "transit_platform" }
        if tag("railway") != nil { return "railway" }
        if tag("highway") != nil || tag("aerialway") != nil || tag("piste:type") != nil || tag("route") != nil
            || tag("type") == "route" || tag("type") == "route_master" { return "route" }
        if tag("building") != nil || tag("building:part") != nil { return "premise" }
        if tag("natural") != nil || tag("waterway") != nil || tag("water") != nil { return "natural_feature" }
        if tag("landuse") != nil { return "landuse" }
        return nil
    }

    /// Tag values that make a stop or a platform (a part of a station, not
    /// a place of its own).
    static let platformValues: [String: Set<String>] = [
        "public_transport": ["platform", "stop_position", "stop_area"],
        "railway": ["platform", "stop", "subway_entrance", "train_station_entrance"],
        "highway": ["bus_stop", "platform"],
    ]

    static let metadataKeys: Set<String> = ["created_by", "source", "note", "fixme", "FIXME", "comment", "attribution", "check_date"]

    /// Why a feature with neither a name nor a place tag is skipped: what
    /// it is ("road or path", "building", "address", "untagged", ...).
    static func skipReason(_ tags: JSONObject) -> String {
        // No tags, or only tags about the edit (created_by, source ...), not the thing.
        if tags.keys.allSatisfy({ metadataKeys.contains($0) || $0.hasPrefix("source:") || $0.hasPrefix("note:") }) {
            return "untagged"
        }
        func has(_ k: String) -> Bool { tags[k] != nil }
        if has("highway") || has("aerialway") || has("piste:type") { return "road, path or crossing" }
        if has("building") || has("building:part") { return "building" }
        if has("railway") || has("public_transport") { return "railway or transit" }
        if has("landuse") || has("natural") || has("waterway") || has("water") { return "land use or natural" }
        if has("barrier") { return "barrier" }
        if has("power") || has("man_made") { return "power line or structure" }
        if tags.keys.contains(where: { $0.hasPrefix("traffic_sign") || $0.hasPrefix("traffic_signals") }) || has("crossing") { return "road, path or crossing" }
        if has("entrance") { return "entrance" }
        if has("boundary") || has("type") || has("route") { return "boundary, route or relation" }
        if tags.keys.allSatisfy({ $0.hasPrefix("addr:") }) { return "address" }
        return "other"
    }
}
