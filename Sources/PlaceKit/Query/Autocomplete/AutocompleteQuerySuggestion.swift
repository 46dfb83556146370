import Foundation
public import PlaceModel
import PlaceStorage

/// One query prediction of an autocomplete answer: a search the input
/// could be completed to (`"pizza"`, `"pizza near Lausanne"`).
public struct AutocompleteQuerySuggestion: Sendable, Equatable {
    public var text: String
    /// The query, then what narrows it (`near Lausanne`), when anything does.
    public var mainText: String
    public var secondaryText: String?
    public var matches: [TextRange] = []
    public var mainTextMatches: [TextRange] = []
    public var secondaryTextMatches: [TextRange] = []
}
