package import PlaceModel
import PlaceStorage

extension PlaceReader {
    /// What the database holds: counts by source, type and status, runs
    /// and snapshots, aliases by reason, size by table and index, schema
    /// version, extent (`placedb info`). The sizes (SQLite's `dbstat`,
    /// which reads every page of the file) only in a file of at most
    /// `sizesUpTo` bytes.
    package func databaseInfo(sizesUpTo limit: Int = .max) throws -> DatabaseInfo {
        var info = try store.info(sizesUpTo: limit)
        if let s = try storedSpatialIndexStatus() {
            info.spatialIndex = (s.path, s.problem?.state ?? "current", s.problem?.description)
        }
        return info
    }
}
