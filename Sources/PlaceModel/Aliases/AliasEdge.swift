/// An edge from an alias ID to the ID it stands for.
public struct AliasEdge: Sendable, Hashable {
    public var aliasID: String
    public var placeID: String
    public var reason: AliasReason
    /// 0 < confidence <= 1.
    public var confidence: Double
    /// Why, as JSON (a matcher's scores), when there is more to say.
    public var evidence: JSONValue?

    public init(
        aliasID: String, placeID: String, reason: AliasReason, confidence: Double = 1, evidence: JSONValue? = nil
    ) {
        self.aliasID = aliasID
        self.placeID = placeID
        self.reason = reason
        self.confidence = confidence
        self.evidence = evidence
    }

    public static func == (a: AliasEdge, b: AliasEdge) -> Bool {
        a.aliasID == b.aliasID && a.placeID == b.placeID && a.reason == b.reason && a.confidence == b.confidence
    }
    public func hash(into h: inout Hasher) {
        h.combine(aliasID)
        h.combine(placeID)
    }
}
