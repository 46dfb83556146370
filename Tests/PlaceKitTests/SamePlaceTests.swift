import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceKit
@testable import PlaceModel

/// The same-place scorer on records the import's decoders build (its
/// tests on hand-written records are PlaceModel's:
/// Tests/PlaceModelTests/SamePlaceTests.swift).
@Suite("Same-place scorer")
struct SamePlaceTests {
    static let origin = Coordinate(latitude: 47.0, longitude: 8.0)

    /// `meters` east of `origin`.
    static func east(_ meters: Double) -> Coordinate { PlaceKitTestSupport.east(of: origin, meters) }

    static func p(_ a: LinkRecord, _ b: LinkRecord) -> Double { SamePlace.score(a, b).probability }
    static func linked(_ a: LinkRecord, _ b: LinkRecord) -> Bool { p(a, b) >= SamePlace.threshold }

    static func featureValue(_ a: LinkRecord, _ b: LinkRecord, _ name: String) -> Double? {
        SamePlace.score(a, b).evidence[name]?["value"]?.doubleValue
    }

    // MARK: Decoded records (the import's decoders)

    static func osm(_ type: String, _ id: Int, _ tags: [(String, JSONValue)], geometry: JSONValue) throws -> LinkRecord
    {
        let properties = JSONObject([("@type", .string(type)), ("@id", .int(Int64(id)))] + tags)
        let feature = JSONValue.object(
            JSONObject([("type", "Feature"), ("geometry", geometry), ("properties", .object(properties))]))
        return try LinkRecord.decoding(feature, format: .osm, source: "osm")
    }

    static func point(_ c: Coordinate) -> JSONValue {
        .object(JSONObject([("type", "Point"), ("coordinates", .array([.double(c.longitude), .double(c.latitude)]))]))
    }

    @Test("OSM across snapshots: a node that became a way, moved a few meters, links")
    func osmSnapshots() throws {
        let tags: [(String, JSONValue)] = [
            ("name", "Gasthaus Sonne"), ("amenity", "restaurant"), ("addr:housenumber", "3"),
            ("addr:street", "Dorfstrasse"), ("phone", "+423 232 11 22"),
        ]
        let node = try Self.osm("node", 101, tags, geometry: Self.point(Self.east(0)))
        // A 40 m x 30 m building whose centre is 25 m away.
        let c = Self.east(25)
        let dLat = 15 / 111_195.0, dLng = 20 / (111_195 * cos(c.latitude * .pi / 180))
        let ring: JSONValue = .array([
            .array([.double(c.longitude - dLng), .double(c.latitude - dLat)]),
            .array([.double(c.longitude + dLng), .double(c.latitude - dLat)]),
            .array([.double(c.longitude + dLng), .double(c.latitude + dLat)]),
            .array([.double(c.longitude - dLng), .double(c.latitude + dLat)]),
            .array([.double(c.longitude - dLng), .double(c.latitude - dLat)]),
        ])
        let way = try Self.osm(
            "way", 202, tags + [("building", "yes")],
            geometry: .object(JSONObject([("type", "Polygon"), ("coordinates", .array([ring]))])))
        #expect(way.extentMeters > 20)
        #expect(Self.linked(node, way), "p = \(Self.p(node, way))")
        // Its neighbour, another restaurant 15 m away, does not.
        let other = try Self.osm(
            "node", 303,
            [
                ("name", "Pizzeria Roma"), ("amenity", "restaurant"), ("addr:housenumber", "5"),
                ("addr:street", "Dorfstrasse"),
            ], geometry: Self.point(Self.east(15)))
        #expect(Self.p(node, other) < 0.2, "p = \(Self.p(node, other))")
    }

    @Test("Google against OSM: Places types against OSM-derived types")
    func googleAgainstOSM() throws {
        let google = try LinkRecord.decoding(
            .object(
                JSONObject([
                    ("id", "ChIJtest"), ("displayName", .object(JSONObject([("text", "Café Central")]))),
                    (
                        "location",
                        .object(
                            JSONObject([
                                ("latitude", .double(Self.origin.latitude)),
                                ("longitude", .double(Self.origin.longitude)),
                            ]))
                    ),
                    ("types", .array(["coffee_shop", "cafe", "food", "point_of_interest"])),
                    ("internationalPhoneNumber", "+43 1 5333763"), ("websiteUri", "https://www.cafecentral.wien/"),
                ])), format: .placesV1, source: "google")
        let osm = try Self.osm(
            "node", 42,
            [
                ("name", "Cafe Central"), ("amenity", "cafe"), ("phone", "01 5333763"),
                ("website", "cafecentral.wien"),
            ], geometry: Self.point(Self.east(12)))
        #expect(Self.featureValue(google, osm, "categoryExact") == 1)
        #expect(Self.linked(google, osm), "p = \(Self.p(google, osm))")
    }

    @Test("Overture sources naming the other record's ID")
    func citedRecord() throws {
        let overture = try LinkRecord.decoding(
            .object(
                JSONObject([
                    ("type", "Feature"), ("id", "08f-overture"), ("geometry", Self.point(Self.east(0))),
                    (
                        "properties",
                        .object(
                            JSONObject([
                                ("names", .object(JSONObject([("primary", "Kiosk am See")]))),
                                (
                                    "sources",
                                    .array([
                                        .object(JSONObject([("dataset", "OpenStreetMap"), ("record_id", "n777@4")]))
                                    ])
                                ),
                            ]))
                    ),
                ])), format: .overture, source: "overture")
        let osm = try Self.osm(
            "node", 777, [("name", "Seekiosk"), ("shop", "kiosk")], geometry: Self.point(Self.east(20)))
        #expect(SamePlace.score(overture, osm).evidence["citedRecordID"]?["value"] == .double(1))
        #expect(Self.linked(overture, osm), "p = \(Self.p(overture, osm))")
        // Two OSM objects tagged with one Wikidata item: the same place, whatever their names.
        let hut = try Self.osm(
            "node", 900,
            [("name", "Cabane de la Portella (Andorre)"), ("tourism", "alpine_hut"), ("wikidata", "Q123456")],
            geometry: Self.point(Self.east(0)))
        let refugi = try Self.osm(
            "node", 901, [("name", "Refugi de la Portella"), ("tourism", "alpine_hut"), ("wikidata", "Q123456")],
            geometry: Self.point(Self.east(40)))
        #expect(Self.linked(hut, refugi), "p = \(Self.p(hut, refugi))")
        let unrelated = try Self.osm(
            "node", 778, [("name", "Seekiosk"), ("shop", "kiosk")], geometry: Self.point(Self.east(20)))
        #expect(SamePlace.score(overture, unrelated).evidence["citedRecordID"]?["value"] == .double(0))
    }
}
