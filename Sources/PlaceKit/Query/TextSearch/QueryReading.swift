import PlaceModel

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
