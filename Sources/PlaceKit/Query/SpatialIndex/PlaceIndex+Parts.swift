import PlaceModel
import PlaceStorage

extension PlaceIndex {
    /// Everything an index holds, as columns: what the stored index writes
    /// and reads back.
    struct Parts {
        var slots: Column<Slot>
        var points: Column<Point3>
        var viewports: Column<GeoRect>
        var shapes: ShapeTable
        var types: Interner
        var sources: Interner
        var nodes: Column<Node>
        var slotsByRowid: Column<Int32>
        var idBytes: Column<UInt8>
    }

    var parts: Parts {
        Parts(
            slots: slotsColumn, points: pointsColumn, viewports: viewportsColumn, shapes: shapes, types: types,
            sources: sources, nodes: nodesColumn, slotsByRowid: slotsByRowidColumn, idBytes: idBytesColumn)
    }
}
