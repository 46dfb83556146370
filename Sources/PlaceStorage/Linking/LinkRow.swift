import Foundation
import SQLiteDB
import PlaceModel

/// One place as the linker sees it.
struct LinkRow {
    let rowid: Int64
    /// The source, interned (`PlaceLinker.sourceNames`): rows copy without reference counting.
    let source: Int32
    let firstRun: Int64
    let lastRun: Int64
    let live: Bool
    let coordinate: Coordinate
    let extentMeters: Double
    /// The footprint's bounding box (viewport or stored shape), degrees.
    let box: GeoRect?
}
