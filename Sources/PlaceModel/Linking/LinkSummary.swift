/// What one linking pass did (`import` and `placedb link`).
public struct LinkSummary: Sendable, Equatable {
    /// Places whose links were (re)computed.
    public var examined = 0
    /// Pairs scored (eligible candidates within reach).
    public var scored = 0
    /// Pairs at or above the threshold (links written).
    public var linked = 0
    /// Groups of two or more records among those the pass touched.
    public var groups = 0
    /// Records in those groups.
    public var grouped = 0
    /// Links a group could not take: some member of one side did not fit
    /// some member of the other (chaining refused), or a `different` rule.
    public var refused = 0
    public var seconds = 0.0
    /// The pass found the changed places by the rows the import tracked
    /// as it wrote them, not by reading every place's runs.
    package var changesFromRowsWritten = false
    public init() {}
}
