import Foundation
package import PlaceKit
import PlaceKitGD
package import PlaceModel
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

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
    /// The client requests go through now (a new one once the file was replaced).
    package var client: PlacesClient { state.withLock { $0.client } }
    /// The database file, opened read-only by every connection.
    package let databasePath: String
    /// The database's path as given, absolute and resolved, longest first:
    /// what error messages must not show a client (`APIError.hidingPaths`).
    package let pathsToHide: [String]
    /// How linked records are answered (`serve --unmerged`), kept for a
    /// replaced file's new client.
    let recordView: RecordView
    private let state: Mutex<FileState>
    /// How often (at most) the file is looked at again, in nanoseconds.
    private let checkInterval: UInt64
    /// The map page's landing figures, and the number of places.
    private let summary = KeptUntilChange<JSONObject>()
    private let counted = KeptUntilChange<Int>()

    /// What the backend knows of its file.
    private struct FileState {
        var client: PlacesClient
        /// The file's device and inode when `client` opened it.
        var identity: FileIdentity?
        var lastCheck: UInt64
        /// Why the file cannot be served as it is now (nil: it can).
        var trouble: String?
    }

    /// Serves through `client`; the file is looked at again at most every
    /// `checkInterval` seconds (see `databaseStatus`).
    package init(client: PlacesClient, checkInterval: Double = 1, recordView: RecordView = .merged) {
        // Photo media are scaled with libgd (PlaceKit links none).
        GDImageCodec.install()
        databasePath = client.databasePath
        let absolute = URL(fileURLWithPath: client.databasePath).standardizedFileURL.path
        let resolved = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        pathsToHide = Array(Set([client.databasePath, absolute, resolved])).sorted { $0.count > $1.count }
        self.recordView = recordView
        self.checkInterval = UInt64(max(0, checkInterval) * 1e9)
        state = Mutex(
            FileState(
                client: client, identity: FileIdentity(path: client.databasePath),
                lastCheck: DispatchTime.now().uptimeNanoseconds, trouble: nil))
    }

    /// A client on `databasePath` with up to `connections` read-only
    /// connections (throws what `PlaceReader` throws: no database, not a
    /// placedb file).
    /// `recordView`: linked records merged (the default) or each as imported.
    package convenience init(
        databasePath: String, connections: Int, checkInterval: Double = 1, recordView: RecordView = .merged
    ) throws {
        self.init(
            client: try PlacesClient(
                openingDatabase: databasePath, maxReaders: max(1, connections), recordView: recordView),
            checkInterval: checkInterval, recordView: recordView)
    }

    /// Runs `body` with a connection of the client's pool to itself.
    private func withClient<T>(_ body: (PlaceReader) throws -> T) throws -> T {
        try currentClient().withReader { reader in
            if reader.reportStoredIndexProblem == nil {
                // A damaged stored index is built again; the log says so.
                reader.reportStoredIndexProblem = { line in
                    FileHandle.standardError.write(Data("placedb serve: warning: \(line)\n".utf8))
                }
            }
            return try body(reader)
        }
    }

    /// The client to use, after looking at the file again if it is time:
    /// a file replaced under the same path (a new inode: `mv new.sqlite
    /// places.sqlite`, a copy from a backup) is opened anew, so requests
    /// answer from the new file; a removed file, or a replacement that is
    /// not a placedb database, is reported by `databaseStatus` while the
    /// requests go on answering from the file already open. An import into
    /// the same file is not a replacement (SQLite's WAL shows it to readers).
    private func currentClient() -> PlacesClient {
        let now = DispatchTime.now().uptimeNanoseconds
        return state.withLock { s in
            guard now &- s.lastCheck >= checkInterval else { return s.client }
            s.lastCheck = now
            let identity = FileIdentity(path: databasePath)
            guard let identity else {
                s.trouble = "the database file \(databasePath) was removed; answers come from the copy opened before"
                return s.client
            }
            guard identity != s.identity else {
                s.trouble = nil
                return s.client
            }
            do {
                s.client = try PlacesClient(
                    openingDatabase: databasePath, maxReaders: s.client.maxReaders, recordView: recordView)
                s.identity = identity
                s.trouble = nil
            } catch {
                s.trouble =
                    "the database file \(databasePath) was replaced by one that cannot be opened (\(error)); answers come from the file opened before"
            }
            return s.client
        }
    }

    /// nil while the file at `databasePath` is the one served (checked now),
    /// else what is wrong (health answers NOT_SERVING with it).
    package func databaseStatus() -> String? {
        _ = currentClient()
        return state.withLock { $0.trouble }
    }

    // MARK: - Place Details

    /// What `placedb place ID --fields MASK [--at TIME]` prints (compact):
    /// the current place an old ID resolves to (with `requestedId`), the
    /// last record of a removed one (with `removedAt`), `openNow` computed
    /// at `time` when asked for. `mask` nil: only computed fields. Written
    /// from the stored bytes (`PlaceReader.placeDetailsJSON`).
    package func placeDetailsJSON(
        id: PlaceID, mask: FieldMask?, language: String? = nil, openNow: Bool, at time: HoursQueryTime
    ) throws -> [UInt8] {
        try withClient { try $0.placeDetailsJSON(id: id, fields: mask, language: language, openNow: openNow, at: time) }
    }

    // MARK: - Searches

    /// `{"places": [...]}` as `placedb nearby` writes it (compact).
    package func searchNearbyJSON(_ request: NearbySearchRequest, fields: FieldMask) throws -> [UInt8] {
        try withClient { try $0.searchNearbyJSON(request, fields: fields) }
    }

    /// `{"placeLikelihoods": [...], "noneLikelihood": ..}` as `placedb current` writes it (compact).
    package func searchTextJSON(
        _ request: TextSearchRequest, fields: FieldMask, nextPageToken: Bool = false, places: Bool = true
    ) throws -> [UInt8] {
        try withClient { try $0.searchTextJSON(request, fields: fields, nextPageToken: nextPageToken, places: places) }
    }

    package func autocompleteJSON(_ request: AutocompleteRequest, keeping paths: [[String]]? = nil) throws -> [UInt8] {
        try withClient { try $0.autocompleteJSON(request, keeping: paths) }
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
        try withClient { client in
            try client.read {
                // As captured, as 'placedb open' reads it (the hours engine says
                // why it does not use stale current hours); aliases followed
                // inside the transaction.
                guard let current = try client.resolvePlaceIDs([id])[0].placeID else { throw PlaceDBError.notFound(id) }
                let place = try client.fetchStoredPlace(id: PlaceID(current), followAliases: false)
                return OpenStatus.json(
                    place, place.isOpen(at: time, secondaryHoursType: secondary), time: time, secondary: secondary)
            }
        }
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

    /// Whether the photo of this exact name has a local image (true), is
    /// listed by a place without one (false), or is unknown (nil).
    func photoHasImage(name: String) throws -> Bool? {
        try withClient { client in
            if try client.localImage(for: PhotoMetadata(name: name)) != nil { return true }
            guard let resolved = try? client.photoMetadata(named: name), resolved.name == name else { return nil }
            return false
        }
    }

    // MARK: - The map page

    /// The GeoJSON the map page draws (`PlaceReader.mapFeaturesJSON`).
    package func mapFeaturesJSON(_ request: MapFeatureRequest) throws -> [UInt8] {
        try withClient { try $0.mapFeaturesJSON(request) }
    }

    /// The landing view's figures, as JSON: `places`, `extent` (south,
    /// west, north, east), `bySource`, `byType`, `examples`, `footprints`,
    /// `textIndex`. Counted again only when the database changed (its
    /// change marker), so the page's landing costs a lookup at 1M places.
    package func mapSummaryJSON() throws -> JSONObject {
        try withClient { reader in try summary.value(reader) { try reader.mapSummaryJSON() } }
    }

    /// What the page shows besides Place Details: where the place came from
    /// (`placedb place --provenance`'s source, capture times, linked
    /// records) and its stored extra attributes (OpenStreetMap tags).
    package func mapPlaceJSON(id: PlaceID) throws -> JSONObject {
        try withClient { reader in
            try reader.read {
                let resolved = try reader.resolvePlaceIDs([id])[0]
                guard let current = resolved.placeID else { throw PlaceDBError.notFound(id) }
                let currentID = PlaceID(current)
                var o = JSONObject()
                o["id"] = .string(currentID.rawValue)
                o["provenance"] = .object(try reader.provenance(of: currentID).json)
                if let extra = try reader.storedExtra(of: currentID) { o["extra"] = extra }
                return o
            }
        }
    }

    // MARK: - Operations

    /// The number of places stored (health, the start-up line). Counted
    /// again only when the database changed (its change marker): a count
    /// reads a whole index of the place table, half a second and 2 GB of
    /// pages at 100 million places.
    package func placeCount() throws -> Int {
        try withClient { reader in try counted.value(reader) { try reader.placeCount() } }
    }
}

/// A value computed again only when the database changed (its change
/// marker), shared by the server's connections.
private final class KeptUntilChange<Value: Sendable>: Sendable {
    private let kept = Mutex<(marker: String, value: Value)?>(nil)

    /// The value kept, or `compute`'s when the database changed since.
    func value(_ reader: PlaceReader, _ compute: () throws -> Value) throws -> Value {
        let marker = try reader.changeMarker()
        if let k = kept.withLock({ $0 }), k.marker == marker { return k.value }
        let value = try compute()
        kept.withLock { $0 = (marker, value) }
        return value
    }
}
