import Foundation
public import PlaceModel
import PlaceStorage

/// Where a text search or autocomplete looks: a circle (a center with an
/// optional radius) or a rectangle (south-west `low`, north-east `high`;
/// `low.longitude > high.longitude` crosses the antimeridian).
public enum SearchArea: Sendable, Equatable {
    case circle(center: Coordinate, radiusMeters: Double?)
    case rectangle(low: Coordinate, high: Coordinate)

    /// The point distances are measured from.
    public var center: Coordinate {
        switch self {
        case .circle(let c, _): return c
        case .rectangle(let low, let high):
            var lng = (low.longitude + high.longitude) / 2
            if low.longitude > high.longitude { lng += lng > 0 ? -180 : 180 }
            return Coordinate(latitude: (low.latitude + high.latitude) / 2, longitude: lng)
        }
    }

    /// How far from `center` the area reaches (nil: no limit).
    var reach: Double? {
        switch self {
        case .circle(_, let r): return r
        case .rectangle(let low, let high):
            return max(
                center.distance(to: low), center.distance(to: high),
                center.distance(to: Coordinate(latitude: low.latitude, longitude: high.longitude)),
                center.distance(to: Coordinate(latitude: high.latitude, longitude: low.longitude)))
        }
    }

    func contains(_ c: Coordinate) -> Bool {
        switch self {
        case .circle(let center, let r): return r.map { center.distance(to: c) <= $0 } ?? true
        case .rectangle(let low, let high):
            guard c.latitude >= low.latitude && c.latitude <= high.latitude else { return false }
            return low.longitude <= high.longitude
                ? c.longitude >= low.longitude && c.longitude <= high.longitude
                : c.longitude >= low.longitude || c.longitude <= high.longitude
        }
    }

    /// Whether the area holds a place whose point is stored as `c`, within
    /// `RankInputs.pointError` meters of its row's (1e-7 degree rounded):
    /// nil where the stored point is too near the edge to tell, and the
    /// row's point decides (`contains`).
    func containsStored(_ c: Coordinate) -> Bool? {
        switch self {
        case .circle(let center, let r):
            guard let r else { return true }
            let d = center.distance(to: c)
            if d <= r - RankInputs.pointError { return true }
            if d > r + RankInputs.pointError { return false }
            return nil
        case .rectangle(let low, let high):
            // Rounded to 1e-7 degree, a stored point is within half of
            // that of the row's on each axis: in by more than 1e-7 is in,
            // out by more is out (as `contains`, by number, no wrapping).
            let e = 1e-7, lat = c.latitude, lng = c.longitude
            let latIn = lat >= low.latitude + e && lat <= high.latitude - e
            let latOut = lat < low.latitude - e || lat > high.latitude + e
            let lngIn: Bool, lngOut: Bool
            if low.longitude <= high.longitude {
                lngIn = lng >= low.longitude + e && lng <= high.longitude - e
                lngOut = lng < low.longitude - e || lng > high.longitude + e
            } else {
                lngIn = lng >= low.longitude + e || lng <= high.longitude - e
                lngOut = lng < low.longitude - e && lng > high.longitude + e
            }
            if latOut || lngOut { return false }
            return latIn && lngIn ? true : nil
        }
    }

    func validate(_ name: String) throws(PlaceDBError) {
        switch self {
        case .circle(let c, let r):
            guard c.isValid else {
                throw .invalidArgument(
                    "\(name) center \(c.latitude),\(c.longitude) is out of range (latitude -90...90, longitude -180...180)"
                )
            }
            if let r, !(r.isFinite && r > 0 && r <= NearbySearchRequest.maxRadiusMeters) {
                throw .invalidArgument(
                    "\(name) radius \(r) must be a positive number of meters, at most \(Int(NearbySearchRequest.maxRadiusMeters))"
                )
            }
        case .rectangle(let low, let high):
            guard low.isValid && high.isValid else {
                throw .invalidArgument("\(name) corners must be in range (latitude -90...90, longitude -180...180)")
            }
            guard low.latitude <= high.latitude else {
                throw .invalidArgument(
                    "\(name) low.latitude \(low.latitude) is north of high.latitude \(high.latitude)")
            }
        }
    }
}

extension SearchArea {
    /// `{"circle": {"center": {...}, "radius": M}}` or
    /// `{"rectangle": {"low": {...}, "high": {...}}}`; nil when absent.
    init?(json: JSONValue?, _ name: String) throws(PlaceDBError) {
        guard let json else { return nil }
        guard let o = json.objectValue else {
            throw .invalidArgument("\(name) must be an object with circle or rectangle")
        }
        if let circle = o["circle"] {
            guard o.count == 1, let c = circle.objectValue else {
                throw .invalidArgument("\(name) must hold one circle or one rectangle")
            }
            try RequestReader.checkKeys(c, allowed: ["center", "radius"])
            let center = try RequestReader.coordinate(c["center"], "\(name).circle.center")
            var radius: Double?
            if let r = c["radius"] {
                guard let v = r.doubleValue else {
                    throw .invalidArgument("\(name).circle.radius must be a number, not \(r.kindDescription)")
                }
                radius = v
            }
            self = .circle(center: center, radiusMeters: radius)
        } else if let rect = o["rectangle"] {
            guard o.count == 1, let r = rect.objectValue else {
                throw .invalidArgument("\(name) must hold one circle or one rectangle")
            }
            try RequestReader.checkKeys(r, allowed: ["low", "high"])
            self = .rectangle(
                low: try RequestReader.coordinate(r["low"], "\(name).rectangle.low"),
                high: try RequestReader.coordinate(r["high"], "\(name).rectangle.high"))
        } else {
            throw .invalidArgument("\(name) must hold a circle or a rectangle")
        }
        try validate(name)
    }
}

/// One text search result: the place, its distance from the bias center
/// (when there is one), and the factors it was ranked by.
public struct TextSearchResult: Sendable, Equatable {
    public var place: Place
    public var distanceMeters: Double?
    package var ranking: TextRanking.Factors
}

/// A place the search found, ranked.
struct TextHit {
    var candidate: TextCandidate
    var meters: Double?
    var factors: TextRanking.Factors
}

extension PlaceReader {
    /// The places whose names, addresses or types hold the words of
    /// `request.textQuery` (diacritics and case aside; a misspelt word is
    /// corrected against the index's words), best first: BM25, closeness
    /// to the bias center and popularity (`TextRanking`). Removed places
    /// never appear. A query with no words finds nothing.
    ///
    /// Each place is served at `time` (now by default): `openNow` is
    /// computed then, as `searchNearby` serves it.
    package func searchText(
        _ request: TextSearchRequest, fields: FieldMask = .all,
        at time: HoursQueryTime = .instant(Date())
    ) throws -> [TextSearchResult] {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            try store.requireTextIndex()
            try checkTypes([("includedType", request.includedTypes)])
            return try textSearchPage(request, paging: false, at: time, plan: try understoodPlan(request).plan).hits.map
            { hit in
                guard
                    let place = try store.servedPlace(
                        rowid: hit.candidate.rowid, plan: plan, coordinate: hit.candidate.coordinate, at: time)
                else {
                    throw PlaceDBError.database(
                        path: store.path, reason: "place row \(hit.candidate.rowid) vanished during the query")
                }
                return TextSearchResult(place: place, distanceMeters: hit.meters, ranking: hit.factors)
            }
        }
    }

    /// The same answer as `searchText`, as compact JSON in the Places API
    /// (New) response shape, `{"places": [...]}`, each place with its
    /// `distanceMeters` when the request has a center, and with `explain`
    /// its ranking factors (`"explain": {"score", "text", "name",
    /// "distance", "popularity", "corrected"}`).
    ///
    /// `nextPageToken`: the answer carries the token of the next page when
    /// there is one (the API's member of that name, which a field mask asks
    /// for); `places` false leaves the places out (a mask of only
    /// `nextPageToken`). No place and no token: `{}`, as the API answers.
    package func searchTextJSON(
        _ request: TextSearchRequest, fields: FieldMask = .all, explain: Bool = false,
        at time: HoursQueryTime = .instant(Date()), nextPageToken: Bool = false, places: Bool = true
    ) throws -> [UInt8] {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            try store.requireTextIndex()
            try checkTypes([("includedType", request.includedTypes)])
            // No filter, no pages: the ranked places are written as they
            // come, the default exclusions looked for in the bytes each
            // write reads anyway (no read more); a place that seems to be
            // excluded sends the request to the general path below.
            let (queryPlan, understanding) = try understoodPlan(request)
            let understood = explain ? understanding.map { Self.understandingJSON($0) } : nil
            if places && !nextPageToken && request.pageToken == nil && !request.filters {
                let filter = TextSearchFilter(request, at: time)
                var suspect = false
                var out: [UInt8] = []
                out.reserveCapacity(4096)
                let hits = try textHits(queryPlan)
                if hits.isEmpty {
                    guard let understood else { return Array("{}".utf8) }
                    return Array(#"{"queryUnderstanding":"#.utf8) + Array(JSONWriter().string(understood).utf8) + [
                        UInt8(ascii: "}")
                    ]
                }
                out.append(UInt8(ascii: "{"))
                if let understood {
                    PlaceJSON.append(#""queryUnderstanding":"#, into: &out)
                    JSONWriter().write(understood, into: &out)
                    out.append(UInt8(ascii: ","))
                }
                PlaceJSON.append(#""places":["#, into: &out)
                for (i, hit) in hits.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    let extra = hit.meters.map { [("distanceMeters", ($0 * 100).rounded() / 100)] } ?? []
                    _ = try store.writePlaceJSON(
                        rowid: hit.candidate.rowid, plan: plan, extra: extra, servedAt: time,
                        skip: { doc in
                            if filter.suspect(doc) { suspect = true }
                            return suspect
                        }, into: &out)
                    if suspect { break }
                    if explain { Self.appendExplain(hit.factors, into: &out) }
                }
                if !suspect {
                    PlaceJSON.append("]}", into: &out)
                    return out
                }
            }
            let page = try textSearchPage(request, paging: nextPageToken, at: time, plan: queryPlan)
            var out: [UInt8] = []
            out.reserveCapacity(4096)
            out.append(UInt8(ascii: "{"))
            if let understood {
                PlaceJSON.append(#""queryUnderstanding":"#, into: &out)
                JSONWriter().write(understood, into: &out)
            }
            if places && !page.hits.isEmpty {
                if out.count > 1 { out.append(UInt8(ascii: ",")) }
                PlaceJSON.append(#""places":["#, into: &out)
                for (i, hit) in page.hits.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    let extra = hit.meters.map { [("distanceMeters", ($0 * 100).rounded() / 100)] } ?? []
                    _ = try store.writePlaceJSON(
                        rowid: hit.candidate.rowid, plan: plan, extra: extra, servedAt: time, into: &out)
                    if explain { Self.appendExplain(hit.factors, into: &out) }
                }
                out.append(UInt8(ascii: "]"))
            }
            if nextPageToken, let next = page.next {
                if out.count > 1 { out.append(UInt8(ascii: ",")) }
                PlaceJSON.append(#""nextPageToken":"#, into: &out)
                JSONWriter().write(.string(next.text), into: &out)
            }
            out.append(UInt8(ascii: "}"))
            return out
        }
    }

    static func plan(_ request: TextSearchRequest) -> TextQueryPlan {
        let focus = request.locationBias?.center ?? request.locationRestriction?.center
        var scale: Double?
        if case .circle(_, let r)? = request.locationBias { scale = r }
        return TextQueryPlan(
            words: TextFolding.words(request.textQuery), lastIsPrefix: false, focus: focus, scale: scale,
            restriction: request.locationRestriction, types: request.includedTypes,
            limit: request.maxResultCount, window: request.maxResultCount, byDistance: request.rankByDistance,
            literal: TextFolding.literal(request.textQuery),
            raw: TextFolding.collapsed(request.textQuery))
    }

    /// Puts `"explain": {...}` into the object just written at the end of `out`.
    static func appendExplain(_ f: TextRanking.Factors, into out: inout [UInt8]) {
        guard out.last == UInt8(ascii: "}") else { return }
        out.removeLast()
        if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
        PlaceJSON.append(#""explain":"#, into: &out)
        JSONWriter().write(explainJSON(f), into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A hit's ranking factors, as `explain` writes them.
    static func explainJSON(_ f: TextRanking.Factors) -> JSONValue {
        var e = JSONObject()
        e["score"] = .double(Self.rounded(f.score))
        e["text"] = .double(Self.rounded(f.text))
        e["name"] = .double(f.name)
        if let d = f.distance { e["distance"] = .double(Self.rounded(d)) }
        e["popularity"] = .double(Self.rounded(f.popularity))
        e["corrected"] = .bool(f.corrected)
        return .object(e)
    }

    static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    /// The ranked hits of a plan: every word (the last a prefix in
    /// autocomplete) must match; when none do, misspelt words are
    /// corrected; when still none, any word may match.
    func textHits(_ plan: TextQueryPlan) throws -> [TextHit] {
        guard !plan.words.isEmpty || plan.listingWords != nil else { return [] }
        var hits = try store.withTextStatistics { try checkedTextHits(plan) }
        if !plan.showsDistance { for i in hits.indices { hits[i].meters = nil } }
        return hits
    }

    func checkedTextHits(_ plan: TextQueryPlan) throws -> [TextHit] {
        if let words = plan.listingWords, let first = words.first {
            return try rank(
                plan, terms: [QueryTerm(word: first, corrections: Array(words.dropFirst()))], any: false,
                corrected: false)
        }
        let last = plan.words.count - 1
        var terms = plan.words.enumerated().map {
            QueryTerm(word: $0.element, prefix: plan.lastIsPrefix && $0.offset == last)
        }
        // A prefix with few words in the vocabulary is asked as those words:
        // FTS5's own prefix query merges the postings of every word with the
        // prefix in the whole index (grid-cell words too) before the cells
        // restrict anything, where an OR of a few dozen words reads only
        // those words' lists.
        // A prefix the index holds as such (`TextIndexSQL.prefixLengths`: one
        // letter) is one list already: asked as it is.
        if terms[last].prefix && prefixExpansionLimit > 0 && !TextIndexSQL.indexesPrefix(terms[last].word) {
            terms[last].expansions = try store.wordsStarting(with: terms[last].word, limit: prefixExpansionLimit)
        }
        var hits = try rank(plan, terms: terms, any: false, corrected: false)
        if !hits.isEmpty { return hits }
        // Misspelt words: first those the index does not hold, else any.
        var unknown: [Int] = []
        for (i, t) in terms.enumerated() where !t.prefix {
            if try !store.indexHasWord(t.word) { unknown.append(i) }
        }
        let toCorrect = unknown.isEmpty ? Array(terms.indices.filter { !terms[$0].prefix }) : unknown
        var changed = false
        for i in toCorrect {
            let c = try store.wordCorrections(terms[i].word)
            if !c.isEmpty { terms[i].corrections = c; changed = true }
        }
        if changed {
            hits = try rank(plan, terms: terms, any: false, corrected: true)
            if !hits.isEmpty { return hits }
        }
        if terms.count > 1 {
            hits = try rank(plan, terms: terms, any: true, corrected: changed)
        }
        return hits
    }

    /// Whether at most `completeMatchLimit` places probably hold the words
    /// (then `rank` reads them all): the places holding any of them, or
    /// the rarest when every word must match; of several words that each
    /// many places hold, as many as would hold them all if the words were
    /// independent, within 80% of the limit (a wrong guess reads the
    /// limit's rows in vain, once: `allTextMatches` remembers it).
    func fewMatchesLikely(_ terms: [QueryTerm], any: Bool) throws -> Bool {
        let counts = try terms.map { t in
            try TextMatchExpression.phrases([t]).reduce(Int64(0)) { try $0 + store.phraseCount($1) }
        }
        let limit = Int64(completeMatchLimit)
        if any { return counts.reduce(0, +) <= limit }
        guard let rarest = counts.min() else { return false }
        if rarest <= limit { return true }
        guard counts.count > 1 else { return false }
        let places = Double(try store.placeRowBound())
        guard places > 0 else { return false }
        return counts.reduce(places) { $0 * Double($1) / places } <= Double(limit) * 0.8
    }

    /// Gathers candidates near the focus first (the 3x3 blocks of fine,
    /// then coarse grid cells), then anywhere by BM25, and ranks them.
    private func rank(_ plan: TextQueryPlan, terms: [QueryTerm], any: Bool, corrected: Bool) throws -> [TextHit] {
        var matched: [Int64: (candidate: TextCandidate, bm25: Double)] = [:]
        let want = max(plan.window, 10)
        let reach = plan.restriction?.reach
        var coveredByCells = false
        let phrases = TextMatchExpression.phrases(terms)
        // Matches may come unread (their point, rating and rating count
        // from the word lists) where the ranking below settles places best
        // bound first and reads nothing else of them before: no filter on
        // their rows but `minRating` and a restriction (decided on the
        // stored rating and point, or read); by distance, settled nearest
        // first.
        let unread =
            ranksFromWordLists && boundsTextRanking && !any && (!plan.byDistance || plan.focus != nil)
            && plan.listingWords == nil
        /// An autocomplete's last word: a name can be the input whole
        /// (name factor 1) only where it holds that word as typed.
        let typedPrefix = unread && plan.lastIsPrefix ? terms.last?.word : nil
        /// Whether the candidates gathered are enough to stop widening the
        /// cells (with `minRating`, those rated enough: a filter looks one
        /// level wider, not at the whole index, which only few matches in
        /// all cells call for, as without it).
        func enough() -> Bool {
            guard let min = plan.minRating else { return matched.count >= want }
            var n = 0
            for (_, m) in matched where (m.candidate.rating ?? -1) >= min {
                n += 1
                if n >= want { return true }
            }
            return false
        }
        /// Adds the whole index's best by BM25 (ties by rowid).
        func wholeIndex() throws {
            guard let asked = try asked(cells: []) else { return }
            // A restriction reaching past the cells reads every match; a bias, the best by BM25.
            let best = plan.restriction != nil ? 20_000 : max(100, 5 * plan.window)
            for m in try store.textMatches(
                asked.expression, phrases: asked.phrases, cells: 0, best: best, prefix: asked.prefix, unread: unread,
                typedPrefix: typedPrefix, ordered: false)
            {
                matched[m.candidate.rowid] = m
            }
        }
        // A word no place holds (a typo, before its correction) matches
        // nothing: no need to ask the index at three levels.
        let held = try terms.map { t in try TextMatchExpression.phrases([t]).contains { try store.phraseCount($0) > 0 }
        }
        if any ? !held.contains(true) : held.contains(false) { return [] }
        let split = try prefixSplit(terms, any: any)
        /// The expression asked within `cells` (none: anywhere): the
        /// terms', or, when that reads less, the other terms' with the
        /// prefix looked for in their rows (`PrefixSplit`).
        func asked(cells: [String]) throws -> (expression: String, phrases: [String], prefix: String?)? {
            if let split, try split.cheaper(within: cells, store: store, cost: prefixRowCost),
                let expression = TextMatchExpression.expression(
                    split.others, cells: cells, columnFilter: split.columnFilter)
            {
                return (expression, TextMatchExpression.phrases(split.others), split.prefix)
            }
            return TextMatchExpression.expression(terms, any: any, cells: cells).map { ($0, phrases, nil) }
        }
        if let focus = plan.focus, completeMatchLimit > 0, try fewMatchesLikely(terms, any: any),
            let asked = try asked(cells: []),
            let all = try store.allTextMatches(
                asked.expression, phrases: asked.phrases, limit: completeMatchLimit, prefix: asked.prefix,
                unread: unread, typedPrefix: typedPrefix)
        {
            // Few places hold the words: read them all in one pass (no grid
            // cells, no sort) and take from them what the levels below
            // would gather (each level's matches are those whose cell is in
            // its block; none is cut at its 2,000 best, as fewer match; the
            // whole index's best by BM25, ties by rowid, as its query
            // orders them): the same candidates, for one FTS5 query instead
            // of up to three. An unread match is in a level's block where
            // its document is in the runs of the block's cell words.
            let anyUnread = all.contains { $0.candidate.doc != nil }
            for level in TextGrid.Level.allCases {
                let cells = TextGrid.blockCells(focus, level)
                let runs = anyUnread ? store.cellDocuments(TextGrid.block(focus, level)) ?? [] : []
                for m in all {
                    let inBlock =
                        if let doc = m.candidate.doc { runs.contains { $0.contains(doc) } } else {
                            TextGrid.contains(cells, level, key: m.cell)
                        }
                    if inBlock { matched[m.candidate.rowid] = (m.candidate, m.bm25) }
                }
                if let reach, reach <= level.reach(atLatitude: focus.latitude) { coveredByCells = true; break }
                if enough() { break }
            }
            if !coveredByCells && matched.count < want {
                let best = plan.restriction != nil ? 20_000 : max(100, 5 * plan.window)
                let chosen =
                    all.count <= best
                    ? all[...]
                    : all.sorted { $0.bm25 != $1.bm25 ? $0.bm25 < $1.bm25 : $0.candidate.rowid < $1.candidate.rowid }
                        .prefix(best)
                for m in chosen { matched[m.candidate.rowid] = (m.candidate, m.bm25) }
            }
        } else if let focus = plan.focus {
            for level in TextGrid.Level.allCases {
                let cells = TextGrid.block(focus, level)
                guard let asked = try asked(cells: cells) else { return [] }
                for m in try store.textMatches(
                    asked.expression, phrases: asked.phrases, cells: cells.count, best: 2000, prefix: asked.prefix,
                    unread: unread, typedPrefix: typedPrefix, ordered: false)
                {
                    matched[m.candidate.rowid] = m
                }
                if let reach, reach <= level.reach(atLatitude: focus.latitude) { coveredByCells = true; break }
                if enough() { break }
            }
            if !coveredByCells && matched.count < want { try wholeIndex() }
        } else {
            try wholeIndex()
        }
        guard !matched.isEmpty else { return [] }
        var candidates: [(TextCandidate, Double, Double?)] = []
        for (rowid, (match, bm25)) in matched {
            var c = match
            if let min = plan.minRating, !((c.rating ?? -1) >= min) { continue }
            if let r = plan.restriction {
                if c.unread, let inside = r.containsStored(c.coordinate) {
                    if !inside { continue }
                } else {
                    if c.unread {
                        // Too near the edge: the row's point decides.
                        guard let read = try store.matchedCandidate(rowid)?.candidate else { continue }
                        c = read
                        c.inNames = match.inNames
                    }
                    if !r.contains(c.coordinate) { continue }
                }
            }
            if !plan.types.isEmpty {
                var ok = false
                for t in plan.types {
                    if try store.placeHasType(rowid: rowid, t) { ok = true; break }
                }
                if !ok { continue }
            }
            candidates.append((c, bm25, plan.focus.map { $0.distance(to: c.coordinate) }))
        }
        // A street drawn as many ways answers once (`StreetSegments`).
        let kept = try StreetSegments.representatives(
            count: candidates.count,
            key: { StreetSegments.key(primaryType: candidates[$0].0.primaryType, name: candidates[$0].0.name) },
            location: { candidates[$0].0.coordinate },
            shape: { try store.footprintShape(rowid: candidates[$0].0.rowid) },
            better: { a, b in
                if let x = candidates[a].2, let y = candidates[b].2, x != y { return x < y }
                return candidates[a].0.rowid < candidates[b].0.rowid
            })
        if kept.count < candidates.count { candidates = kept.map { candidates[$0] } }
        let bestBM25 = candidates.map(\.1).min() ?? 0
        let ranking = textRanking
        // Names are compared with the corrected words too.
        let queryWords = terms.map { [$0.word] + $0.corrections }
        /// The name factor from `names` (the place's name first).
        func nameFactor(_ names: [String]) -> Double {
            let words = names.map { TextFolding.words($0) }
            var nameMatch = TextRanking.nameMatch(query: queryWords, lastIsPrefix: plan.lastIsPrefix, names: words)
            // Of two names with the query's words, the one written as typed
            // (1) ranks above one in other case (0.95) or punctuation (0.9).
            if nameMatch == 1 && !corrected && !plan.lastIsPrefix, let literal = plan.literal {
                if !names.contains(where: { TextFolding.literal($0) == literal }) {
                    nameMatch = 0.9
                } else if let raw = plan.raw, !names.contains(where: { TextFolding.collapsed($0) == raw }) {
                    nameMatch = 0.95
                }
            }
            return any ? 0 : nameMatch
        }
        func hit(_ c: TextCandidate, _ bm25: Double, _ meters: Double?, _ name: Double) -> TextHit {
            TextHit(
                candidate: c, meters: meters,
                factors: ranking.factors(
                    bm25: bm25, bestBM25: bestBM25, nameMatch: name, meters: meters,
                    scale: plan.scale, ratingCount: c.ratingCount, corrected: corrected,
                    rating: plan.listingWords != nil ? .some(c.rating) : nil))
        }
        func exact(_ c: TextCandidate, _ bm25: Double, _ meters: Double?) throws -> TextHit {
            hit(
                c, bm25, meters,
                nameFactor([c.name ?? ""] + (c.hasExtra ? try store.textOtherNames(rowid: c.rowid) : [])))
        }
        func before(_ a: TextHit, _ b: TextHit) -> Bool {
            if plan.byDistance, let x = a.meters, let y = b.meters, x != y { return x < y }
            if a.factors.score != b.factors.score { return a.factors.score > b.factors.score }
            return a.candidate.rowid < b.candidate.rowid
        }
        var hits: [TextHit] = []
        if plan.byDistance, plan.focus != nil, !any, boundsTextRanking {
            // Nearest first: a place is read (and scored whole) in order of
            // its nearest possible distance (an unread one's stored point,
            // nearer by `RankInputs.pointError`) until that is past the
            // last of the `limit` nearest read: the rest can only come
            // after it, by distance alone.
            let near = candidates.map { c, _, meters in
                c.unread ? max(0, (meters ?? 0) - RankInputs.pointError) : meters ?? 0
            }
            let byNear = candidates.indices.sorted {
                near[$0] != near[$1] ? near[$0] < near[$1] : candidates[$0].0.rowid < candidates[$1].0.rowid
            }
            var worst = Double.infinity
            for i in byNear {
                if hits.count >= plan.limit && near[i] > worst { break }
                var (c, bm25, meters) = candidates[i]
                if c.unread {
                    guard let read = try store.matchedCandidate(c.rowid)?.candidate else { continue }
                    c = read
                    meters = plan.focus.map { $0.distance(to: c.coordinate) }
                }
                hits.append(try exact(c, bm25, meters))
                if hits.count >= plan.limit {
                    hits.sort(by: before)
                    hits.removeLast(hits.count - plan.limit)
                    worst = hits[plan.limit - 1].meters ?? .infinity
                }
            }
        } else if plan.byDistance || any || !boundsTextRanking {
            hits = try candidates.map { try exact($0.0, $0.1, $0.2) }
        } else {
            // Scored by the name alone first; a place's other names (JSON
            // in `extra`, read only for it) can only raise its name factor
            // to 1. An unread place is bounded by its stored point (nearer
            // by `RankInputs.pointError`) and by a name factor of 1 where
            // its names may hold the query's words as a whole name (0.5 as
            // the start of one), else 0; it is read when settled. Places are settled best bound first, until no bound
            // reaches the last of the `limit` best: the same answer as
            // scoring every place whole, with fewer rows read.
            /// The most an unread place's names can give (`TextRanking.nameMatch`):
            /// 1 for a name of as many words as the query (with a prefix,
            /// only where the names hold it as typed), 0.5 for one as long
            /// or longer that may start with a prefix's words, else 0.
            func nameBound(_ c: TextCandidate) -> Double {
                guard c.inNames else { return 0 }
                let n = c.nameWords, q = terms.count
                let anyLength = c.otherNames || n < 0 || n >= Int(RankInputs.nameWordsCap)
                if c.prefixInNames && (anyLength || n == q) { return 1 }
                return plan.lastIsPrefix && (anyLength || n >= q) ? 0.5 : 0
            }
            let bounded: [(hit: TextHit, bm25: Double, bound: Double, settled: Bool)] = candidates.map {
                c, bm25, meters in
                if c.unread {
                    let near = meters.map { max(0, $0 - RankInputs.pointError) }
                    let h = hit(c, bm25, near, nameBound(c))
                    return (h, bm25, h.factors.score, false)
                }
                let h = hit(c, bm25, meters, nameFactor([c.name ?? ""]))
                let open = c.hasExtra && h.factors.name < 1
                return (h, bm25, h.factors.score + (open ? ranking.nameWeight * (1 - h.factors.name) : 0), !open)
            }
            // In order of bound (indexes sorted: the entries are large).
            let bounds = bounded.map { (bound: $0.bound, rowid: $0.hit.candidate.rowid) }
            let byBound = bounds.indices.sorted {
                bounds[$0].bound != bounds[$1].bound
                    ? bounds[$0].bound > bounds[$1].bound : bounds[$0].rowid < bounds[$1].rowid
            }
            var worst = -Double.infinity
            for i in byBound {
                let b = bounded[i]
                if hits.count >= plan.limit && b.bound < worst { break }
                let h: TextHit
                if b.settled {
                    h = b.hit
                } else if b.hit.candidate.unread {
                    guard let c = try store.matchedCandidate(b.hit.candidate.rowid)?.candidate else { continue }
                    h = try exact(c, b.bm25, plan.focus.map { $0.distance(to: c.coordinate) })
                } else {
                    h = try exact(b.hit.candidate, b.bm25, b.hit.meters)
                }
                hits.append(h)
                if hits.count >= plan.limit {
                    hits.sort(by: before)
                    hits.removeLast(hits.count - plan.limit)
                    worst = hits[plan.limit - 1].factors.score
                }
            }
        }
        hits.sort(by: before)
        return Array(hits.prefix(plan.limit))
    }
}
