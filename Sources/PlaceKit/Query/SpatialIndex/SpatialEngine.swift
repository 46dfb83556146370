import Foundation
package import PlaceModel
package import PlaceStorage

/// The state behind `PlaceReader`'s spatial queries: the in-memory index
/// when loaded, the time spent on regional queries, the model.
package final class SpatialEngine {
    package let store: PlaceStore
    package var mode: SpatialIndexMode = .automatic
    package var model = LikelihoodModel() {
        didSet { full = nil }
    }
    /// The whole database in memory, with the data version it was read at.
    package private(set) var full: LoadedIndex?
    private var dataVersion: Int64?
    private var regionalSeconds = 0.0
    private var estimatedLoadSeconds: Double?

    package struct LoadedIndex {
        package let index: PlaceIndex
        package let tables: ModelTables
        package let statistics: SpatialIndexStatistics
    }

    package init(store: PlaceStore) {
        self.store = store
    }

    /// Drops a cached index when another connection changed the database.
    private func checkFreshness() throws {
        let version = try store.dataVersion()
        if let dataVersion, dataVersion != version {
            full = nil
            estimatedLoadSeconds = nil
        }
        dataVersion = version
    }

    /// The index to answer from: the full one (loading it if the mode says
    /// so), or nil for a regional query.
    package func indexForQuery() throws -> LoadedIndex? {
        try checkFreshness()
        if let full { return full }
        switch mode {
        case .database: return nil
        case .memory: return try loadFull()
        case .automatic:
            if estimatedLoadSeconds == nil {
                // About a microsecond per place (measured at 1M).
                estimatedLoadSeconds = Double(try store.maxRowid()) * 1.0e-6
            }
            return regionalSeconds >= estimatedLoadSeconds! ? try loadFull() : nil
        }
    }

    /// Counts time spent answering from the database (for `automatic`).
    package func charge(_ seconds: Double) { regionalSeconds += seconds }

    @discardableResult
    package func loadFull() throws -> LoadedIndex {
        if let full { return full }
        let started = MonotonicClock.now()
        let input = try store.loadAllPlaces()
        let built = build(input)
        let loaded = LoadedIndex(
            index: built.index, tables: built.tables,
            statistics: SpatialIndexStatistics(
                places: built.index.count, bytes: built.index.byteCount,
                loadSeconds: MonotonicClock.now() - started))
        full = loaded
        return loaded
    }

    /// Builds an index over `input` with the model's footprints.
    package func build(_ input: PlaceIndexInput) -> (index: PlaceIndex, tables: ModelTables) {
        let tables = ModelTables(model: model, types: input.types, sources: input.sources)
        let index = PlaceIndex(input) { i in
            tables.footprint(
                model: model, type: input.typeCodes[i], status: input.statuses[i],
                latitude: input.latitudes[i], longitude: input.longitudes[i],
                viewport: input.viewportIndexes[i] < 0 ? nil : input.viewports[Int(input.viewportIndexes[i])],
                shapeReach: input.shapeIndexes[i] < 0 ? nil : input.shapes.infos[Int(input.shapeIndexes[i])].reach)
        }
        return (index, tables)
    }
}
