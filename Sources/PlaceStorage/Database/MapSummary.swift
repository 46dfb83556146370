package import PlaceModel
import SQLiteDB
import Foundation

/// The landing view's figures: the live places' count and extent, the
/// counts by source and by primary type, and a few named places to link to.
package struct MapSummary: Sendable {
    package var places = 0
    package var extent: GeoRect?
    package var bySource: [(name: String, count: Int)] = []
    package var byType: [(name: String, count: Int)] = []
    package var examples: [(placeID: String, name: String, primaryType: String?, point: Coordinate)] = []
    package var textIndex = false
    package var footprints = 0
}
