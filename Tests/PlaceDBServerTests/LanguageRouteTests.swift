import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

/// An OpenStreetMap university with names in four languages, a café with
/// one name only, and a Google place whose name says its language (and
/// the fixture's café in Lausanne, whose photo it adds).
let languagePlaces =
    String(serverPlaces.split(separator: "\n")[0]) + "\n" + """
        {"type":"Feature","geometry":{"type":"Point","coordinates":[24.9497,60.1695]},"properties":{"@type":"way","@id":10,"name":"Helsingin yliopisto","name:fi":"Helsingin yliopisto","name:sv":"Helsingfors universitet","name:en":"University of Helsinki","name:nn":"Universitetet i Helsingfors","amenity":"university"}}
        {"type":"Feature","geometry":{"type":"Point","coordinates":[24.9500,60.1697]},"properties":{"@type":"node","@id":11,"name":"Kahvila Sininen","amenity":"cafe"}}
        {"id":"g1","displayName":{"text":"Café Helsinki","languageCode":"fi"},"location":{"latitude":60.1696,"longitude":24.9499},"types":["cafe"]}

        """

/// `languageCode` of Place Details (a query parameter) and of the search
/// bodies, and the CLI's `--language`: the same names, byte for byte.
@Suite("placedb serve: languageCode")
struct LanguageRouteTests {
    @Test("Place Details serves displayName in languageCode, as 'placedb place --language' prints it")
    func details() throws {
        let f = try ServerFixture(places: languagePlaces)
        let router = try f.router()
        for (language, text, code) in [
            ("sv", "Helsingfors universitet", "sv"), ("en-GB", "University of Helsinki", "en"),
            ("nn", "Universitetet i Helsingfors", "nn"),
            ("de", "Helsingin yliopisto", "fi"),
        ] {
            let r = router.call(
                "GET", "/v1/places/osm:w10", query: [("languageCode", language)],
                headers: ["X-Goog-FieldMask": "id,displayName"])
            #expect(r.status == 200)
            #expect(r.jsonValue?["displayName"] == ["text": .string(text), "languageCode": .string(code)])
            let cli = f.cli([
                "place", "osm:w10", "--language", language, "--fields", "id,displayName", "--output", "json",
            ])
            #expect(cli.code == 0, "\(cli.err)")
            #expect(r.text == cli.out)
        }
        // Without languageCode: the default name, as before.
        #expect(
            router.call("GET", "/v1/places/osm:w10", headers: ["X-Goog-FieldMask": "displayName"]).jsonValue?[
                "displayName"] == ["text": "Helsingin yliopisto"])
        // The CLI's text output shows the name of the language.
        let text = f.cli(["place", "osm:w10", "--language", "sv", "--output", "text"])
        #expect(text.out.hasPrefix("Helsingfors universitet\n"))
    }

    @Test(
        "searchNearby, searchText and autocomplete take languageCode in their bodies; the CLI's --language and its batch lines answer the same"
    )
    func searches() throws {
        let f = try ServerFixture(places: languagePlaces)
        let router = try f.router()
        let nearby =
            #"{"locationRestriction":{"circle":{"center":{"latitude":60.1695,"longitude":24.9497},"radius":100}},"rankPreference":"DISTANCE","languageCode":"sv"}"#
        let n = router.call(
            "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "places.id,places.displayName"],
            body: nearby)
        #expect(n.status == 200)
        let names = n.jsonValue?["places"]?.arrayValue?.compactMap { $0["displayName"]?["text"]?.stringValue } ?? []
        #expect(names == ["Helsingfors universitet", "Café Helsinki", "Kahvila Sininen"])
        // A batch line without languageCode takes --language.
        let line =
            #"{"locationRestriction":{"circle":{"center":{"latitude":60.1695,"longitude":24.9497},"radius":100}},"rankPreference":"DISTANCE"}"#
        let batch = f.cli(["nearby", "--batch", "--language", "sv", "--fields", "id,displayName"], input: line + "\n")
        #expect(batch.code == 0, "\(batch.err)")
        let compact = router.call(
            "POST", "/v1/places:searchNearby", query: [("prettyPrint", "false")],
            headers: ["X-Goog-FieldMask": "places.id,places.displayName"], body: nearby)
        #expect(batch.out == compact.text)
        let cliNearby = f.cli(["nearby", "60.1695,24.9497", "--radius", "100", "--language", "en", "--output", "text"])
        #expect(cliNearby.out.contains("University of Helsinki"), "\(cliNearby.out)")

        let t = router.call(
            "POST", "/v1/places:searchText", headers: ["X-Goog-FieldMask": "places.id,places.displayName"],
            body: #"{"textQuery":"Helsingfors universitet","languageCode":"en"}"#)
        #expect(
            t.jsonValue?["places"]?.arrayValue?.first?["displayName"] == [
                "text": "University of Helsinki", "languageCode": "en",
            ])
        let cliSearch = f.cli([
            "search", "University of Helsinki", "--language", "sv", "--fields", "id,displayName", "--output", "json",
        ])
        #expect(cliSearch.code == 0, "\(cliSearch.err)")
        #expect(
            try JSONValue(parsing: Array(cliSearch.out.utf8))["places"]?.arrayValue?.first?["displayName"]?["text"]
                == "Helsingfors universitet")

        let a = router.call(
            "POST", "/v1/places:autocomplete", body: #"{"input":"University of Hel","languageCode":"nn"}"#)
        #expect(
            a.jsonValue?["suggestions"]?.arrayValue?.first?["placePrediction"]?["structuredFormat"]?["mainText"]?[
                "text"] == "Universitetet i Helsingfors")
        let cliAuto = f.cli(["autocomplete", "Universitetet i Hel", "--language", "en", "--output", "text"])
        #expect(cliAuto.out.contains("University of Helsinki"), "\(cliAuto.out)")
    }

    @Test("current place (placedb's own route and 'placedb current --language') serves the names of the language asked")
    func current() throws {
        let f = try ServerFixture(places: languagePlaces)
        let router = try f.router()
        let body = #"{"location":{"latitude":60.1695,"longitude":24.9497},"accuracyMeters":20,"languageCode":"en"}"#
        let r = router.call(
            "POST", "/placedb/v1/currentPlace",
            headers: ["X-Goog-FieldMask": "placeLikelihoods.place.id,placeLikelihoods.place.displayName"], body: body)
        #expect(r.status == 200)
        let listed = r.jsonValue?["placeLikelihoods"]?.arrayValue ?? []
        let university = listed.first { $0["place"]?["id"] == "osm:w10" }
        #expect(university?["place"]?["displayName"] == ["text": "University of Helsinki", "languageCode": "en"])
        let cli = f.cli(["current", "60.1695,24.9497", "--accuracy", "20", "--language", "sv", "--output", "text"])
        #expect(cli.code == 0, "\(cli.err)")
        #expect(cli.out.contains("Helsingfors universitet"), "\(cli.out)")
    }

    @Test("a languageCode that is no language tag is 400 naming it; --language is a usage error (64)")
    func malformed() throws {
        let f = try ServerFixture(places: languagePlaces)
        let router = try f.router()
        let r = router.call(
            "GET", "/v1/places/osm:w10", query: [("languageCode", "12")], headers: ["X-Goog-FieldMask": "displayName"])
        #expect(r.status == 400 && r.errorStatus == "INVALID_ARGUMENT")
        #expect(r.text.contains("languageCode"))
        let body = router.call(
            "POST", "/v1/places:searchText", headers: ["X-Goog-FieldMask": "places.id"],
            body: #"{"textQuery":"x","languageCode":5}"#)
        #expect(body.status == 400 && body.text.contains("languageCode"))
        let auto = router.call("POST", "/v1/places:autocomplete", body: #"{"input":"x","languageCode":"not a tag"}"#)
        #expect(auto.status == 400 && auto.text.contains("languageCode"))
        let cli = f.cli(["place", "osm:w10", "--language", "english!"])
        #expect(cli.code == 64)
        #expect(cli.err.contains("--language"))
    }
}
