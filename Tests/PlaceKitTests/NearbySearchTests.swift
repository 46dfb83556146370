import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// A generated place, as the brute-force reference sees it.
struct GeneratedPlace {
    let id: String
    let coordinate: Coordinate
    let types: [String]
    let primaryType: String
    let ratingCount: Int

    var json: String {
        #"{"id":"\#(id)","displayName":{"text":"\#(id)"},"location":{"latitude":\#(coordinate.latitude),"longitude":\#(coordinate.longitude)},"types":[\#(types.map { "\"\($0)\"" }.joined(separator: ","))],"primaryType":"\#(primaryType)","userRatingCount":\#(ratingCount)}"#
    }
}

/// A database of generated places: clusters (cities), a uniform
/// background, a ring around each pole, a band astride the antimeridian,
/// and groups of places sharing one coordinate (ties).
final class GeneratedDatabase {
    let dir: TempDirectory
    let path: String
    let places: [GeneratedPlace]
    static let typeSets = [
        ["cafe", "food"], ["restaurant", "food"], ["park"], ["museum", "tourist_attraction"],
        ["pharmacy", "health", "store"], ["bar"], ["book_store", "store"], ["school"],
    ]

    init(count: Int, seed: UInt64) throws {
        dir = try TempDirectory("placedb-nearby")
        path = dir.file("places.sqlite")
        var rng = TestRandom(seed: seed)
        var places: [GeneratedPlace] = []
        let cities =
            (0..<12).map { _ in rng.spherePoint() } + [
                Coordinate(latitude: 0.5, longitude: 179.9), Coordinate(latitude: 89.8, longitude: 10),
            ]
        func add(_ c: Coordinate) {
            let t = Self.typeSets[rng.int(Self.typeSets.count)]
            places.append(
                GeneratedPlace(
                    id: "g\(places.count)-\(rng.int(1000))", coordinate: c, types: t, primaryType: t[0],
                    ratingCount: rng.int(200)))
        }
        while places.count < count {
            switch rng.int(10) {
            case 0..<5:
                let city = cities[rng.int(cities.count)]
                let lat = min(90, max(-90, city.latitude + rng.normal() * 0.05))
                var lng = city.longitude + rng.normal() * 0.05 / max(0.05, cos(city.latitude * Double.pi / 180))
                lng = lng > 180 ? lng - 360 : (lng < -180 ? lng + 360 : lng)
                add(Coordinate(latitude: lat, longitude: lng))
            case 5:
                add(
                    Coordinate(
                        latitude: rng.uniform(89.5, 90) * (rng.int(2) == 0 ? 1 : -1), longitude: rng.uniform(-180, 180))
                )
            case 6:
                add(
                    Coordinate(
                        latitude: rng.uniform(-60, 60),
                        longitude: rng.int(2) == 0 ? rng.uniform(179.5, 180) : rng.uniform(-180, -179.5)))
            case 7:
                // Several places at one coordinate: ties, broken by place ID.
                let c = rng.spherePoint()
                for _ in 0..<(2 + rng.int(4)) { add(c) }
            default:
                add(rng.spherePoint())
            }
        }
        self.places = places
        let ndjson = places.map(\.json).joined(separator: "\n") + "\n"
        let file = try dir.write("places.ndjson", ndjson)
        _ = try PlaceImporter(databasePath: path).importInput(.file(file))
    }

    /// The brute-force answer: every place that passes `accept`, within
    /// `radius`, by (haversine distance, place ID); the first `k`.
    func bruteForce(
        _ center: Coordinate, k: Int, radius: Double? = nil, excluding removed: Set<String> = [],
        accept: (GeneratedPlace) -> Bool = { _ in true }
    ) -> [(id: String, meters: Double)] {
        // A bounded insertion list: the same order as sorting everything.
        var best: [(id: String, meters: Double)] = []
        for p in places where !removed.contains(p.id) && accept(p) {
            let d = center.distance(to: p.coordinate)
            if let radius, d > radius { continue }
            if best.count == k, let last = best.last, d > last.meters || (d == last.meters && p.id > last.id) {
                continue
            }
            let at = best.firstIndex { d < $0.meters || (d == $0.meters && p.id < $0.id) } ?? best.count
            best.insert((p.id, d), at: at)
            if best.count > k { best.removeLast() }
        }
        return best
    }
}

@Suite("Nearby search")
struct NearbySearchTests {
    static let modes: [SpatialIndexMode] = [.memory, .database]

    func client(_ db: GeneratedDatabase, _ mode: SpatialIndexMode) throws -> PlaceReader {
        try PlaceReader(databasePath: db.path, spatialIndex: mode)
    }

    @Test(
        "the 10 nearest match brute-force haversine at thousands of random points (recall@10 = 1.0)", arguments: modes)
    func recallAtTen(mode: SpatialIndexMode) throws {
        let db = try GeneratedDatabase(count: 4000, seed: 7)
        let client = try client(db, mode)
        var rng = TestRandom(seed: 99)
        let queries = mode == .memory ? 5000 : 1000
        var mismatches = 0
        for q in 0..<queries {
            // Half anywhere on the sphere, half near a place (dense regions, poles, antimeridian).
            let center: Coordinate
            if q % 2 == 0 {
                center = rng.spherePoint()
            } else {
                let p = db.places[rng.int(db.places.count)].coordinate
                center = Coordinate(
                    latitude: min(90, max(-90, p.latitude + rng.normal() * 0.01)),
                    longitude: max(-180, min(180, p.longitude + rng.normal() * 0.01)))
            }
            let got = try client.searchNearby(
                NearbySearchRequest(center: center, maxResultCount: 10), fields: try FieldMask(parsing: "id"))
            let want = db.bruteForce(center, k: 10)
            if got.map(\.place.id.rawValue) != want.map(\.id) || got.map(\.distanceMeters) != want.map(\.meters) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(queries) queries differ from brute force")
    }

    @Test("radius, type filters and popularity ranking match brute force", arguments: modes)
    func filtersMatchBruteForce(mode: SpatialIndexMode) throws {
        let db = try GeneratedDatabase(count: 3000, seed: 11)
        let client = try client(db, mode)
        var rng = TestRandom(seed: 5)
        for q in 0..<300 {
            let p = db.places[rng.int(db.places.count)].coordinate
            let radius = [200.0, 2_000, 20_000, 50_000][q % 4] // 50 km: the largest radius a request may have
            let included = q % 3 == 0 ? ["food"] : (q % 3 == 1 ? ["store", "park"] : [])
            let excluded = q % 5 == 0 ? ["pharmacy"] : []
            let request = NearbySearchRequest(
                center: p, radiusMeters: radius, includedTypes: included, excludedTypes: excluded, maxResultCount: 7)
            let got = try client.searchNearby(request)
            let want = db.bruteForce(p, k: 7, radius: radius) { g in
                (included.isEmpty || g.types.contains(where: included.contains))
                    && !g.types.contains(where: excluded.contains)
            }
            #expect(got.map(\.place.id.rawValue) == want.map(\.id), "query \(q) at \(p) radius \(radius)")

            var popular = request
            popular.rankPreference = .popularity
            let gotPopular = try client.searchNearby(popular)
            var all = db.places.filter { g in
                g.coordinate.distance(to: p) <= radius
                    && (included.isEmpty || g.types.contains(where: included.contains))
                    && !g.types.contains(where: excluded.contains)
            }
            all.sort { a, b in
                let d1 = a.coordinate.distance(to: p), d2 = b.coordinate.distance(to: p)
                if a.ratingCount != b.ratingCount { return a.ratingCount > b.ratingCount }
                return d1 != d2 ? d1 < d2 : a.id < b.id
            }
            #expect(gotPopular.map(\.place.id.rawValue) == all.prefix(7).map(\.id), "popularity query \(q)")
        }
    }

    /// A small database from inline places.
    func tiny(_ places: [(String, Double, Double)], types: [String] = ["cafe"]) throws -> (TempDirectory, String) {
        let dir = try TempDirectory("placedb-nearby")
        let text = places.map {
            #"{"id":"\#($0.0)","location":{"latitude":\#($0.1),"longitude":\#($0.2)},"types":[\#(types.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        }.joined(separator: "\n")
        let file = try dir.write("in.ndjson", text + "\n")
        let path = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: path).importInput(.file(file))
        return (dir, path)
    }

    @Test("places across the antimeridian are neighbours", arguments: modes)
    func antimeridian(mode: SpatialIndexMode) throws {
        let (dir, path) = try tiny([
            ("east", 10, 179.999), ("west", 10, -179.998), ("far", 10, 179.9), ("farther", 10, -179.8),
        ])
        _ = dir
        let client = try PlaceReader(databasePath: path, spatialIndex: mode)
        for center in [
            Coordinate(latitude: 10, longitude: 180), Coordinate(latitude: 10, longitude: -180),
            Coordinate(latitude: 10.0005, longitude: -179.9995),
        ] {
            let got = try client.searchNearby(NearbySearchRequest(center: center, maxResultCount: 4))
            #expect(got.map(\.place.id.rawValue).prefix(2).sorted() == ["east", "west"], "from \(center)")
            #expect(got.allSatisfy { $0.distanceMeters < 25_000 })
            let withinRadius = try client.searchNearby(
                NearbySearchRequest(center: center, radiusMeters: 500, maxResultCount: 10))
            #expect(Set(withinRadius.map(\.place.id.rawValue)) == ["east", "west"], "radius 500 m from \(center)")
        }
    }

    @Test("near the poles every longitude is close", arguments: modes)
    func poles(mode: SpatialIndexMode) throws {
        let (dir, path) = try tiny([
            ("n0", 89.999, 0), ("n90", 89.9985, 90), ("n180", 89.998, 180), ("nm90", 89.9975, -90),
            ("s", -89.999, 45), ("mid", 60, 0),
        ])
        _ = dir
        let client = try PlaceReader(databasePath: path, spatialIndex: mode)
        let north = try client.searchNearby(
            NearbySearchRequest(center: Coordinate(latitude: 90, longitude: 123), maxResultCount: 4))
        #expect(north.map(\.place.id.rawValue) == ["n0", "n90", "n180", "nm90"])
        #expect(abs(north[0].distanceMeters - 0.001 * Double.pi / 180 * Earth.meanRadius) < 1e-6)
        let ring = try client.searchNearby(
            NearbySearchRequest(
                center: Coordinate(latitude: 89.999, longitude: -170), radiusMeters: 400, maxResultCount: 10))
        #expect(Set(ring.map(\.place.id.rawValue)) == ["n0", "n90", "n180", "nm90"])
        let south = try client.searchNearby(
            NearbySearchRequest(center: Coordinate(latitude: -90, longitude: 0), maxResultCount: 1))
        #expect(south.map(\.place.id.rawValue) == ["s"])
    }

    @Test("places at one coordinate come in place ID order, and ties at the k-th are decided by ID", arguments: modes)
    func ties(mode: SpatialIndexMode) throws {
        let (dir, path) = try tiny([("c", 1, 1), ("a", 1, 1), ("d", 1, 1), ("b", 1, 1), ("z", 1.001, 1)])
        _ = dir
        let client = try PlaceReader(databasePath: path, spatialIndex: mode)
        let got = try client.searchNearby(
            NearbySearchRequest(center: Coordinate(latitude: 1, longitude: 1), maxResultCount: 3))
        #expect(got.map(\.place.id.rawValue) == ["a", "b", "c"])
        #expect(got.allSatisfy { $0.distanceMeters == 0 })
    }

    @Test("removed places are never returned", arguments: modes)
    func removed(mode: SpatialIndexMode) throws {
        let (dir, path) = try tiny([("gone", 1, 1), ("here", 1.01, 1)])
        _ = dir
        try Database(path: path, mode: .readWrite).execute(
            "UPDATE place SET removed_run = last_run WHERE place_id = 'gone'")
        let client = try PlaceReader(databasePath: path, spatialIndex: mode)
        let got = try client.searchNearby(
            NearbySearchRequest(center: Coordinate(latitude: 1, longitude: 1), radiusMeters: 5000))
        #expect(got.map(\.place.id.rawValue) == ["here"])
    }

    @Test("a loaded index notices another connection's changes")
    func staleIndex() throws {
        let (dir, path) = try tiny([("one", 1, 1)])
        let client = try PlaceReader(databasePath: path, spatialIndex: .memory)
        #expect(try client.searchNearby(NearbySearchRequest(center: Coordinate(latitude: 1, longitude: 1))).count == 1)
        let file = try dir.write("more.ndjson", #"{"id":"two","location":{"latitude":1,"longitude":1.0001}}"# + "\n")
        _ = try PlaceImporter(databasePath: path).importInput(.file(file))
        #expect(
            try client.searchNearby(NearbySearchRequest(center: Coordinate(latitude: 1, longitude: 1))).map(
                \.place.id.rawValue) == ["one", "two"])
    }

    @Test(
        "bad requests are refused with a reason",
        arguments: [
            (NearbySearchRequest(center: Coordinate(latitude: 91, longitude: 0)), "out of range"),
            (NearbySearchRequest(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: -1), "positive"),
            (NearbySearchRequest(center: Coordinate(latitude: 0, longitude: 0), maxResultCount: 0), "maxResultCount"),
            (
                NearbySearchRequest(center: Coordinate(latitude: 0, longitude: 0), rankPreference: .popularity),
                "needs a radius"
            ),
        ])
    func badRequests(request: NearbySearchRequest, message: String) throws {
        let (dir, path) = try tiny([("one", 1, 1)])
        _ = dir
        let client = try PlaceReader(databasePath: path)
        #expect { try client.searchNearby(request) } throws: { "\($0)".contains(message) }
    }
}
