import Foundation
import PlaceModel
import PlaceStorage

extension PlaceReader {
    /// The place types a query prediction may name, with their words: the
    /// API's Table A, but the areas one is in rather than looks for
    /// (countries, states, localities, postal codes, school districts).
    static let queryTypes: [(type: String, words: [String])] = PlaceTypes.tableA
        .subtracting([
            "administrative_area_level_1", "administrative_area_level_2", "country", "locality", "postal_code",
            "school_district",
        ])
        .sorted()
        .map { ($0, $0.split(separator: "_").map(String.init)) }

    /// Query predictions for the input: searches it could be completed to,
    /// from the place types the database holds. The input's words before
    /// the last must each be a word of a type (`italian rest` ->
    /// `italian_restaurant`), the last a word of it or, typed on, the start
    /// of one. The completion held by the most types wins, then the
    /// shorter; the predictions, in order:
    ///
    /// 1. the input completed (`pizz` -> `pizza`);
    /// 2. the same near the locality of the bias or restriction centre or
    ///    origin (`pizza near Lausanne`: main text `pizza`, secondary text
    ///    `near Lausanne`), when there is one (`locality(at:)`);
    /// 3. the types the completion is a word of, as words (`pizza
    ///    restaurant`), the shortest first;
    /// 4. for each other completion, its shortest type as words (`rest`
    ///    -> `rest stop` after those of `restaurant`).
    ///
    /// Type words are what `searchText` finds places by, so each
    /// prediction searched finds places of its type.
    func queryPredictions(_ request: AutocompleteRequest, words: [String], lastIsPrefix: Bool, focus: Coordinate?)
        throws -> [AutocompleteQuerySuggestion]
    {
        guard let last = words.last else { return [] }
        let before = words.dropLast()
        var typesByCompletion: [String: [[String]]] = [:]
        for (type, typeWords) in Self.queryTypes where before.allSatisfy(typeWords.contains) {
            let completions = Set(typeWords.filter { lastIsPrefix ? $0.hasPrefix(last) : $0 == last })
            guard !completions.isEmpty, try store.holdsType(type) else { continue }
            for c in completions { typesByCompletion[c, default: []].append(typeWords) }
        }
        let ordered = typesByCompletion.sorted { a, b in
            if a.value.count != b.value.count { return a.value.count > b.value.count }
            if a.key.count != b.key.count { return a.key.count < b.key.count }
            return a.key < b.key
        }
        guard let best = ordered.first else { return [] }
        // The input as typed up to its last word, which is completed.
        let scalars = Array(request.input.unicodeScalars)
        let start = TextMatches.words(scalars).last?.start ?? scalars.count
        let head = TextFolding.collapsed(String(String.UnicodeScalarView(scalars[..<start])))
        func completed(_ word: String) -> String { head.isEmpty ? word : head + " " + word }

        var out: [AutocompleteQuerySuggestion] = []
        var seen = Set<String>()
        func add(_ main: String, secondary: String? = nil) {
            let text = secondary.map { main + " " + $0 } ?? main
            guard out.count < request.maxResultCount, seen.insert(TextFolding.fold(text)).inserted else { return }
            var q = AutocompleteQuerySuggestion(text: text, mainText: main, secondaryText: secondary)
            q.matches = TextMatches.ranges(in: text, query: words, lastIsPrefix: lastIsPrefix)
            (q.mainTextMatches, q.secondaryTextMatches) = TextMatches.split(q.matches, main: main, separator: " ")
            out.append(q)
        }
        let first = completed(best.key)
        add(first)
        if let focus, let locality = try locality(at: focus), let name = locality.displayName?.text, !name.isEmpty {
            add(first, secondary: "near " + name)
        }
        for typeWords in best.value.sorted(by: {
            $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1)
        }) {
            add(typeWords.joined(separator: " "))
        }
        for (_, types) in ordered.dropFirst() {
            if let shortest = types.min(by: {
                $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1)
            }) {
                add(shortest.joined(separator: " "))
            }
        }
        return out
    }
}
