import Foundation
import PlaceModel
import PlaceStorage

/// How a searchText query was read: its reading (`QueryReading`), the
/// locality its place words matched, and what was done with it.
package struct QueryUnderstandingResult: Sendable, Equatable {
    package var reading: QueryReading
    package var locality: MatchedLocality
    /// Whether the locality's area restricted the search (false: the
    /// request's own `locationRestriction` wins; the type words still filter).
    package var restricted: Bool
}

extension PlaceReader {
    /// The plan of `request` after query understanding: a reading whose
    /// place words name a locality ("pizza in New York", "NYC pizza")
    /// restricts the search to the locality's area (unless the request has
    /// a `locationRestriction`: it wins; a `locationBias` gives way to the
    /// town the query names) and makes its type words a type filter
    /// (unless the request has `includedType`). Type words with no other
    /// words list the places of those types there, rated ones first
    /// among equals; other words are searched as usual, within the area
    /// and types. A reading without a connector ("NYC pizza") is taken
    /// only when no place is called the whole query, its place words are
    /// no type phrase, and its town is within 300 km of the request's
    /// point (when it has one).
    func understoodPlan(_ request: TextSearchRequest) throws -> (
        plan: TextQueryPlan, understanding: QueryUnderstandingResult?
    ) {
        var plan = Self.plan(request)
        guard let u = try understand(request, plain: plan) else { return (plan, nil) }
        let r = u.reading
        if u.restricted {
            plan.restriction = u.locality.area
            plan.focus = u.locality.center
            plan.scale = max(u.locality.radiusMeters, 1000) * 2
            plan.showsDistance = false
        }
        if request.includedTypes.isEmpty && !r.types.isEmpty { plan.types = r.types }
        if r.otherWords.isEmpty && !r.typeWords.isEmpty {
            var words = r.typeWords
            for t in r.types {
                for w in t.split(separator: "_").map(String.init) where !words.contains(w) { words.append(w) }
            }
            // A name holding another word for the same kind ("Sottocasa
            // Pizzeria" for "pizza", "… Coffee" for "cafe") matches too.
            if let kind = r.types.first {
                for w in QueryTypeWords.otherWords[kind] ?? [] where !words.contains(w) { words.append(w) }
            }
            plan.listingWords = words
            plan.window = max(plan.window, 100)
        } else if !r.otherWords.isEmpty {
            plan.words = r.otherWords
            plan.literal = nil
            plan.raw = nil
        }
        return (plan, u)
    }

    /// The reading of `request.textQuery` that names a locality, or nil.
    package func understandQuery(_ request: TextSearchRequest) throws -> QueryUnderstandingResult? {
        try store.read { try understand(request, plain: Self.plan(request)) }
    }

    func understand(_ request: TextSearchRequest, plain: TextQueryPlan) throws -> QueryUnderstandingResult? {
        let readings = QueryUnderstanding.readings(plain.words)
        guard !readings.isEmpty else { return nil }
        return try store.withTextStatistics { () throws -> QueryUnderstandingResult? in
            let matcher = LocalityMatcher(store: store)
            let near = request.locationBias?.center ?? request.locationRestriction?.center
            var plainChecked = false, memoChecked = false
            // Without a connector only towns by name count: none in the file, no reading.
            let towns = try matcher.hasLocalities()
            for r in readings {
                if r.connector == nil && (r.types.isEmpty || !towns) { continue }
                if !memoChecked {
                    memoChecked = true
                    let marker = try store.changeMarker()
                    if localityMemo.marker != marker || localityMemo.matches.count > 4096 {
                        localityMemo = (marker, [:])
                    }
                }
                let scan = r.connector != nil
                var key = r.placeWords.joined(separator: " ") + (scan ? "|scan" : "|")
                if let near { key += String(format: "|%.1f,%.1f", near.latitude, near.longitude) }
                let found: MatchedLocality?
                if let known = localityMemo.matches[key] {
                    found = known
                } else {
                    found = try matcher.match(r.placeWords, near: near, scan: scan)
                    localityMemo.matches[key] = .some(found)
                }
                guard let locality = found else { continue }
                // Without a connector, words that are a kind of place themselves
                // ("wine bar" is no wine place in Bar, Montenegro), or a town
                // far from the request's point, are no reading.
                if r.connector == nil {
                    if QueryTypeWords.types(r.placeWords) != nil { continue }
                    if let near, locality.center.distance(to: near) > 300_000 { continue }
                }
                if r.connector == nil && !plainChecked {
                    // A place called the whole query ("Sydney Opera House") wins.
                    plainChecked = true
                    var p = plain
                    p.limit = 1
                    if let top = try checkedTextHits(p).first, top.factors.name >= 0.9 { return nil }
                }
                return QueryUnderstandingResult(
                    reading: r, locality: locality, restricted: request.locationRestriction == nil)
            }
            return nil
        }
    }

    /// `--explain`'s `queryUnderstanding` member.
    static func understandingJSON(_ u: QueryUnderstandingResult) -> JSONValue {
        let r = u.reading, l = u.locality
        var o = JSONObject()
        o["form"] = .string(r.form)
        o["typeWords"] = .array(r.typeWords.map { .string($0) })
        o["types"] = .array(r.types.map { .string($0) })
        o["placeWords"] = .array(r.placeWords.map { .string($0) })
        o["otherWords"] = .array(r.otherWords.map { .string($0) })
        var loc = JSONObject()
        loc["name"] = .string(l.name)
        if let id = l.placeID { loc["placeId"] = .string(id) }
        loc["matchedBy"] = .string(l.source.rawValue)
        loc["provider"] = .string(l.provider)
        loc["center"] = .object(
            JSONObject([("latitude", .double(l.center.latitude)), ("longitude", .double(l.center.longitude))]))
        loc["radiusMeters"] = .double((l.radiusMeters * 10).rounded() / 10)
        if let p = l.population { loc["population"] = .int(Int64(p)) }
        if let n = l.addressCount { loc["addresses"] = .int(Int64(n)) }
        switch l.area {
        case .circle(let c, let radius):
            var circle = JSONObject()
            circle["center"] = .object(
                JSONObject([("latitude", .double(c.latitude)), ("longitude", .double(c.longitude))]))
            if let radius { circle["radius"] = .double((radius * 10).rounded() / 10) }
            loc["area"] = .object(JSONObject([("circle", .object(circle))]))
        case .rectangle(let low, let high):
            let rect = JSONObject([
                (
                    "low",
                    .object(JSONObject([("latitude", .double(low.latitude)), ("longitude", .double(low.longitude))]))
                ),
                (
                    "high",
                    .object(JSONObject([("latitude", .double(high.latitude)), ("longitude", .double(high.longitude))]))
                ),
            ])
            loc["area"] = .object(JSONObject([("rectangle", .object(rect))]))
        }
        o["locality"] = .object(loc)
        o["applied"] = .string(
            u.restricted ? "locationRestriction" : "types only (the request's locationRestriction wins)")
        return .object(o)
    }
}
