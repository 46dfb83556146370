import Foundation
import PlaceModel
import PlaceStorage

/// What one search asks of the index (shared by searchText and autocomplete).
struct TextQueryPlan {
    var words: [String]
    var lastIsPrefix: Bool
    var focus: Coordinate?
    var scale: Double?
    var restriction: SearchArea?
    var types: [String]
    var limit: Int
    /// The result count the candidates are gathered for (`limit` unless
    /// the search pages or filters: then `maxPagedResults`, whatever the
    /// page's size, so that pages are slices of one ranking).
    var window: Int
    /// searchText's `minRating`: candidates rated less (or not at all) are
    /// left out before ranking, and the gathering counts only the others.
    var minRating: Double?
    var byDistance = false
    /// The query as `TextFolding.literal` gives it, and as typed (white space collapsed).
    var literal: String?
    var raw: String?
    /// A listing of places of a type in a town (`QueryUnderstanding`): any
    /// of these words (the query's type words and its types' words) finds
    /// candidates, the type filter keeps those of the types, and the
    /// rating counts in the ranking (`TextRanking.qualityWeight`).
    var listingWords: [String]?
    /// Whether the hits carry their distance from `focus` (not when the
    /// focus is the centre of a town the query named).
    var showsDistance = true
}
