import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// Builds a small database from inline Places API (New) records.
func placesDatabase(_ records: [String]) throws -> (TempDirectory, String) {
    let dir = try TempDirectory("placedb-current")
    let file = try dir.write("in.ndjson", records.joined(separator: "\n") + "\n")
    let path = dir.file("places.sqlite")
    _ = try PlaceImporter(databasePath: path).importInput(.file(file))
    return (dir, path)
}

/// A record at `meters` east (and `north`) of (46.5, 6.6).
func record(
    _ id: String, east: Double = 0, north: Double = 0, type: String = "cafe", ratings: Int? = nil,
    status: String? = nil, viewport: (halfEast: Double, halfNorth: Double)? = nil, extra: String = ""
) -> String {
    let perDegLat = Earth.meanRadius * Double.pi / 180
    let perDegLng = perDegLat * cos(46.5 * Double.pi / 180)
    let lat = 46.5 + north / perDegLat, lng = 6.6 + east / perDegLng
    var s =
        #"{"id":"\#(id)","displayName":{"text":"\#(id)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["\#(type)","point_of_interest"],"primaryType":"\#(type)""#
    if let ratings { s += #","userRatingCount":\#(ratings)"# }
    if let status { s += #","businessStatus":"\#(status)""# }
    if let v = viewport {
        s +=
            #","viewport":{"low":{"latitude":\#(lat - v.halfNorth / perDegLat),"longitude":\#(lng - v.halfEast / perDegLng)},"high":{"latitude":\#(lat + v.halfNorth / perDegLat),"longitude":\#(lng + v.halfEast / perDegLng)}}"#
    }
    return s + extra + "}"
}

@Suite("Current place")
struct CurrentPlaceTests {
    static let modes: [SpatialIndexMode] = [.memory, .database]

    @Test("likelihoods are in 0...1, sorted, and sum with none-of-these to 1", arguments: modes)
    func sumsToOne(mode: SpatialIndexMode) throws {
        let (dir, path) = try placesDatabase(
            (0..<30).map { record("p\($0)", east: Double($0 % 6) * 25, north: Double($0 / 6) * 25, ratings: $0 * 7) })
        _ = dir
        let client = try PlaceReader(databasePath: path, spatialIndex: mode)
        for accuracy in [5.0, 20, 65, 300, 3000] {
            let r = try client.findPlaceLikelihoods(location: at(east: 40, north: 30), accuracy: accuracy, limit: 1000)
            let ps = r.placeLikelihoods.map(\.likelihood)
            #expect(ps.allSatisfy { (0...1).contains($0) })
            #expect(ps == ps.sorted(by: >))
            #expect(abs(ps.reduce(0, +) + r.noneLikelihood - 1) < 1e-9, "accuracy \(accuracy)")
            #expect(r.noneLikelihood > 0)
        }
    }

    @Test("a precise fix picks the place it is on; an approximate one spreads the mass")
    func preciseAndApproximate() throws {
        let (dir, path) = try placesDatabase((0..<20).map { record("p\($0)", east: Double($0) * 40) })
        _ = dir
        let client = try PlaceReader(databasePath: path)
        let precise = try client.findPlaceLikelihoods(location: at(east: 201), accuracy: 5)
        #expect(precise.placeLikelihoods.first?.place.id == "p5")
        #expect(precise.placeLikelihoods.first!.likelihood > 0.95)
        let approximate = try client.findPlaceLikelihoods(location: at(east: 201), accuracy: 3000, limit: 20)
        #expect(approximate.placeLikelihoods.count == 20)
        #expect(approximate.placeLikelihoods.first!.likelihood < 0.1)
        #expect(approximate.candidateCount == 20)
    }

    @Test("standing in a park beats the cafe nearer to the fix: footprints count")
    func footprintBeatsNearest() throws {
        let (dir, path) = try placesDatabase([
            record("park", type: "park", viewport: (150, 100)),
            record("cafe", east: 120, north: 60),
        ])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        // 100 m east and 20 m south of the park's centre, inside it; the
        // cafe's point is nearer (82 m) than the park's (102 m).
        let fix = at(east: 100, north: -20)
        let r = try client.findPlaceLikelihoods(location: fix, accuracy: 10, explain: true)
        #expect(r.placeLikelihoods.first?.place.id == "park")
        let park = try #require(r.placeLikelihoods.first?.explanation)
        #expect(park.footprint == "viewport")
        #expect(abs(park.footprintHalfWidth - 150) < 1 && abs(park.footprintHalfHeight - 100) < 1)
        #expect(r.placeLikelihoods.first!.likelihood > 0.9)
        let nearest = try client.searchNearby(NearbySearchRequest(center: fix, maxResultCount: 1))
        #expect(nearest.first?.place.id == "cafe", "the nearest-place answer differs")
    }

    @Test("CLOSED_PERMANENTLY never appears, CLOSED_TEMPORARILY rarely, types one cannot be at get little or nothing")
    func priors() throws {
        let (dir, path) = try placesDatabase([
            record("open", east: 5),
            record("gone", east: 5, north: 1, status: "CLOSED_PERMANENTLY"),
            record("paused", east: 5, north: -1, status: "CLOSED_TEMPORARILY"),
            record("country", type: "country"),
            record("street", east: 2, type: "route"),
            record("town", east: -2, type: "locality"),
        ])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        let r = try client.findPlaceLikelihoods(location: origin, accuracy: 10, explain: true)
        let byID = Dictionary(uniqueKeysWithValues: r.placeLikelihoods.map { ($0.place.id.rawValue, $0) })
        #expect(byID["gone"] == nil)
        #expect(byID["country"] == nil)
        #expect(byID["street"] == nil)
        let open = try #require(byID["open"]), paused = try #require(byID["paused"]), town = try #require(byID["town"])
        #expect(paused.likelihood < open.likelihood * 0.1)
        #expect(paused.explanation?.statusFactor == 0.05)
        #expect(town.likelihood < open.likelihood * 0.1)
        #expect(r.placeLikelihoods.first?.place.id == "open")
    }

    @Test("popularity raises the prior of an otherwise equal place")
    func popularity() throws {
        let (dir, path) = try placesDatabase([
            record("quiet", east: 10, ratings: 0), record("busy", east: -10, ratings: 2000),
        ])
        _ = dir
        let r = try PlaceReader(databasePath: path).findPlaceLikelihoods(location: origin, accuracy: 20, explain: true)
        #expect(r.placeLikelihoods.map(\.place.id.rawValue) == ["busy", "quiet"])
        let busy = try #require(r.placeLikelihoods.first?.explanation)
        #expect(abs(busy.popularityFactor - pow(1 + 2000 / 25.0, 0.25)) < 1e-12)
        #expect(abs(busy.prior * busy.density - busy.weight) <= 1e-12 * busy.weight)
    }

    @Test("opening hours count through the isOpen hook when a time is given")
    func hoursHook() throws {
        let (dir, path) = try placesDatabase([record("a", east: 8), record("b", east: -8)])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        let noon = try #require(CurrentPlaceRequest.parseTime("2026-05-01T12:00:00Z"))
        let before = try client.findPlaceLikelihoods(location: origin, accuracy: 10, at: noon)
        #expect(
            abs(before.placeLikelihoods[0].likelihood - before.placeLikelihoods[1].likelihood) < 1e-9,
            "unknown hours change nothing")
        var model = LikelihoodModel()
        model.isOpen = { place, time in time == noon ? place.id != "a" : nil }
        client.likelihoodModel = model
        let r = try client.findPlaceLikelihoods(location: origin, accuracy: 10, at: noon, explain: true)
        #expect(r.placeLikelihoods.map(\.place.id.rawValue) == ["b", "a"])
        #expect(r.placeLikelihoods[1].explanation?.openNow == false)
        #expect(r.placeLikelihoods[1].explanation?.hoursFactor == model.closedFactor)
        #expect(abs(r.placeLikelihoods[1].likelihood / r.placeLikelihoods[0].likelihood - model.closedFactor) < 1e-9)
        let withoutTime = try client.findPlaceLikelihoods(location: origin, accuracy: 10)
        #expect(abs(withoutTime.placeLikelihoods[0].likelihood - withoutTime.placeLikelihoods[1].likelihood) < 1e-9)
    }

    @Test("by default the hours engine decides: a place closed at --at weighs less, in its own time zone")
    func hoursEngine() throws {
        func hours(_ open: Int, _ close: Int) -> String {
            let periods = (0..<7).map {
                #"{"open":{"day":\#($0),"hour":\#(open),"minute":0},"close":{"day":\#($0),"hour":\#(close),"minute":0}}"#
            }
            return #","utcOffsetMinutes":120,"regularOpeningHours":{"periods":[\#(periods.joined(separator: ","))]}"#
        }
        let (dir, path) = try placesDatabase([
            record("evening", east: 8, extra: hours(18, 23)),
            record("daytime", east: -8, extra: hours(8, 20)),
            record("paused", north: 8, status: "CLOSED_TEMPORARILY", extra: hours(18, 23)),
        ])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        // 12:00 UTC is 14:00 at the places (UTC+2): only "daytime" is open.
        let noon = try #require(CurrentPlaceRequest.parseTime("2026-05-01T12:00:00Z"))
        let r = try client.findPlaceLikelihoods(location: origin, accuracy: 10, at: noon, explain: true)
        let byID = Dictionary(uniqueKeysWithValues: r.placeLikelihoods.map { ($0.place.id.rawValue, $0) })
        let evening = try #require(byID["evening"]?.explanation), daytime = try #require(byID["daytime"]?.explanation)
        #expect(daytime.openNow == true && daytime.hoursFactor == 1)
        #expect(evening.openNow == false && evening.hoursFactor == client.likelihoodModel.closedFactor)
        #expect(r.placeLikelihoods.first?.place.id == "daytime")
        // Its status already counts: hours do not weigh it down twice.
        let paused = try #require(byID["paused"]?.explanation)
        #expect(paused.hoursFactor == 1 && paused.statusFactor == 0.05)
        // 19:00 UTC is 21:00 there: now the evening place is the open one.
        let night = try #require(CurrentPlaceRequest.parseTime("2026-05-01T19:00:00Z"))
        let later = try client.findPlaceLikelihoods(location: origin, accuracy: 10, at: night)
        #expect(later.placeLikelihoods.first?.place.id == "evening")
    }

    @Test("a type filter lists fewer places without raising their likelihoods")
    func typeFilter() throws {
        let (dir, path) = try placesDatabase([record("cafe", east: 3), record("bar", east: -3, type: "bar")])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        let all = try client.findPlaceLikelihoods(location: origin, accuracy: 20)
        let bars = try client.findPlaceLikelihoods(location: origin, accuracy: 20, includedTypes: ["bar"])
        #expect(bars.placeLikelihoods.map(\.place.id.rawValue) == ["bar"])
        #expect(bars.placeLikelihoods[0].likelihood == all.placeLikelihoods.first { $0.place.id == "bar" }?.likelihood)
    }

    @Test("memory and database modes give the same likelihoods at random fixes")
    func modesAgree() throws {
        let db = try GeneratedDatabase(count: 2000, seed: 3)
        let memory = try PlaceReader(databasePath: db.path, spatialIndex: .memory)
        let database = try PlaceReader(databasePath: db.path, spatialIndex: .database)
        var rng = TestRandom(seed: 8)
        var compared = 0
        for q in 0..<300 {
            let p = db.places[rng.int(db.places.count)].coordinate
            let fix = Coordinate(
                latitude: min(90, max(-90, p.latitude + rng.normal() * 0.0005)),
                longitude: max(-180, min(180, p.longitude + rng.normal() * 0.0005)))
            let accuracy = [5.0, 20, 65, 300, 2000][q % 5]
            let a = try memory.findPlaceLikelihoods(
                location: fix, accuracy: accuracy, fields: try FieldMask(parsing: "id"), limit: 20)
            let b = try database.findPlaceLikelihoods(
                location: fix, accuracy: accuracy, fields: try FieldMask(parsing: "id"), limit: 20)
            #expect(
                a.placeLikelihoods.map(\.place.id) == b.placeLikelihoods.map(\.place.id),
                "fix \(fix) accuracy \(accuracy)")
            #expect(
                zip(a.placeLikelihoods, b.placeLikelihoods).allSatisfy { abs($0.likelihood - $1.likelihood) < 1e-12 })
            #expect(a.candidateCount == b.candidateCount)
            compared += a.placeLikelihoods.count
        }
        #expect(compared > 300)
    }

    @Test(
        "a place by the antimeridian is found from its other side; its viewport across it is ignored (the type's footprint stands)",
        arguments: modes)
    func antimeridianViewport(mode: SpatialIndexMode) throws {
        let (dir, path) = try placesDatabase([
            #"{"id":"island","location":{"latitude":-16.5,"longitude":179.9999},"types":["park"],"viewport":{"low":{"latitude":-16.502,"longitude":179.998},"high":{"latitude":-16.498,"longitude":-179.998}}}"#
        ])
        _ = dir
        let client = try PlaceReader(databasePath: path, spatialIndex: mode)
        // 43 m east of the park's point, across the antimeridian: inside its type footprint (a 177 m square).
        let r = try client.findPlaceLikelihoods(
            location: Coordinate(latitude: -16.5, longitude: -179.9997), accuracy: 20, explain: true)
        #expect(r.placeLikelihoods.map(\.place.id.rawValue) == ["island"])
        #expect(r.placeLikelihoods.first?.explanation?.footprint == "type")
        #expect(r.placeLikelihoods.first?.explanation?.viewport == .crossesAntimeridian)
        #expect(r.placeLikelihoods.first!.likelihood > 0.5)
    }

    @Test("the 68% accuracy convention: sigma = accuracy / sqrt(-2 ln 0.32)")
    func accuracyConvention() {
        let model = LikelihoodModel()
        let sigma = model.sigma(accuracy: 20)
        #expect(abs(sigma - 20 / 1.509596) < 1e-4)
        // A 2-D normal of that sigma puts 68% of its mass within 20 m.
        #expect(abs((1 - exp(-20 * 20 / (2 * sigma * sigma))) - 0.68) < 1e-12)
    }

    @Test("the box density matches numeric integration, far into the tails")
    func boxDensity() {
        for (center, half, sigma) in [(0.0, 10.0, 3.0), (25, 10, 3), (-7, 0.5, 20), (60, 5, 4), (0, 1e-9, 2)] {
            var sum = 0.0
            let steps = 20_000
            let lo = center - half, width = 2 * half
            for i in 0..<steps {
                let x = lo + (Double(i) + 0.5) / Double(steps) * width
                sum += exp(-0.5 * x * x / (sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot())
            }
            let numeric = sum / Double(steps)
            let d = NormalBox.density(center: center, half: half, sigma: sigma)
            #expect(d > 0)
            #expect(
                abs(d - numeric) <= 1e-6 * numeric + 1e-300,
                "center \(center) half \(half) sigma \(sigma): \(d) vs \(numeric)")
        }
    }

    /// The L-shaped building (700 m², its box 40 m x 40 m) and a cafe in its notch.
    func buildingAndCafe(_ mode: SpatialIndexMode) throws -> (TempDirectory, PlaceReader) {
        let dir = try TempDirectory("placedb-current")
        let path = dir.file("places.sqlite")
        let cafe = at(east: 30, north: 30)
        let input = try dir.write(
            "in.geojson",
            polygonFeature("building", [lShape], type: "museum") + "\n"
                + #"{"type":"Feature","id":"cafe","geometry":{"type":"Point","coordinates":[\#(cafe.longitude),\#(cafe.latitude)]},"properties":{"name":"cafe","types":["cafe"]}}"#
                + "\n")
        _ = try PlaceImporter(databasePath: path).importInput(.file(input))
        return (dir, try PlaceReader(databasePath: path, spatialIndex: mode))
    }

    @Test("the L-shaped building is picked inside its polygon, not in the notch its box covers", arguments: modes)
    func polygonFootprint(mode: SpatialIndexMode) throws {
        let (dir, client) = try buildingAndCafe(mode)
        defer { withExtendedLifetime(dir) {} }

        // In its upright arm: the building, from its polygon.
        let inside = try client.findPlaceLikelihoods(location: at(east: 5, north: 30), accuracy: 5, explain: true)
        #expect(inside.placeLikelihoods.first?.place.id == "building")
        #expect(inside.placeLikelihoods.first!.likelihood > 0.9)
        let e = try #require(inside.placeLikelihoods.first?.explanation)
        #expect(e.footprint == "polygon")
        #expect(abs(e.footprintArea - 700) < 1)
        #expect(abs(e.footprintHalfWidth - 20) < 0.1 && abs(e.footprintHalfHeight - 20) < 0.1)
        #expect(abs(e.footprintOffsetEast - 15) < 0.1 && abs(e.footprintOffsetNorth + 10) < 0.1)
        let json = try #require(e.json["footprint"]?.objectValue)
        #expect(json["from"]?.stringValue == "polygon")
        #expect(json["areaSquareMeters"]?.doubleValue == 700)

        // In the notch, 6 m from the cafe and 14 m from the building's walls,
        // but inside its box (which would weigh 1/1600 m² there): the cafe.
        let notch = try client.findPlaceLikelihoods(location: at(east: 24, north: 24), accuracy: 5)
        #expect(notch.placeLikelihoods.first?.place.id == "cafe")
        let building = notch.placeLikelihoods.first { $0.place.id == "building" }?.likelihood ?? 0
        #expect(building < 0.01)
    }

    @Test("extentFactor weighs places with a stored shape, and only them; --explain shows it")
    func extentFactor() throws {
        let (dir, client) = try buildingAndCafe(.memory)
        defer { withExtendedLifetime(dir) {} }
        func weights() throws -> [String: LikelihoodExplanation] {
            let r = try client.findPlaceLikelihoods(location: at(east: 22, north: 20), accuracy: 20, explain: true)
            return Dictionary(uniqueKeysWithValues: r.placeLikelihoods.map { ($0.place.id.rawValue, $0.explanation!) })
        }
        let plain = try weights()
        #expect(plain["building"]?.extentFactor == 1 && plain["building"]?.json["factors"]?["extent"] == nil)
        client.likelihoodModel.extentFactor = 3
        let weighed = try weights()
        let b0 = try #require(plain["building"]), b1 = try #require(weighed["building"])
        let c0 = try #require(plain["cafe"]), c1 = try #require(weighed["cafe"])
        #expect(abs(b1.weight / b0.weight - 3) < 1e-9)
        #expect(c1.weight == c0.weight && c1.extentFactor == 1)
        #expect(b1.extentFactor == 3 && b1.json["factors"]?["extent"]?.doubleValue == 3)
    }

    @Test("bad queries are refused with a reason")
    func badQueries() throws {
        let (dir, path) = try placesDatabase([record("a")])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        #expect { try client.findPlaceLikelihoods(location: origin, accuracy: 0) } throws: {
            "\($0)".contains("accuracy 0.0 must be a positive number")
        }
        #expect {
            try client.findPlaceLikelihoods(location: Coordinate(latitude: 0, longitude: 200), accuracy: 5)
        } throws: { "\($0)".contains("out of range") }
        #expect { try client.findPlaceLikelihoods(location: origin, accuracy: .nan) } throws: {
            "\($0)".contains("positive")
        }
    }
}

@Suite("Responses as JSON")
struct ResponseJSONTests {
    static let masks = [
        "*", "id", "name", "id,displayName,location", "location.latitude,types", "photos.name",
        "displayName.text,viewport", "rating,userRatingCount",
    ]

    /// A database whose documents have nested members, photos (with a
    /// nested "name"), escapes and viewports.
    func rich() throws -> (TempDirectory, String) {
        var records: [String] = []
        for i in 0..<40 {
            let extra: String =
                #","rating":4.\#(i % 10),"formattedAddress":"Rue \"\#(i)\" \\ Lausanne","photos":[{"name":"places/r\#(i)/photos/x","widthPx":10}],"addressComponents":[{"longText":"Lausanne","types":["locality"]}]"#
            let east = Double(i % 8) * 15, north = Double(i / 8) * 15
            let viewport: (halfEast: Double, halfNorth: Double)? = i % 3 == 0 ? (30, 20) : nil
            records.append(
                record(
                    "r\(i)", east: east, north: north, type: i % 3 == 0 ? "park" : "cafe", ratings: i,
                    viewport: viewport, extra: extra))
        }
        return try placesDatabase(records)
    }

    @Test("searchNearbyJSON is the searchNearby answer, byte-copied documents included", arguments: masks)
    func nearby(mask: String) throws {
        let (dir, path) = try rich()
        _ = dir
        let client = try PlaceReader(databasePath: path)
        let fields = try FieldMask(parsing: mask)
        for (i, radius) in [nil, 30.0, 500].enumerated() {
            let request = NearbySearchRequest(
                center: at(east: Double(i) * 20, north: 11), radiusMeters: radius, maxResultCount: 7)
            let decoded = try client.searchNearby(request, fields: fields)
            let expected: JSONValue = [
                "places": .array(
                    decoded.map { r in
                        var o = r.place.apiJSON(fields: fields)
                        o["distanceMeters"] = .double((r.distanceMeters * 100).rounded() / 100)
                        return .object(o)
                    })
            ]
            let json = try JSONValue(parsing: client.searchNearbyJSON(request, fields: fields))
            #expect(JSONWriter(sortedKeys: false).string(json) == JSONWriter().string(expected), "mask \(mask)")
            #expect(decoded.count > 0)
        }
    }

    @Test("findPlaceLikelihoodsJSON is the findPlaceLikelihoods answer", arguments: masks)
    func current(mask: String) throws {
        let (dir, path) = try rich()
        _ = dir
        let client = try PlaceReader(databasePath: path)
        let fields = try FieldMask(parsing: mask)
        for explain in [false, true] {
            let request = CurrentPlaceRequest(location: at(east: 31, north: 17), accuracyMeters: 25)
            let decoded = try client.findPlaceLikelihoods(request, fields: fields, explain: explain)
            var expected = JSONObject([
                (
                    "placeLikelihoods",
                    .array(
                        decoded.placeLikelihoods.map { l in
                            var o = JSONObject([
                                ("place", .object(l.place.apiJSON(fields: fields))),
                                ("likelihood", .double(PlaceReader.roundedLikelihood(l.likelihood))),
                            ])
                            if explain { o["explain"] = .object(l.explanation!.json) }
                            return .object(o)
                        })
                ), ("noneLikelihood", .double(PlaceReader.roundedLikelihood(decoded.noneLikelihood))),
            ])
            if decoded.approximate { expected["approximate"] = true }
            if let l = decoded.locality { expected["locality"] = PlaceReader.localityJSON(l) }
            if explain {
                expected["explain"] = .object(
                    JSONObject([
                        ("accuracyMeters", 25),
                        ("sigmaMeters", .double(LikelihoodExplanation.significant(decoded.sigmaMeters))),
                        ("searchRadiusMeters", .double(LikelihoodExplanation.significant(decoded.searchRadiusMeters))),
                        ("candidates", .int(Int64(decoded.candidateCount))),
                        ("noneLikelihood", .double(PlaceReader.roundedLikelihood(decoded.noneLikelihood))),
                        ("topMass", .double(PlaceReader.roundedLikelihood(decoded.topMass))),
                        ("approximateBelow", .double(client.likelihoodModel.approximateMass)),
                    ]))
            }
            let json = try JSONValue(
                parsing: client.findPlaceLikelihoodsJSON(request, fields: fields, explain: explain))
            #expect(
                JSONWriter().string(json) == JSONWriter().string(.object(expected)), "mask \(mask) explain \(explain)")
            #expect(decoded.placeLikelihoods.count > 1)
        }
    }
}
