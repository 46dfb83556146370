import PlaceModel

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
                out.append(
                    QueryReading(
                        form: form, typeWords: typeWords, types: types, placeWords: Array(right[..<m]),
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
                out.append(
                    QueryReading(
                        form: "TYPE PLACE", typeWords: head, types: types, placeWords: tail, otherWords: [],
                        connector: nil))
            }
        }
        for i in stride(from: max(1, n - QueryTypeWords.maxPhraseWords), through: n - 1, by: 1) {
            let head = Array(words[..<i]), tail = Array(words[i...])
            if head.count <= maxPlaceWords, let types = QueryTypeWords.types(tail) {
                out.append(
                    QueryReading(
                        form: "PLACE TYPE", typeWords: tail, types: types, placeWords: head, otherWords: [],
                        connector: nil))
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
