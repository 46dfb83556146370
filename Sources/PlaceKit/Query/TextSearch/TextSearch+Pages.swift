import Foundation
import PlaceModel
import PlaceStorage
#if canImport(Glibc)
    import Glibc
#endif

/// A `nextPageToken` of searchText: which request it continues (a hash of
/// the request without `pageToken`, `pageSize` and `maxResultCount`),
/// which state of the database (`PlaceStore.changeMarker`) and where the
/// next page starts. A token is good for the same request on the same
/// database, on any connection and after a restart of the server; any
/// other use is an `invalidArgument` saying why.
struct TextSearchPageToken: Equatable {
    var request: UInt64
    var database: String
    var offset: Int

    /// `v1.<request hash>.<database marker>.<offset>` in URL-safe base64 (no padding).
    var text: String {
        let plain = "v1.\(String(request, radix: 16)).\(database).\(offset)"
        var bytes = Array(Data(plain.utf8).base64EncodedString().utf8)
        bytes.removeAll { $0 == UInt8(ascii: "=") }
        for i in bytes.indices {
            if bytes[i] == UInt8(ascii: "+") { bytes[i] = UInt8(ascii: "-") }
            if bytes[i] == UInt8(ascii: "/") { bytes[i] = UInt8(ascii: "_") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    init(request: UInt64, database: String, offset: Int) {
        self.request = request
        self.database = database
        self.offset = offset
    }

    init(parsing text: String) throws(PlaceDBError) {
        var b64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b64.utf8.count % 4 != 0 { b64 += "=" }
        guard text.utf8.count <= 200, let data = Data(base64Encoded: b64),
            let plain = String(data: data, encoding: .utf8)
        else {
            throw .invalidArgument(
                "pageToken is not a page token of this server (give the nextPageToken of an earlier answer)")
        }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "v1", let hash = UInt64(parts[1], radix: 16), let offset = Int(parts[3]),
            offset >= 0
        else {
            throw .invalidArgument(
                "pageToken is not a page token of this server (give the nextPageToken of an earlier answer)")
        }
        self.init(request: hash, database: String(parts[2]), offset: offset)
    }
}

extension TextSearchRequest {
    /// The hash a page token carries: every field but `pageToken`,
    /// `pageSize` and `maxResultCount` (pages may differ in size), each
    /// written with its length or kind, so that no two requests write the
    /// same bytes. (`pageKeyFields` counts them: a test checks that every
    /// field of the type is one of them.)
    var pageKey: UInt64 {
        var hash = FNV1a()
        func number(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { hash.add($0) } }
        func flag(_ b: Bool) { hash.add(UInt8(b ? 1 : 0)) }
        func real(_ d: Double?) {
            flag(d != nil)
            if let d { number(d.bitPattern) }
        }
        func text(_ s: String?) {
            flag(s != nil)
            guard let s else { return }
            number(UInt64(s.utf8.count))
            hash.add(utf8: s)
        }
        func texts(_ list: [String]) {
            number(UInt64(list.count))
            for s in list { text(s) }
        }
        func area(_ area: SearchArea?) {
            switch area {
            case nil: hash.add(UInt8(0))
            case .circle(let center, let radius)?:
                hash.add(UInt8(1))
                for d in [center.latitude, center.longitude, radius] { real(d) }
            case .rectangle(let low, let high)?:
                hash.add(UInt8(2))
                for d in [low.latitude, low.longitude, high.latitude, high.longitude] { real(d) }
            }
        }
        text(textQuery)
        area(locationBias)
        area(locationRestriction)
        texts(includedTypes)
        flag(rankByDistance)
        text(languageCode)
        text(regionCode)
        flag(openNow)
        real(minRating)
        texts(priceLevels)
        flag(strictTypeFiltering)
        flag(includePureServiceAreaBusinesses)
        flag(includeFutureOpenings)
        texts(evConnectorTypes)
        real(evMinimumChargingRateKw)
        flag(evOptions)
        return hash.value
    }

    /// The fields `pageKey` writes (with `maxResultCount` and `pageToken`,
    /// which it leaves out, every stored property of the type).
    static let pageKeyFields = 16

    /// Whether a place's document must be decoded to decide if it is
    /// served (`minRating` is checked on the row's `rating` column; the
    /// defaults' exclusions on the stored bytes).
    var filtersByDocument: Bool {
        openNow || !priceLevels.isEmpty || evOptions
    }

    /// Whether any filter beyond the defaults' exclusions is set (then the
    /// candidates are gathered for `maxPagedResults`).
    var filters: Bool { filtersByDocument || minRating != nil }
}

/// One page of a text search: its places and the offset of the next page (nil: none).
struct TextSearchPage {
    var hits: [TextHit]
    var next: TextSearchPageToken?
}

extension PlaceReader {
    /// The page of `request` (its `pageToken`'s, else the first), filtered
    /// (`TextSearchFilter`), inside the caller's read transaction. Pages
    /// are slices of one ranking: when the request pages (a token, or
    /// `paging`: the caller shows `nextPageToken`) the candidates are
    /// gathered for `maxPagedResults` whatever the page's size, so each
    /// page continues the one before. A filter is checked in rank order
    /// until the page is full.
    func textSearchPage(
        _ request: TextSearchRequest, paging: Bool, at time: HoursQueryTime, plan base: TextQueryPlan? = nil
    ) throws -> TextSearchPage {
        var plan = base ?? Self.plan(request)
        plan.minRating = request.minRating
        var offset = 0
        var marker = ""
        let paged = paging || request.pageToken != nil
        let key = paged ? request.pageKey : 0
        if paged {
            marker = try store.changeMarker()
            if let text = request.pageToken {
                let token = try TextSearchPageToken(parsing: text)
                guard token.request == key else {
                    throw PlaceDBError.invalidArgument(
                        "pageToken belongs to another request: every field but pageToken, pageSize and maxResultCount must be those of the request that gave it"
                    )
                }
                guard token.database == marker else {
                    throw PlaceDBError.invalidArgument(
                        "pageToken is stale: the database changed since it was given (an import); search again from the first page"
                    )
                }
                guard token.offset < TextSearchRequest.maxPagedResults else {
                    throw PlaceDBError.invalidArgument(
                        "pageToken is past the last page (at most \(TextSearchRequest.maxPagedResults) results)")
                }
                offset = token.offset
            }
            plan.window = TextSearchRequest.maxPagedResults
        }
        let size = request.maxResultCount
        let filter = TextSearchFilter(request, at: time)
        if request.filters { plan.window = max(plan.window, TextSearchRequest.maxPagedResults) }
        // One more than the page: whether a next page exists.
        let needed = paged ? min(offset + size + 1, TextSearchRequest.maxPagedResults + 1) : size
        // The ranking of an earlier page of the same request on the same
        // database continues where it stopped (`pageMemo`).
        var state: PagedRanking
        if paged, let known = pageMemo[key], known.marker == marker {
            state = known
        } else {
            // A paged ranking is made for every page at once (the candidates
            // are gathered for them anyway), so that the next page continues it.
            plan.limit = paged ? TextSearchRequest.maxPagedResults + 1 : needed
            state = PagedRanking(marker: marker, limit: needed, hits: try textHits(plan))
        }
        while true {
            while state.scanned < state.hits.count && state.accepted.count < needed {
                let hit = state.hits[state.scanned]
                if try filter.accepts(hit.candidate, store: store) { state.accepted.append(hit) }
                state.scanned += 1
            }
            let accepted = state.accepted
            if accepted.count >= needed || state.hits.count < state.limit {
                if paged {
                    if pageMemo.count >= 16 { pageMemo.removeAll(keepingCapacity: true) }
                    pageMemo[key] = state
                }
                let end = min(offset + size, TextSearchRequest.maxPagedResults)
                let page = offset < accepted.count ? Array(accepted[offset..<min(end, accepted.count)]) : []
                let more = paged && accepted.count > end && end < TextSearchRequest.maxPagedResults
                return TextSearchPage(
                    hits: page, next: more ? TextSearchPageToken(request: key, database: marker, offset: end) : nil)
            }
            plan.limit = state.limit * 4
            state = PagedRanking(marker: marker, limit: plan.limit, hits: try textHits(plan))
        }
    }
}
