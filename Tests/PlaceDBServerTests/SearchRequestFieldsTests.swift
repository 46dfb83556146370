import PlaceKitTestSupport
import Foundation
import Testing
@testable import PlaceDBServer
import PlaceModel

/// The request fields of searchText and searchNearby the discovery
/// document lists, and the errors as Google sends them (docs/server.md).
@Suite("search request fields and API errors")
struct SearchRequestFieldsTests {
    /// 45 "Kiosk N" cafes around 46.52,6.63 (ratings 1.0 ... 5.0 by N, price
    /// levels in turn), plus places for each filter: open around the clock,
    /// a pure service-area business, a future opening, an EV charger.
    static let places: String = {
        var lines: [String] = []
        let levels = ["PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE", "PRICE_LEVEL_EXPENSIVE"]
        for n in 0..<45 {
            let rating = 1 + Double(n % 9) * 0.5
            lines.append(
                #"{"id":"k\#(n)","displayName":{"text":"Kiosk \#(n)"},"location":{"latitude":\#(46.52 + Double(n) * 0.0001),"longitude":6.63},"types":["cafe"],"primaryType":"cafe","rating":\#(rating),"userRatingCount":\#(n),"priceLevel":"\#(levels[n % 3])"}"#
            )
        }
        lines.append(
            #"{"id":"allday","displayName":{"text":"Allday Kiosk"},"location":{"latitude":46.5,"longitude":6.6},"types":["store"],"utcOffsetMinutes":60,"regularOpeningHours":{"periods":[{"open":{"day":0,"hour":0,"minute":0}}]}}"#
        )
        lines.append(
            #"{"id":"plumber","displayName":{"text":"Plumber Kiosk"},"location":{"latitude":46.5,"longitude":6.6},"types":["plumber"],"pureServiceAreaBusiness":true}"#
        )
        lines.append(
            #"{"id":"soon","displayName":{"text":"Soon Kiosk"},"location":{"latitude":46.5201,"longitude":6.6302},"types":["cafe"],"businessStatus":"FUTURE_OPENING","userRatingCount":9000}"#
        )
        lines.append(
            #"{"id":"charger","displayName":{"text":"Charger Kiosk"},"location":{"latitude":46.5,"longitude":6.6},"types":["electric_vehicle_charging_station"],"evChargeOptions":{"connectorCount":2,"connectorAggregation":[{"type":"EV_CONNECTOR_TYPE_TYPE_2","maxChargeRateKw":22,"count":2}]}}"#
        )
        return serverPlaces + lines.joined(separator: "\n") + "\n"
    }()

    static let text = "/v1/places:searchText"
    static let nearby = "/v1/places:searchNearby"

    func post(_ router: PlacesRouter, _ path: String, _ body: String, mask: String = "places.id") -> HTTPResponse {
        router.call("POST", path, headers: ["X-Goog-FieldMask": mask], body: body)
    }

    func ids(_ r: HTTPResponse) -> [String] {
        r.jsonValue?["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    func message(_ r: HTTPResponse) -> String { r.jsonValue?["error"]?["message"]?.stringValue ?? "" }

    func reason(_ r: HTTPResponse) -> String? {
        r.jsonValue?["error"]?["details"]?.arrayValue?.first?["reason"]?.stringValue
    }

    // MARK: - Errors

    @Test("a wrong key is 400 INVALID_ARGUMENT with ErrorInfo API_KEY_INVALID; a missing one 403 API_KEY_MISSING")
    func keyErrors() throws {
        let f = try ServerFixture()
        let router = try f.router { $0.apiKey = "s3cret" }
        let wrong = router.call(
            "GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id", "X-Goog-Api-Key": "nope"])
        #expect(wrong.status == 400)
        let error = try #require(wrong.jsonValue?["error"])
        #expect(error["status"] == "INVALID_ARGUMENT")
        #expect(
            error["details"] == [
                [
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID",
                    "domain": "googleapis.com", "metadata": ["service": "places.googleapis.com"],
                ]
            ])
        let missing = router.call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id"])
        #expect(missing.status == 403)
        #expect(missing.errorStatus == "PERMISSION_DENIED")
        #expect(reason(missing) == "API_KEY_MISSING")
    }

    @Test(
        "every error carries an ErrorInfo and a google.rpc status name",
        arguments: [
            ("GET", "/v1/places/nowhere", "", 404, "NOT_FOUND", "PLACE_NOT_FOUND"),
            ("GET", "/v1/places:searchText", "", 404, "NOT_FOUND", "METHOD_NOT_FOUND"),
            ("GET", "/v9/nothing", "", 404, "NOT_FOUND", "METHOD_NOT_FOUND"),
            (
                "POST", "/v1/places:searchText", #"{"textQuery":"kiosk","colour":1}"#, 400, "INVALID_ARGUMENT",
                "INVALID_ARGUMENT"
            ),
            (
                "POST", "/v1/places:searchText", #"{"textQuery":"kiosk","pageToken":"garbage"}"#, 400,
                "INVALID_ARGUMENT", "PAGE_TOKEN_INVALID"
            ),
        ])
    func errorShape(_ method: String, _ path: String, _ body: String, _ code: Int, _ status: String, _ why: String)
        throws
    {
        let f = try ServerFixture(places: Self.places)
        let r = try f.router().call(
            method, path, headers: ["X-Goog-FieldMask": path.contains("search") ? "places.id" : "id"], body: body)
        #expect(r.status == code, "\(r.text)")
        #expect(r.errorStatus == status)
        #expect(reason(r) == why)
        #expect(r.jsonValue?["error"]?["details"]?.arrayValue?.first?["domain"] == "googleapis.com")
        #expect(
            r.jsonValue?["error"]?["details"]?.arrayValue?.first?["@type"] == "type.googleapis.com/google.rpc.ErrorInfo"
        )
    }

    @Test("no error message names the database's path: a photo 404, a missing text index")
    func noPathsInMessages() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let dir = URL(fileURLWithPath: f.db).deletingLastPathComponent().path
        let photo = router.call("GET", "/v1/places/cafe/photos/nothing-like-it/media", query: [("maxWidthPx", "100")])
        #expect(photo.status == 404)
        #expect(!photo.text.contains(dir), "\(photo.text)")
        #expect(f.cli(["text-index", "drop"]).code == 0)
        let search = try f.router().call(
            "POST", Self.text, headers: ["X-Goog-FieldMask": "places.id"], body: #"{"textQuery":"cafe"}"#)
        #expect(search.status == 400)
        #expect(!search.text.contains(dir), "\(search.text)")
        #expect(message(search).hasPrefix("the database: this database has no text index"))
    }

    // MARK: - Photos

    @Test("photo media of a photo without a local image is 404 NOT_FOUND, with skipHttpRedirect too")
    func photoWithoutImage() throws {
        let places = serverPlaces.replacingOccurrences(
            of: #""photos":[{"name":"places/cafe/photos/ref-cafe-1""#,
            with: #""photos":[{"name":"places/cafe/photos/ref-cafe-2"},{"name":"places/cafe/photos/ref-cafe-1""#)
        let f = try ServerFixture(places: places)
        let router = try f.router()
        for skip in [[], [("skipHttpRedirect", "true")]] {
            let none = router.call(
                "GET", "/v1/places/cafe/photos/ref-cafe-2/media", query: [("maxWidthPx", "100")] + skip)
            #expect(none.status == 404, "\(none.text)")
            #expect(none.errorStatus == "NOT_FOUND")
            #expect(reason(none) == "PHOTO_MEDIA_NOT_FOUND")
            #expect(none.header("Location") == nil)
            let some = router.call(
                "GET", "/v1/places/cafe/photos/ref-cafe-1/media", query: [("maxWidthPx", "100")] + skip)
            #expect(some.status == (skip.isEmpty ? 302 : 200))
        }
    }

    // MARK: - searchText

    @Test("pageSize and pageToken: pages continue one ranking, up to 60 results, with nextPageToken when the mask asks")
    func paging() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let body =
            #"{"textQuery":"kiosk","locationBias":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":1000}},"includedType":"cafe"}"#
        let whole = post(router, Self.text, body.dropLast() + #","pageSize":20}"#, mask: "places.id,nextPageToken")
        #expect(ids(whole).count == 20)
        var seen: [String] = []
        var token: String?
        for page in 0..<5 {
            let more = token.map { #","pageToken":"\#($0)""# } ?? ""
            let r = post(
                router, Self.text, body.dropLast() + #","pageSize":10"# + more + "}", mask: "places.id,nextPageToken")
            #expect(r.status == 200, "\(r.text)")
            seen += ids(r)
            token = r.jsonValue?["nextPageToken"]?.stringValue
            if page < 4 { #expect(token != nil) } else { #expect(token == nil) }
        }
        // 45 kiosks, all found once; the first 20 as a page of 20 gives them.
        #expect(seen.count == 45)
        #expect(Set(seen).count == 45)
        #expect(Array(seen.prefix(20)) == ids(whole))
        // Without nextPageToken in the mask, no token.
        #expect(post(router, Self.text, body).jsonValue?["nextPageToken"] == nil)
        // A mask of only nextPageToken: the token alone.
        let only = post(router, Self.text, body, mask: "nextPageToken")
        #expect(only.jsonValue?["places"] == nil)
        #expect(only.jsonValue?["nextPageToken"]?.stringValue != nil)
        // The other members of the response are accepted in the mask.
        #expect(
            post(router, Self.text, body, mask: "places.id,routingSummaries,contextualContents,searchUri").status == 200
        )
    }

    @Test("a page token of another query, a changed database or no token at all is 400 INVALID_ARGUMENT saying so")
    func badPageTokens() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let body = #"{"textQuery":"kiosk","pageSize":5}"#
        let first = post(router, Self.text, body, mask: "places.id,nextPageToken")
        let token = try #require(first.jsonValue?["nextPageToken"]?.stringValue)
        // The same request: fine (a page size may change).
        #expect(post(router, Self.text, #"{"textQuery":"kiosk","pageSize":7,"pageToken":"\#(token)"}"#).status == 200)
        let other = post(router, Self.text, #"{"textQuery":"cafe","pageSize":5,"pageToken":"\#(token)"}"#)
        #expect(other.status == 400)
        #expect(reason(other) == "PAGE_TOKEN_INVALID")
        #expect(message(other).contains("another request"))
        let filtered = post(router, Self.text, #"{"textQuery":"kiosk","minRating":3,"pageToken":"\#(token)"}"#)
        #expect(filtered.status == 400)
        let garbage = post(router, Self.text, #"{"textQuery":"kiosk","pageToken":"AAAA"}"#)
        #expect(garbage.status == 400)
        #expect(message(garbage).contains("not a page token"))
        // The database changes: the token is stale.
        #expect(
            f.cli([
                "import",
                try f.dir.write(
                    "more.ndjson",
                    #"{"id":"new","displayName":{"text":"New Kiosk"},"location":{"latitude":46.5,"longitude":6.6}}"#
                        + "\n"),
            ]).code == 0)
        let stale = post(router, Self.text, #"{"textQuery":"kiosk","pageSize":5,"pageToken":"\#(token)"}"#)
        #expect(stale.status == 400)
        #expect(message(stale).contains("database changed"))
    }

    @Test("pageSize and maxResultCount: above 20 served as 20, 0 as 20, negative 400 naming the field")
    func pageSizes() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","pageSize":50}"#)).count == 20)
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","pageSize":0}"#)).count == 20)
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","pageSize":3}"#)).count == 3)
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","maxResultCount":4}"#)).count == 4)
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","maxResultCount":4,"pageSize":2}"#)).count == 2)
        for key in ["pageSize", "maxResultCount"] {
            let r = post(router, Self.text, #"{"textQuery":"kiosk","\#(key)":-1}"#)
            #expect(r.status == 400)
            #expect(message(r).contains(key))
        }
    }

    @Test("minRating keeps places rated at least the limit rounded up to 0.5; outside 0...5 is 400 naming minRating")
    func minRating() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let r = post(router, Self.text, #"{"textQuery":"kiosk","minRating":4.1}"#, mask: "places.id,places.rating")
        let ratings = r.jsonValue?["places"]?.arrayValue?.compactMap { $0["rating"]?.doubleValue } ?? []
        #expect(!ratings.isEmpty)
        #expect(ratings.allSatisfy { $0 >= 4.5 })
        #expect(ids(r).count == ratings.count, "unrated places are left out")
        for bad in ["6", "-0.5", "\"high\""] {
            let e = post(router, Self.text, #"{"textQuery":"kiosk","minRating":\#(bad)}"#)
            #expect(e.status == 400)
            #expect(message(e).contains("minRating"))
        }
    }

    @Test("priceLevels keeps the levels named (names or numbers); an unknown level is 400 naming it")
    func priceLevels() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        for levels in [#"["PRICE_LEVEL_EXPENSIVE"]"#, "[4]"] {
            let r = post(
                router, Self.text, #"{"textQuery":"kiosk","priceLevels":\#(levels)}"#,
                mask: "places.id,places.priceLevel")
            let got = r.jsonValue?["places"]?.arrayValue?.compactMap { $0["priceLevel"]?.stringValue } ?? []
            #expect(got.count == 15, "\(r.text)")
            #expect(Set(got) == ["PRICE_LEVEL_EXPENSIVE"])
        }
        let bad = post(router, Self.text, #"{"textQuery":"kiosk","priceLevels":["PRICE_LEVEL_CHEAP"]}"#)
        #expect(bad.status == 400)
        #expect(message(bad).contains("PRICE_LEVEL_CHEAP"))
        #expect(
            post(router, Self.text, #"{"textQuery":"kiosk","priceLevels":["PRICE_LEVEL_UNSPECIFIED"]}"#).status == 400)
    }

    @Test("openNow keeps places open at the time of the request; unknown hours are left out")
    func openNow() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","openNow":true}"#)) == ["allday"])
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","openNow":false}"#)).count == 20)
        #expect(post(router, Self.text, #"{"textQuery":"kiosk","openNow":"yes"}"#).status == 400)
    }

    @Test("includedType filters (strictTypeFiltering or not); an unknown type is 400 naming it")
    func includedType() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        for strict in ["true", "false"] {
            let r = post(
                router, Self.text, #"{"textQuery":"kiosk","includedType":"store","strictTypeFiltering":\#(strict)}"#)
            #expect(ids(r) == ["allday"])
        }
        let bad = post(router, Self.text, #"{"textQuery":"kiosk","includedType":"kiosque"}"#)
        #expect(bad.status == 400)
        #expect(message(bad).contains("'kiosque'"))
        #expect(message(bad).contains("includedType"))
    }

    @Test("includePureServiceAreaBusinesses and includeFutureOpeningBusinesses: left out unless asked for")
    func exclusions() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let base = #"{"textQuery":"plumber"}"#
        #expect(post(router, Self.text, base).text == "{}\n")
        #expect(
            ids(post(router, Self.text, #"{"textQuery":"plumber","includePureServiceAreaBusinesses":true}"#)) == [
                "plumber"
            ])
        #expect(post(router, Self.text, #"{"textQuery":"soon"}"#).text == "{}\n")
        #expect(
            ids(post(router, Self.text, #"{"textQuery":"soon","includeFutureOpeningBusinesses":true}"#)) == ["soon"])
    }

    @Test("evOptions keeps places with a fitting connector in evChargeOptions; an unknown connector type is 400")
    func evOptions() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        #expect(
            ids(
                post(
                    router, Self.text,
                    #"{"textQuery":"kiosk","evOptions":{"connectorTypes":["EV_CONNECTOR_TYPE_TYPE_2"]}}"#)) == [
                    "charger"
                ])
        #expect(
            ids(
                post(
                    router, Self.text,
                    #"{"textQuery":"kiosk","evOptions":{"connectorTypes":[3],"minimumChargingRateKw":11}}"#)) == [
                    "charger"
                ])
        #expect(
            post(router, Self.text, #"{"textQuery":"kiosk","evOptions":{"minimumChargingRateKw":50}}"#).text == "{}\n")
        #expect(ids(post(router, Self.text, #"{"textQuery":"kiosk","evOptions":{}}"#)) == ["charger"])
        let bad = post(
            router, Self.text, #"{"textQuery":"kiosk","evOptions":{"connectorTypes":["EV_CONNECTOR_TYPE_WARP"]}}"#)
        #expect(bad.status == 400)
        #expect(message(bad).contains("EV_CONNECTOR_TYPE_WARP"))
    }

    @Test("routingParameters and searchAlongRouteParameters are checked and do not change the answer")
    func routing() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let plain = post(router, Self.text, #"{"textQuery":"kiosk"}"#)
        let routed = post(
            router, Self.text,
            #"{"textQuery":"kiosk","routingParameters":{"origin":{"latitude":46.5,"longitude":6.6},"travelMode":"WALK","routingPreference":"TRAFFIC_UNAWARE","routeModifiers":{"avoidTolls":true}}}"#
        )
        #expect(routed.status == 200)
        #expect(routed.text == plain.text)
        let along = post(
            router, Self.text,
            #"{"textQuery":"kiosk","searchAlongRouteParameters":{"polyline":{"encodedPolyline":"_p~iF~ps|U_ulLnnqC"}}}"#
        )
        #expect(along.text == plain.text)
        #expect(
            post(router, Self.text, #"{"textQuery":"kiosk","routingParameters":{"travelMode":"TELEPORT"}}"#).status
                == 400)
        #expect(post(router, Self.text, #"{"textQuery":"kiosk","searchAlongRouteParameters":{}}"#).status == 400)
        #expect(
            post(
                router, Self.text,
                #"{"textQuery":"kiosk","searchAlongRouteParameters":{"polyline":{"encodedPolyline":""}}}"#
            ).status == 400)
    }

    @Test("languageCode and regionCode are accepted; locationBias with locationRestriction is 400")
    func codesAndAreas() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        #expect(post(router, Self.text, #"{"textQuery":"kiosk","languageCode":"fr","regionCode":"CH"}"#).status == 200)
        let both =
            #"{"textQuery":"kiosk","locationBias":{"circle":{"center":{"latitude":46.52,"longitude":6.63}}},"locationRestriction":{"rectangle":{"low":{"latitude":46,"longitude":6},"high":{"latitude":47,"longitude":7}}}}"#
        #expect(post(router, Self.text, both).status == 400)
    }

    // MARK: - searchNearby

    @Test("searchNearby ranks by popularity without rankPreference (most rated first, then nearest), as Google")
    func nearbyPopularity() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let body = #"{"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":500}}}"#
        #expect(ids(post(router, Self.nearby, body)) == ["bar", "cafe", "old", "park"])
        let byDistance = post(router, Self.nearby, body.dropLast() + #","rankPreference":"DISTANCE"}"#)
        #expect(ids(byDistance) == ["cafe", "old", "bar", "park"])
        #expect(
            ids(post(router, Self.nearby, body.dropLast() + #","rankPreference":"RANK_PREFERENCE_UNSPECIFIED"}"#))
                == ids(post(router, Self.nearby, body)))
    }

    @Test("searchNearby: an unknown type is 400 naming it; a type the database holds passes; no place answers {}")
    func nearbyTypes() throws {
        let f = try ServerFixture(
            places: serverPlaces
                + #"{"id":"odd","displayName":{"text":"Odd"},"location":{"latitude":46.52,"longitude":6.63},"types":["vending_booth"]}"#
                + "\n")
        let router = try f.router()
        let circle = #""locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":500}}"#
        for field in ["includedTypes", "excludedTypes", "includedPrimaryTypes", "excludedPrimaryTypes"] {
            let r = post(router, Self.nearby, "{\(circle),\"\(field)\":[\"cafe\",\"cafee\"]}")
            #expect(r.status == 400)
            #expect(r.errorStatus == "INVALID_ARGUMENT")
            #expect(
                message(r).contains("'cafee'") && message(r).contains(field)
                    && message(r).contains("did you mean 'cafe'"))
        }
        #expect(ids(post(router, Self.nearby, "{\(circle),\"includedTypes\":[\"vending_booth\"]}")) == ["odd"])
        let none = post(router, Self.nearby, "{\(circle),\"includedTypes\":[\"zoo\"]}")
        #expect(none.status == 200)
        #expect(none.text == "{}\n")
    }

    @Test("searchNearby: includeFutureOpeningBusinesses and routingParameters are accepted")
    func nearbyFutureAndRouting() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let circle = #""locationRestriction":{"circle":{"center":{"latitude":46.5201,"longitude":6.6302},"radius":20}}"#
        #expect(!ids(post(router, Self.nearby, "{\(circle)}")).contains("soon"))
        #expect(ids(post(router, Self.nearby, "{\(circle),\"includeFutureOpeningBusinesses\":true}")).first == "soon")
        let plain = post(router, Self.nearby, "{\(circle)}")
        let routed = post(
            router, Self.nearby,
            "{\(circle),\"routingParameters\":{\"origin\":{\"latitude\":46.5,\"longitude\":6.6},\"travelMode\":1}}")
        #expect(routed.text == plain.text)
        #expect(post(router, Self.nearby, "{\(circle),\"routingParameters\":{\"speed\":1}}").status == 400)
        #expect(post(router, Self.nearby, "{\(circle),\"includeFutureOpeningBusinesses\":1}").status == 400)
    }

    @Test("placedb nearby --type with an unknown type exits 64 with the nearest type")
    func cliUnknownType() throws {
        let f = try ServerFixture()
        let r = f.cli(["nearby", "46.52,6.63", "--type", "restaurnt"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown place type 'restaurnt' in --type; did you mean 'restaurant'?"), "\(r.err)")
        #expect(f.cli(["nearby", "46.52,6.63", "--type", "cafe"]).code == 0)
    }
}
