import Foundation
public import PlaceModel
import PlaceStorage

/// How nearby results are ordered.
public enum RankPreference: String, Sendable, CaseIterable {
    /// Nearest first (ties by place ID).
    case distance = "DISTANCE"
    /// Most rated first (`userRatingCount`), then nearest, then by place ID:
    /// places without ratings come after rated ones, nearest first.
    /// Needs a radius. The API's default (`searchNearby` without
    /// `rankPreference`); the CLI's `nearby` ranks by distance unless told.
    case popularity = "POPULARITY"
}

/// A nearby result: the place and its great-circle distance from the center.
public struct NearbyPlace: Sendable, Equatable {
    public var place: Place
    public var distanceMeters: Double
}

extension PlaceReader {
    /// The places near `request.center`, nearest first (or most popular),
    /// with `fields` of each. Distances are great-circle meters on the
    /// sphere (`Coordinate.distance(to:)`); ties go by place ID; removed
    /// places never appear. Each place is served at `time` (now by
    /// default): `openNow` inside its hours is computed then
    /// (`Place.served(at:)`), never the captured value.
    package func searchNearby(
        _ request: NearbySearchRequest, fields: FieldMask = .all,
        at time: HoursQueryTime = .instant(Date())
    ) throws -> [NearbyPlace] {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            try checkTypes(request)
            return try orderedHits(request).map { hit in
                guard
                    let place = try store.servedPlace(
                        rowid: hit.rowid, plan: plan, coordinate: hit.coordinate, at: time)
                else {
                    throw PlaceDBError.database(
                        path: store.path, reason: "place row \(hit.rowid) vanished during the query")
                }
                return NearbyPlace(place: place, distanceMeters: hit.meters)
            }
        }
    }

    /// The same answer as `searchNearby`, as compact JSON in the Places API
    /// (New) response shape, `{"places": [...]}`, each place with its
    /// `distanceMeters` (to the centimeter). Written straight from the
    /// stored documents, not decoded where the mask allows: for servers and
    /// `--batch`. The hours are served at `time`, as `searchNearby` serves them.
    package func searchNearbyJSON(
        _ request: NearbySearchRequest, fields: FieldMask = .all,
        at time: HoursQueryTime = .instant(Date())
    ) throws -> [UInt8] {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            try checkTypes(request)
            let hits = try orderedHits(request)
            // No place: `{}`, as the API answers (an empty list is left out).
            if hits.isEmpty { return Array("{}".utf8) }
            var out: [UInt8] = []
            out.reserveCapacity(4096)
            PlaceJSON.append(#"{"places":["#, into: &out)
            // IDs alone (a batch asking for them): from the index when it
            // holds them, no row read.
            let ids = plan.needsNoDocument ? engine.full?.index : nil
            ids?.prefetchIDs(hits.lazy.map(\.slot))
            for (i, hit) in hits.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                let meters = (hit.meters * 100).rounded() / 100
                // The hit's slot is the whole index's when the hit came from it
                // (a regional index's slot names another row there).
                if let ids, ids.holdsIDs, hit.slot >= 0, Int(hit.slot) < ids.count,
                    ids.rowids[Int(hit.slot)] == hit.rowid
                {
                    ids.withID(Int(hit.slot)) {
                        PlaceJSON.writeIDOnly(idBytes: $0, plan: plan, distanceMeters: meters, into: &out)
                    }
                    continue
                }
                _ = try store.writePlaceJSON(
                    rowid: hit.rowid, plan: plan, extra: [("distanceMeters", meters)], servedAt: time, into: &out)
            }
            PlaceJSON.append("]}", into: &out)
            return out
        }
    }

    /// A hit with what it is ranked by (the place ID breaks ties).
    struct RankedHit {
        var rowid: Int64
        var meters: Double
        var popularity: Int32
        var coordinate: Coordinate
        /// Its slot in the index it was found in.
        var slot: Int32 = -1
    }

    /// The first `maxResultCount` hits in rank order, ties by place ID.
    private func orderedHits(_ request: NearbySearchRequest) throws -> [RankedHit] {
        var hits = try rankedHits(request)
        if Self.listsStreets(request) {
            // A street drawn as many ways is listed once, by its way that
            // ranks first (`StreetSegments`): ask for more until enough
            // streets are found or none are left.
            var wider = request
            var collapsed = try collapseStreets(hits)
            while collapsed.count < request.maxResultCount && hits.count >= wider.maxResultCount
                && wider.maxResultCount < 4 * NearbySearchRequest.maxResultLimit
            {
                wider.maxResultCount *= 4
                hits = try rankedHits(wider)
                collapsed = try collapseStreets(hits)
            }
            hits = collapsed
        }
        return try breakTies(hits, count: request.maxResultCount, rowid: \.rowid) {
            $0.popularity == $1.popularity && $0.meters == $1.meters
        }
    }

    private func rankedHits(_ request: NearbySearchRequest) throws -> [RankedHit] {
        let started = MonotonicClock.now()
        if let loaded = try engine.indexForQuery() {
            let accept = try engine.typeFilter(request.typeFilter, in: loaded.index)
            return rank(request, in: loaded.index, accept: accept)
        }
        let hits = try searchRegion(request)
        engine.charge(MonotonicClock.now() - started)
        return hits
    }

    /// Whether a request may list streets (it names a type of
    /// `StreetSegments.types`, or asks for every feature).
    static func listsStreets(_ request: NearbySearchRequest) -> Bool {
        request.includeAllFeatures
            || (request.includedTypes + request.includedPrimaryTypes).contains(where: StreetSegments.types.contains)
    }

    /// `hits` (in rank order) with each street's ways after its first left out.
    private func collapseStreets(_ hits: [RankedHit]) throws -> [RankedHit] {
        let named = try hits.map { try store.nameAndPrimaryType(rowid: $0.rowid) }
        let kept = try StreetSegments.representatives(
            count: hits.count,
            key: { StreetSegments.key(primaryType: named[$0]?.primaryType, name: named[$0]?.name) },
            location: { hits[$0].coordinate },
            shape: { try store.footprintShape(rowid: hits[$0].rowid) },
            better: { a, b in a < b })
        return kept.count == hits.count ? hits : kept.map { hits[$0] }
    }

    /// A 400 naming a type of the filter that is neither documented nor held by any place.
    private func checkTypes(_ request: NearbySearchRequest) throws {
        try checkTypes([
            ("includedTypes", request.includedTypes), ("excludedTypes", request.excludedTypes),
            ("includedPrimaryTypes", request.includedPrimaryTypes),
            ("excludedPrimaryTypes", request.excludedPrimaryTypes),
        ])
    }

    private func rank(_ request: NearbySearchRequest, in index: PlaceIndex, accept typeAccept: ((Int) -> Bool)?)
        -> [RankedHit]
    {
        let k = request.maxResultCount
        var accept = typeAccept
        if !request.includeFutureOpenings {
            let future = StatusCode.futureOpening.rawValue
            accept = { slot in index.statuses[slot] != future && (typeAccept?(slot) ?? true) }
        }
        switch request.rankPreference {
        case .distance:
            return index.nearest(to: request.center, k: k, maxMeters: request.radiusMeters ?? .infinity, accept: accept)
                .map {
                    RankedHit(
                        rowid: index.rowids[Int($0.slot)], meters: $0.meters, popularity: 0,
                        coordinate: index.coordinate(Int($0.slot)), slot: $0.slot)
                }
        case .popularity:
            let all = index.within(request.center, meters: request.radiusMeters!, useExtents: false, accept: accept).map
            {
                RankedHit(
                    rowid: index.rowids[Int($0.slot)], meters: $0.meters, popularity: index.ratingCounts[Int($0.slot)],
                    coordinate: index.coordinate(Int($0.slot)), slot: $0.slot)
            }
            let sorted = all.sorted { a, b in
                a.popularity != b.popularity ? a.popularity > b.popularity : a.meters < b.meters
            }
            guard sorted.count > k else { return sorted }
            var end = k
            while end < sorted.count && sorted[end].popularity == sorted[k - 1].popularity
                && sorted[end].meters == sorted[k - 1].meters
            { end += 1 }
            return Array(sorted[..<end])
        }
    }

    /// The same search over the places read from the R*Tree around the
    /// center. Without a radius the region grows until it holds the k-th
    /// nearest place's whole circle.
    private func searchRegion(_ request: NearbySearchRequest) throws -> [RankedHit] {
        let filter = request.typeFilter
        if let radius = request.radiusMeters {
            let input = try store.loadPlaces(
                in: GeoRect.covering(center: request.center, meters: radius), typeFilter: filter)
            let index = engine.build(input).index
            return rank(request, in: index, accept: Self.unlisted(filter, in: index))
        }
        var reach = 500.0
        while true {
            let rects = GeoRect.covering(center: request.center, meters: reach)
            let input = try store.loadPlaces(in: rects, typeFilter: filter)
            let index = engine.build(input).index
            let hits = rank(request, in: index, accept: Self.unlisted(filter, in: index))
            let wholeWorld = rects == [.world]
            if wholeWorld || (hits.count >= request.maxResultCount && hits[request.maxResultCount - 1].meters <= reach)
            {
                return hits
            }
            // Grow by the density seen so far (at least doubling, at most 16x).
            let grow = (2 * Double(request.maxResultCount) / max(Double(input.count), 0.5)).squareRoot()
            reach = min(reach * min(16, max(2, grow)), Double.pi * Earth.meanRadius)
        }
    }

    /// The filter's left-out primary types (streets ...) on an index read
    /// from a region: SQL filtered the rest; these are left out by their
    /// type code's flag (an array read a place, no string compared).
    static func unlisted(_ filter: TypeFilter, in index: PlaceIndex) -> ((Int) -> Bool)? {
        guard let hidden = index.hiddenCodes(filter.hiddenPrimaryTypes, anonymous: false) else { return nil }
        return { !hidden[Int(index.typeCodes[$0])] }
    }

    /// Hits in rank order with runs of equal rank ordered by place ID,
    /// cut to `count`. Only tied hits have their IDs read.
    func breakTies<H>(_ hits: [H], count: Int, rowid: (H) -> Int64, same: (H, H) -> Bool) throws -> [H] {
        var out: [H] = []
        out.reserveCapacity(min(count, hits.count))
        var i = 0
        while i < hits.count && out.count < count {
            var j = i + 1
            while j < hits.count && same(hits[j], hits[i]) { j += 1 }
            if j - i == 1 {
                out.append(hits[i])
            } else {
                var run: [(PlaceID, H)] = []
                for h in hits[i..<j] { run.append((try store.placeID(rowid: rowid(h)) ?? PlaceID(""), h)) }
                run.sort { $0.0 < $1.0 }
                out.append(contentsOf: run.prefix(count - out.count).map(\.1))
            }
            i = j
        }
        return out
    }
}
