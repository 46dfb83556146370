import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

/// A small whole-extract `osmium export` (GeoJSON-seq) around (60.17, 24.94):
/// a café inside a named building, a named building with nothing inside, a
/// named street, an unnamed ATM, an unnamed crossing, an unnamed road, an
/// address-only node and an untagged node.
enum OSMExportFixture {
    static func feature(_ type: String, _ id: Int, _ geometry: String, _ tags: String) -> String {
        "\u{1E}{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\"@type\":\"\(type)\",\"@id\":\(id)\(tags.isEmpty ? "" : ",")\(tags)}}\n"
    }

    static func point(_ lat: Double, _ lng: Double) -> String { "{\"type\":\"Point\",\"coordinates\":[\(lng),\(lat)]}" }

    /// A square of `half` degrees around (lat, lng).
    static func square(_ lat: Double, _ lng: Double, _ half: Double) -> String {
        let ring = [
            (lng - half, lat - half), (lng + half, lat - half), (lng + half, lat + half), (lng - half, lat + half),
            (lng - half, lat - half),
        ]
        return "{\"type\":\"MultiPolygon\",\"coordinates\":[[["
            + ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]]]}"
    }

    static func line(_ points: [(Double, Double)]) -> String {
        "{\"type\":\"LineString\",\"coordinates\":[" + points.map { "[\($0.1),\($0.0)]" }.joined(separator: ",") + "]}"
    }

    /// Features that are not places only.
    static let nothing =
        feature("node", 1, point(60.1699, 24.9384), "\"highway\":\"crossing\"")
        + feature("way", 2, line([(60.1690, 24.9370), (60.1700, 24.9390)]), "\"highway\":\"residential\"")
        + feature("node", 3, point(60.1698, 24.9386), "\"addr:street\":\"Mannerheimintie\",\"addr:housenumber\":\"1\"")
        + feature("node", 4, point(60.1697, 24.9383), "")

    static let whole =
        nothing
        + feature("node", 10, point(60.1700, 24.9400), "\"amenity\":\"cafe\",\"name\":\"Kahvila\"")
        + feature("way", 11, square(60.1700, 24.9400, 0.0002), "\"building\":\"commercial\",\"name\":\"Liiketalo\"")
        + feature("way", 12, square(60.1720, 24.9440, 0.0002), "\"building\":\"yes\",\"name\":\"Tyhjä talo\"")
        + feature(
            "way", 13, line([(60.1705, 24.9370), (60.1705, 24.9430)]),
            "\"highway\":\"residential\",\"name\":\"Esplanadi\"")
        + feature("node", 14, point(60.1740, 24.9480), "\"amenity\":\"atm\"")

    /// More of the street Esplanadi (w13): two more ways that go on from
    /// its east end, an avenue's other carriageway 15 m north of it, and a
    /// street of the same name in another town, 9 km away; a river.
    static let streets =
        whole
        + feature(
            "way", 15, line([(60.1705, 24.9430), (60.1705, 24.9470)]),
            "\"highway\":\"residential\",\"name\":\"Esplanadi\",\"bridge\":\"yes\"")
        + feature(
            "way", 16, line([(60.1705, 24.9470), (60.1710, 24.9500)]),
            "\"highway\":\"residential\",\"name\":\"Esplanadi\",\"oneway\":\"yes\"")
        + feature(
            "way", 19, line([(60.17064, 24.9380), (60.17064, 24.9420)]),
            "\"highway\":\"residential\",\"name\":\"Esplanadi\",\"oneway\":\"yes\"")
        + feature(
            "way", 17, line([(60.2500, 25.0000), (60.2500, 25.0050)]),
            "\"highway\":\"residential\",\"name\":\"Esplanadi\"")
        + feature(
            "way", 18, line([(60.1696, 24.9370), (60.1696, 24.9430)]), "\"waterway\":\"river\",\"name\":\"Vantaanjoki\""
        )
}

@Suite("OpenStreetMap whole exports: what is a place")
struct OSMExportCommandTests {
    func imported(_ text: String, _ extra: [String] = []) throws -> (CLI, (code: Int32, out: String, err: String)) {
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("whole.geojsonseq", text), "--output", "text"] + extra)
        return (cli, r)
    }

    func currentIDs(_ cli: CLI, _ at: String, accuracy: String = "5") throws -> [(String, Double)] {
        let r = cli.run(["current", at, "--accuracy", accuracy, "--fields", "id", "--limit", "20"])
        #expect(r.code == 0, "\(r.err)")
        return try #require(try JSONValue(parsing: r.out)["placeLikelihoods"]?.arrayValue).map {
            ($0["place"]?["id"]?.stringValue ?? "", $0["likelihood"]?.doubleValue ?? -1)
        }
    }

    func nearbyIDs(_ cli: CLI, _ at: String, _ extra: [String] = []) throws -> [String] {
        let r = cli.run(["nearby", at, "--fields", "id", "--limit", "50"] + extra)
        #expect(r.code == 0, "\(r.err)")
        // No place: {} (the API's empty answer).
        let json = try JSONValue(parsing: r.out)
        return try #require(json["places"]?.arrayValue ?? (json == [:] ? [] : nil)).compactMap { $0["id"]?.stringValue }
    }

    @Test("an export with no places says 0 places, counts what it skipped by reason, and exits 0")
    func noPlaces() throws {
        let (cli, r) = try imported(OSMExportFixture.nothing)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("4 records: 0 inserted"), "\(r.out)")
        #expect(r.out.contains("4 features without a name or place tag skipped"), "\(r.out)")
        #expect(r.out.contains("road, path or crossing 2"), "\(r.out)")
        #expect(r.out.contains("address 1"), "\(r.out)")
        #expect(r.out.contains("untagged 1"), "\(r.out)")
        #expect(r.out.contains("0 places"), "\(r.out)")
        let json = cli.run([
            "import", try cli.dir.write("again.geojsonseq", OSMExportFixture.nothing), "--output", "json",
        ])
        #expect(json.code == 0)
        let total = try JSONValue(parsing: json.out)["total"]
        #expect(total?["skipped"]?.intValue == 4)
        #expect(total?["skippedByReason"]?["road, path or crossing"]?.intValue == 2)
        #expect(try nearbyIDs(cli, "60.1699,24.9384").isEmpty)
    }

    @Test("a named street is a place of type route that is never a current place; unnamed features are skipped")
    func namedThings() throws {
        let (cli, r) = try imported(OSMExportFixture.whole)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("5 inserted"), "\(r.out)")
        let street = cli.run(["place", "osm:w13", "--fields", "types,primaryType"])
        #expect(try JSONValue(parsing: street.out)["primaryType"] == "route")
        // On the street, far from the buildings: nothing but the street is near, and it is no candidate.
        #expect(try currentIDs(cli, "60.1705,24.9372").isEmpty)
        // Nearby lists the places, not the street (docs/osm-tags.md).
        #expect(try nearbyIDs(cli, "60.1699,24.9384").sorted() == ["osm:n10", "osm:n14", "osm:w11", "osm:w12"])
    }

    @Test("streets and rivers are found by name and by --type, but nearby and current leave them out by default")
    func streetsAreNotNearby() throws {
        let (cli, r) = try imported(OSMExportFixture.streets)
        #expect(r.code == 0, "\(r.err)")
        let river = cli.run(["place", "osm:w18", "--fields", "primaryType"])
        #expect(try JSONValue(parsing: river.out)["primaryType"] == "waterway")
        let onStreet = "60.1705,24.9372", onRiver = "60.1696,24.9380"
        #expect(
            try !nearbyIDs(cli, onStreet).contains {
                ["osm:w13", "osm:w15", "osm:w16", "osm:w17", "osm:w18", "osm:w19"].contains($0)
            })
        // Listed, a street drawn as four ways is one answer (its nearest way), the other town's another.
        #expect(try nearbyIDs(cli, onStreet, ["--type", "route"]) == ["osm:w13", "osm:w17"])
        #expect(try nearbyIDs(cli, onRiver, ["--type", "waterway"]) == ["osm:w18"])
        #expect(try nearbyIDs(cli, onStreet, ["--all-features"]).first == "osm:w13")
        #expect(try currentIDs(cli, onRiver).isEmpty)
        #expect(
            try currentIDs(cli, onStreet, accuracy: "65").allSatisfy {
                !$0.0.hasPrefix("osm:w1") || $0.0 == "osm:w11" || $0.0 == "osm:w12"
            })
        // The in-memory index (batch queries load it) answers alike, and a request's includedTypes asks for them.
        let console = CapturedConsole(
            environment: ["PLACEDB_DATABASE": cli.db],
            input:
                #"{"locationRestriction":{"circle":{"center":{"latitude":60.1705,"longitude":24.9372},"radius":500}},"maxResultCount":20}"#
                + "\n"
                + #"{"locationRestriction":{"circle":{"center":{"latitude":60.1705,"longitude":24.9372},"radius":1000}},"includedTypes":["route"],"maxResultCount":20}"#
                + "\n")
        #expect(
            CommandLineTool.main(arguments: ["nearby", "--batch", "--fields", "id"], console: console) == 0,
            "\(console.stderr)")
        let lines = console.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        let plain = try #require(try JSONValue(parsing: lines[0])["places"]?.arrayValue).compactMap {
            $0["id"]?.stringValue
        }
        let routes = try #require(try JSONValue(parsing: lines[1])["places"]?.arrayValue).compactMap {
            $0["id"]?.stringValue
        }
        #expect(
            !plain.isEmpty && !plain.contains { ["osm:w13", "osm:w15", "osm:w16", "osm:w18", "osm:w19"].contains($0) },
            "\(plain)")
        #expect(routes == ["osm:w13"], "\(routes)")
        // Search finds the street by its name.
        let found = cli.run(["search", "Esplanadi", "--near", onStreet, "--fields", "id"])
        #expect(found.code == 0, "\(found.err)")
        #expect(try JSONValue(parsing: found.out)["places"]?.arrayValue?.first?["id"]?.stringValue == "osm:w13")
    }

    @Test("current --type route lists nothing and says why on stderr; a type a place can have lists quietly")
    func currentAskedForStreets() throws {
        let (cli, r) = try imported(OSMExportFixture.streets)
        #expect(r.code == 0, "\(r.err)")
        let streets = cli.run(["current", "60.1705,24.9372", "--type", "route", "--output", "json"])
        #expect(streets.code == 0, "\(streets.err)")
        #expect(try JSONValue(parsing: streets.out)["placeLikelihoods"]?.arrayValue?.isEmpty ?? true, "\(streets.out)")
        #expect(streets.err.contains("'route' places are never current-place candidates"), "\(streets.err)")
        #expect(streets.err.contains("placedb nearby --type route"), "\(streets.err)")
        let cafes = cli.run(["current", "60.1705,24.9372", "--type", "cafe", "--type", "route", "--output", "json"])
        #expect(cafes.code == 0, "\(cafes.err)")
        #expect(cafes.err.isEmpty, "\(cafes.err)")
    }

    @Test(
        "a street drawn as several touching ways answers once in search, by its way nearest the focus; one of the same name elsewhere is another answer"
    )
    func streetSegmentsAnswerOnce() throws {
        let (cli, r) = try imported(OSMExportFixture.streets)
        #expect(r.code == 0, "\(r.err)")
        func search(_ near: String) throws -> [String] {
            let found = cli.run(["search", "Esplanadi", "--near", near, "--fields", "id"])
            #expect(found.code == 0, "\(found.err)")
            return try #require(try JSONValue(parsing: found.out)["places"]?.arrayValue).compactMap {
                $0["id"]?.stringValue
            }
        }
        // w13, w15, w16 touch end to end and w19 runs 15 m beside w13: one street; w17 is 9 km away.
        #expect(try search("60.1705,24.9372") == ["osm:w13", "osm:w17"])
        #expect(try search("60.1709,24.9495") == ["osm:w16", "osm:w17"])
        // From the other town, the street's nearest way is its east end.
        #expect(try search("60.2500,25.0010") == ["osm:w17", "osm:w16"])
        let complete = cli.run(["autocomplete", "esplan", "--near", "60.1705,24.9372", "--output", "json"])
        #expect(complete.code == 0, "\(complete.err)")
        let suggested = try #require(try JSONValue(parsing: complete.out)["suggestions"]?.arrayValue)
        #expect(
            suggested.compactMap { $0["placePrediction"]?["placeId"]?.stringValue } == ["osm:w13", "osm:w17"],
            "\(complete.out)")
    }

    @Test("an unnamed place (an ATM) is imported and found by nearby, but is no current-place candidate")
    func unnamedPlace() throws {
        let (cli, _) = try imported(OSMExportFixture.whole)
        #expect(try nearbyIDs(cli, "60.1740,24.9480").first == "osm:n14")
        #expect(try currentIDs(cli, "60.1740,24.9480").isEmpty)
    }

    @Test("a named building with a place inside is not a candidate; one with nothing inside is")
    func buildings() throws {
        let (cli, _) = try imported(OSMExportFixture.whole)
        // Standing inside the building that holds the café, away from the café's node.
        let inside = try currentIDs(cli, "60.17015,24.94015", accuracy: "10")
        #expect(inside.first?.0 == "osm:n10")
        #expect(!inside.contains { $0.0 == "osm:w11" })
        // The empty building is where one is.
        let empty = try currentIDs(cli, "60.1720,24.9440", accuracy: "10")
        #expect(empty.first?.0 == "osm:w12")
    }

    @Test(
        "--all-features keeps every feature, none is a current-place candidate, and nearby lists them only when asked")
    func allFeatures() throws {
        let (cli, r) = try imported(OSMExportFixture.whole, ["--all-features"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("9 inserted"), "\(r.out)")
        #expect(!r.out.contains("skipped"), "\(r.out)")
        // At the crossing node, 5 m fix: before, a crossing and a road took the mass.
        let current = try currentIDs(cli, "60.1699,24.9384")
        #expect(!current.contains { ["osm:n1", "osm:w2", "osm:n3", "osm:n4"].contains($0.0) }, "\(current)")
        let near = try nearbyIDs(cli, "60.1699,24.9384")
        #expect(near.count == 4 && !near.contains("osm:n1") && !near.contains("osm:w13"))
        let all = try nearbyIDs(cli, "60.1699,24.9384", ["--all-features"])
        #expect(all.count == 9 && all.first == "osm:n1")
        // The in-memory index answers alike (batch queries load it).
        let console = CapturedConsole(
            environment: ["PLACEDB_DATABASE": cli.db],
            input:
                #"{"locationRestriction":{"circle":{"center":{"latitude":60.1699,"longitude":24.9384},"radius":5000}},"maxResultCount":20}"#
                + "\n")
        let batch = (
            code: CommandLineTool.main(arguments: ["nearby", "--batch", "--fields", "id"], console: console),
            out: console.stdout, err: console.stderr
        )
        #expect(batch.code == 0, "\(batch.err)")
        #expect(try JSONValue(parsing: batch.out)["places"]?.arrayValue?.count == 4)
    }
}
