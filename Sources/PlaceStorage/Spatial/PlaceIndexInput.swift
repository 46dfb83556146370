package import PlaceModel

/// Places read from the database, in load order, before the index is built.
package struct PlaceIndexInput {
    package var rowids: [Int64] = []
    package var latitudes: [Double] = []
    package var longitudes: [Double] = []
    package var typeCodes: [UInt16] = []
    package var statuses: [UInt8] = []
    package var sourceCodes: [UInt16] = []
    package var ratingCounts: [Int32] = []
    /// Index into `viewports`, or -1.
    package var viewportIndexes: [Int32] = []
    package var viewports: [GeoRect] = []
    /// Index into `shapes` (the stored footprint), or -1.
    package var shapeIndexes: [Int32] = []
    package var shapes = ShapeTable()
    /// Interned primary types (code 0 is "no type") and sources.
    package var types = Interner()
    package var sources = Interner()

    /// Each place's ID, as UTF-8 bytes end to end: place i's are
    /// `idBytes[idEnds[i - 1]..<idEnds[i]]`. Read for the whole index only
    /// (empty for a regional one), so that answers asking for IDs alone
    /// read no row.
    package var idBytes: [UInt8] = []
    package var idEnds: [Int64] = []

    package var count: Int { rowids.count }

    mutating func reserve(_ n: Int) {
        rowids.reserveCapacity(n)
        latitudes.reserveCapacity(n)
        longitudes.reserveCapacity(n)
        typeCodes.reserveCapacity(n)
        statuses.reserveCapacity(n)
        sourceCodes.reserveCapacity(n)
        ratingCounts.reserveCapacity(n)
        viewportIndexes.reserveCapacity(n)
        shapeIndexes.reserveCapacity(n)
    }
}
