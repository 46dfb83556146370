/// Answers place queries from a placedb database, offline. Mirrors the
/// Places SDK: `fetchPlace(id:fields:)` returns a `Place`.
///
/// The client opens the file read-only and needs no SpatiaLite. It is not
/// `Sendable`: give each thread its own client.
public final class PlacesClient {
    let store: PlaceStore
    let engine: SpatialEngine

    /// Opens the database at `databasePath` (nil: `PLACEDB_DATABASE`, else
    /// `places.sqlite` in the working directory).
    public init(databasePath: String? = nil, spatialIndex: SpatialIndexMode = .automatic) throws {
        store = try PlaceStore(path: PlaceStore.resolvePath(databasePath), writable: false)
        engine = SpatialEngine(store: store)
        engine.mode = spatialIndex
    }

    /// Where nearby and current-place queries find candidates.
    public var spatialIndexMode: SpatialIndexMode {
        get { engine.mode }
        set { engine.mode = newValue }
    }

    /// The current-place model (changing it drops a loaded index, whose
    /// footprints depend on it).
    public var likelihoodModel: LikelihoodModel {
        get { engine.model }
        set { engine.model = newValue }
    }

    /// Loads the in-memory spatial index now (it is otherwise loaded when
    /// the mode calls for it) and says what it holds.
    @discardableResult
    public func loadSpatialIndex() throws -> SpatialIndexStatistics {
        try engine.loadFull().statistics
    }

    /// The loaded in-memory index, if any.
    public var spatialIndexStatistics: SpatialIndexStatistics? { engine.full?.statistics }

    /// The database file's path.
    public var databasePath: String { store.path }

    /// The number of places stored.
    public func placeCount() throws -> Int { try store.placeCount }

    /// The place with this ID, with only the fields of `fields` in its
    /// document. Throws `PlaceDBError.notFound` for an unknown ID.
    public func fetchPlace(id: PlaceID, fields: FieldMask = .all) throws -> Place {
        guard let place = try store.place(id: id) else { throw PlaceDBError.notFound(id) }
        // The coordinate is always known to the Place value; the document
        // shows `location` only when asked for.
        return place.masked(fields)
    }
}

extension Place {
    /// The Places API (New) JSON of this place restricted to `fields`.
    public func apiJSON(fields: FieldMask) -> JSONObject {
        fields.apply(to: apiJSON)
    }
}
