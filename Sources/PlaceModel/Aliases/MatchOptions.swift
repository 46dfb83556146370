/// How a snapshot links the places it removed to the ones it added.
public struct MatchOptions: Sendable, Equatable {
    /// Candidates are added places within this distance of a removed one.
    public var radiusMeters: Double = 150
    /// The least score (0...1) that records an alias; below it the removed
    /// place stays a tombstone with no alias.
    public var threshold: Double = 0.7
    /// Weights of name similarity, nearness and type agreement (they sum to 1).
    public var nameWeight = 0.6, distanceWeight = 0.25, typeWeight = 0.15

    public init(radiusMeters: Double = 150, threshold: Double = 0.7) {
        self.radiusMeters = radiusMeters
        self.threshold = threshold
    }
}
