import PlaceModel
import PlaceStorage

extension PlaceIndex {
    /// Everything an index holds, as columns: what the stored index writes
    /// and reads back.
    struct Parts {
        var rowids: Column<Int64>
        var latitudes: Column<Double>
        var longitudes: Column<Double>
        var points: Column<Point3>
        var typeCodes: Column<UInt16>
        var statuses: Column<UInt8>
        var sourceCodes: Column<UInt16>
        var ratingCounts: Column<Int32>
        var viewportIndexes: Column<Int32>
        var viewports: Column<GeoRect>
        var shapeIndexes: Column<Int32>
        var shapes: ShapeTable
        var extents: Column<Float>
        var types: Interner
        var sources: Interner
        var nodes: Column<Node>
        var slotsByRowid: Column<Int32>
        var idEnds: Column<Int64>
        var idBytes: Column<UInt8>
    }

    var parts: Parts {
        Parts(
            rowids: rowidsColumn, latitudes: latitudesColumn, longitudes: longitudesColumn, points: pointsColumn,
            typeCodes: typeCodesColumn, statuses: statusesColumn, sourceCodes: sourceCodesColumn,
            ratingCounts: ratingCountsColumn, viewportIndexes: viewportIndexesColumn, viewports: viewportsColumn,
            shapeIndexes: shapeIndexesColumn, shapes: shapes, extents: extentsColumn, types: types, sources: sources,
            nodes: nodesColumn, slotsByRowid: slotsByRowidColumn, idEnds: idEndsColumn, idBytes: idBytesColumn)
    }
}
