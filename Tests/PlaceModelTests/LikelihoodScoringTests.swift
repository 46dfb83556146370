import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

/// The current-place model as a pure function, on hand-built candidates
/// (no database): `LikelihoodModel.score(candidates:fix:time:)`.
@Suite struct LikelihoodScoringTests {
    static let origin = Coordinate(latitude: 46.5, longitude: 6.6)
    static let fix = LocationFix(coordinate: origin, accuracyMeters: 10)

    /// The point `east`, `north` meters from the fix.
    static func at(east: Double = 0, north: Double = 0) -> Coordinate {
        let perDegree = Earth.meanRadius * Double.pi / 180
        return Coordinate(
            latitude: origin.latitude + north / perDegree,
            longitude: origin.longitude + east / (perDegree * cos(origin.latitude * Double.pi / 180)))
    }

    static func cafe(east: Double, north: Double = 0, ratings: Int = 0) -> LikelihoodCandidate {
        LikelihoodCandidate(location: at(east: east, north: north), primaryType: "cafe", ratingCount: ratings)
    }

    /// A square of `side` meters around the place's location.
    static func square(_ side: Double) -> FootprintShape {
        let h = Float(side / 2)
        return FootprintShape(kind: .area, partCounts: [4], coordinates: [-h, -h, h, -h, h, h, -h, h])
    }

    @Test func placesAreRankedByDistanceWhenAllElseIsEqual() {
        // σ is 6.6 m for a 10 m fix; candidates count within 4 σ (26.5 m).
        let candidates = [Self.cafe(east: 20), Self.cafe(east: 5), Self.cafe(east: -12)]
        let scores = LikelihoodModel().score(candidates: candidates, fix: Self.fix, time: nil)
        #expect(scores.likelihoods.map(\.candidate) == [0, 1, 2], "in the candidates' order")
        #expect(scores.ranked.map(\.candidate) == [1, 2, 0])
        let l = scores.ranked.map(\.likelihood)
        #expect(l[0] > l[1] && l[1] > l[2] && l[2] > 0)
        #expect(abs(scores.likelihoods[1].distanceMeters - 5) < 0.01)
        #expect(scores.likelihoods.allSatisfy { $0.footprint.source == .type })
    }

    @Test func aVisitorInsideAnAreaIsAtItEvenFarFromItsLocation() {
        // A 400 m park whose location lies 150 m from the fix, the fix 50 m
        // inside it, and a cafe 26 m away outside it.
        var park = LikelihoodCandidate(location: Self.at(east: 150), primaryType: "park", shape: Self.square(400))
        let cafe = Self.cafe(east: -26)
        let scores = LikelihoodModel().score(candidates: [park, cafe], fix: Self.fix, time: nil)
        #expect(scores.ranked.first?.candidate == 0)
        let p = scores.likelihoods[0]
        #expect(p.footprint.source == .polygon)
        #expect(abs(p.footprint.area - 160_000) < 1)
        // Inside, away from the edges: the density is one over the area.
        #expect(abs(p.density * 160_000 - 1) < 0.001)
        #expect(p.footprint.halfWidth == 200 && abs(p.footprint.centerEast - 150) < 0.01)

        // The same park as a point (its type's 100 m disc, 150 m away) is
        // out of reach: the cafe is the answer.
        park.shape = nil
        let asPoint = LikelihoodModel().score(candidates: [park, cafe], fix: Self.fix, time: nil)
        #expect(asPoint.likelihoods.map(\.candidate) == [1])
    }

    @Test func withNoCandidateTheVisitorIsAtNoneOfThem() {
        let empty = LikelihoodModel().score(candidates: [], fix: Self.fix, time: nil)
        #expect(empty.likelihoods.isEmpty && empty.noneLikelihood == 1)
        // 1 km away with a 10 m fix: beyond the cutoff, not a candidate.
        let far = LikelihoodModel().score(candidates: [Self.cafe(east: 1000)], fix: Self.fix, time: nil)
        #expect(far.likelihoods.isEmpty && far.noneLikelihood == 1)
        #expect(abs(far.searchRadiusMeters - 4 * 10 / (-2 * log(0.32)).squareRoot()) < 1e-9)
        // The farther the only place, the more likely none.
        let near = LikelihoodModel().score(candidates: [Self.cafe(east: 5)], fix: Self.fix, time: nil)
        let edge = LikelihoodModel().score(candidates: [Self.cafe(east: 25)], fix: Self.fix, time: nil)
        #expect(near.likelihoods.count == 1 && edge.likelihoods.count == 1)
        #expect(0 < near.noneLikelihood && near.noneLikelihood < edge.noneLikelihood && edge.noneLikelihood < 1)
    }

    @Test func likelihoodsAndNoneSumToOne() {
        var candidates: [LikelihoodCandidate] = []
        for i in 0..<40 {
            let angle = Double(i) * 0.7
            candidates.append(Self.cafe(east: Double(i) * cos(angle), north: Double(i) * sin(angle), ratings: i * 37))
        }
        candidates.append(
            LikelihoodCandidate(location: Self.at(north: 30), primaryType: "park", shape: Self.square(80)))
        for accuracy in [3.0, 10, 65, 300] {
            let s = LikelihoodModel().score(
                candidates: candidates, fix: LocationFix(coordinate: Self.origin, accuracyMeters: accuracy), time: nil)
            let sum = s.likelihoods.reduce(0) { $0 + $1.likelihood }
            #expect(sum <= 1 && s.noneLikelihood > 0)
            #expect(abs(sum + s.noneLikelihood - 1) < 1e-12)
            #expect(s.likelihoods.allSatisfy { $0.likelihood > 0 && $0.likelihood <= 1 })
        }
    }

    @Test func priorsWeighTypePopularityStatusAndSource() {
        let model = LikelihoodModel()
        func weight(_ c: LikelihoodCandidate, _ m: LikelihoodModel = LikelihoodModel()) -> Double? {
            m.score(candidates: [c], fix: Self.fix, time: nil).likelihoods.first?.weight
        }
        let base = Self.cafe(east: 3)
        let w = weight(base)!
        #expect(weight(Self.cafe(east: 3, ratings: 1000))! > w)
        #expect(abs(weight(Self.cafe(east: 3, ratings: 1000))! / w - model.popularityFactor(1000)) < 1e-12)
        var closed = base
        closed.businessStatus = .closedTemporarily
        #expect(abs(weight(closed)! / w - model.closedTemporarilyFactor) < 1e-12)
        closed.businessStatus = .closedPermanently
        #expect(weight(closed) == nil, "a place closed for good is never a candidate")
        var country = base
        country.primaryType = "country"
        #expect(weight(country) == nil)
        var road = base
        road.kind = .notAPlace
        #expect(weight(road) == nil)
        var bench = base
        bench.kind = .unnamed
        #expect(weight(bench) == nil, "unnamedFactor is 0 by default")
        var lenient = LikelihoodModel()
        lenient.unnamedFactor = 0.5
        #expect(abs(weight(bench, lenient)! / w - 0.5) < 1e-12)
        // A named place of no kind (only a name and an address in its data) weighs less than a café.
        var unknownKind = base
        unknownKind.primaryType = nil
        #expect(model.untypedFactor < 1)
        #expect(abs(weight(unknownKind)! / w - model.untypedFactor) < 1e-12)
        var trusted = base
        trusted.source = "survey"
        var bySource = LikelihoodModel()
        bySource.sourceWeights = ["survey": 3]
        #expect(abs(weight(trusted, bySource)! / w - 3) < 1e-12)
        // A named building holding another place is not a candidate itself.
        var building = LikelihoodCandidate(location: Self.at(east: 3), primaryType: "premise", shape: Self.square(30))
        #expect(weight(building) != nil)
        building.holdsAnotherPlace = true
        #expect(weight(building) == nil)
    }

    @Test func onlyAViewportBeyondTheDefaultViewIsAFootprint() {
        func viewport(_ south: Double, _ west: Double, _ north: Double, _ east: Double) -> Viewport {
            Viewport(
                low: Coordinate(latitude: south, longitude: west), high: Coordinate(latitude: north, longitude: east))
        }
        var station = LikelihoodCandidate(location: Self.at(east: 10), primaryType: "train_station")
        let o = Self.origin
        station.viewport = viewport(
            o.latitude - 0.00135, o.longitude - 0.00135, o.latitude + 0.00135, o.longitude + 0.00135)
        #expect(
            LikelihoodModel().score(candidates: [station], fix: Self.fix, time: nil).likelihoods[0].footprint.source
                == .type)
        station.viewport = viewport(o.latitude - 0.002, o.longitude - 0.001, o.latitude + 0.002, o.longitude + 0.001)
        let fitted = LikelihoodModel().score(candidates: [station], fix: Self.fix, time: nil).likelihoods[0]
        #expect(fitted.footprint.source == .viewport)
        #expect(abs(fitted.footprint.halfHeight - 0.002 * Earth.meanRadius * Double.pi / 180) < 0.01)
    }

    @Test func openingHoursCountOnlyWithATime() throws {
        let shop = try HoursFixtures.place(
            #""timeZone":{"id":"UTC"},"regularOpeningHours":{"periods":[\#(HoursFixtures.daily("08:00", "18:00"))]}"#)
        var open = Self.cafe(east: 4)
        open.details = shop
        let other = Self.cafe(east: -4)
        let model = LikelihoodModel()

        let untimed = model.score(candidates: [open, other], fix: Self.fix, time: nil)
        #expect(untimed.likelihoods[0].openNow == nil && untimed.likelihoods[0].hoursFactor == 1)

        let noon = model.score(
            candidates: [open, other], fix: Self.fix, time: HoursFixtures.at("2026-03-04T12:00:00Z"))
        #expect(noon.likelihoods[0].openNow == true && noon.likelihoods[0].hoursFactor == 1)
        #expect(noon.likelihoods[1].openNow == nil, "a candidate without details has unknown hours")
        #expect(
            noon.likelihoods
                == untimed.likelihoods.map {
                    var l = $0; if l.candidate == 0 { l.openNow = true }; return l
                })

        let night = model.score(
            candidates: [open, other], fix: Self.fix, time: HoursFixtures.at("2026-03-04T23:00:00Z"))
        #expect(night.likelihoods[0].openNow == false && night.likelihoods[0].hoursFactor == model.closedFactor)
        #expect(abs(night.likelihoods[0].weight / untimed.likelihoods[0].weight - model.closedFactor) < 1e-12)
        #expect(night.ranked.first?.candidate == 1)
        #expect(night.likelihoods[0].explanation.prior == night.likelihoods[0].prior * model.closedFactor)
    }

    @Test func theSameCandidatesGiveTheSameAnswer() {
        var candidates = (0..<30).map {
            Self.cafe(east: Double($0 % 7) * 3 - 9, north: Double($0 / 7) * 4 - 8, ratings: $0 * 11)
        }
        candidates.append(LikelihoodCandidate(location: Self.at(east: 20), primaryType: "park", shape: Self.square(60)))
        let model = LikelihoodModel()
        let a = model.score(candidates: candidates, fix: Self.fix, time: nil)
        let b = model.score(candidates: candidates, fix: Self.fix, time: nil)
        #expect(a == b)
        // Reversed input: each place keeps its likelihood (sums may round differently).
        let reversed = model.score(candidates: candidates.reversed(), fix: Self.fix, time: nil)
        for l in reversed.likelihoods {
            let same = a.likelihoods.first { $0.candidate == candidates.count - 1 - l.candidate }
            #expect(same != nil && abs(same!.likelihood - l.likelihood) < 1e-12)
            #expect(same?.weight == l.weight)
        }
    }
}
