public import Foundation
public import PlaceModel
import PlaceStorage

/// A current-place query: a location fix and what to return.
public struct CurrentPlaceRequest: Sendable, Equatable {
    public var location: Coordinate
    /// The fix's horizontal accuracy in meters: the radius of the circle
    /// holding the true position with 68% probability; more than 0, at
    /// most `maxAccuracyMeters`.
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
    /// 1...`NearbySearchRequest.maxResultLimit`; `defaultResultCount` by default.
    public var maxResultCount: Int
    /// The language `displayName` is served in (`NameLanguage`); nil: the default name.
    public var languageCode: String?
    /// The list's length when a request gives none: 5, as the Current
    /// Place tutorial lists, for the CLI, its `--batch` lines, the server
    /// and the library alike.
    public static let defaultResultCount = 5

    public init(
        location: Coordinate, accuracyMeters: Double, time: Date? = nil, includedTypes: [String] = [],
        maxResultCount: Int = CurrentPlaceRequest.defaultResultCount
    ) {
        self.location = location
        self.accuracyMeters = accuracyMeters
        self.time = time
        self.includedTypes = includedTypes
        self.maxResultCount = maxResultCount
    }

    /// The largest accuracy accepted: 50 km, the Places API's largest
    /// search radius (`NearbySearchRequest.maxRadiusMeters`). A coarse
    /// network fix is 1 to 3 km; a 68% circle wider than 50 km says
    /// nothing about which place the visitor is at, and the answer and its
    /// picture (`CurrentPlaceScene.svg()`) are bounded by it.
    public static let maxAccuracyMeters = 50_000.0

    /// Throws `PlaceDBError.invalidArgument` naming what is wrong.
    public func validate() throws(PlaceDBError) {
        guard location.isValid else {
            throw .invalidArgument(
                "location \(location.latitude),\(location.longitude) is out of range (latitude -90...90, longitude -180...180)"
            )
        }
        guard accuracyMeters.isFinite && accuracyMeters > 0 && accuracyMeters <= Self.maxAccuracyMeters else {
            throw .invalidArgument(
                "accuracy \(accuracyMeters) must be a positive number of meters, at most \(Int(Self.maxAccuracyMeters))"
            )
        }
        guard (1...NearbySearchRequest.maxResultLimit).contains(maxResultCount) else {
            throw .invalidArgument(
                "maxResultCount \(maxResultCount) must be in 1...\(NearbySearchRequest.maxResultLimit)")
        }
        for t in includedTypes where t.isEmpty { throw .invalidArgument("an empty place type in a type filter") }
    }
}

extension PlaceReader {
    /// The places the visitor is likely at, given a fix at `location` with
    /// horizontal `accuracy` in meters (the 68% radius), most likely first.
    /// Mirrors the Places SDK's `findPlaceLikelihoods`; see `LikelihoodModel`
    /// for the model and `likelihoodModel` to change it.
    package func findPlaceLikelihoods(
        location: Coordinate, accuracy: Double, fields: FieldMask = .all, at time: Date? = nil,
        includedTypes: [String] = [], limit: Int = CurrentPlaceRequest.defaultResultCount, explain: Bool = false
    ) throws -> PlaceLikelihoodList {
        try findPlaceLikelihoods(
            CurrentPlaceRequest(
                location: location, accuracyMeters: accuracy, time: time,
                includedTypes: includedTypes, maxResultCount: limit),
            fields: fields, explain: explain)
    }

    package func findPlaceLikelihoods(_ request: CurrentPlaceRequest, fields: FieldMask = .all, explain: Bool = false)
        throws -> PlaceLikelihoodList
    {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            try likelihoodList(try runModel(request), request, fields: fields, plan: plan, explain: explain)
        }
    }

    /// The answer of a model run: its listed candidates' places (`fields`,
    /// read as `plan` says), likelihoods and explanations; inside the
    /// caller's read.
    private func likelihoodList(
        _ run: ModelRun, _ request: CurrentPlaceRequest, fields: FieldMask, plan: MaskPlan, explain: Bool
    ) throws -> PlaceLikelihoodList {
        let served = request.servedAt
        var listed: [PlaceLikelihood] = []
        for i in try listedCandidates(run, request) {
            let l = run.scores.likelihoods[i]
            let place: Place
            if let p = run.decoded[l.candidate] {
                place = try localized(p.served(at: served), request.languageCode).masked(fields)
            } else if let p = try store.servedPlace(
                rowid: run.rowids[l.candidate], plan: plan, coordinate: run.candidates[l.candidate].location,
                at: served)
            {
                place = p
            } else {
                continue
            }
            listed.append(
                PlaceLikelihood(
                    place: place, likelihood: l.likelihood,
                    explanation: explain ? try explanation(l, run) : nil))
        }
        var list = PlaceLikelihoodList(
            placeLikelihoods: listed, noneLikelihood: run.scores.noneLikelihood, sigmaMeters: run.sigma,
            searchRadiusMeters: run.reach, candidateCount: run.scores.likelihoods.count)
        (list.approximate, list.topMass) = Self.approximate(run.scores, run.model)
        if list.approximate { list.locality = try locality(at: request.location) }
        return list
    }

    /// The same answer as `findPlaceLikelihoods`, as compact JSON:
    /// `{"placeLikelihoods": [{"place": {...}, "likelihood": 0.42}, ...],
    /// "noneLikelihood": 0.01}`, likelihoods rounded down to 6 decimals (so
    /// they still sum to at most 1; `noneLikelihood`, always there, is the
    /// mass of "none of these"); with `explain`, each item's `explain`
    /// object and a top-level one. Written from the typed answer
    /// (`currentPlaceJSON`): copying the stored documents' bytes instead
    /// saves nothing measurable for five places (`placedb-bench
    /// serve-answers`). A mask of only `id` and `name` (a batch asking for
    /// IDs) is written from the index instead when it holds the IDs, no row
    /// read (`idOnlyLikelihoodsJSON`): the same bytes, from the same model
    /// run.
    package func findPlaceLikelihoodsJSON(
        _ request: CurrentPlaceRequest, fields: FieldMask = .all, explain: Bool = false
    ) throws -> [UInt8] {
        try request.validate()
        let plan = maskPlan(fields, language: request.languageCode)
        return try store.read {
            let run = try runModel(request)
            if !explain, let json = try idOnlyLikelihoodsJSON(run, request, plan: plan) { return json }
            let list = try likelihoodList(run, request, fields: fields, plan: plan, explain: explain)
            var out: [UInt8] = []
            JSONWriter().write(
                .object(currentPlaceJSON(list, fields: fields, accuracyMeters: explain ? request.accuracyMeters : nil)),
                into: &out)
            return out
        }
    }

    /// `findPlaceLikelihoodsJSON` of `run` for a mask of only `id` and
    /// `name` (`MaskPlan.needsNoDocument`), each listed place's ID read
    /// from the whole index at its slot instead of from its row; nil where
    /// that cannot be done (another mask, no IDs in the index, a regional
    /// index built for this query), for the typed answer to be written
    /// instead. What `currentPlaceJSON` writes for the same answer, byte
    /// for byte; inside the caller's read.
    private func idOnlyLikelihoodsJSON(_ run: ModelRun, _ request: CurrentPlaceRequest, plan: MaskPlan) throws
        -> [UInt8]?
    {
        guard plan.needsNoDocument, let ids = engine.full?.index, run.index === ids, ids.holdsIDs else { return nil }
        let listed = try listedCandidates(run, request)
        ids.prefetchIDs(listed.lazy.map { run.slots[run.scores.likelihoods[$0].candidate] })
        var out: [UInt8] = []
        out.reserveCapacity(256)
        PlaceJSON.append(#"{"placeLikelihoods":["#, into: &out)
        for (n, i) in listed.enumerated() {
            let l = run.scores.likelihoods[i]
            let slot = Int(run.slots[l.candidate])
            guard slot >= 0, slot < ids.count, ids.rowids[slot] == run.rowids[l.candidate] else { return nil }
            if n > 0 { out.append(UInt8(ascii: ",")) }
            PlaceJSON.append(#"{"place":"#, into: &out)
            ids.withID(slot) { PlaceJSON.writeIDOnly(idBytes: $0, plan: plan, extra: [], into: &out) }
            PlaceJSON.append(#","likelihood":"#, into: &out)
            JSONWriter.writeNumber(Self.roundedLikelihood(l.likelihood), into: &out)
            out.append(UInt8(ascii: "}"))
        }
        PlaceJSON.append(#"],"noneLikelihood":"#, into: &out)
        JSONWriter.writeNumber(Self.roundedLikelihood(run.scores.noneLikelihood), into: &out)
        if Self.approximate(run.scores, run.model).approximate {
            PlaceJSON.append(#","approximate":true"#, into: &out)
            if let l = try locality(at: request.location) {
                PlaceJSON.append(#","locality":"#, into: &out)
                JSONWriter().write(Self.localityJSON(l), into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The JSON of a current-place answer, the writer of the typed one (the
    /// CLI, the server; `idOnlyLikelihoodsJSON` writes the same bytes from
    /// the index for IDs alone): each place's `fields`, its likelihood (and `explain`
    /// when the answer carries explanations), `noneLikelihood`,
    /// `approximate` and `locality` when the fix is too coarse to name a
    /// place (false is left out, as proto3 JSON leaves out a false bool),
    /// and with `accuracyMeters` the top-level `explain` object.
    package func currentPlaceJSON(_ list: PlaceLikelihoodList, fields: FieldMask, accuracyMeters: Double?) -> JSONObject
    {
        var o = JSONObject([
            (
                "placeLikelihoods",
                .array(
                    list.placeLikelihoods.map { l in
                        var item = JSONObject([
                            ("place", .object(l.place.apiJSON(fields: fields))),
                            ("likelihood", .double(Self.roundedLikelihood(l.likelihood))),
                        ])
                        if let e = l.explanation { item["explain"] = .object(e.json) }
                        return .object(item)
                    })
            ), ("noneLikelihood", .double(Self.roundedLikelihood(list.noneLikelihood))),
        ])
        if list.approximate {
            o["approximate"] = true
            if let l = list.locality { o["locality"] = Self.localityJSON(l) }
        }
        if let accuracyMeters {
            let s = LikelihoodExplanation.significant
            o["explain"] = .object(
                JSONObject([
                    ("accuracyMeters", .double(accuracyMeters)),
                    ("sigmaMeters", .double(s(list.sigmaMeters))),
                    ("searchRadiusMeters", .double(s(list.searchRadiusMeters))),
                    ("candidates", .int(Int64(list.candidateCount))),
                    ("noneLikelihood", .double(Self.roundedLikelihood(list.noneLikelihood))),
                    ("topMass", .double(Self.roundedLikelihood(list.topMass))),
                    ("approximateBelow", .double(likelihoodModel.approximateMass)),
                ]))
        }
        return o
    }

    /// A likelihood for output: rounded down to 6 decimals.
    package static func roundedLikelihood(_ p: Double) -> Double { (p * 1e6).rounded(.down) / 1e6 }

    /// The model's work for one query: the candidates gathered from the
    /// index and the database, and their scores (`LikelihoodModel.score`).
    struct ModelRun {
        var model: LikelihoodModel
        var candidates: [LikelihoodCandidate]
        /// The database row of each candidate.
        var rowids: [Int64]
        var scores: LikelihoodScores
        /// Places decoded (all fields) to check their opening hours, by candidate.
        var decoded: [Int: Place]
        /// The index the candidates came from, and each one's slot in it.
        var index: PlaceIndex
        var slots: [Int32]

        var sigma: Double { scores.sigmaMeters }
        var reach: Double { scores.searchRadiusMeters }
    }

    /// Gathers the candidates near the fix (and, when a time is given, the
    /// details of the most likely ones for their hours) and scores them.
    func runModel(_ request: CurrentPlaceRequest) throws -> ModelRun {
        let model = engine.model
        let fix = LocationFix(coordinate: request.location, accuracyMeters: request.accuracyMeters)
        let reach = model.cutoffSigmas * model.sigma(accuracy: request.accuracyMeters)
        let started = MonotonicClock.now()
        let index: PlaceIndex, tables: ModelTables
        if let loaded = try engine.indexForQuery() {
            (index, tables) = (loaded.index, loaded.tables)
        } else {
            // Points whose type footprint may reach the fix, and viewports
            // near it (generous: the model applies the exact rule).
            let input = try store.loadPlaces(
                in: GeoRect.covering(center: request.location, meters: (reach + model.maxTypeExtent) * 1.05 + 10),
                extentRects: GeoRect.covering(center: request.location, meters: reach * 1.05 + 10))
            (index, tables) = engine.build(input)
        }
        var candidates: [LikelihoodCandidate] = []
        var rowids: [Int64] = []
        var slots: [Int32] = []
        let hits = index.within(request.location, meters: reach, useExtents: true)
        index.prefetchCandidates(hits)
        for hit in hits {
            if let c = Self.candidate(slot: Int(hit.slot), meters: hit.meters, in: index, tables: tables) {
                candidates.append(c)
                rowids.append(index.rowids[Int(hit.slot)])
                slots.append(hit.slot)
            }
        }
        var scores = model.weigh(candidates, fix: fix)
        if index !== engine.full?.index { engine.charge(MonotonicClock.now() - started) }

        // Opening hours of the most likely candidates, when a time is given.
        var decoded: [Int: Place] = [:]
        if let at = request.at, !scores.likelihoods.isEmpty {
            let l = scores.likelihoods
            let order = l.indices.sorted { l[$0].weight > l[$1].weight }
            for i in order.prefix(max(model.hoursCandidates, request.maxResultCount)) {
                let ci = l[i].candidate
                guard
                    let place = try store.place(
                        rowid: rowids[ci], plan: MaskPlan(.all), coordinate: candidates[ci].location)
                else { continue }
                decoded[ci] = place
                candidates[ci].details = place
            }
            model.applyHours(&scores, candidates, at: at)
        }
        model.normalize(&scores)
        return ModelRun(
            model: model, candidates: candidates, rowids: rowids, scores: scores, decoded: decoded, index: index,
            slots: slots)
    }

    /// The candidate in `slot`, `meters` from the fix, with the footprint
    /// evidence the index kept for it; nil for what cannot be a candidate
    /// (a feature that is not a place, a type the model gives no mass,
    /// a place closed for good).
    static func candidate(slot: Int, meters: Double, in index: PlaceIndex, tables: ModelTables) -> LikelihoodCandidate?
    {
        let status = index.statuses[slot]
        let code = Int(index.typeCodes[slot])
        guard
            LikelihoodModel.canBeAt(
                typeFactor: tables.typeFactor[code], closedPermanently: status == StatusCode.closedPermanently.rawValue)
        else { return nil }
        let (kind, type) = IndexedType.decode(index.types.name(index.typeCodes[slot]))
        var c = LikelihoodCandidate(
            location: index.coordinate(slot), distanceMeters: meters, kind: kind, primaryType: type,
            ratingCount: Int(index.ratingCounts[slot]), source: index.sources.name(index.sourceCodes[slot]),
            businessStatus: (StatusCode(rawValue: status) ?? .other).businessStatus)
        if let s = index.shape(slot) {
            c.shape = index.shapes.shape(s)
            if tables.isContainer[code] && index.shapes.info(s).kind == .area {
                c.holdsAnotherPlace = holdsAnotherPlace(slot: slot, shape: s, in: index, tables: tables)
            }
        } else if let v = index.viewport(slot) {
            c.viewport = Viewport(
                low: Coordinate(latitude: v.south, longitude: v.west),
                high: Coordinate(latitude: v.north, longitude: v.east))
        }
        return c
    }

    /// Whether the area of the container in `slot` holds the location of a
    /// place that can be a candidate (not a container, not closed for
    /// good): a visitor there is at that place, which stands for the
    /// building (docs/osm-exports.md).
    static func holdsAnotherPlace(slot: Int, shape s: Int, in index: PlaceIndex, tables: ModelTables) -> Bool {
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        let lat = index.latitudes[slot], lng = index.longitudes[slot]
        let cosLat = cos(lat * Earth.radiansPerDegree)
        return index.within(
            index.coordinate(slot), meters: LikelihoodModel.extent(reach: index.shapes.info(s).reach),
            useExtents: false
        ) { other in
            other != slot && !tables.isContainer[Int(index.typeCodes[other])]
                && LikelihoodModel.canBeAt(
                    typeFactor: tables.typeFactor[Int(index.typeCodes[other])],
                    closedPermanently: index.statuses[other] == StatusCode.closedPermanently.rawValue)
        }.contains { hit in
            let o = Int(hit.slot)
            var dl = index.longitudes[o] - lng
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            return index.shapes.contains(
                s, east: dl * cosLat * perDegree, north: (index.latitudes[o] - lat) * perDegree)
        }
    }

    /// The candidates to list (indices into `run.scores.likelihoods`), most
    /// likely first (equal likelihoods by place ID), with the request's
    /// type filter, at most its count.
    func listedCandidates(_ run: ModelRun, _ request: CurrentPlaceRequest) throws -> [Int] {
        let c = run.scores.likelihoods
        let rowids = run.rowids
        let k = request.maxResultCount
        func rowid(_ i: Int) -> Int64 { rowids[c[i].candidate] }
        func before(_ a: Int, _ b: Int) -> Bool {
            c[a].weight > c[b].weight || (c[a].weight == c[b].weight && rowid(a) < rowid(b))
        }
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
            return try breakTies(top, count: k, rowid: rowid) { c[$0].weight == c[$1].weight }
        }
        let order = c.indices.sorted(by: before)
        var kept: [Int] = []
        for i in order {
            if kept.count >= k, let last = kept.last, c[i].weight != c[last].weight { break }
            if try store.hasAnyType(rowid: rowid(i), request.includedTypes) { kept.append(i) }
        }
        return try breakTies(kept, count: k, rowid: rowid) { c[$0].weight == c[$1].weight }
    }

    /// Every factor behind a candidate's weight, and what its viewport
    /// (read from the stored document: the index keeps only footprints)
    /// says.
    private func explanation(_ l: Likelihood, _ run: ModelRun) throws -> LikelihoodExplanation {
        var e = l.explanation
        if let doc = try store.place(
            rowid: run.rowids[l.candidate], plan: MaskPlan(.all), coordinate: run.candidates[l.candidate].location)?
            .document["viewport"],
            let verdict = ViewportEvidence.classify(doc)
        {
            e.viewport = verdict
            if let s = doc["low"]?["latitude"]?.doubleValue, let w = doc["low"]?["longitude"]?.doubleValue,
                let n = doc["high"]?["latitude"]?.doubleValue, let east = doc["high"]?["longitude"]?.doubleValue,
                verdict != .outOfRange
            {
                (e.viewportWidth, e.viewportHeight) = ViewportEvidence.sizeMeters(
                    south: s, west: w, north: n, east: east)
            }
        }
        return e
    }
}
