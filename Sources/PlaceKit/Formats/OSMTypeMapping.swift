import PlaceModel
/// OpenStreetMap tags -> Places API (New) types: a Table A type where one
/// means what the tag means (the OSM wiki's meaning of the key and value),
/// else a Table B one (`post_box`, `premise`, `route`), else a placedb-only
/// type that says what the feature is (`guidepost`, `bench`, `waterway`:
/// docs/osm-tags.md lists them all). The first match is the primary type;
/// every mapped key adds its type, and "point_of_interest" closes the list.
/// Unmapped values of a POI key fall back to the key's generic type
/// (`shop=*` -> store, ...).
///
/// Stored places keep their tags (`extra.osm.tags`), and the types they
/// were given when imported: a database imported before a change here gets
/// the new types by importing the export again.
enum OSMTypeMapping {
    /// Keys, in the order they decide the primary type.
    static let keys = [
        "amenity", "shop", "tourism", "leisure", "healthcare", "office", "craft", "historic", "sport",
        "public_transport", "railway", "aeroway",
    ]

    static let byTag: [String: [String: String]] = [
        "amenity": [
            "restaurant": "restaurant", "cafe": "cafe", "bar": "bar", "pub": "pub", "biergarten": "bar",
            "fast_food": "fast_food_restaurant", "food_court": "food_court", "ice_cream": "ice_cream_shop",
            "bank": "bank", "atm": "atm", "bureau_de_change": "finance", "pharmacy": "pharmacy",
            "hospital": "hospital", "clinic": "medical_clinic", "doctors": "doctor", "dentist": "dentist",
            "veterinary": "veterinary_care", "school": "school", "university": "university", "college": "university",
            "kindergarten": "preschool", "childcare": "child_care_agency", "library": "library",
            "place_of_worship": "place_of_worship",
            "parking": "parking", "motorcycle_parking": "parking", "parking_entrance": "parking_entrance",
            "parking_space": "parking_space",
            "bicycle_parking": "bicycle_parking", "fuel": "gas_station",
            "charging_station": "electric_vehicle_charging_station",
            "car_rental": "car_rental", "car_wash": "car_wash", "taxi": "taxi_stand", "bus_station": "bus_station",
            "ferry_terminal": "ferry_terminal", "police": "police", "fire_station": "fire_station",
            "post_office": "post_office",
            "townhall": "city_hall", "courthouse": "courthouse", "embassy": "embassy", "cinema": "movie_theater",
            "theatre": "performing_arts_theater", "arts_centre": "cultural_center",
            "community_centre": "community_center",
            "nightclub": "night_club", "casino": "casino", "marketplace": "market", "toilets": "public_bathroom",
            "post_box": "post_box", "shelter": "shelter", "drinking_water": "drinking_water", "bench": "bench",
            "waste_basket": "waste_basket", "vending_machine": "vending_machine", "grave_yard": "cemetery",
            "social_facility": "social_services_organization", "nursing_home": "assisted_living_facility",
        ],
        "shop": [
            "supermarket": "supermarket", "convenience": "convenience_store", "bakery": "bakery",
            "butcher": "butcher_shop",
            "clothes": "clothing_store", "shoes": "shoe_store", "books": "book_store", "hairdresser": "hair_salon",
            "beauty": "beauty_salon", "jewelry": "jewelry_store", "electronics": "electronics_store",
            "mobile_phone": "cell_phone_store",
            "computer": "electronics_store", "furniture": "furniture_store", "hardware": "hardware_store",
            "doityourself": "home_improvement_store",
            "florist": "florist", "sports": "sporting_goods_store", "mall": "shopping_mall",
            "department_store": "department_store",
            "car": "car_dealer", "car_repair": "car_repair", "bicycle": "bicycle_store", "pet": "pet_store",
            "optician": "store",
            "gift": "gift_shop", "alcohol": "liquor_store", "wine": "liquor_store", "confectionery": "candy_store",
            "chemist": "drugstore", "greengrocer": "grocery_store", "deli": "deli", "laundry": "laundry",
            "dry_cleaning": "laundry",
            "travel_agency": "travel_agency", "kiosk": "store", "tobacco": "store", "toys": "toy_store",
            "garden_centre": "garden_center",
        ],
        "tourism": [
            "hotel": "hotel", "hostel": "hostel", "motel": "motel", "guest_house": "guest_house",
            "apartment": "lodging",
            "chalet": "lodging", "alpine_hut": "mountain_hut", "wilderness_hut": "mountain_hut",
            "camp_site": "campground",
            "camp_pitch": "campground", "caravan_site": "rv_park",
            "museum": "museum", "gallery": "art_gallery", "attraction": "tourist_attraction",
            "viewpoint": "observation_deck",
            "zoo": "zoo", "aquarium": "aquarium", "theme_park": "amusement_park",
            "artwork": "tourist_attraction", "picnic_site": "picnic_ground",
                // "information" is decided by the information=* tag (`informationType`).
        ],
        "leisure": [
            "park": "park", "playground": "playground", "sports_centre": "sports_complex", "stadium": "stadium",
            "fitness_centre": "gym", "swimming_pool": "swimming_pool", "garden": "garden", "golf_course": "golf_course",
            "marina": "marina", "pitch": "sports_activity_location", "ice_rink": "ice_skating_rink",
            "water_park": "water_park",
            "nature_reserve": "national_park", "dog_park": "dog_park", "bowling_alley": "bowling_alley",
        ],
        "healthcare": [
            "hospital": "hospital", "clinic": "medical_clinic", "doctor": "doctor", "dentist": "dentist",
            "pharmacy": "pharmacy",
            "physiotherapist": "physiotherapist",
        ],
        "office": [
            "government": "local_government_office", "lawyer": "lawyer", "estate_agent": "real_estate_agency",
            "insurance": "insurance_agency", "accountant": "accounting", "travel_agent": "travel_agency",
        ],
        "craft": [
            "electrician": "electrician", "plumber": "plumber", "painter": "painter", "locksmith": "locksmith",
            "roofer": "roofing_contractor",
        ],
        "railway": ["station": "train_station", "halt": "train_station", "tram_stop": "transit_station"],
        "aeroway": ["aerodrome": "airport", "terminal": "airport", "heliport": "heliport", "helipad": "heliport"],
        "public_transport": ["station": "transit_station"],
    ]

    /// `tourism=information` by its `information=*` (the OSM wiki's kinds):
    /// an office with staff is a visitor centre; a board, a map, a
    /// guidepost, a route marker or a terminal is not one, and has a
    /// placedb-only type of its own; any other value, or none, is an
    /// information point.
    static let informationTypes: [String: String] = [
        "office": "visitor_center", "visitor_centre": "visitor_center", "board": "information_board",
        "map": "information_map",
        "guidepost": "guidepost", "route_marker": "route_marker", "terminal": "information_terminal",
    ]

    static func informationType(_ tags: JSONObject) -> String {
        guard let value = tags["information"]?.stringValue else { return "information_point" }
        return informationTypes[value] ?? "information_point"
    }

    /// The generic type of a key when its value is not mapped.
    static let fallback: [String: String] = [
        "amenity": "point_of_interest", "shop": "store", "tourism": "tourist_attraction",
        "leisure": "point_of_interest",
        "healthcare": "health", "office": "corporate_office", "craft": "point_of_interest",
        "historic": "historical_landmark",
    ]

    /// The Places types of a feature's tags; empty when no key maps.
    static func types(_ tags: JSONObject) -> [String] {
        var out: [String] = []
        func add(_ t: String) { if !out.contains(t) { out.append(t) } }
        for key in keys {
            guard let value = tags[key]?.stringValue else { continue }
            for v in value.split(separator: ";").map({ String($0.trimmingSpaces) }) {
                if key == "tourism" && v == "information" {
                    add(informationType(tags))
                } else if let t = byTag[key]?[v] {
                    add(t)
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
/// it (docs/osm-exports.md, docs/osm-tags.md): a named street, railway,
/// river, boundary, platform, building ... gets the type of its kind, so
/// queries and the likelihood model can tell it apart
/// (`NearbySearchRequest.unlistedTypes`, `LikelihoodModel.defaultTypeFactors`);
/// a feature with neither a name nor a place tag is not a place, and the
/// reason it is skipped names what it is.
extension OSMTypeMapping {
    /// The type of a named feature without a place type, by what its tags
    /// say it is; nil when they say nothing known (it stays untyped).
    static func kind(_ tags: JSONObject) -> String? {
        func tag(_ k: String) -> String? { tags[k]?.stringValue }
        if let p = tag("place") {
            switch p {
            case "country", "state", "region", "province", "county", "municipality", "district": return "political"
            case "city", "town", "village", "hamlet", "isolated_dwelling", "farm": return "locality"
            case "borough": return "sublocality"
            case "suburb", "quarter", "neighbourhood", "city_block": return "neighborhood"
            // A named place with no population: a toponym, not a town.
            case "locality": return "colloquial_area"
            case "plot", "allotments": return "landuse"
            case "square": return "plaza"
            case "archipelago": return "archipelago"
            case "island", "islet", "ocean", "sea": return "natural_feature"
            default: return "locality"
            }
        }
        switch tag("boundary") {
        case "national_park"?: return "national_park"
        case "protected_area"?: return "protected_area"
        case "postal_code"?: return "postal_code"
        case _?: return "political"
        case nil: break
        }
        if tag("type") == "boundary" || tag("admin_level") != nil { return "political" }
        if platformValues.contains(where: { tag($0.key).map($0.value.contains) ?? false })
            || tag("naptan:AtcoCode") != nil
        {
            return "transit_platform"
        }
        if tag("aerialway") == "station" { return "transit_station" }
        if tag("railway") != nil { return "railway" }
        if let h = tag("highway") {
            switch h {
            case "services", "rest_area": return "rest_stop"
            case "pedestrian" where tag("area") == "yes": return "plaza"
            default: return "route"
            }
        }
        if tag("junction") != nil { return "intersection" }
        // A cycle or walking network's node ("rcn": a numbered junction) is a point of a route.
        if tag("aerialway") != nil || tag("piste:type") != nil || tag("route") != nil
            || tag("type") == "route" || tag("type") == "route_master"
            || ["rcn", "rwn", "lcn", "lwn", "ncn", "nwn", "rcn_ref", "rwn_ref"].contains(where: { tag($0) != nil })
            || tags.keys.contains(where: { $0.hasPrefix("traffic_sign") })
        {
            return "route"
        }
        if let w = tag("waterway") { return linearWaterways.contains(w) ? "waterway" : "natural_feature" }
        if tag("entrance") != nil { return "entrance" }
        if tag("building") != nil || tag("building:part") != nil { return "premise" }
        if tag("natural") == "beach" { return "beach" }
        if tag("natural") != nil || tag("water") != nil { return "natural_feature" }
        switch tag("landuse") {
        case "cemetery"?: return "cemetery"
        case "winter_sports"?: return "ski_resort"
        case _?: return "landuse"
        case nil: break
        }
        if tag("man_made") != nil || tag("power") != nil || tag("barrier") != nil || tag("bridge") != nil
            || tag("tunnel") != nil
        {
            return "structure"
        }
        // A fire hydrant, a defibrillator, an emergency phone (often "named" by its number).
        if tag("emergency") != nil { return "emergency_equipment" }
        // Only tags of a former life ("disused:amenity=pub", "was:shop"): a
        // place that closed, still named on the map.
        if tags.keys.contains(where: { key in
            lifecyclePrefixes.contains { key.hasPrefix($0) } || lifecycleSuffixes.contains { key.hasSuffix($0) }
        }) {
            return "disused"
        }
        return nil
    }

    /// OpenStreetMap's lifecycle prefixes and suffixes of a key: the thing
    /// was that, and is no more.
    static let lifecyclePrefixes = [
        "disused:", "abandoned:", "was:", "removed:", "demolished:", "razed:", "destroyed:",
    ]
    static let lifecycleSuffixes = [":disused"]

    /// `waterway=*` values that are lines (a river, a stream, a canal, a
    /// drain, a ditch): listed by name, not near a point. The rest
    /// (waterfalls, rapids, dams, weirs, lock gates, river areas) are
    /// natural features.
    static let linearWaterways: Set<String> = ["river", "stream", "canal", "drain", "ditch", "brook", "tidal_channel"]

    /// Tag values that make a stop or a platform (a part of a station, not
    /// a place of its own).
    static let platformValues: [String: Set<String>] = [
        "public_transport": ["platform", "stop_position", "stop_area"],
        "railway": ["platform", "stop", "subway_entrance", "train_station_entrance"],
        "highway": ["bus_stop", "platform"],
    ]

    static let metadataKeys: Set<String> = [
        "created_by", "source", "note", "fixme", "FIXME", "comment", "attribution", "check_date",
    ]

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
        if tags.keys.contains(where: { $0.hasPrefix("traffic_sign") || $0.hasPrefix("traffic_signals") })
            || has("crossing")
        {
            return "road, path or crossing"
        }
        if has("entrance") { return "entrance" }
        if has("boundary") || has("type") || has("route") { return "boundary, route or relation" }
        if tags.keys.allSatisfy({ $0.hasPrefix("addr:") }) { return "address" }
        return "other"
    }
}
