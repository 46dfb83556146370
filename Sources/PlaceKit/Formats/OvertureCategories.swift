import PlaceModel

/// Overture category codes -> Places API (New) types: the same name where
/// the Places vocabulary has it, else a parent that fits.
enum OvertureCategories {
    static let direct: [String: String] = [
        "eat_and_drink": "food", "food_and_drink": "food", "accommodation": "lodging", "coffee_shop": "coffee_shop",
        "cafe": "cafe", "bar": "bar", "pub": "pub", "hotel": "hotel", "motel": "motel", "hostel": "hostel",
        "supermarket": "supermarket", "grocery_store": "grocery_store", "convenience_store": "convenience_store",
        "bakery": "bakery", "pharmacy": "pharmacy", "hospital": "hospital", "dentist": "dentist", "doctor": "doctor",
        "gas_station": "gas_station", "parking": "parking", "bank": "bank", "atm": "atm", "school": "school",
        "park": "park", "museum": "museum", "art_gallery": "art_gallery", "library": "library", "gym": "gym",
        "casual_eatery": "restaurant", "fast_food_restaurant": "fast_food_restaurant", "beauty_salon": "beauty_salon",
        "hair_salon": "hair_salon", "clothing_store": "clothing_store", "shopping": "store", "retail": "store",
        "professional_services": "point_of_interest", "church_cathedral": "church", "mosque": "mosque",
        "place_of_worship": "place_of_worship", "landmark_and_historical_building": "historical_landmark",
        "airport": "airport", "train_station": "train_station", "bus_station": "bus_station",
    ]

    static func placesType(_ category: String) -> String {
        if let t = direct[category] { return t }
        if category.hasSuffix("_restaurant") { return category }
        if category.hasSuffix("_store") || category.hasSuffix("_shop") { return category }
        return category
    }
}
