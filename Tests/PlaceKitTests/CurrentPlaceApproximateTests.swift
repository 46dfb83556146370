import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel

/// A fix too coarse to name a place is flagged `approximate` and named by
/// its locality (docs/current-place.md#approximate-fixes).
@Suite("Current place: approximate fixes")
struct CurrentPlaceApproximateTests {
    /// An OpenStreetMap GeoJSON feature (as `osmium export` writes it) of
    /// a square `half` meters from its centre `east`, `north` of (46.5, 6.6).
    static func area(
        _ type: String, _ id: Int, _ name: String, tags: String, east: Double = 0, north: Double = 0, half: Double
    ) -> String {
        let a = at(east: east - half, north: north - half), b = at(east: east + half, north: north + half)
        let ring =
            "[[\(a.longitude),\(a.latitude)],[\(b.longitude),\(a.latitude)],[\(b.longitude),\(b.latitude)],[\(a.longitude),\(b.latitude)],[\(a.longitude),\(a.latitude)]]"
        return
            #"{"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[\#(ring)]]},"properties":{"@type":"\#(type)","@id":\#(id),"@version":1,"@timestamp":1500000000,"name":"\#(name)",\#(tags)}}"#
    }

    static func node(_ id: Int, _ name: String, tags: String, east: Double, north: Double = 0) -> String {
        let c = at(east: east, north: north)
        return
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]},"properties":{"@type":"node","@id":\#(id),"@version":1,"@timestamp":1500000000,"name":"\#(name)",\#(tags)}}"#
    }

    /// 400 cafes 50 m apart around (46.5, 6.6); the town of Testville
    /// drawn as a 3 km square around them; the municipality of Eastham
    /// drawn as a 4 km square 5 km east; the village of Farville a point
    /// 10 km east.
    func database() throws -> (TempDirectory, String) {
        let dir = try TempDirectory("current-approximate")
        let db = dir.file("places.sqlite")
        var cafes: [String] = []
        for i in 0..<20 {
            for j in 0..<20 {
                cafes.append(record("c\(i)-\(j)", east: Double(i) * 50 - 475, north: Double(j) * 50 - 475))
            }
        }
        let osm = [
            Self.area("relation", 1, "Testville", tags: #""place":"city""#, half: 1500),
            Self.area(
                "relation", 2, "Eastham", tags: #""boundary":"administrative","admin_level":"8""#, east: 5000,
                half: 2000),
            Self.node(3, "Farville", tags: #""place":"village""#, east: 10_000),
        ]
        let importer = try PlaceImporter(databasePath: db)
        _ = try importer.importInput(.file(try dir.write("cafes.ndjson", cafes.joined(separator: "\n") + "\n")))
        _ = try importer.importInput(.file(try dir.write("osm.geojsonseq", osm.joined(separator: "\n") + "\n")))
        return (dir, db)
    }

    @Test(
        "a coarse fix among many places is flagged and named by the town whose area holds it; a fine one is not",
        arguments: CurrentPlaceTests.modes)
    func coarseAndFine(mode: SpatialIndexMode) throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db, spatialIndex: mode)
        let coarse = try client.findPlaceLikelihoods(location: at(east: 10, north: 10), accuracy: 1000)
        #expect(coarse.placeLikelihoods.count == 5)
        #expect(coarse.topMass < 0.5)
        #expect(abs(coarse.topMass - coarse.placeLikelihoods.map(\.likelihood).reduce(0, +)) < 1e-9)
        #expect(coarse.approximate)
        let town = try #require(coarse.locality)
        #expect(town.placeID == "osm:r1")
        #expect(town.displayName?.text == "Testville")
        #expect(town.primaryType == "locality")
        #expect(town.containsFix)

        let fine = try client.findPlaceLikelihoods(location: at(east: 25, north: 25), accuracy: 5)
        #expect(fine.topMass > 0.9)
        #expect(!fine.approximate)
        #expect(fine.locality == nil)

        // The JSON says the same: the flag and the locality only when coarse.
        let json = try JSONValue(
            parsing: client.findPlaceLikelihoodsJSON(
                CurrentPlaceRequest(location: at(east: 10, north: 10), accuracyMeters: 1000),
                fields: FieldMask(parsing: "id")))
        #expect(json["approximate"]?.boolValue == true)
        #expect(json["locality"]?["id"]?.stringValue == "osm:r1")
        #expect(json["locality"]?["name"]?.stringValue == "places/osm:r1")
        #expect(json["locality"]?["containsFix"]?.boolValue == true)
        #expect(json["placeLikelihoods"]?.arrayValue?.count == 5)
        let fineJSON = try JSONValue(
            parsing: client.findPlaceLikelihoodsJSON(
                CurrentPlaceRequest(location: at(east: 25, north: 25), accuracyMeters: 5)))
        #expect(fineJSON["approximate"] == nil)
        #expect(fineJSON["locality"] == nil)
    }

    @Test("the list's length does not change the flag: it is measured on the 5 most likely places")
    func listLength() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let short = try client.findPlaceLikelihoods(location: at(east: 10, north: 10), accuracy: 1000, limit: 1)
        let long = try client.findPlaceLikelihoods(location: at(east: 10, north: 10), accuracy: 1000, limit: 400)
        #expect(short.approximate && long.approximate)
        #expect(abs(short.topMass - long.topMass) < 1e-12)
        #expect(long.placeLikelihoods.map(\.likelihood).reduce(0, +) > short.topMass)
    }

    @Test("the locality: the town's area holding the point, else a municipality's, else the nearest town point")
    func localityChoice() throws {
        let (dir, db) = try database()
        _ = dir
        for scanLimit in [4096, 0] {
            // Read by type (few localities), and by region (as for many).
            let client = try PlaceReader(databasePath: db)
            client.localityTypeScanLimit = scanLimit
            // In Testville (which Eastham does not reach).
            #expect(try client.locality(at: at(east: 1000))?.placeID == "osm:r1")
            // In Eastham's area only: the municipality holding it, not Farville's point 7 km away.
            let eastham = try #require(try client.locality(at: at(east: 3500)))
            #expect(eastham.placeID == "osm:r2")
            #expect(eastham.primaryType == "political")
            #expect(eastham.containsFix)
            // Outside every area, 500 m from Farville.
            let farville = try #require(try client.locality(at: at(east: 9500)))
            #expect(farville.placeID == "osm:n3")
            #expect(!farville.containsFix)
            #expect(abs(farville.distanceMeters - 500) < 5)
            // Nothing within 20 km.
            #expect(try client.locality(at: Coordinate(latitude: 10, longitude: 10)) == nil)
        }
    }

    @Test("a coarse fix with fewer candidates than the list is not flagged: its answer is none of these")
    func nothingNear() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let r = try client.findPlaceLikelihoods(location: at(east: 9500), accuracy: 1000)
        #expect(r.candidateCount < 5)
        #expect(r.topMass < 0.5)
        #expect(r.noneLikelihood > 0.5)
        #expect(!r.approximate)
        #expect(r.locality == nil)
        let empty = try client.findPlaceLikelihoods(location: Coordinate(latitude: 10, longitude: 10), accuracy: 5)
        #expect(empty.candidateCount == 0 && !empty.approximate)
    }
}
