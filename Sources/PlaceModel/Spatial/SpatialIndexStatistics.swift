/// Facts about the loaded spatial index.
public struct SpatialIndexStatistics: Sendable {
    public var places: Int
    /// Bytes held by the index's arrays and tree (mapped or in memory).
    public var bytes: Int
    /// Seconds to map (and check) or build the index.
    public var loadSeconds: Double
    /// Whether the index was mapped from the file beside the database
    /// rather than built from its rows.
    public var mapped: Bool
    /// What happened with the stored index file, in one line: mapped,
    /// built (and why: missing, stale, corrupt) and stored or not.
    public var storedIndex: String

    package init(places: Int, bytes: Int, loadSeconds: Double, mapped: Bool = false, storedIndex: String = "") {
        self.places = places
        self.bytes = bytes
        self.loadSeconds = loadSeconds
        self.mapped = mapped
        self.storedIndex = storedIndex
    }
}
