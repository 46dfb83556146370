import Foundation
public import PlaceModel
import PlaceStorage

/// One place prediction of an autocomplete answer.
public struct AutocompleteSuggestion: Sendable, Equatable {
    public var placeID: PlaceID
    /// The name, then the address after a comma.
    public var text: String
    public var mainText: String
    public var secondaryText: String?
    public var types: [String]
    /// From the origin (else the bias center), when there is one.
    public var distanceMeters: Double?
    package var ranking: TextRanking.Factors
    /// Where the input matches `text`, `mainText` and `secondaryText`
    /// (code points; `TextMatches`).
    public var matches: [TextRange] = []
    public var mainTextMatches: [TextRange] = []
    public var secondaryTextMatches: [TextRange] = []
}
