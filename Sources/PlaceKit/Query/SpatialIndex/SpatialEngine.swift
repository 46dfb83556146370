import Foundation
import SQLiteDB
import PlaceModel

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
        let loaded = LoadedIndex(index: built.index, tables: built.tables,
                                 statistics: SpatialIndexStatistics(places: built.index.count, bytes: built.index.byteCount,
                                                                    loadSeconds: MonotonicClock.now() - started))
        full = loaded
        return loaded
    }

    /// Builds an index over `input` with the model's footprints.
    package func build(_ input: PlaceIndexInput) -> (index: PlaceIndex, tables: ModelTables) {
        let tables = ModelTables(model: model, types: input.types, sources: input.sources)
        let index = PlaceIndex(input) { i in
            tables.footprint(model: model, type: input.typeCodes[i], status: input.statuses[i],
                             latitude: input.latitudes[i], longitude: input.longitudes[i],
                             viewport: input.viewportIndexes[i] < 0 ? nil : input.viewports[Int(input.viewportIndexes[i])],
                             shapeReach: input.shapeIndexes[i] < 0 ? nil : input.shapes.infos[Int(input.shapeIndexes[i])].reach)
        }
        return (index, tables)
    }

    // MARK: Type filters

    /// A predicate on slots of `index` for type filters, or nil for none.
    /// Loads each type's places once per index.
    package func typeFilter(_ filter: TypeFilter, in index: PlaceIndex) throws -> ((Int) -> Bool)? {
        // Primary types left out, one flag per type code (features that are
        // not places, streets ...): one array read per place, no strings.
        let hidden = index.hiddenCodes(filter.hiddenPrimaryTypes, anonymous: !filter.includeAnonymous)
        if filter.isEmpty {
            guard let hidden else { return nil }
            return { !hidden[Int(index.typeCodes[$0])] }
        }
        func slots(_ types: [String]) throws -> SlotSet? {
            if types.isEmpty { return nil }
            var union = SlotSet(count: index.count)
            for type in types {
                if index.typeSlotCache[type] == nil {
                    var set = SlotSet(count: index.count)
                    try store.rowids(ofType: type) { rowid in
                        if let s = index.slot(ofRowid: rowid) { set.insert(Int(s)) }
                    }
                    index.typeSlotCache[type] = set
                }
                union.formUnion(index.typeSlotCache[type]!)
            }
            return union
        }
        let included = try slots(filter.includedTypes)
        let excluded = try slots(filter.excludedTypes)
        let includedPrimary = Set(filter.includedPrimaryTypes)
        let excludedPrimary = Set(filter.excludedPrimaryTypes)
        let primaryNames = index.types
        return { slot in
            if let hidden, hidden[Int(index.typeCodes[slot])] { return false }
            if let included, !included.contains(slot) { return false }
            if let excluded, excluded.contains(slot) { return false }
            if !includedPrimary.isEmpty || !excludedPrimary.isEmpty {
                let name = PlaceIndex.primaryType(primaryNames.name(index.typeCodes[slot]))
                if !includedPrimary.isEmpty && !(name.map(includedPrimary.contains) ?? false) { return false }
                if let name, excludedPrimary.contains(name) { return false }
            }
            return true
        }
    }
}

/// The model's per-type and per-source numbers, by the index's codes.
package struct ModelTables {
    package let typeFactor: [Double]
    let typeRadius: [Double]
    package let sourceFactor: [Double]
    /// Per type code: whether its places are containers (`LikelihoodModel.containerTypes`).
    package let isContainer: [Bool]
    let hasContainers: Bool

    package init(model: LikelihoodModel, types: Interner, sources: Interner) {
        isContainer = types.names.map { PlaceIndex.primaryType($0).map(model.containerTypes.contains) ?? false }
        hasContainers = isContainer.contains(true)
        typeFactor = types.names.map { name in
            if name == PlaceIndex.anonymousType { return 0 }
            let type = PlaceIndex.primaryType(name)
            return model.typeFactor(type) * (type == name ? 1 : model.unnamedFactor)
        }
        typeRadius = types.names.map { model.radius(forType: PlaceIndex.primaryType($0)) }
        sourceFactor = sources.names.map { model.sourceFactor($0) }
    }

    /// Half the side of the square footprint of a type radius (equal area).
    package static func halfSide(radius: Double) -> Double { radius * Double.pi.squareRoot() / 2 }

    /// The farthest corner of `v` from (lat, lng), in meters.
    static func viewportReach(_ v: GeoRect, latitude: Double, longitude: Double) -> Double {
        var m = 0.0
        for (la, ln) in [(v.south, v.west), (v.south, v.east), (v.north, v.west), (v.north, v.east)] {
            m = max(m, haversineMeters(latitude, longitude, la, ln))
        }
        return m
    }

    /// The footprint an index keeps for a place: how far from its location
    /// a visitor may stand (with slack for the local projection), and what
    /// the footprint is: its stored shape (polygons or lines; `shapeReach`
    /// is its farthest vertex), else its viewport when the model's
    /// `viewportRule` takes it, else a square by type.
    /// Neither a shape nor a viewport reaching farther than
    /// `maxViewportRadius` is taken (a city is not where one stands).
    package func footprint(model: LikelihoodModel, type: UInt16, status: UInt8, latitude: Double, longitude: Double,
                   viewport: GeoRect?, shapeReach: Double? = nil) -> (extent: Double, from: FootprintSource) {
        if typeFactor[Int(type)] == 0 || status == StatusCode.closedPermanently.rawValue { return (0, .type) }
        if let reach = shapeReach, reach <= model.maxViewportRadius { return (reach * 1.01 + 1, .shape) }
        if let v = viewport, model.viewportRule == .always || ViewportEvidence.classify(v) == .extent {
            let reach = Self.viewportReach(v, latitude: latitude, longitude: longitude)
            if reach <= model.maxViewportRadius { return (reach * 1.01 + 1, .viewport) }
        }
        return (Self.halfSide(radius: typeRadius[Int(type)]) * 2.0.squareRoot() * 1.01 + 1, .type)
    }

    /// The largest extent a place without a usable viewport can have.
    package static func maxTypeExtent(_ model: LikelihoodModel) -> Double {
        let r = max(model.defaultFootprintRadius, model.footprintRadius.values.max() ?? 0)
        return halfSide(radius: r) * 2.0.squareRoot() * 1.01 + 1
    }
}
