import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

@Suite("placedb search and autocomplete")
struct SearchCommandTests {
    @Test("search prints the searchText shape, nearest namesake first with --near")
    func searchJSON() throws {
        let cli = try CLI.withQueryPlaces()
        let r = cli.run(["search", "cafe", "--near", "46.52,6.63", "--fields", "id,displayName"])
        #expect(r.code == 0, "\(r.err)")
        let places = try #require(try JSONValue(parsing: r.out)["places"]?.arrayValue)
        #expect(places.compactMap { $0["id"]?.stringValue } == ["cafe", "far"])
        #expect(places[0]["displayName"]?["text"] == "Café du Lac")
        #expect(places[0]["distanceMeters"]?.doubleValue != nil)
        let typed = cli.run(["search", "cafe", "--type", "food", "--fields", "id"])
        #expect(
            try JSONValue(parsing: typed.out)["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["cafe"])
        let radius = cli.run(["search", "cafe", "--near", "46.52,6.63", "--radius", "500", "--fields", "id"])
        #expect(
            try JSONValue(parsing: radius.out)["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["cafe"])
    }

    @Test("search --explain shows every ranking factor")
    func explain() throws {
        let cli = try CLI.withQueryPlaces()
        let text = cli.run([
            "search", "Café du Lac", "--near", "46.52,6.63", "--explain", "--limit", "1", "--output", "text",
        ])
        #expect(text.code == 0, "\(text.err)")
        let lines = text.out.split(separator: "\n")
        #expect(lines.first?.hasSuffix("Café du Lac (cafe)  cafe") == true)
        #expect(
            lines.count == 2 && lines[1].contains("text 1.000 + name 1.000 + distance")
                && lines[1].contains("popularity"))
        let json = cli.run(["search", "cafe du lac", "--near", "46.52,6.63", "--explain", "--fields", "id"])
        let e = try #require(try JSONValue(parsing: json.out)["places"]?.arrayValue?.first?["explain"])
        // "cafe du lac" is the name in other case and diacritics.
        #expect(e["name"]?.doubleValue == 0.95)
        #expect(e["distance"]?.doubleValue != nil && e["score"]?.doubleValue != nil)
    }

    @Test(
        "search --explain --output text shows how \"TYPE in PLACE\" was read: the words, the locality, its source and area"
    )
    func explainUnderstanding() throws {
        let cli = try CLI()
        let towns =
            #"{"7": {"geonameid": 7, "name": "Springfield", "latitude": 40.0, "longitude": -75.0, "population": 250000, "alternatenames": ["SPF"]}}"#
        let places =
            #"{"id":"p1","displayName":{"text":"Luigi's"},"location":{"latitude":40.001,"longitude":-75.001},"types":["pizza_restaurant","restaurant"],"rating":4.5}"#
            + "\n"
            + #"{"id":"p2","displayName":{"text":"Far Pizza"},"location":{"latitude":41.0,"longitude":-75.0},"types":["pizza_restaurant","restaurant"]}"#
        #expect(
            cli.run(["import", try cli.dir.write("towns.json", towns), try cli.dir.write("p.ndjson", places)]).code == 0
        )
        let r = cli.run(["search", "pizza in SPF", "--explain", "--output", "text"])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(r.out)")
        #expect(
            lines.first
                == "query read as TYPE in PLACE: type words pizza -> pizza_restaurant, restaurant; place words spf; other words none"
        )
        #expect(
            lines.dropFirst().first
                == "locality Springfield (geonames:7) by alternate-name, geonames, population 250000; centre 40.00000,-75.00000, circle of 6.5 km (the search's area)"
        )
        #expect(lines.dropFirst(2).first == "Luigi's (pizza_restaurant)  p1")
        #expect(lines.last?.contains("+ rating 0.750") == true)
    }

    @Test("queries of FTS5 syntax are text; an empty one finds nothing; over 1,000 characters exits 64")
    func badQueries() throws {
        let cli = try CLI.withQueryPlaces()
        for q in ["\"", "*", "NEAR(", "AND", "", "cafe\" OR \"bar"] {
            let r = cli.run(["search", q, "--fields", "id"])
            #expect(r.code == 0, "\(q): \(r.err)")
            #expect(r.err.isEmpty)
            // {"places": [...]}, or {} for no place (the API's empty answer).
            #expect(try JSONValue(parsing: r.out).objectValue?.keys.allSatisfy { $0 == "places" } == true)
        }
        let long = cli.run(["search", String(repeating: "x", count: 1001)])
        #expect(long.code == 64)
        #expect(long.err.contains("1001 characters long; at most 1000"))
        #expect(cli.run(["autocomplete", String(repeating: "x", count: 1001)]).code == 64)
        #expect(cli.run(["search"]).code == 64)
        #expect(cli.run(["search", "x", "--radius", "5"]).code == 64)
        #expect(cli.run(["search", "x", "--near", "100,0"]).code == 64)
    }

    @Test("search --batch reads searchText bodies, one answer line each")
    func batch() throws {
        let cli = try CLI.withQueryPlaces()
        let r = cli.run(
            ["search", "--batch", "--fields", "id"],
            input: """
                {"textQuery":"bar","locationBias":{"circle":{"center":{"latitude":46.52,"longitude":6.63}}}}
                {"textQuery":"NEAR(","maxResultCount":2}
                {"query":"bar"}

                """)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(try JSONValue(parsing: lines[0])["places"]?.arrayValue?.first?["id"] == "bar")
        #expect(lines[1] == "{}", "no place: the API's empty answer")
        #expect(lines[2].contains("INVALID_ARGUMENT"))
        #expect(r.code == 65)
    }

    @Test("autocomplete prints place predictions for a prefix")
    func autocomplete() throws {
        let cli = try CLI.withQueryPlaces()
        let r = cli.run(["autocomplete", "caf", "--near", "46.52,6.63"])
        #expect(r.code == 0, "\(r.err)")
        let s = try #require(try JSONValue(parsing: r.out)["suggestions"]?.arrayValue)
        // "Far" is a cafe too: type words are searched.
        #expect(s.compactMap { $0["placePrediction"]?["placeId"]?.stringValue } == ["cafe", "far"])
        #expect(s[0]["placePrediction"]?["structuredFormat"]?["mainText"]?["text"] == "Café du Lac")
        #expect(s[0]["placePrediction"]?["distanceMeters"]?.intValue == 13)
        let text = cli.run(["autocomplete", "pa", "--output", "text"])
        #expect(text.out == "Parc  park\n")
    }
}
