public import Foundation

/// A location fix: where a device says it is and how sure it is.
public struct LocationFix: Sendable, Equatable {
    public var coordinate: Coordinate
    /// The horizontal accuracy in meters: the radius of the circle holding
    /// the true position with 68% probability.
    public var accuracyMeters: Double

    public init(coordinate: Coordinate, accuracyMeters: Double) {
        self.coordinate = coordinate
        self.accuracyMeters = accuracyMeters
    }
}

extension LikelihoodModel {
    /// The current-place model as a pure function: how likely the visitor
    /// who got `fix` is at each candidate, and at none of them. Hours count
    /// for candidates that carry their `details`, at `time` (nil: unused).
    /// Deterministic: the same candidates give the same answer.
    public func score(candidates: [LikelihoodCandidate], fix: LocationFix, time: Date?) -> LikelihoodScores {
        score(candidates: candidates, fix: fix, at: time.map(HoursQueryTime.instant))
    }

    /// `score(candidates:fix:time:)` with a wall-clock time read in each
    /// place's own zone (`HoursQueryTime.local`) or an instant.
    public func score(candidates: [LikelihoodCandidate], fix: LocationFix, at time: HoursQueryTime?) -> LikelihoodScores
    {
        var scores = weigh(candidates, fix: fix)
        if let time { applyHours(&scores, candidates, at: time) }
        normalize(&scores)
        return scores
    }

    /// The first step of `score`: every candidate's footprint, density and
    /// prior, hours aside; not normalized.
    package func weigh(_ candidates: [LikelihoodCandidate], fix: LocationFix) -> LikelihoodScores {
        let sigma = sigma(accuracy: fix.accuracyMeters)
        let reach = cutoffSigmas * sigma
        var out: [Likelihood] = []
        for i in candidates.indices {
            if let l = weigh(candidates[i], index: i, fix: fix.coordinate, sigma: sigma, reach: reach) { out.append(l) }
        }
        return LikelihoodScores(
            likelihoods: out, noneLikelihood: 0, sigmaMeters: sigma, searchRadiusMeters: reach, total: 0)
    }

    /// The second step: the hours factor of each candidate that carries
    /// its details, at `time`.
    package func applyHours(
        _ scores: inout LikelihoodScores, _ candidates: [LikelihoodCandidate], at time: HoursQueryTime
    ) {
        for i in scores.likelihoods.indices {
            guard let place = candidates[scores.likelihoods[i].candidate].details else { continue }
            let date: Date
            switch time {
            case .instant(let d): date = d
            case .local(let wall):
                // The wall clock at this place; without a clock its hours are unknown.
                guard let clock = place.clock else { continue }
                date = Date(timeIntervalSince1970: TimeInterval(clock.unix(at: wall)))
            }
            if let open = isOpen(place, date) {
                scores.likelihoods[i].openNow = open
                if !open {
                    scores.likelihoods[i].hoursFactor = closedFactor
                    scores.likelihoods[i].weight *= closedFactor
                }
            }
        }
    }

    /// The last step: likelihoods from weights, and the none-of-these mass.
    package func normalize(_ scores: inout LikelihoodScores) {
        let total = scores.likelihoods.reduce(noneDensity) { $0 + $1.weight }
        scores.total = total
        scores.noneLikelihood = noneDensity / total
        for i in scores.likelihoods.indices { scores.likelihoods[i].likelihood = scores.likelihoods[i].weight / total }
    }

    /// The prior factor of a feature's type: 0 for what is not a place,
    /// `unnamedFactor` more for an unnamed feature.
    package func typeFactor(_ type: String?, kind: LikelihoodCandidate.Kind) -> Double {
        switch kind {
        case .notAPlace: 0
        case .place: typeFactor(type) * 1
        case .unnamed: typeFactor(type) * unnamedFactor
        }
    }

    /// One candidate, or nil when it cannot be where the visitor is.
    private func weigh(_ c: LikelihoodCandidate, index: Int, fix: Coordinate, sigma: Double, reach: Double)
        -> Likelihood?
    {
        let typeFactor = typeFactor(c.primaryType, kind: c.kind)
        guard Self.canBeAt(typeFactor: typeFactor, closedPermanently: c.businessStatus == .closedPermanently) else {
            return nil
        }
        let meters =
            c.distanceMeters ?? haversineMeters(fix.latitude, fix.longitude, c.location.latitude, c.location.longitude)
        let (f, shape) = footprint(c, meters: meters, fix: fix)
        if shape != nil && c.holdsAnotherPlace, isContainer(c.primaryType), shape!.kind == .area {
            return nil
        }
        let gapX = max(abs(f.centerEast) - f.halfWidth, 0), gapY = max(abs(f.centerNorth) - f.halfHeight, 0)
        if gapX * gapX + gapY * gapY > reach * reach { return nil }
        let density: Double
        if let shape {
            // The polygons (or lines) themselves, not their box.
            let size = shape.kind == .area ? f.area : f.length ?? 0
            density = size > 0 ? shape.density(east: f.originEast, north: f.originNorth, sigma: sigma, size: size) : 0
        } else {
            density =
                NormalBox.density(center: f.centerEast, half: f.halfWidth, sigma: sigma)
                * NormalBox.density(center: f.centerNorth, half: f.halfHeight, sigma: sigma)
        }
        let popularity = popularityFactor(c.ratingCount)
        let status = statusFactor(c.businessStatus)
        let source = sourceFactor(c.source)
        let extent = shape != nil ? extentFactor : 1
        let prior = typeFactor * popularity * status * source * extent
        let weight = prior * density
        guard weight > 0 else { return nil }
        return Likelihood(
            candidate: index, footprint: f, distanceMeters: meters, density: density, typeFactor: typeFactor,
            popularityFactor: popularity, sourceFactor: source, statusFactor: status, extentFactor: extent,
            prior: prior, weight: weight)
    }

    /// The footprint of a candidate seen from `fix`, as `footprintSource`
    /// chooses it: its stored shape, its viewport, or a square of the area
    /// of its type's disc around its location. Offsets keep exact
    /// great-circle distances, with directions from the local plane.
    package func footprint(_ c: LikelihoodCandidate, meters: Double, fix: Coordinate) -> (
        ScoredFootprint, FootprintShape?
    ) {
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        let cosFix = cos(fix.latitude * Earth.radiansPerDegree)
        func offset(_ lat: Double, _ lng: Double, _ d: Double) -> (Double, Double) {
            var dl = lng - fix.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            let e = dl * cosFix * perDegree, n = (lat - fix.latitude) * perDegree
            let h = (e * e + n * n).squareRoot()
            return h > 0 ? (e * d / h, n * d / h) : (0, 0)
        }
        let lat = c.location.latitude, lng = c.location.longitude
        let rect = c.viewport.map {
            GeoRect(south: $0.low.latitude, west: $0.low.longitude, north: $0.high.latitude, east: $0.high.longitude)
        }
        let source = footprintSource(
            shapeReach: c.shape.flatMap { $0.vertexCount > 0 ? $0.reach : nil }, viewport: rect,
            latitude: lat, longitude: lng
        ).source
        if source == .shape, let shape = c.shape {
            let (ox, oy) = offset(lat, lng, meters)
            let b = shape.bounds
            let size = shape.kind == .area ? shape.area : shape.length
            return (
                ScoredFootprint(
                    source: shape.kind == .area ? .polygon : .line,
                    centerEast: ox + (b.west + b.east) / 2, centerNorth: oy + (b.south + b.north) / 2,
                    halfWidth: (b.east - b.west) / 2, halfHeight: (b.north - b.south) / 2, originEast: ox,
                    originNorth: oy,
                    area: shape.kind == .area ? size : 0, length: shape.kind == .lines ? size : nil), shape
            )
        }
        if source == .viewport, let v = c.viewport {
            let south = v.low.latitude, west = v.low.longitude, north = v.high.latitude
            var east = v.high.longitude
            if east < west { east += 360 }
            var midLng = (west + east) / 2
            if midLng > 180 { midLng -= 360 }
            let midLat = (south + north) / 2
            let (cx, cy) = offset(midLat, midLng, haversineMeters(fix.latitude, fix.longitude, midLat, midLng))
            let hw = (east - west) / 2 * perDegree * cos(midLat * Earth.radiansPerDegree),
                hh = (north - south) / 2 * perDegree
            let (ox, oy) = offset(lat, lng, meters)
            return (
                ScoredFootprint(
                    source: .viewport, centerEast: cx, centerNorth: cy, halfWidth: hw, halfHeight: hh,
                    originEast: ox, originNorth: oy, area: 4 * hw * hh, length: nil), nil
            )
        }
        let (cx, cy) = offset(lat, lng, meters)
        let half = typeHalfSide(c.primaryType)
        return (
            ScoredFootprint(
                source: .type, centerEast: cx, centerNorth: cy, halfWidth: half, halfHeight: half,
                originEast: cx, originNorth: cy, area: 4 * half * half, length: nil), nil
        )
    }
}

extension FootprintShape {
    /// p(fix | visitor uniformly in the shape) with its `size` (area or
    /// length) known.
    package func density(east: Double, north: Double, sigma: Double, size: Double) -> Double {
        coordinates.withUnsafeBufferPointer { c in
            partCounts.withUnsafeBufferPointer { p in
                switch kind {
                case .area: NormalShape.mass(c, p, east: east, north: north, sigma: sigma) / size
                case .lines: NormalShape.lineIntegral(c, p, east: east, north: north, sigma: sigma) / size
                }
            }
        }
    }
}
