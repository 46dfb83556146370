/// What became of a place ID.
public enum ResolutionStatus: String, Sendable {
    /// The ID is a current place.
    case current = "CURRENT"
    /// The ID stands for another, current place (chain says how).
    case moved = "MOVED"
    /// The ID (or where its chain ends) is a place that was removed.
    case removed = "REMOVED"
    /// Nothing is known of the ID (or its chain leads nowhere).
    case notFound = "NOT_FOUND"
}
