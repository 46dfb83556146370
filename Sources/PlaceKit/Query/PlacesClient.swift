/// Answers place queries from a placedb database, offline. Mirrors the
/// Places SDK: `fetchPlace(id:fields:)` returns a `Place`.
///
/// The client opens the file read-only and needs no SpatiaLite. It is not
/// `Sendable`: give each thread its own client.
public final class PlacesClient {
    let store: PlaceStore

    /// Opens the database at `databasePath` (nil: `PLACEDB_DATABASE`, else
    /// `places.sqlite` in the working directory).
    public init(databasePath: String? = nil) throws {
        store = try PlaceStore(path: PlaceStore.resolvePath(databasePath), writable: false)
    }

    /// The database file's path.
    public var databasePath: String { store.path }

    /// The number of places stored.
    public func placeCount() throws -> Int { try store.placeCount }

    /// The place with this ID, with only the fields of `fields` in its
    /// document. Throws `PlaceDBError.notFound` for an unknown ID.
    public func fetchPlace(id: PlaceID, fields: FieldMask = .all) throws -> Place {
        guard var place = try store.place(id: id) else { throw PlaceDBError.notFound(id) }
        if !fields.isAll {
            var masked = fields.apply(to: place.document)
            // The coordinate is always known to the Place value; the
            // document shows `location` only when asked for.
            masked["name"] = nil
            place.document = masked
        }
        return place
    }
}

extension Place {
    /// The Places API (New) JSON of this place restricted to `fields`.
    public func apiJSON(fields: FieldMask) -> JSONObject {
        fields.apply(to: apiJSON)
    }
}
