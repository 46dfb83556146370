package import PlaceModel

extension PlaceReader {
    /// The rows of the `k` places nearest to `center` from the whole index
    /// (loaded or mapped first), nearest first: the k-d tree alone, no row
    /// read, for comparing it with other k-nearest structures (`placedb-bench
    /// nearby`).
    package func nearestRowids(to center: Coordinate, k: Int) throws -> [Int64] {
        let index = try engine.loadFull().index
        return index.nearest(to: center, k: k).prefix(k).map { index.rowids[Int($0.slot)] }
    }
}
