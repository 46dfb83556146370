import PlaceModel

/// The words of a query that name a kind of place ("pizza", "restaurants",
/// "coffee shop", "pharmacy") and the place types each stands for.
///
/// Built from the Places API's table A (`PlaceTypes.tableA`): each type's
/// words ("pizza restaurant"), their plural ("pizza restaurants"), and for
/// a type named by a kind and a head word (`pizza_restaurant`,
/// `book_store`, `ice_cream_shop`) the kind alone ("pizza", "book",
/// "ice cream") for the type and its head type (`restaurant`, `store`),
/// when the kind is no type of its own; then `synonyms`. Words are folded
/// as the search folds them (`TextFolding`).
package enum QueryTypeWords {
    /// Words the types' own names do not give (folded; plural forms are
    /// added). A type's own name ("pub", "hotel", "cafe") stands for that
    /// type alone.
    package static let synonyms: [String: [String]] = [
        "pizzeria": ["pizza_restaurant", "restaurant"],
        "coffee": ["cafe", "coffee_shop"],
        "chemist": ["pharmacy", "drugstore"],
        "petrol station": ["gas_station"],
        "fuel": ["gas_station"],
        "gas": ["gas_station"],
        "grocery": ["grocery_store", "supermarket"],
        "groceries": ["grocery_store", "supermarket"],
        "food": ["restaurant", "meal_takeaway", "fast_food_restaurant"],
        "fast food": ["fast_food_restaurant"],
        "burger": ["hamburger_restaurant", "restaurant"],
        "steakhouse": ["steak_house", "restaurant"],
        "cinema": ["movie_theater"],
        "hairdresser": ["hair_salon", "hair_care"],
        "shop": ["store"],
        "mall": ["shopping_mall"],
        "post office": ["post_office"],
    ]

    /// Folded phrase (words joined by one space) -> place types.
    package static let table: [String: [String]] = {
        var t: [String: [String]] = [:]
        func add(_ phrase: String, _ types: [String]) {
            for p in [phrase, plural(phrase)] where t[p] == nil { t[p] = types }
        }
        let heads = [
            "restaurant", "store", "shop", "station", "center", "house", "bar", "cafe", "park", "agency", "clinic",
        ]
        for type in PlaceTypes.tableA.sorted() {
            let words = type.split(separator: "_").map(String.init)
            add(words.joined(separator: " "), [type])
        }
        for (phrase, types) in synonyms { t[phrase] = types; t[plural(phrase)] = types }
        for type in PlaceTypes.tableA.sorted() {
            let words = type.split(separator: "_").map(String.init)
            guard words.count >= 2, let head = words.last, heads.contains(head) else { continue }
            let kind = words.dropLast().joined(separator: " ")
            guard t[kind] == nil else { continue }
            let headType = head == "shop" ? "store" : head
            add(kind, PlaceTypes.tableA.contains(headType) ? [type, headType] : [type])
        }
        return t
    }()

    /// Per type, the one-word synonyms that stand for it first ("pizzeria"
    /// for `pizza_restaurant`, "coffee" for `cafe`), in word order: a
    /// listing of the type matches names holding them too.
    package static let otherWords: [String: [String]] = {
        var t: [String: [String]] = [:]
        for (phrase, types) in synonyms.sorted(by: { $0.key < $1.key }) where !phrase.contains(" ") {
            if let kind = types.first { t[kind, default: []].append(phrase) }
        }
        return t
    }()

    /// The longest phrase in the table.
    package static let maxPhraseWords = table.keys.map { $0.split(separator: " ").count }.max() ?? 1

    /// "pizza restaurants", "boxes", "pharmacies".
    static func plural(_ phrase: String) -> String {
        if phrase.hasSuffix("s") || phrase.hasSuffix("x") || phrase.hasSuffix("sh") || phrase.hasSuffix("ch") {
            return phrase + "es"
        }
        if phrase.hasSuffix("y"), let before = phrase.dropLast().last, !"aeiou".contains(before) {
            return phrase.dropLast() + "ies"
        }
        return phrase + "s"
    }

    /// The types of one phrase of folded words, or nil.
    package static func types(_ words: some Collection<String>) -> [String]? {
        table[words.joined(separator: " ")]
    }
}
