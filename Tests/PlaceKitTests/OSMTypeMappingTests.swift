import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel

/// OpenStreetMap tags -> types, rule by rule (docs/osm-tags.md).
@Suite("OpenStreetMap tags to place types")
struct OSMTypeMappingTests {
    static func tags(_ pairs: [(String, String)]) -> JSONObject {
        JSONObject(pairs.map { ($0.0, JSONValue.string($0.1)) })
    }

    /// The types of a named feature, as the decoder gives them.
    static func named(_ pairs: [(String, String)]) -> [String] {
        let t = tags([("name", "A name")] + pairs)
        let types = OSMTypeMapping.types(t)
        return types.isEmpty ? OSMTypeMapping.kind(t).map { [$0] } ?? [] : types
    }

    @Test(
        "tourism=information is a visitor centre only when information=office; boards, maps, guideposts, route markers and terminals are what they are",
        arguments: [
            ("office", "visitor_center"), ("board", "information_board"), ("map", "information_map"),
            ("guidepost", "guidepost"),
            ("route_marker", "route_marker"), ("terminal", "information_terminal"),
            ("tactile_model", "information_point"),
        ])
    func information(value: String, type: String) {
        #expect(Self.named([("tourism", "information"), ("information", value)]).first == type)
    }

    @Test("tourism=information without information=* is an information point, not a visitor centre")
    func untypedInformation() {
        #expect(Self.named([("tourism", "information")]) == ["information_point", "point_of_interest"])
    }

    @Test(
        "POI tags take the Places type that means the same thing",
        arguments: [
            ("amenity", "post_box", "post_box"), ("amenity", "bicycle_parking", "bicycle_parking"),
            ("amenity", "parking", "parking"),
            ("amenity", "parking_space", "parking_space"), ("amenity", "shelter", "shelter"),
            ("amenity", "bench", "bench"),
            ("amenity", "atm", "atm"), ("amenity", "grave_yard", "cemetery"),
            ("amenity", "childcare", "child_care_agency"),
            ("office", "government", "local_government_office"), ("office", "lawyer", "lawyer"),
            ("office", "company", "corporate_office"),
            ("aeroway", "helipad", "heliport"), ("tourism", "wilderness_hut", "mountain_hut"),
            ("craft", "plumber", "plumber"),
        ])
    func poiTags(key: String, value: String, type: String) {
        #expect(Self.named([(key, value)]).first == type)
    }

    @Test(
        "named features without a place tag get the type of their kind",
        arguments: [
            ("highway", "residential", "route"), ("highway", "services", "rest_stop"),
            ("highway", "rest_area", "rest_stop"),
            ("traffic_sign", "city_limit", "route"), ("aerialway", "station", "transit_station"),
            ("aerialway", "chair_lift", "route"),
            ("waterway", "river", "waterway"), ("waterway", "canal", "waterway"),
            ("waterway", "waterfall", "natural_feature"),
            ("railway", "rail", "railway"), ("boundary", "administrative", "political"),
            ("boundary", "national_park", "national_park"),
            ("boundary", "protected_area", "protected_area"), ("boundary", "postal_code", "postal_code"),
            ("place", "locality", "colloquial_area"), ("place", "borough", "sublocality"),
            ("place", "sea", "natural_feature"),
            ("natural", "beach", "beach"), ("landuse", "cemetery", "cemetery"),
            ("landuse", "winter_sports", "ski_resort"),
            ("landuse", "residential", "landuse"), ("entrance", "main", "entrance"), ("man_made", "tower", "structure"),
            ("barrier", "wall", "structure"), ("building", "yes", "premise"),
            ("junction", "roundabout", "intersection"),
            ("rcn_ref", "12", "route"), ("naptan:AtcoCode", "490010211N", "transit_platform"),
            ("disused:amenity", "pub", "disused"),
            ("amenity:disused", "restaurant", "disused"), ("emergency", "fire_hydrant", "emergency_equipment"),
        ])
    func kinds(key: String, value: String, type: String) {
        #expect(Self.named([(key, value)]) == [type])
    }

    @Test("a named pedestrian area is a square; a pedestrian street is a street")
    func pedestrianArea() {
        #expect(Self.named([("highway", "pedestrian"), ("area", "yes")]) == ["plaza"])
        #expect(Self.named([("highway", "pedestrian")]) == ["route"])
    }

    @Test(
        "streets, railway lines, rivers and boundaries are left out of nearby by default and are never current places; information boards are both"
    )
    func listedAndPrior() {
        let model = LikelihoodModel()
        for t in ["route", "railway", "waterway", "political"] {
            #expect(NearbySearchRequest.unlistedTypes.contains(t))
            #expect(model.typeFactor(t) == 0)
        }
        for t in ["information_board", "guidepost", "visitor_center", "rest_stop", "plaza"] {
            #expect(!NearbySearchRequest.unlistedTypes.contains(t))
            #expect(model.typeFactor(t) == 1)
        }
        #expect(model.typeFactor("entrance") == 0)
        #expect(model.typeFactor("disused") == 0)
        #expect(model.typeFactor("emergency_equipment") == 0)
        #expect(NearbySearchRequest.unlistedTypes.contains("intersection"))
        #expect(model.typeFactor("structure") == 0.3)
    }

    static let tagsPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/osm-tags.md").standardizedFileURL.path
    static let begin =
        "<!-- generated: OSMTypeMappingTests; re-record with PLACEDB_RECORD_GOLDEN=1 swift test --filter OSMTypeMappingTests -->\n"
    static let end = "<!-- end of the generated table -->"

    @Test("docs/osm-tags.md's table is the mapping's own (what each common tag becomes)")
    func documentedTable() throws {
        let page = try String(contentsOfFile: Self.tagsPage, encoding: .utf8)
        let start = try #require(page.range(of: Self.begin), "docs/osm-tags.md has no generated table marker")
        let stop = try #require(page.range(of: Self.end, range: start.upperBound..<page.endIndex))
        let table = OSMTypeMapping.documentationTable()
        if ProcessInfo.processInfo.environment["PLACEDB_RECORD_GOLDEN"] == "1" {
            try page.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: table).write(
                toFile: Self.tagsPage, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(page[start.upperBound..<stop.lowerBound]) == table,
            "docs/osm-tags.md's table drifted from the mapping: re-record on purpose with PLACEDB_RECORD_GOLDEN=1 swift test --filter OSMTypeMappingTests"
        )
        #expect(
            table.contains(
                "| `tourism=information + information=board` | `information_board`, `point_of_interest` | yes | 1 |"))
        #expect(table.contains("| `highway=residential (named)` | `route` | no (`--type route`) | 0 |"))
    }
}
