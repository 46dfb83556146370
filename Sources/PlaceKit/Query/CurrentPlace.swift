import Foundation

/// A current-place query: a location fix and what to return.
public struct CurrentPlaceRequest: Sendable, Equatable {
    public var location: Coordinate
    /// The fix's horizontal accuracy in meters: the radius of the circle
    /// holding the true position with 68% probability.
    public var accuracyMeters: Double
    /// When the visitor is there (opening hours count); nil: hours unused.
    public var time: Date?
    /// Only list places with any of these types (likelihoods are still
    /// computed over every place, so they do not grow).
    public var includedTypes: [String]
    /// 1...`NearbySearchRequest.maxResultLimit`.
    public var maxResultCount: Int

    public init(location: Coordinate, accuracyMeters: Double, time: Date? = nil, includedTypes: [String] = [], maxResultCount: Int = 10) {
        self.location = location
        self.accuracyMeters = accuracyMeters
        self.time = time
        self.includedTypes = includedTypes
        self.maxResultCount = maxResultCount
    }

    /// Throws `PlaceDBError.invalidArgument` naming what is wrong.
    public func validate() throws(PlaceDBError) {
        guard location.isValid else {
            throw .invalidArgument("location \(location.latitude),\(location.longitude) is out of range (latitude -90...90, longitude -180...180)")
        }
        guard accuracyMeters.isFinite && accuracyMeters > 0 else {
            throw .invalidArgument("accuracy \(accuracyMeters) must be a positive number of meters")
        }
        guard (1...NearbySearchRequest.maxResultLimit).contains(maxResultCount) else {
            throw .invalidArgument("maxResultCount \(maxResultCount) must be in 1...\(NearbySearchRequest.maxResultLimit)")
        }
        for t in includedTypes where t.isEmpty { throw .invalidArgument("an empty place type in a type filter") }
    }
}

extension PlacesClient {
    /// The places the visitor is likely at, given a fix at `location` with
    /// horizontal `accuracy` in meters (the 68% radius), most likely first.
    /// Mirrors the Places SDK's `findPlaceLikelihoods`; see `LikelihoodModel`
    /// for the model and `likelihoodModel` to change it.
    public func findPlaceLikelihoods(location: Coordinate, accuracy: Double, fields: FieldMask = .all, at time: Date? = nil,
                                     includedTypes: [String] = [], limit: Int = 10, explain: Bool = false) throws -> PlaceLikelihoodList {
        try findPlaceLikelihoods(CurrentPlaceRequest(location: location, accuracyMeters: accuracy, time: time,
                                                     includedTypes: includedTypes, maxResultCount: limit),
                                 fields: fields, explain: explain)
    }

    public func findPlaceLikelihoods(_ request: CurrentPlaceRequest, fields: FieldMask = .all, explain: Bool = false) throws -> PlaceLikelihoodList {
        try request.validate()
        let model = engine.model
        let sigma = model.sigma(accuracy: request.accuracyMeters)
        let reach = model.cutoffSigmas * sigma
        let started = Clock.now()
        let index: PlaceIndex, tables: ModelTables
        if let loaded = try engine.indexForQuery() {
            (index, tables) = (loaded.index, loaded.tables)
        } else {
            // Points whose type footprint may reach the fix, and viewports
            // near it (generous: the model applies the exact rule below).
            let input = try store.loadPlaces(
                in: GeoRect.covering(center: request.location, meters: (reach + ModelTables.maxTypeExtent(model)) * 1.05 + 10),
                extentRects: GeoRect.covering(center: request.location, meters: reach * 1.05 + 10))
            (index, tables) = engine.build(input)
        }
        var candidates: [Candidate] = []
        for hit in index.within(request.location, meters: reach, useExtents: true) {
            if let c = evaluate(slot: Int(hit.slot), meters: hit.meters, in: index, tables: tables, model: model,
                                sigma: sigma, reach: reach, fix: request.location) {
                candidates.append(c)
            }
        }
        if index !== engine.full?.index { engine.charge(Clock.now() - started) }

        // Opening hours of the most likely candidates, when a time is given.
        var decoded: [Int: Place] = [:]
        if let time = request.time, !candidates.isEmpty {
            let order = candidates.indices.sorted { candidates[$0].weight > candidates[$1].weight }
            for i in order.prefix(max(model.hoursCandidates, request.maxResultCount)) {
                guard let stored = try store.storedPlace(rowid: candidates[i].rowid) else { continue }
                let place = try store.decode(stored)
                decoded[i] = place
                if let open = model.isOpen(place, time) {
                    candidates[i].openNow = open
                    if !open {
                        candidates[i].hoursFactor = model.closedFactor
                        candidates[i].weight *= model.closedFactor
                    }
                }
            }
        }
        let total = candidates.reduce(model.noneDensity) { $0 + $1.weight }

        // Most likely first; equal weights by place ID.
        let order = candidates.indices.sorted { candidates[$0].weight > candidates[$1].weight || (candidates[$0].weight == candidates[$1].weight && candidates[$0].rowid < candidates[$1].rowid) }
        var out: [PlaceLikelihood] = []
        let included = Set(request.includedTypes)
        var i = 0
        while i < order.count && out.count < request.maxResultCount {
            var j = i
            while j < order.count && candidates[order[j]].weight == candidates[order[i]].weight { j += 1 }
            var group: [(index: Int, stored: StoredPlace?)] = []
            for k in order[i..<j] { group.append((k, decoded[k] == nil ? try store.storedPlace(rowid: candidates[k].rowid) : nil)) }
            func id(_ g: (index: Int, stored: StoredPlace?)) -> PlaceID { decoded[g.index]?.id ?? g.stored?.id ?? PlaceID("") }
            if group.count > 1 { group.sort { id($0) < id($1) } }
            for g in group where out.count < request.maxResultCount {
                let place: Place
                if let p = decoded[g.index] { place = p } else if let s = g.stored { place = try store.decode(s) } else { continue }
                if !included.isEmpty && !place.types.contains(where: included.contains) { continue }
                let c = candidates[g.index]
                out.append(PlaceLikelihood(place: place.masked(fields), likelihood: c.weight / total,
                                           explanation: explain ? c.explanation : nil))
            }
            i = j
        }
        return PlaceLikelihoodList(placeLikelihoods: out, noneLikelihood: model.noneDensity / total, sigmaMeters: sigma,
                                   searchRadiusMeters: reach, candidateCount: candidates.count)
    }

    /// A place that may be where the visitor is, with its model factors.
    struct Candidate {
        var rowid: Int64
        var weight: Double
        var hoursFactor = 1.0
        var openNow: Bool?
        var base: LikelihoodExplanation

        var explanation: LikelihoodExplanation {
            var e = base
            e.hoursFactor = hoursFactor
            e.openNow = openNow
            e.prior = base.prior * hoursFactor
            e.weight = weight
            return e
        }
    }

    /// The model for one place, or nil when it cannot be a candidate.
    private func evaluate(slot: Int, meters: Double, in index: PlaceIndex, tables: ModelTables, model: LikelihoodModel,
                          sigma: Double, reach: Double, fix: Coordinate) -> Candidate? {
        let status = StatusCode(rawValue: index.statuses[slot]) ?? .other
        if status == .closedPermanently { return nil }
        let typeCode = Int(index.typeCodes[slot])
        let typeFactor = tables.typeFactor[typeCode]
        if typeFactor <= 0 { return nil }
        let location = index.coordinate(slot)
        let cx, cy, hw, hh: Double
        let kind: String
        if let v = ModelTables.usableViewport(index.viewport(slot), latitude: location.latitude, longitude: location.longitude, model: model) {
            var east = v.east
            if east < v.west { east += 360 }
            var midLng = (v.west + east) / 2
            if midLng > 180 { midLng -= 360 }
            let center = Coordinate(latitude: (v.south + v.north) / 2, longitude: midLng)
            let d = fix.distance(to: center), b = fix.bearing(to: center)
            (cx, cy) = (d * sin(b), d * cos(b))
            let perDegree = Earth.meanRadius * Earth.radiansPerDegree
            hw = (east - v.west) / 2 * perDegree * cos(center.latitude * Earth.radiansPerDegree)
            hh = (v.north - v.south) / 2 * perDegree
            kind = "viewport"
        } else {
            let b = fix.bearing(to: location)
            (cx, cy) = (meters * sin(b), meters * cos(b))
            hw = ModelTables.halfSide(radius: tables.typeRadius[typeCode])
            hh = hw
            kind = "type"
        }
        let gapX = max(abs(cx) - hw, 0), gapY = max(abs(cy) - hh, 0)
        if (gapX * gapX + gapY * gapY).squareRoot() > reach { return nil }
        let density = NormalBox.density(center: cx, half: hw, sigma: sigma) * NormalBox.density(center: cy, half: hh, sigma: sigma)
        let popularity = model.popularityFactor(Int(index.ratingCounts[slot]))
        let statusFactor = model.statusFactor(status.businessStatus)
        let sourceFactor = tables.sourceFactor[Int(index.sourceCodes[slot])]
        let prior = typeFactor * popularity * statusFactor * sourceFactor
        let weight = prior * density
        guard weight > 0 else { return nil }
        let explanation = LikelihoodExplanation(
            distanceMeters: meters, footprint: kind, footprintHalfWidth: hw, footprintHalfHeight: hh,
            footprintOffsetEast: cx, footprintOffsetNorth: cy, density: density, typeFactor: typeFactor,
            popularityFactor: popularity, sourceFactor: sourceFactor, statusFactor: statusFactor, hoursFactor: 1,
            openNow: nil, prior: prior, weight: weight)
        return Candidate(rowid: index.rowids[slot], weight: weight, base: explanation)
    }
}
