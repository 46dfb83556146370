public import Foundation
public import PlaceModel

/// Answers place queries from a placedb database, offline, from any task:
/// the async, `Sendable` client, shaped like the Places SDK for Swift
/// (GooglePlacesSwift). Every call is `async throws(PlaceDBError)` and
/// returns values.
///
/// ```swift
/// let client = try PlacesClient(databasePath: "places.sqlite")
/// let place = try await client.fetchPlace(id: "ChIJN1t_tDeuEmsRUsoyG83frY4", fields: [.displayName, .location])
/// let here = try await client.findPlaceLikelihoods(location: place.coordinate, accuracy: 20)
/// ```
///
/// Concurrency: the client keeps a pool of read-only connections (each
/// with its own spatial index and statement cache) and lends one to each
/// call, so up to `maxReaders` calls run at once; further calls wait for a
/// free connection. A call runs on a Dispatch worker thread, not on Swift
/// concurrency's cooperative pool, because SQLite blocks on disk and locks.
/// Writing (imports) goes through its own connection elsewhere
/// (`PlaceImporter`); WAL mode lets it run while the readers read, each
/// reader seeing a consistent snapshot per call.
public final class PlacesClient: Sendable {
    /// The database file's path.
    public let databasePath: String
    /// The most connections open at once (calls running at once).
    public let maxReaders: Int
    private let pool: ReaderPool

    /// Opens the database at `databasePath` read-only (one connection now,
    /// to check it; more as concurrent calls need them, up to
    /// `maxReaders`, default the number of processors). `recordView`:
    /// records linked as one place are answered merged (the default) or
    /// each as imported (docs/linking.md).
    public convenience init(
        databasePath: String, maxReaders: Int? = nil, spatialIndex: SpatialIndexMode = .automatic,
        likelihoodModel: LikelihoodModel = LikelihoodModel(), recordView: RecordView = .merged
    ) throws(PlaceDBError) {
        do {
            try self.init(
                openingDatabase: databasePath, maxReaders: maxReaders, spatialIndex: spatialIndex,
                likelihoodModel: likelihoodModel, recordView: recordView)
        } catch {
            throw PlaceDBError(error, databasePath: databasePath)
        }
    }

    /// The same, throwing what the library throws untyped (a `PlaceDBError`
    /// for anything about the file, SQLite's own errors as they are), for
    /// the command line and the server.
    package init(
        openingDatabase databasePath: String, maxReaders: Int? = nil, spatialIndex: SpatialIndexMode = .automatic,
        likelihoodModel: LikelihoodModel = LikelihoodModel(), recordView: RecordView = .merged
    ) throws {
        let readers = max(1, maxReaders ?? ProcessInfo.processInfo.activeProcessorCount)
        self.maxReaders = readers
        let open: @Sendable () throws -> PlaceReader = {
            let client = try PlaceReader(databasePath: databasePath, spatialIndex: spatialIndex, recordView: recordView)
            client.likelihoodModel = likelihoodModel
            return client
        }
        let first = try open()
        self.databasePath = first.databasePath
        pool = ReaderPool(first: first, limit: readers, open: open)
    }

    // MARK: Place details

    /// The place with this ID, with the fields of `fields`; an ID that moved
    /// gives the place it resolves to (with its current `id`), as the
    /// Places API does. `openNow` is computed at the time of asking (or at
    /// `time`), never served from the capture.
    /// `language` (a BCP 47 tag, as the API's `languageCode`): the
    /// `displayName` in that language where the place has a name in it.
    public func fetchPlace(
        id: PlaceID, fields: FieldMask = .all, language: String? = nil, at time: HoursQueryTime? = nil
    ) async throws(PlaceDBError) -> Place {
        try await run { try $0.fetchPlace(id: id, fields: fields, language: language, at: time ?? .instant(Date())) }
    }

    /// The number of places stored.
    public func placeCount() async throws(PlaceDBError) -> Int {
        try await run { try $0.placeCount() }
    }

    /// What the database holds (what `placedb info` prints): counts,
    /// import runs, aliases, sizes, the schema version and the extent.
    public func databaseInfo(sizes: Bool = true) async throws(PlaceDBError) -> DatabaseInfo {
        try await run { try $0.databaseInfo(sizesUpTo: sizes ? .max : -1) }
    }

    /// What changed between two states of the database (`placedb diff`,
    /// docs/diff.md): places added, removed, moved (more than
    /// `movedThresholdMeters`), renamed, retyped and re-identified, in place
    /// order (re-identifications last), with their counts. With `snapshot`,
    /// only its places and runs; with no sides, its last two imports.
    public func diff(
        snapshot: String? = nil, from: DiffPoint? = nil, to: DiffPoint? = nil,
        movedThresholdMeters: Double = 50
    ) async throws(PlaceDBError) -> (summary: PlaceDiff, changes: [PlaceDiff.Change]) {
        try await run { reader in
            var changes: [PlaceDiff.Change] = []
            let summary = try reader.diff(
                snapshot: snapshot, from: from, to: to, movedThresholdMeters: movedThresholdMeters
            ) { changes.append($0) }
            return (summary, changes)
        }
    }

    /// Where a place's values came from: its source and when each member
    /// was captured (docs/merging.md).
    public func provenance(of id: PlaceID) async throws(PlaceDBError) -> PlaceProvenance {
        try await run { try $0.provenance(of: id) }
    }

    /// Every alias edge stored (an old ID, the ID it leads to, why, from
    /// which source, with what confidence).
    public func aliasEdges() async throws(PlaceDBError) -> [AliasEdge] {
        try await run { try $0.aliasEdges() }
    }

    // MARK: Nearby and current place

    /// Places within a circle, by popularity or distance (Nearby Search).
    public func searchNearby(_ request: NearbySearchRequest, fields: FieldMask = .all) async throws(PlaceDBError)
        -> [NearbyPlace]
    {
        try await run { try $0.searchNearby(request, fields: fields) }
    }

    /// Places within `radius` meters of `center`, most popular first.
    public func searchNearby(
        center: Coordinate, radius: Double, includedTypes: [String] = [], maxResultCount: Int = 20,
        fields: FieldMask = .all
    ) async throws(PlaceDBError) -> [NearbyPlace] {
        try await searchNearby(
            NearbySearchRequest(
                center: center, radiusMeters: radius, includedTypes: includedTypes,
                maxResultCount: maxResultCount), fields: fields)
    }

    /// The places the visitor is likely at, given a fix at `location` with
    /// horizontal `accuracy` in meters (the 68% radius), most likely first
    /// (the model: `LikelihoodModel`); `time` makes opening hours count.
    public func findPlaceLikelihoods(
        location: Coordinate, accuracy: Double, fields: FieldMask = .all, at time: Date? = nil,
        includedTypes: [String] = [], limit: Int = CurrentPlaceRequest.defaultResultCount
    ) async throws(PlaceDBError) -> PlaceLikelihoodList {
        try await findPlaceLikelihoods(
            CurrentPlaceRequest(
                location: location, accuracyMeters: accuracy, time: time,
                includedTypes: includedTypes, maxResultCount: limit), fields: fields)
    }

    public func findPlaceLikelihoods(
        _ request: CurrentPlaceRequest, fields: FieldMask = .all,
        explain: Bool = false
    ) async throws(PlaceDBError) -> PlaceLikelihoodList {
        try await run { try $0.findPlaceLikelihoods(request, fields: fields, explain: explain) }
    }

    /// The current-place answer with each candidate's footprint, in meters
    /// from the fix, to draw (`CurrentPlaceScene.svg()`).
    public func findPlaceLikelihoodScene(_ request: CurrentPlaceRequest, fields: FieldMask = .all)
        async throws(PlaceDBError) -> CurrentPlaceScene
    {
        try await run { try $0.findPlaceLikelihoodScene(request, fields: fields) }
    }

    // MARK: Text search and autocomplete

    /// The places whose names, addresses or types hold the words of
    /// `request.textQuery` (diacritics and case aside; a misspelt word is
    /// corrected against the database's words), best first (Text Search;
    /// the ranking: `TextRanking`, docs/search.md). Removed places never
    /// appear; `openNow` is computed at the time of asking (or at `time`).
    public func searchText(
        _ request: TextSearchRequest, fields: FieldMask = .all,
        at time: HoursQueryTime? = nil
    ) async throws(PlaceDBError) -> [TextSearchResult] {
        try await run { try $0.searchText(request, fields: fields, at: time ?? .instant(Date())) }
    }

    /// `searchText` for a query alone, optionally biased toward `near`.
    public func searchText(
        _ textQuery: String, near: Coordinate? = nil, includedTypes: [String] = [], maxResultCount: Int = 20,
        fields: FieldMask = .all
    ) async throws(PlaceDBError) -> [TextSearchResult] {
        try await searchText(
            TextSearchRequest(
                textQuery: textQuery, locationBias: near.map { .circle(center: $0, radiusMeters: nil) },
                includedTypes: includedTypes, maxResultCount: maxResultCount), fields: fields)
    }

    /// Place predictions for partly typed text (Autocomplete): the words
    /// before the last matched whole, the last as a prefix (unless the
    /// input ends with a space), ranked as `searchText` ranks.
    public func autocomplete(_ request: AutocompleteRequest) async throws(PlaceDBError) -> [AutocompleteSuggestion] {
        try await run { try $0.autocomplete(request) }
    }

    /// Place predictions, then query predictions when the request asks
    /// for them (`includeQueryPredictions`): the whole autocomplete answer.
    public func autocompleteAnswer(_ request: AutocompleteRequest) async throws(PlaceDBError) -> AutocompleteAnswer {
        try await run { try $0.autocompleteAnswer(request) }
    }

    /// The locality `point` falls in (or the nearest one) among the places
    /// of the database: what an approximate current-place answer names.
    public func locality(at point: Coordinate) async throws(PlaceDBError) -> PlaceLocality? {
        try await run { try $0.locality(at: point) }
    }

    /// `autocomplete` for the text typed so far, optionally near `near`
    /// (which also gives each suggestion its `distanceMeters`).
    public func autocomplete(_ input: String, near: Coordinate? = nil, maxResultCount: Int = 5)
        async throws(PlaceDBError) -> [AutocompleteSuggestion]
    {
        try await autocomplete(
            AutocompleteRequest(
                input: input, locationBias: near.map { .circle(center: $0, radiusMeters: nil) },
                origin: near, maxResultCount: maxResultCount))
    }

    // MARK: IDs and hours

    /// What became of a place ID: current, moved (with the chain of alias
    /// hops), removed, or not found.
    public func resolvePlaceID(_ id: PlaceID) async throws(PlaceDBError) -> PlaceIDResolution {
        try await run { try $0.resolvePlaceIDs([id])[0] }
    }

    /// What became of each ID, from one consistent view of the database.
    public func resolvePlaceIDs(_ ids: [PlaceID]) async throws(PlaceDBError) -> [PlaceIDResolution] {
        try await run { try $0.resolvePlaceIDs(ids) }
    }

    /// Whether the place is open at `date` (default: now), from its current
    /// and regular opening hours, business status and time zone.
    public func isOpen(placeID: PlaceID, at date: Date = Date()) async throws(PlaceDBError) -> OpenStatus {
        try await run { try $0.fetchStoredPlace(id: placeID).isOpen(at: date) }
    }

    /// `isOpen` at an instant or at a wall-clock time at the place.
    public func isOpen(placeID: PlaceID, at time: HoursQueryTime) async throws(PlaceDBError) -> OpenStatus {
        try await run { try $0.fetchStoredPlace(id: placeID).isOpen(at: time) }
    }

    // MARK: Photos

    /// The photos of a place (at most ten), each with the attributions
    /// that must be shown with it.
    public func fetchPhotoMetadata(placeID: PlaceID) async throws(PlaceDBError) -> [PhotoMetadata] {
        try await run { try $0.lookUpPhotos(placeID: placeID) }
    }

    /// The photo's local image scaled down to fit `maxWidth` × `maxHeight`
    /// (each 1...4800; aspect ratio kept, never scaled up), encoded as
    /// `format` (nil: as stored).
    public func fetchPhoto(
        _ metadata: PhotoMetadata, maxWidth: Int, maxHeight: Int,
        format: ImageFormat? = nil
    ) async throws(PlaceDBError) -> PhotoImage {
        try await run { try $0.fetchPhoto(metadata, maxSize: (width: maxWidth, height: maxHeight), format: format) }
    }

    // MARK: Running calls

    /// Runs `body` on the calling thread with a connection of the pool to
    /// itself, waiting (blocking the thread) while all `maxReaders` are
    /// lent; rethrows what `body` throws as it is. For callers on threads
    /// of their own that must not await (the HTTP server's event loops):
    /// they share the pool, and its limit, with the async calls. Never
    /// call it from a task of Swift concurrency's cooperative pool.
    package func withReader<T>(_ body: (PlaceReader) throws -> T) throws -> T {
        let reader = try pool.acquireWaiting()
        defer { pool.release(reader) }
        return try body(reader.client)
    }

    /// Runs `body` with a connection of the pool, on a Dispatch thread.
    private func run<T: Sendable>(_ body: @escaping @Sendable (PlaceReader) throws -> T) async throws(PlaceDBError) -> T
    {
        let path = databasePath
        let outcome: Result<T, PlaceDBError>
        do {
            let reader = try await pool.acquire()
            outcome = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    let result: Result<T, PlaceDBError>
                    do { result = .success(try body(reader.client)) } catch {
                        result = .failure(PlaceDBError(error, databasePath: path))
                    }
                    self.pool.release(reader)
                    continuation.resume(returning: result)
                }
            }
        } catch {
            throw PlaceDBError(error, databasePath: path)
        }
        return try outcome.get()
    }
}

extension PlaceDBError {
    /// The error any library call threw, as the client throws it: a
    /// `PlaceDBError` as it is, a bad field mask as `.invalidFieldMask`, an
    /// unreadable input as `.input`, anything else (SQLite's own errors,
    /// which come up through the store as they are) as `.database` of the
    /// client's file.
    package init(_ error: any Error, databasePath: String) {
        switch error {
        case let e as PlaceDBError: self = e
        case let e as FieldMaskError: self = .invalidFieldMask(e)
        case let e as InputError: self = .input(e)
        default: self = .database(path: databasePath, reason: "\(error)")
        }
    }
}
