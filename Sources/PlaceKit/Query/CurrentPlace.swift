import Foundation

/// A current-place query: a location fix and what to return.
public struct CurrentPlaceRequest: Sendable, Equatable {
    public var location: Coordinate
    /// The fix's horizontal accuracy in meters: the radius of the circle
    /// holding the true position with 68% probability.
    public var accuracyMeters: Double
    /// When the visitor is there (opening hours count); nil: hours unused
    /// (unless `localTime` is set).
    public var time: Date?
    /// A wall-clock time instead of an instant: each place's hours are read
    /// at this time in the place's own zone (a place with no zone or offset
    /// counts as unknown). Used when `time` is nil.
    public var localTime: LocalDateTime?

    /// `time` or `localTime`, as `open --at` reads them.
    public var at: HoursQueryTime? {
        get { time.map(HoursQueryTime.instant) ?? localTime.map(HoursQueryTime.local) }
        set {
            switch newValue {
            case .instant(let d)?: time = d; localTime = nil
            case .local(let wall)?: time = nil; localTime = wall
            case nil: time = nil; localTime = nil
            }
        }
    }
    /// When the places listed are served (`Place.served(at:)`: `openNow`
    /// inside their hours): `at`, else now.
    var servedAt: HoursQueryTime { at ?? .instant(Date()) }
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
        let plan = MaskPlan(fields)
        let served = request.servedAt
        return try store.reading {
            let run = try runModel(request)
            var listed: [PlaceLikelihood] = []
            for i in try listedCandidates(run, request) {
                let c = run.candidates[i]
                let place: Place
                if let p = run.decoded[i] {
                    place = p.served(at: served).masked(fields)
                } else if let p = try store.servedPlace(rowid: c.rowid, plan: plan, coordinate: c.coordinate, at: served) {
                    place = p
                } else {
                    continue
                }
                listed.append(PlaceLikelihood(place: place, likelihood: c.weight / run.total,
                                              explanation: explain ? try explanation(c, run, fix: request.location) : nil))
            }
            return PlaceLikelihoodList(placeLikelihoods: listed, noneLikelihood: run.model.noneDensity / run.total, sigmaMeters: run.sigma,
                                       searchRadiusMeters: run.reach, candidateCount: run.candidates.count)
        }
    }

    /// The same answer as `findPlaceLikelihoods`, as compact JSON:
    /// `{"placeLikelihoods": [{"place": {...}, "likelihood": 0.42}, ...],
    /// "noneLikelihood": 0.01}`, likelihoods rounded down to 6 decimals (so
    /// they still sum to at most 1; `noneLikelihood`, always there, is the
    /// mass of "none of these"); with `explain`, each item's `explain`
    /// object and a top-level one.
    /// Written straight from the stored documents where the mask allows.
    public func findPlaceLikelihoodsJSON(_ request: CurrentPlaceRequest, fields: FieldMask = .all, explain: Bool = false) throws -> [UInt8] {
        try request.validate()
        let plan = MaskPlan(fields)
        let served = request.servedAt
        return try store.reading {
            let run = try runModel(request)
            var out: [UInt8] = []
            out.reserveCapacity(4096)
            PlaceJSON.append(#"{"placeLikelihoods":["#, into: &out)
            var first = true
            for i in try listedCandidates(run, request) {
                let c = run.candidates[i]
                var item: [UInt8] = []
                PlaceJSON.append(#"{"place":"#, into: &item)
                if let p = run.decoded[i] {
                    JSONWriter().write(.object(p.served(at: served).apiJSON(fields: fields)), into: &item)
                } else if try !store.writePlaceJSON(rowid: c.rowid, plan: plan, servedAt: served, into: &item) {
                    continue
                }
                PlaceJSON.append(#","likelihood":"#, into: &item)
                JSONWriter.writeNumber(Self.roundedLikelihood(c.weight / run.total), into: &item)
                if explain {
                    PlaceJSON.append(#","explain":"#, into: &item)
                    JSONWriter().write(.object(try explanation(c, run, fix: request.location).json), into: &item)
                }
                item.append(UInt8(ascii: "}"))
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out.append(contentsOf: item)
            }
            out.append(UInt8(ascii: "]"))
            // Always: an app tells "probably none of these" from "one of these".
            PlaceJSON.append(#","noneLikelihood":"#, into: &out)
            JSONWriter.writeNumber(Self.roundedLikelihood(run.model.noneDensity / run.total), into: &out)
            if explain {
                PlaceJSON.append(#","explain":"#, into: &out)
                let s = LikelihoodExplanation.significant
                JSONWriter().write(.object(JSONObject([
                    ("accuracyMeters", .double(request.accuracyMeters)),
                    ("sigmaMeters", .double(s(run.sigma))),
                    ("searchRadiusMeters", .double(s(run.reach))),
                    ("candidates", .int(Int64(run.candidates.count))),
                    ("noneLikelihood", .double(Self.roundedLikelihood(run.model.noneDensity / run.total))),
                ])), into: &out)
            }
            out.append(UInt8(ascii: "}"))
            return out
        }
    }

    /// A likelihood for output: rounded down to 6 decimals.
    public static func roundedLikelihood(_ p: Double) -> Double { (p * 1e6).rounded(.down) / 1e6 }

    /// The model's work for one query.
    struct ModelRun {
        var model: LikelihoodModel
        var index: PlaceIndex
        var tables: ModelTables
        var sigma: Double
        var reach: Double
        var candidates: [Candidate]
        /// Places decoded (all fields) to check their opening hours.
        var decoded: [Int: Place]
        /// Weights plus the none-of-these density.
        var total: Double
    }

    func runModel(_ request: CurrentPlaceRequest) throws -> ModelRun {
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
        Self.dropHeldContainers(&candidates, in: index, tables: tables)
        if index !== engine.full?.index { engine.charge(Clock.now() - started) }

        // Opening hours of the most likely candidates, when a time is given.
        var decoded: [Int: Place] = [:]
        if let at = request.at, !candidates.isEmpty {
            let order = candidates.indices.sorted { candidates[$0].weight > candidates[$1].weight }
            for i in order.prefix(max(model.hoursCandidates, request.maxResultCount)) {
                guard let place = try store.place(rowid: candidates[i].rowid, plan: MaskPlan(.all), coordinate: candidates[i].coordinate) else { continue }
                decoded[i] = place
                let time: Date
                switch at {
                case .instant(let d): time = d
                case .local(let wall):
                    // The wall clock at this place; without a clock its hours are unknown.
                    guard let clock = place.clock else { continue }
                    time = Date(timeIntervalSince1970: TimeInterval(clock.unix(at: wall)))
                }
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
        return ModelRun(model: model, index: index, tables: tables, sigma: sigma, reach: reach, candidates: candidates, decoded: decoded, total: total)
    }

    /// Drops the candidates of a container type (`LikelihoodModel.containerTypes`:
    /// a named building) whose area holds the location of a place that can
    /// be a candidate: a visitor there is at that place, which stands for
    /// the building (docs/osm-exports.md).
    static func dropHeldContainers(_ candidates: inout [Candidate], in index: PlaceIndex, tables: ModelTables) {
        guard tables.hasContainers else { return }
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        var dropped = false
        for ci in candidates.indices {
            let slot = Int(candidates[ci].slot)
            guard tables.isContainer[Int(index.typeCodes[slot])], let s = index.shape(slot),
                  index.shapes.infos[s].kind == .area else { continue }
            let lat = index.latitudes[slot], lng = index.longitudes[slot]
            let cosLat = cos(lat * Earth.radiansPerDegree)
            let held = index.within(index.coordinate(slot), meters: index.shapes.infos[s].reach * 1.01 + 1, useExtents: false) { other in
                other != slot && tables.typeFactor[Int(index.typeCodes[other])] > 0 && !tables.isContainer[Int(index.typeCodes[other])]
                    && index.statuses[other] != StatusCode.closedPermanently.rawValue
            }.contains { hit in
                let o = Int(hit.slot)
                var dl = index.longitudes[o] - lng
                if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
                return index.shapes.contains(s, east: dl * cosLat * perDegree, north: (index.latitudes[o] - lat) * perDegree)
            }
            if held { candidates[ci].weight = 0; dropped = true }
        }
        if dropped { candidates.removeAll { $0.weight == 0 } }
    }

    /// The candidates to list, most likely first (equal likelihoods by
    /// place ID), with the request's type filter, at most its count.
    func listedCandidates(_ run: ModelRun, _ request: CurrentPlaceRequest) throws -> [Int] {
        let c = run.candidates
        let k = request.maxResultCount
        func before(_ a: Int, _ b: Int) -> Bool { c[a].weight > c[b].weight || (c[a].weight == c[b].weight && c[a].rowid < c[b].rowid) }
        if request.includedTypes.isEmpty {
            // The k best and those tied with the k-th, without sorting all.
            var top: [Int] = []
            top.reserveCapacity(k + 1)
            for i in c.indices {
                if top.count >= k && c[i].weight < c[top[k - 1]].weight { continue }
                var lo = 0, hi = top.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if before(top[mid], i) { lo = mid + 1 } else { hi = mid }
                }
                top.insert(i, at: lo)
                if top.count > k {
                    let kth = c[top[k - 1]].weight
                    while top.count > k && c[top[top.count - 1]].weight < kth { top.removeLast() }
                }
            }
            return try breakTies(top, count: k, rowid: { c[$0].rowid }) { c[$0].weight == c[$1].weight }
        }
        let order = c.indices.sorted(by: before)
        var kept: [Int] = []
        for i in order {
            if kept.count >= k, let last = kept.last, c[i].weight != c[last].weight { break }
            if try store.hasAnyType(rowid: c[i].rowid, request.includedTypes) { kept.append(i) }
        }
        return try breakTies(kept, count: k, rowid: { c[$0].rowid }) { c[$0].weight == c[$1].weight }
    }

    /// A place that may be where the visitor is.
    struct Candidate {
        var rowid: Int64
        var slot: Int32
        var coordinate: Coordinate
        var meters: Double
        var density: Double
        /// The prior without the hours factor.
        var prior: Double
        var weight: Double
        var hoursFactor = 1.0
        var openNow: Bool?
    }

    /// A footprint in the plane of the fix (meters east and north of it):
    /// its box, and its stored shape when it has one.
    struct Footprint {
        var centerEast: Double
        var centerNorth: Double
        var halfWidth: Double
        var halfHeight: Double
        var from: FootprintSource
        /// The shape (index into the index's `shapes`) and where the place's
        /// location, its origin, lies from the fix.
        var shape: Int?
        var originEast = 0.0
        var originNorth = 0.0
    }

    /// The footprint of the place in `slot`, seen from `fix`: its stored
    /// shape or its viewport when the index kept one as the footprint, else
    /// a square of the area of its type's disc around its location. Offsets
    /// keep exact great-circle distances, with directions from the local
    /// plane.
    static func footprint(slot: Int, meters: Double, in index: PlaceIndex, tables: ModelTables, fix: Coordinate) -> Footprint {
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        let cosFix = cos(fix.latitude * Earth.radiansPerDegree)
        func offset(_ lat: Double, _ lng: Double, _ d: Double) -> (Double, Double) {
            var dl = lng - fix.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            let e = dl * cosFix * perDegree, n = (lat - fix.latitude) * perDegree
            let h = (e * e + n * n).squareRoot()
            return h > 0 ? (e * d / h, n * d / h) : (0, 0)
        }
        if let s = index.shape(slot) {
            let (ox, oy) = offset(index.latitudes[slot], index.longitudes[slot], meters)
            let info = index.shapes.infos[s]
            let w = Double(info.west), e = Double(info.east), so = Double(info.south), n = Double(info.north)
            return Footprint(centerEast: ox + (w + e) / 2, centerNorth: oy + (so + n) / 2, halfWidth: (e - w) / 2, halfHeight: (n - so) / 2,
                             from: .shape, shape: s, originEast: ox, originNorth: oy)
        }
        if let v = index.viewport(slot) {
            var east = v.east
            if east < v.west { east += 360 }
            var midLng = (v.west + east) / 2
            if midLng > 180 { midLng -= 360 }
            let midLat = (v.south + v.north) / 2
            let (cx, cy) = offset(midLat, midLng, haversineMeters(fix.latitude, fix.longitude, midLat, midLng))
            return Footprint(centerEast: cx, centerNorth: cy,
                             halfWidth: (east - v.west) / 2 * perDegree * cos(midLat * Earth.radiansPerDegree),
                             halfHeight: (v.north - v.south) / 2 * perDegree, from: .viewport)
        }
        let (cx, cy) = offset(index.latitudes[slot], index.longitudes[slot], meters)
        let half = ModelTables.halfSide(radius: tables.typeRadius[Int(index.typeCodes[slot])])
        return Footprint(centerEast: cx, centerNorth: cy, halfWidth: half, halfHeight: half, from: .type)
    }

    /// The model for one place, or nil when it cannot be a candidate.
    private func evaluate(slot: Int, meters: Double, in index: PlaceIndex, tables: ModelTables, model: LikelihoodModel,
                          sigma: Double, reach: Double, fix: Coordinate) -> Candidate? {
        let status = index.statuses[slot]
        if status == StatusCode.closedPermanently.rawValue { return nil }
        let typeFactor = tables.typeFactor[Int(index.typeCodes[slot])]
        if typeFactor <= 0 { return nil }
        let f = Self.footprint(slot: slot, meters: meters, in: index, tables: tables, fix: fix)
        let gapX = max(abs(f.centerEast) - f.halfWidth, 0), gapY = max(abs(f.centerNorth) - f.halfHeight, 0)
        if gapX * gapX + gapY * gapY > reach * reach { return nil }
        let density: Double
        if let shape = f.shape {
            // The polygons (or lines) themselves, not their box.
            density = index.shapes.density(shape, east: f.originEast, north: f.originNorth, sigma: sigma)
        } else {
            density = NormalBox.density(center: f.centerEast, half: f.halfWidth, sigma: sigma)
                * NormalBox.density(center: f.centerNorth, half: f.halfHeight, sigma: sigma)
        }
        let prior = typeFactor * model.popularityFactor(Int(index.ratingCounts[slot]))
            * model.statusFactor((StatusCode(rawValue: status) ?? .other).businessStatus)
            * tables.sourceFactor[Int(index.sourceCodes[slot])]
            * (f.shape != nil ? model.extentFactor : 1)
        let weight = prior * density
        guard weight > 0 else { return nil }
        return Candidate(rowid: index.rowids[slot], slot: Int32(slot), coordinate: index.coordinate(slot), meters: meters,
                         density: density, prior: prior, weight: weight)
    }

    /// Where a footprint came from, as `--explain` says it: "polygon",
    /// "line", "viewport" or "type".
    static func footprintName(_ f: Footprint, _ index: PlaceIndex) -> String {
        switch f.from {
        case .shape: index.shapes.infos[f.shape!].kind == .area ? "polygon" : "line"
        case .viewport: "viewport"
        case .type: "type"
        }
    }

    /// Every factor behind a candidate's weight, and what its viewport
    /// (read from the stored document: the index keeps only footprints)
    /// says.
    private func explanation(_ c: Candidate, _ run: ModelRun, fix: Coordinate) throws -> LikelihoodExplanation {
        var e = Self.explanation(c, run, fix: fix)
        if let doc = try store.place(rowid: c.rowid, plan: MaskPlan(.all), coordinate: c.coordinate)?.document["viewport"],
           let verdict = ViewportEvidence.classify(doc) {
            e.viewport = verdict
            if let s = doc["low"]?["latitude"]?.doubleValue, let w = doc["low"]?["longitude"]?.doubleValue,
               let n = doc["high"]?["latitude"]?.doubleValue, let east = doc["high"]?["longitude"]?.doubleValue, verdict != .outOfRange {
                (e.viewportWidth, e.viewportHeight) = ViewportEvidence.sizeMeters(south: s, west: w, north: n, east: east)
            }
        }
        return e
    }

    /// Every factor behind a candidate's weight.
    static func explanation(_ c: Candidate, _ run: ModelRun, fix: Coordinate) -> LikelihoodExplanation {
        let slot = Int(c.slot)
        let f = footprint(slot: slot, meters: c.meters, in: run.index, tables: run.tables, fix: fix)
        let status = StatusCode(rawValue: run.index.statuses[slot]) ?? .other
        return LikelihoodExplanation(
            distanceMeters: c.meters, footprint: Self.footprintName(f, run.index),
            footprintHalfWidth: f.halfWidth, footprintHalfHeight: f.halfHeight,
            footprintArea: f.shape.map { run.index.shapes.infos[$0].kind == .area ? run.index.shapes.infos[$0].size : 0 }
                ?? 4 * f.halfWidth * f.halfHeight,
            footprintLength: f.shape.flatMap { run.index.shapes.infos[$0].kind == .lines ? run.index.shapes.infos[$0].size : nil },
            footprintOffsetEast: f.centerEast, footprintOffsetNorth: f.centerNorth, density: c.density,
            typeFactor: run.tables.typeFactor[Int(run.index.typeCodes[slot])],
            popularityFactor: run.model.popularityFactor(Int(run.index.ratingCounts[slot])),
            sourceFactor: run.tables.sourceFactor[Int(run.index.sourceCodes[slot])],
            statusFactor: run.model.statusFactor(status.businessStatus),
            extentFactor: f.shape != nil ? run.model.extentFactor : 1, hoursFactor: c.hoursFactor, openNow: c.openNow,
            prior: c.prior * c.hoursFactor, weight: c.weight)
    }
}
