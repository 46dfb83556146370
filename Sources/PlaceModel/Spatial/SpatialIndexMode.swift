/// Where spatial queries find their candidates.
public enum SpatialIndexMode: Sendable, Equatable {
    /// Start with `database` and switch to `memory` once the time spent on
    /// queries reaches what loading the whole index is expected to cost
    /// (the ski-rental rule: never more than twice the better choice).
    case automatic
    /// Load every live place into the in-memory k-d tree once (about a
    /// second per million places), then answer in microseconds.
    case memory
    /// Read only the region around each query through the R*Trees (plain
    /// SQLite): no load time, about a millisecond per query.
    case database
}
