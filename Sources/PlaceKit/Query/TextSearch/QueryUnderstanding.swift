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
        let heads = ["restaurant", "store", "shop", "station", "center", "house", "bar", "cafe", "park", "agency", "clinic"]
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
        if phrase.hasSuffix("s") || phrase.hasSuffix("x") || phrase.hasSuffix("sh") || phrase.hasSuffix("ch") { return phrase + "es" }
        if phrase.hasSuffix("y"), let before = phrase.dropLast().last, !"aeiou".contains(before) { return phrase.dropLast() + "ies" }
        return phrase + "s"
    }

    /// The types of one phrase of folded words, or nil.
    package static func types(_ words: some Collection<String>) -> [String]? {
        table[words.joined(separator: " ")]
    }
}

/// How a text query reads: the words naming a kind of place, the words
/// naming a town or region, and the rest ("pizza in New York": "pizza",
/// "new york", none). `QueryUnderstanding.readings` lists the possible
/// readings of a query; the search keeps the first whose place words name
/// a locality the database knows (`LocalityMatcher`).
package struct QueryReading: Sendable, Equatable {
    /// `TYPE in PLACE`, `TYPE near PLACE`, `TYPE around PLACE`, `TYPE PLACE` or `PLACE TYPE`.
    package var form: String
    /// The query's words that name kinds of place (folded).
    package var typeWords: [String]
    /// The place types they stand for (any of them).
    package var types: [String]
    /// The words naming the town or region.
    package var placeWords: [String]
    /// Words that are neither: they must match names and addresses as in any search.
    package var otherWords: [String]
    /// `in`, `near` or `around`; nil without one.
    package var connector: String?
}

package enum QueryUnderstanding {
    /// Words that join the kind of place to the town.
    package static let connectors: Set<String> = ["in", "near", "around"]
    /// Place words are at most this many.
    static let maxPlaceWords = 6

    /// The readings of a query's folded words, most likely first: with a
    /// connector (its last use, neither first nor last), the words after it
    /// are the place (then the place without its last words, down to one:
    /// "pizza in new york ny"); the words before it hold type phrases
    /// (longest first) and other words. Without one, a query of type words
    /// and other words: type words first then the place, or the place then
    /// the type words. Nothing is checked against the database here.
    package static func readings(_ words: [String]) -> [QueryReading] {
        let n = words.count
        guard n >= 2 else { return [] }
        var out: [QueryReading] = []
        if let k = words.indices.last(where: { connectors.contains(words[$0]) && $0 >= 1 && $0 <= n - 2 }) {
            let left = Array(words[..<k])
            let right = Array(words[(k + 1)...].prefix(maxPlaceWords))
            if right.last == "me" && right.count == 1 { return [] }
            let (typeWords, types, other) = typeSpans(left)
            let form = "TYPE \(words[k]) PLACE"
            for m in stride(from: right.count, through: 1, by: -1) {
                out.append(QueryReading(form: form, typeWords: typeWords, types: types, placeWords: Array(right[..<m]),
                                        otherWords: other, connector: words[k]))
            }
            return out
        }
        // No connector: the type words must cover one end whole (and a
        // connector at an end, "in pizza", is no place).
        if connectors.contains(words[0]) || connectors.contains(words[n - 1]) { return [] }
        for i in stride(from: min(n - 1, QueryTypeWords.maxPhraseWords), through: 1, by: -1) {
            let head = Array(words[..<i]), tail = Array(words[i...])
            if tail.count <= maxPlaceWords, let types = QueryTypeWords.types(head) {
                out.append(QueryReading(form: "TYPE PLACE", typeWords: head, types: types, placeWords: tail, otherWords: [], connector: nil))
            }
        }
        for i in stride(from: max(1, n - QueryTypeWords.maxPhraseWords), through: n - 1, by: 1) {
            let head = Array(words[..<i]), tail = Array(words[i...])
            if head.count <= maxPlaceWords, let types = QueryTypeWords.types(tail) {
                out.append(QueryReading(form: "PLACE TYPE", typeWords: tail, types: types, placeWords: head, otherWords: [], connector: nil))
            }
        }
        return out
    }

    /// The type phrases of `words`, longest first from the left, and the
    /// words that are in none.
    static func typeSpans(_ words: [String]) -> (typeWords: [String], types: [String], other: [String]) {
        var typeWords: [String] = [], types: [String] = [], other: [String] = []
        var i = 0
        while i < words.count {
            var matched = false
            for len in stride(from: min(QueryTypeWords.maxPhraseWords, words.count - i), through: 1, by: -1) {
                if let t = QueryTypeWords.types(words[i..<(i + len)]) {
                    typeWords += words[i..<(i + len)]
                    for x in t where !types.contains(x) { types.append(x) }
                    i += len
                    matched = true
                    break
                }
            }
            if !matched {
                other.append(words[i])
                i += 1
            }
        }
        return (typeWords, types, other)
    }
}
