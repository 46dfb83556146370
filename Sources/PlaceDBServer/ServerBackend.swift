import Foundation
import PlaceKit
import PlaceModel

/// Everything the routes ask of the database, in one place: a thin layer
/// over the library's async client, `PlacesClient`. The server holds one
/// client and reaches its pool of read-only connections through
/// `PlacesClient.withReader`, synchronously: libmicrohttpd calls the
/// routes on its own event-loop threads, which must not await; so the
/// server, the library and the CLI run the same engine (`PlaceReader`)
/// through the same pool, and a request waits (up to `maxReaders` at
/// once) as an async call does.
///
/// Each call answers with the bytes or values the CLI prints for the same
/// request (`placedb place`, `nearby`, `current`, `resolve`, `open`,
/// `photo fetch`), so the CLI, the library and the server agree.
package final class ServerBackend: Sendable {
    /// The client every request goes through.
    package let client: PlacesClient
    /// The database file, opened read-only by every connection.
    package var databasePath: String { client.databasePath }

    /// Serves through `client`.
    package init(client: PlacesClient) {
        self.client = client
    }

    /// A client on `databasePath` with up to `connections` read-only
    /// connections (throws what `PlaceReader` throws: no database, not a
    /// placedb file).
    package convenience init(databasePath: String, connections: Int) throws {
        self.init(client: try PlacesClient(openingDatabase: databasePath, maxReaders: max(1, connections)))
    }

    /// Runs `body` with a connection of the client's pool to itself.
    private func withClient<T>(_ body: (PlaceReader) throws -> T) throws -> T {
        try client.withReader(body)
    }

    // MARK: - Place Details

    /// What `placedb place ID --fields MASK [--at TIME]` prints (compact):
    /// the current place an old ID resolves to (with `requestedId`), the
    /// last record of a removed one (with `removedAt`), `openNow` computed
    /// at `time` when asked for. `mask` nil: only computed fields. Written
    /// from the stored bytes (`PlaceReader.placeDetailsJSON`).
    package func placeDetailsJSON(id: PlaceID, mask: FieldMask?, openNow: Bool, at time: HoursQueryTime) throws -> [UInt8] {
        try withClient { try $0.placeDetailsJSON(id: id, fields: mask, openNow: openNow, at: time) }
    }

    // MARK: - Searches

    /// `{"places": [...]}` as `placedb nearby` writes it (compact).
    package func searchNearbyJSON(_ request: NearbySearchRequest, fields: FieldMask) throws -> [UInt8] {
        try withClient { try $0.searchNearbyJSON(request, fields: fields) }
    }

    /// `{"placeLikelihoods": [...], "noneLikelihood": ..}` as `placedb current` writes it (compact).
    package func searchTextJSON(_ request: TextSearchRequest, fields: FieldMask) throws -> [UInt8] {
        try withClient { try $0.searchTextJSON(request, fields: fields) }
    }

    package func autocompleteJSON(_ request: AutocompleteRequest) throws -> [UInt8] {
        try withClient { try $0.autocompleteJSON(request) }
    }

    package func findPlaceLikelihoodsJSON(_ request: CurrentPlaceRequest, fields: FieldMask) throws -> [UInt8] {
        try withClient { try $0.findPlaceLikelihoodsJSON(request, fields: fields) }
    }

    /// The picture `placedb current --svg` draws for the same request.
    func currentPlaceSVG(_ request: CurrentPlaceRequest) throws -> [UInt8] {
        try withClient { Array(try $0.findPlaceLikelihoodScene(request).svg().utf8) }
    }

    // MARK: - IDs and hours

    /// What `placedb resolve ID...` answers for each ID, in one read transaction.
    package func resolve(_ ids: [PlaceID]) throws -> [PlaceIDResolution] {
        try withClient { try $0.resolvePlaceIDs(ids) }
    }

    /// What `placedb open ID --at TIME [--hours KIND]` prints.
    package func openStatus(id: PlaceID, at time: HoursQueryTime, secondary: SecondaryHoursType?) throws -> JSONObject {
        try withClient { client in try client.read {
            // As captured, as 'placedb open' reads it (the hours engine says
            // why it does not use stale current hours); aliases followed
            // inside the transaction.
            guard let current = try client.resolvePlaceIDs([id])[0].placeID else { throw PlaceDBError.notFound(id) }
            let place = try client.fetchStoredPlace(id: PlaceID(current), followAliases: false)
            return OpenStatus.json(place, place.isOpen(at: time, secondaryHoursType: secondary), time: time, secondary: secondary)
        } }
    }

    // MARK: - Photos

    /// The photo's stored image scaled to fit, as `placedb photo fetch`
    /// makes it. Only names the database holds are read: the image bytes
    /// come from the database, never from a path in the request.
    package func photo(name: String, maxWidth: Int, maxHeight: Int) throws -> PhotoImage {
        try withClient { client in
            try client.fetchPhoto(PhotoMetadata(name: name), maxSize: (width: maxWidth, height: maxHeight))
        }
    }

    /// Whether the database lists a photo of this exact name, or holds an image for it.
    func photoExists(name: String) throws -> Bool {
        try withClient { client in
            guard let resolved = try? client.photoMetadata(named: name) else { return false }
            return resolved.name == name
        }
    }

    // MARK: - Operations

    /// The number of places stored (health).
    package func placeCount() throws -> Int {
        try withClient { try $0.placeCount() }
    }
}
