import Foundation
public import PlaceModel
import PlaceStorage

/// The synchronous query engine on one read-only connection: what the CLI
/// and the benchmarks call, and what `PlacesClient` (the async, `Sendable`
/// client for apps and servers) lends to each call from its pool.
///
/// It opens the file read-only and needs no SpatiaLite. It is not
/// `Sendable`: one owner at a time (a thread, or one `PlacesClient` call).
package final class PlaceReader {
    let store: PlaceStore
    let engine: SpatialEngine
    /// How text search and autocomplete weigh their factors.
    package lazy var textRanking = TextRanking()
    /// Text ranking settles places best bound first (tests turn it off to compare with scoring every place whole).
    var boundsTextRanking = true
    /// Text ranking bounds a match by the word lists' rank inputs before it
    /// reads its row (`RankInputs`; tests turn it off to compare with
    /// reading every match).
    package var ranksFromWordLists = true
    /// How many text matches this reader answered from the word lists, and
    /// how many matches came unread (`RankInputs`), and how many matched
    /// rows were read one by one (the search bench prints them).
    package var wordListUse: (queries: Int, unread: Int, read: Int) {
        (store.textMatchesFromWordLists, store.textMatchesUnread, store.matchedRowsRead)
    }
    /// Autocomplete's last word is matched as the vocabulary's words that
    /// start with it when there are at most this many (`QueryTerm.expansions`;
    /// tests set 0 to compare with FTS5's own prefix query).
    var prefixExpansionLimit = 32
    /// A prefix with more words than that is looked for in the rows the
    /// other words (or the grid cells) match when that likely reads less
    /// (`PrefixSplit.cheaper`: a row read costs about this many postings
    /// of the prefix query; tests set `.infinity` to compare with FTS5's own
    /// prefix query, 0 to read the rows whenever their number is bounded).
    var prefixRowCost = 32.0
    /// Text search reads every place matching the words in one FTS5 query
    /// (instead of one per grid level) when at most this many likely match
    /// (below 2,000, the levels' cut; tests set 0 to compare with the
    /// levels' own queries).
    var completeMatchLimit = 300
    /// `locality(at:)` reads every place of the locality types when at most
    /// this many exist, else by region (tests set 0 to compare the two).
    var localityTypeScanLimit = 4096
    /// The last mask's plan: a server asks with the same few masks, and
    /// preparing one costs more than comparing masks.
    private var lastPlan: MaskPlan?
    /// Place words already matched to a locality (or to none), while the
    /// database is unchanged (`PlaceStore.changeMarker`): the GeoNames
    /// alternate names and addresses are scans (`LocalityMatcher`).
    var localityMemo: (marker: String, matches: [String: MatchedLocality?]) = ("", [:])
    /// The rankings of the last paged searches (at most 16), by request
    /// (`TextSearchRequest.pageKey`): the next page's token, asked of this
    /// reader, continues one without ranking again (`textSearchPage`).
    var pageMemo: [UInt64: PagedRanking] = [:]

    /// Opens the database at `databasePath` (nil: `places.sqlite` in the
    /// working directory). `recordView`: whether records linked as one
    /// place are merged (the default) or each answered as imported.
    package init(
        databasePath: String? = nil, spatialIndex: SpatialIndexMode = .automatic, recordView: RecordView = .merged
    ) throws {
        store = try PlaceStore(path: try PlaceStore.resolvePath(databasePath), writable: false)
        store.recordView = recordView
        engine = SpatialEngine(store: store)
        engine.mode = spatialIndex
    }

    /// Where nearby and current-place queries find candidates.
    var spatialIndexMode: SpatialIndexMode {
        get { engine.mode }
        set { engine.mode = newValue }
    }

    /// The current-place model (changing it drops a loaded index, whose
    /// footprints depend on it).
    package var likelihoodModel: LikelihoodModel {
        get { engine.model }
        set { engine.model = newValue }
    }

    /// Loads the in-memory spatial index now (it is otherwise loaded when
    /// the mode calls for it) and says what it holds.
    @discardableResult
    package func loadSpatialIndex() throws -> SpatialIndexStatistics {
        try engine.loadFull().statistics
    }

    /// The stored spatial index beside the database: its path, what keeps
    /// it from being mapped (nil: current) and whether its checksums were
    /// recorded as read; nil when it is not kept in a file. Reads its
    /// header alone.
    package func storedSpatialIndexStatus() throws -> (path: String, problem: StoredIndexProblem?, checked: Bool)? {
        try engine.storedIndexStatus()
    }

    /// Asks for the spatial index's memory on the way to each of
    /// `centers` (`PlaceIndex.warmDescents`), when the whole index is
    /// loaded: a batch calls it for the lines it is about to answer, so
    /// that their descents' reads overlap. Changes no answer.
    package func warmSpatialIndex(_ centers: [Coordinate]) {
        engine.full?.index.warmDescents(centers)
    }

    /// Whether the spatial index is kept in a file beside the database
    /// (docs/spatial-index.md); off, every load builds it from the rows.
    package var storesSpatialIndex: Bool {
        get { engine.storesIndex }
        set { engine.storesIndex = newValue }
    }

    /// Told, in one line, when the stored spatial index was damaged or
    /// written by another placedb and is built again.
    package var reportStoredIndexProblem: ((String) -> Void)? {
        get { engine.reportStoredIndexProblem }
        set { engine.reportStoredIndexProblem = newValue }
    }

    /// The loaded in-memory index, if any.
    var spatialIndexStatistics: SpatialIndexStatistics? { engine.full?.statistics }

    /// The database file's path.
    package var databasePath: String { store.path }

    /// The number of places stored.
    package func placeCount() throws -> Int { try store.placeCount }

    private lazy var resolver: PlaceIDResolver? = try? store.makeResolver()

    /// What became of a place ID: CURRENT, MOVED (with the chain of alias
    /// hops, each with its reason, source, confidence and date), REMOVED
    /// (a tombstone with its date) or NOT_FOUND. Cycles are detected and
    /// reported, never followed.
    package func resolvePlaceID(_ id: PlaceID) throws -> PlaceIDResolution {
        guard let resolver else {
            throw PlaceDBError.database(path: store.path, reason: "cannot prepare the alias queries")
        }
        if !store.isInTransaction { try resolver.refreshAliasKeys() }
        return try resolver.resolve(id.rawValue)
    }

    /// Resolves many IDs in one read transaction: one consistent view of
    /// the database, and no locking per ID (several times faster than
    /// calling `resolvePlaceID` in a loop).
    package func resolvePlaceIDs(_ ids: [PlaceID]) throws -> [PlaceIDResolution] {
        try read {
            guard let resolver else {
                throw PlaceDBError.database(path: store.path, reason: "cannot prepare the alias queries")
            }
            try resolver.refreshAliasKeys()
            return try ids.map { try resolver.resolve($0.rawValue) }
        }
    }

    /// Runs `body` in one read transaction (a consistent snapshot; SQLite
    /// takes its locks once instead of per query).
    package func read<T>(_ body: () throws -> T) throws -> T {
        try store.read(body)
    }

    /// Every alias edge recorded, oldest first (for audits and evaluations).
    package func aliasEdges() throws -> [AliasEdge] {
        try store.aliasEdges()
    }

    /// The place with this ID, with only the fields of `fields` in its
    /// document. With `followAliases` (the default), an old ID gives the
    /// current place it resolves to, with its current `id`, as the Places
    /// API does; a removed place gives its last record. Throws
    /// `PlaceDBError.notFound` when nothing is known of the ID.
    ///
    /// The place is served at `time` (now by default; `Place.served(at:)`):
    /// `openNow` inside its hours is whether it is open then, computed by
    /// the hours engine (left out when it cannot be decided), never the
    /// captured value, and current hours that ended more than
    /// `Place.staleCurrentHoursDays` days before are left out.
    /// `fetchStoredPlace` gives the record as captured.
    ///
    /// `language` (a BCP 47 tag, `languageCode`): `displayName` is the
    /// place's name in that language where it has one (`NameLanguage`).
    package func fetchPlace(
        id: PlaceID, fields: FieldMask = .all, language: String? = nil, followAliases: Bool = true,
        at time: HoursQueryTime = .instant(Date())
    ) throws -> Place {
        // Whole, so the hours engine sees everything it reads; then masked.
        // The coordinate is always known to the Place value; the document
        // shows `location` only when asked for.
        var place = try fetchStoredPlace(id: id, followAliases: followAliases).served(at: time)
        if let language { place = try store.localized(place, plan: MaskPlan(.all, language: language)) }
        return place.masked(fields)
    }

    /// The place with this ID as the database holds it, whole: its hours
    /// as captured (`openNow` is the capture's answer, stale current hours
    /// included), for evaluating or exporting them. Aliases are followed
    /// as by `fetchPlace`. Serve places with `fetchPlace`.
    package func fetchStoredPlace(id: PlaceID, followAliases: Bool = true) throws -> Place {
        var target = id
        if followAliases {
            let resolution = try resolvePlaceID(id)
            guard let placeID = resolution.placeID else { throw PlaceDBError.notFound(id) }
            target = PlaceID(placeID)
        }
        guard let place = try store.place(id: target) else { throw PlaceDBError.notFound(id) }
        return place
    }
}

extension PlaceReader {
    /// The Place Details answer, compact: the bytes of what `placedb place
    /// ID --fields MASK --at TIME` builds (`fetchPlace` then `apiJSON`),
    /// written straight from the stored document (`PlaceJSON.write`, no
    /// decoding of the members copied). An old ID answers with the current
    /// place and `requestedId`; a removed one with its last record and
    /// `removedAt`; `openNow` (when asked for and known) computed at `time`.
    /// `fields` nil: only those computed members. For servers.
    package func placeDetailsJSON(
        id: PlaceID, fields: FieldMask?, language: String? = nil, openNow: Bool, at time: HoursQueryTime
    ) throws -> [UInt8] {
        // One read transaction: one snapshot, and SQLite's locks taken once.
        try read {
            guard let resolver else {
                throw PlaceDBError.database(path: store.path, reason: "cannot prepare the alias queries")
            }
            // The alias keys brought up to date inside the transaction.
            try resolver.refreshAliasKeys()
            let plan = fields.map { maskPlan($0, language: language) }
            if !resolver.mayBeAlias(id.rawValue) {
                // No alias: a current place answers as itself, from one
                // row read (what resolving it would read first).
                var out: [UInt8] = []
                out.reserveCapacity(4096)
                if try store.writePlaceDetailsJSON(
                    placeID: id, plan: plan, trailing: [], openNow: openNow, servedAt: time,
                    currentOnly: true, into: &out)
                {
                    return out
                }
            }
            let resolution = try resolver.resolve(id.rawValue)
            guard let current = resolution.placeID else { throw PlaceDBError.notFound(id) }
            var trailing: [(String, JSONValue)] = []
            if resolution.status == .moved {
                trailing.append(("requestedId", .string(id.rawValue)))
            } else if resolution.status == .removed {
                trailing.append(("removedAt", resolution.removedAt.map(JSONValue.string) ?? .null))
            }
            var out: [UInt8] = []
            out.reserveCapacity(4096)
            guard
                try store.writePlaceDetailsJSON(
                    placeID: PlaceID(current), plan: plan, trailing: trailing,
                    openNow: openNow, servedAt: time, into: &out)
            else {
                throw PlaceDBError.notFound(id)
            }
            return out
        }
    }
}

extension PlaceReader {
    /// `place` with `displayName` in `language` (nil: as it is).
    func localized(_ place: Place, _ language: String?) throws -> Place {
        guard let language else { return place }
        return try store.localized(place, plan: MaskPlan(.all, language: language))
    }

    /// `MaskPlan(fields)`, kept for the next request with the same mask.
    func maskPlan(_ fields: FieldMask, language: String? = nil) -> MaskPlan {
        if let plan = lastPlan, plan.fields == fields, plan.language == language { return plan }
        let plan = MaskPlan(fields, language: language)
        lastPlan = plan
        return plan
    }
}

extension Place {
    /// The Places API (New) JSON of this place restricted to `fields`.
    public func apiJSON(fields: FieldMask) -> JSONObject {
        fields.apply(to: apiJSON)
    }
}

extension PlaceReader {
    /// The box around the database's places (single precision, rounded
    /// outwards), nil when it has none: what a query point far outside is
    /// warned against (`FarPoint`).
    package func placesExtent() throws -> GeoRect? {
        try store.read { try store.indexedExtent() }
    }
}
