package import PlaceModel
import PlaceStorage

extension PlaceReader {
    /// What the database holds: counts by source, type and status, runs
    /// and snapshots, aliases by reason, size by table and index, schema
    /// version, extent (`placedb info`).
    package func databaseInfo() throws -> DatabaseInfo {
        try store.info()
    }
}
