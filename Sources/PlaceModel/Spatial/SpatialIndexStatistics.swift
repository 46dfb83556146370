/// Facts about the loaded in-memory index.
public struct SpatialIndexStatistics: Sendable {
    public var places: Int
    /// Bytes held by the index's arrays and tree.
    public var bytes: Int
    public var loadSeconds: Double

    package init(places: Int, bytes: Int, loadSeconds: Double) {
        self.places = places
        self.bytes = bytes
        self.loadSeconds = loadSeconds
    }
}
