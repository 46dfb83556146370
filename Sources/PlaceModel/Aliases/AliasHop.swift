/// One hop of a resolution: `from` stands for `to`.
public struct AliasHop: Sendable, Equatable {
    public let from: String
    public let to: String
    public let reason: AliasReason
    public let source: String?
    public let confidence: Double
    /// When the edge was recorded (its import run's time).
    public let recordedAt: String?
    public let evidence: JSONValue?

    package init(
        from: String, to: String, reason: AliasReason, source: String?, confidence: Double, recordedAt: String?,
        evidence: JSONValue?
    ) {
        self.from = from
        self.to = to
        self.reason = reason
        self.source = source
        self.confidence = confidence
        self.recordedAt = recordedAt
        self.evidence = evidence
    }
}
