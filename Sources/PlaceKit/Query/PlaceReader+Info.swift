package import PlaceModel
import PlaceStorage

extension PlaceReader {
    /// What the database holds: counts by source, type and status, runs
    /// and snapshots, aliases by reason, size by table and index, schema
    /// version, extent (`placedb info`). The sizes (SQLite's `dbstat`,
    /// which reads every page of the file) only with `sizes`.
    package func databaseInfo(sizes: Bool = true) throws -> DatabaseInfo {
        var info = try store.info(sizes: sizes)
        if let s = try storedSpatialIndexStatus() {
            info.spatialIndex = (s.path, s.problem?.state ?? "current", s.problem?.description)
        }
        return info
    }
}
