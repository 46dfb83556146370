package import SQLiteDB

/// Type restrictions of a nearby search.
package struct TypeFilter: Equatable {
    package var includedTypes: [String] = []
    package var excludedTypes: [String] = []
    package var includedPrimaryTypes: [String] = []
    package var excludedPrimaryTypes: [String] = []
    /// Whether features that are not places (`PlaceStore.notAPlaceSQL`) are wanted.
    package var includeAnonymous = false
    /// Primary types left out (streets, railway lines, rivers, boundaries
    /// when no type filter asks for them: `NearbySearchRequest.unlistedTypes`),
    /// by the index's flag per type code (PlaceKit's `PlaceIndex.hiddenCodes`), not in
    /// SQL (`condition` leaves them to it).
    package var hiddenPrimaryTypes: [String] = []

    /// True when no type restricts the search.
    package var isEmpty: Bool {
        includedTypes.isEmpty && excludedTypes.isEmpty && includedPrimaryTypes.isEmpty && excludedPrimaryTypes.isEmpty
    }

    /// The same filter as an SQL condition on `p`, with its arguments; its
    /// placeholders are numbered after the `bound` ones the statement
    /// already has (`PlaceStore.loadPlaces` builds the whole statement).
    /// Nil when it filters nothing.
    package func condition(after bound: Int) -> (sql: String, arguments: [DatabaseValue])? {
        if isEmpty && includeAnonymous { return nil }
        var parts: [String] = []
        if !includeAnonymous { parts.append("NOT \(PlaceStore.notAPlaceSQL)") }
        var arguments: [DatabaseValue] = []
        func list(_ types: [String]) -> String {
            types.map { t in
                arguments.append(.text(t))
                return "?\(bound + arguments.count)"
            }.joined(separator: ", ")
        }
        if !includedTypes.isEmpty {
            parts.append(
                "EXISTS (SELECT 1 FROM place_type t WHERE t.place = p.id AND t.type IN (\(list(includedTypes))))")
        }
        if !excludedTypes.isEmpty {
            parts.append(
                "NOT EXISTS (SELECT 1 FROM place_type t WHERE t.place = p.id AND t.type IN (\(list(excludedTypes))))")
        }
        if !includedPrimaryTypes.isEmpty { parts.append("p.primary_type IN (\(list(includedPrimaryTypes)))") }
        if !excludedPrimaryTypes.isEmpty {
            parts.append("(p.primary_type IS NULL OR p.primary_type NOT IN (\(list(excludedPrimaryTypes))))")
        }
        return (parts.joined(separator: " AND "), arguments)
    }

    package init(
        includedTypes: [String] = [], excludedTypes: [String] = [], includedPrimaryTypes: [String] = [],
        excludedPrimaryTypes: [String] = [],
        includeAnonymous: Bool = false, hiddenPrimaryTypes: [String] = []
    ) {
        self.includedTypes = includedTypes
        self.excludedTypes = excludedTypes
        self.includedPrimaryTypes = includedPrimaryTypes
        self.excludedPrimaryTypes = excludedPrimaryTypes
        self.includeAnonymous = includeAnonymous
        self.hiddenPrimaryTypes = hiddenPrimaryTypes
    }
}
