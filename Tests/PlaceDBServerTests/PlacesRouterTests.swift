import Foundation
import Testing
import SQLiteDB
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

/// The routes answer what the CLI prints for the same request, byte for
/// byte, and refuse bad requests as the Places API does.
@Suite("placedb serve: routes")
struct PlacesRouterTests {
    @Test("Place Details answers what 'placedb place --fields' prints, for a mask in the header or in fields=")
    func detailsMatchCLI() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let mask = "id,displayName,location,types,regularOpeningHours,photos"
        let cli = f.cli(["place", "cafe", "--fields", mask, "--output", "json"])
        #expect(cli.code == 0, "\(cli.err)")
        let header = router.call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": mask])
        #expect(header.status == 200)
        #expect(header.text == cli.out)
        #expect(header.header("Content-Type") == "application/json; charset=UTF-8")
        let query = router.call(
            "GET", "/v1/places/cafe", query: [("fields", mask), ("languageCode", "fr"), ("regionCode", "CH")])
        #expect(query.text == cli.out)
        let dollar = router.call("GET", "/v1/places/cafe", query: [("$fields", "*")])
        #expect(dollar.text == f.cli(["place", "cafe", "--fields", "*", "--output", "json"]).out)
    }

    @Test("header names are matched in any case; the first of a repeated header counts")
    func headerNamesInAnyCase() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let expected = f.cli(["place", "cafe", "--fields", "id", "--output", "json"]).out
        for name in ["x-goog-fieldmask", "X-GOOG-FIELDMASK", "X-Goog-FieldMask"] {
            #expect(router.call("GET", "/v1/places/cafe", headers: [name: "id"]).text == expected, "\(name)")
        }
        let twice = HTTPRequest(
            method: "GET", path: "/v1/places/cafe",
            headers: [(name: "x-goog-fieldmask", value: "id"), (name: "X-Goog-FieldMask", value: "displayName")])
        #expect(router.respond(to: twice).text == expected)
        #expect(twice.header("X-Goog-FieldMaskX") == nil && twice.header("X-Goog-FieldMas") == nil)
        #expect(!HTTPRequest.sameName("a[", "A{") && HTTPRequest.sameName("Host", "hOST"))
    }

    @Test(
        "records linked as one place answer merged; a server opened unmerged (serve --unmerged) answers each record as imported"
    )
    func unmergedServer() throws {
        let f = try ServerFixture()
        let twin =
            #"{"type":"Feature","id":"08f-cafe","geometry":{"type":"Point","coordinates":[6.63012,46.52012]},"properties":{"names":{"primary":"Cafe du Lac"},"categories":{"primary":"cafe"},"update_time":"2025-01-01T00:00:00Z"}}"#
        let imported = f.cli(["import", try f.dir.write("twin.geojsonseq", twin + "\n")])
        #expect(imported.code == 0, "\(imported.err)")
        let body = #"{"locationRestriction":{"circle":{"center":{"latitude":46.5201,"longitude":6.6301},"radius":30}}}"#
        func ids(_ router: PlacesRouter) -> [String] {
            let r = router.call(
                "POST", "/v1/places:searchNearby",
                headers: ["X-Goog-FieldMask": "places.id", "Content-Type": "application/json"], body: body)
            return (r.jsonValue?["places"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        }
        let merged = try f.router()
        let unmerged = try PlacesRouter(
            backend: ServerBackend(databasePath: f.db, connections: 2, recordView: .unmerged),
            configuration: ServerConfiguration())
        #expect(ids(merged) == ["cafe", "old"])
        #expect(ids(unmerged) == ["08f-cafe", "cafe", "old"])
        #expect(
            merged.call("GET", "/v1/places/08f-cafe", headers: ["X-Goog-FieldMask": "id"]).jsonValue?["id"] == "cafe")
        #expect(
            unmerged.call("GET", "/v1/places/08f-cafe", headers: ["X-Goog-FieldMask": "id"]).jsonValue?["id"]
                == "08f-cafe")
    }

    @Test("an old ID answers with the current place and requestedId, as 'placedb place' does")
    func movedID() throws {
        let f = try ServerFixture()
        let r = try f.router().call("GET", "/v1/places/old", headers: ["X-Goog-FieldMask": "id,displayName"])
        #expect(r.status == 200)
        #expect(r.jsonValue?["id"] == "cafe")
        #expect(r.jsonValue?["requestedId"] == "old")
        #expect(r.text == f.cli(["place", "old", "--fields", "id,displayName", "--output", "json"]).out)
    }

    @Test("a request without a field mask is answered 400, unless --default-field-mask is given")
    func maskRequired() throws {
        let f = try ServerFixture()
        let r = try f.router().call("GET", "/v1/places/cafe")
        #expect(r.status == 400)
        #expect(r.errorStatus == "INVALID_ARGUMENT")
        #expect(r.jsonValue?["error"]?["code"] == 400)
        #expect(r.jsonValue?["error"]?["message"]?.stringValue?.contains("FieldMask is a required parameter") == true)
        let lenient = try f.router { $0.defaultFieldMask = "id" }.call("GET", "/v1/places/cafe")
        #expect(lenient.status == 200)
        #expect(lenient.jsonValue == ["id": "cafe"])
        let bad = try f.router().call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id,colour"])
        #expect(bad.status == 400)
        #expect(bad.jsonValue?["error"]?["message"]?.stringValue?.contains("colour") == true)
        #expect(bad.jsonValue?["error"]?["message"]?.stringValue?.contains("did you mean") == false)
        let typo = try f.router().call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id,displayname"])
        #expect(typo.status == 400)
        #expect(
            typo.jsonValue?["error"]?["message"]?.stringValue?.contains(
                "unknown field 'displayname'; did you mean 'displayName'?") == true, "\(typo.text)")
        let empty = try f.router().call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": " "])
        #expect(empty.status == 400)
    }

    @Test(
        "an unknown place is 404 NOT_FOUND; an unknown route 404; a wrong method 404 NOT_FOUND (as Google's front end) with Allow"
    )
    func notFoundAndMethods() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let missing = router.call("GET", "/v1/places/nowhere", headers: ["X-Goog-FieldMask": "id"])
        #expect(missing.status == 404)
        #expect(missing.errorStatus == "NOT_FOUND")
        #expect(router.call("GET", "/v2/places/cafe").status == 404)
        let post = router.call("POST", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id"])
        #expect(post.status == 404)
        #expect(post.errorStatus == "NOT_FOUND")
        #expect(post.jsonValue?["error"]?["details"]?.arrayValue?.first?["reason"] == "METHOD_NOT_FOUND")
        #expect(post.header("Allow") == "GET, HEAD")
        #expect(router.call("GET", "/v1/places:searchNearby").status == 404)
        #expect(router.call("GET", "/v1/places:searchNearby").header("Allow") == "POST")
    }

    /// Nearest first, as `placedb nearby` ranks (the API's default is POPULARITY).
    static let nearbyBody =
        #"{"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":500}},"maxResultCount":20,"rankPreference":"DISTANCE"}"#

    @Test("searchNearby answers what 'placedb nearby' prints, the mask's places. prefix taken off")
    func nearbyMatchesCLI() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let r = router.call(
            "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "places.id,places.displayName"],
            body: Self.nearbyBody)
        #expect(r.status == 200)
        let cli = f.cli(["nearby", "46.52,6.63", "--radius", "500", "--fields", "id,displayName", "--output", "json"])
        #expect(r.text == cli.out)
        #expect(
            r.jsonValue?["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["cafe", "old", "bar", "park"])
        // prettyPrint=false: the compact line 'placedb nearby --batch' writes.
        let compact = router.call(
            "POST", "/v1/places:searchNearby", query: [("prettyPrint", "false")],
            headers: ["X-Goog-FieldMask": "places.id,places.displayName"], body: Self.nearbyBody)
        let batch = f.cli(["nearby", "--batch", "--fields", "id,displayName"], input: Self.nearbyBody + "\n")
        #expect(compact.text == batch.out)
        let unprefixed = router.call(
            "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "id"], body: Self.nearbyBody)
        #expect(unprefixed.status == 400)
    }

    @Test(
        "searchNearby leaves a street (primary type route) out unless includedTypes asks for it; current place never answers with it"
    )
    func nearbyLeavesStreetsOut() throws {
        let street =
            #"{"id":"street","displayName":{"text":"Rue Centrale"},"location":{"latitude":46.52,"longitude":6.63},"types":["route"],"primaryType":"route"}"#
            + "\n"
        let f = try ServerFixture(places: serverPlaces + street)
        let router = try f.router()
        let plain = router.call(
            "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "places.id"], body: Self.nearbyBody)
        #expect(plain.status == 200)
        #expect(
            plain.jsonValue?["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                "cafe", "old", "bar", "park",
            ])
        let asked =
            #"{"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":500}},"includedTypes":["route"]}"#
        let streets = router.call(
            "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "places.id"], body: asked)
        #expect(streets.jsonValue?["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["street"])
        let current = router.call(
            "POST", "/placedb/v1/currentPlace", headers: ["X-Goog-FieldMask": "id"],
            body: #"{"location":{"latitude":46.52,"longitude":6.63},"accuracyMeters":5}"#)
        #expect(current.status == 200)
        #expect(
            current.jsonValue?["placeLikelihoods"]?.arrayValue?.contains { $0["place"]?["id"]?.stringValue == "street" }
                == false)
    }

    @Test("searchNearby enforces the API's limits: maxResultCount 1..20, radius in (0, 50000], a JSON object body")
    func nearbyLimits() throws {
        let f = try ServerFixture()
        let router = try f.router()
        func status(_ body: String) -> (Int, String?) {
            let r = router.call("POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "*"], body: body)
            return (r.status, r.errorStatus)
        }
        let circle = #""locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":RADIUS}}"#
        func body(radius: String, extra: String = "") -> String {
            "{" + circle.replacingOccurrences(of: "RADIUS", with: radius) + extra + "}"
        }
        #expect(status(body(radius: "50000")).0 == 200)
        #expect(status(body(radius: "50000.5")) == (400, "INVALID_ARGUMENT"))
        #expect(status(body(radius: "0")) == (400, "INVALID_ARGUMENT"))
        #expect(status(body(radius: "10", extra: #","maxResultCount":21"#)) == (400, "INVALID_ARGUMENT"))
        #expect(status(body(radius: "10", extra: #","maxResultCount":0"#)) == (400, "INVALID_ARGUMENT"))
        #expect(status(body(radius: "10", extra: #","maxResultCount":20"#)).0 == 200)
        #expect(status(body(radius: "10", extra: #","colour":1"#)) == (400, "INVALID_ARGUMENT"))
        #expect(status("{\"locationRestriction\":") == (400, "INVALID_ARGUMENT"))
        #expect(status("[]") == (400, "INVALID_ARGUMENT"))
        #expect(status("") == (400, "INVALID_ARGUMENT"))
        // With enum-encoding=int Google's clients send rankPreference as a number.
        #expect(status(body(radius: "1000", extra: #","rankPreference":2"#)).0 == 200)
        #expect(status(body(radius: "1000", extra: #","rankPreference":7"#)) == (400, "INVALID_ARGUMENT"))
    }

    @Test("$alt=json;enum-encoding=int writes enums as their numbers")
    func enumIntegers() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let r = router.call(
            "GET", "/v1/places/cafe", query: [("$alt", "json;enum-encoding=int")],
            headers: ["X-Goog-FieldMask": "id,businessStatus,priceLevel"])
        #expect(r.jsonValue == ["id": "cafe", "businessStatus": 1, "priceLevel": 3])
        let names = router.call(
            "GET", "/v1/places/cafe", query: [("$alt", "json")], headers: ["X-Goog-FieldMask": "businessStatus"])
        #expect(names.jsonValue == ["businessStatus": "OPERATIONAL"])
        let nearby = router.call(
            "POST", "/v1/places:searchNearby", query: [("$alt", "json;enum-encoding=int")],
            headers: ["X-Goog-FieldMask": "places.id,places.businessStatus"], body: Self.nearbyBody)
        #expect(nearby.jsonValue?["places"]?.arrayValue?.compactMap { $0["businessStatus"]?.intValue } == [1, 3, 2])
        #expect(
            router.call("GET", "/v1/places/cafe", query: [("$alt", "proto")], headers: ["X-Goog-FieldMask": "id"])
                .status == 400)
    }

    @Test(
        "an API key, when set, is required in X-Goog-Api-Key or key=: missing 403 PERMISSION_DENIED, wrong 400 API_KEY_INVALID"
    )
    func apiKey() throws {
        let f = try ServerFixture()
        let router = try f.router { $0.apiKey = "s3cret" }
        let h = ["X-Goog-FieldMask": "id"]
        #expect(router.call("GET", "/v1/places/cafe", headers: h).status == 403)
        #expect(router.call("GET", "/v1/places/cafe", headers: h).errorStatus == "PERMISSION_DENIED")
        #expect(
            router.call("GET", "/v1/places/cafe", headers: h.merging(["X-Goog-Api-Key": "s3cre"]) { $1 }).status == 400)
        #expect(
            router.call("GET", "/v1/places/cafe", headers: h.merging(["X-Goog-Api-Key": "s3cret!"]) { $1 }).status
                == 400)
        #expect(
            router.call("GET", "/v1/places/cafe", headers: h.merging(["X-Goog-Api-Key": "s3cret"]) { $1 }).status == 200
        )
        #expect(router.call("GET", "/v1/places/cafe", query: [("key", "s3cret")], headers: h).status == 200)
        #expect(PlacesRouter.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!PlacesRouter.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!PlacesRouter.constantTimeEqual(Array("".utf8), Array("a".utf8)))
    }

    @Test("current place, resolve and open status answer what 'placedb current', 'resolve' and 'open' print")
    func ownRoutesMatchCLI() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let body = #"{"location":{"latitude":46.5201,"longitude":6.6301},"accuracyMeters":15,"maxResultCount":3}"#
        let current = router.call(
            "POST", "/placedb/v1/currentPlace", headers: ["X-Goog-FieldMask": "placeLikelihoods.place.id"], body: body)
        #expect(current.status == 200)
        #expect(
            current.text
                == f.cli([
                    "current", "46.5201,6.6301", "--accuracy", "15", "--limit", "3", "--fields", "id", "--output",
                    "json",
                ]).out)
        #expect(current.jsonValue?["placeLikelihoods"]?.arrayValue?.first?["place"]?["id"] == "cafe")

        let resolve = router.call("POST", "/placedb/v1/places:resolve", body: #"{"placeIds":["old","cafe","nowhere"]}"#)
        #expect(resolve.status == 200)
        #expect(resolve.text == f.cli(["resolve", "old", "cafe", "nowhere", "--output", "json"]).out)
        #expect(router.call("POST", "/placedb/v1/places:resolve", body: #"{"ids":["old"]}"#).status == 400)

        let at = "2026-11-30T10:00:00+01:00"
        let open = router.call("GET", "/placedb/v1/places/cafe/openStatus", query: [("at", at)])
        #expect(open.status == 200)
        #expect(open.text == f.cli(["open", "cafe", "--at", at, "--output", "json"]).out)
        #expect(open.jsonValue?["status"] == "OPEN")
        let moved = router.call("GET", "/placedb/v1/places/old/openStatus", query: [("at", at)])
        #expect(moved.jsonValue?["id"] == "cafe")
        #expect(moved.text == f.cli(["open", "old", "--at", at, "--output", "json"]).out)
        #expect(router.call("GET", "/placedb/v1/places/cafe/openStatus", query: [("at", "yesterday")]).status == 400)
        #expect(router.call("GET", "/placedb/v1/places/nowhere/openStatus").status == 404)

        let svg = router.call("POST", "/placedb/v1/currentPlace:svg", body: body)
        #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml")
        #expect(svg.text.hasPrefix("<svg") || svg.text.hasPrefix("<?xml"))
    }

    @Test("health and version")
    func health() throws {
        let f = try ServerFixture()
        let router = try f.router()
        #expect(router.call("GET", "/placedb/v1/health").jsonValue == ["status": "SERVING", "placeCount": 5])
        #expect(router.call("GET", "/placedb/v1/version").jsonValue?["version"]?.stringValue == CommandLineTool.version)
    }

    @Test("health's count is kept until the places change, by placedb or another writer (a row deleted with SQL)")
    func healthCountFollowsChanges() throws {
        let f = try ServerFixture()
        let router = try f.router()
        #expect(router.call("GET", "/placedb/v1/health").jsonValue?["placeCount"] == 5)
        #expect(router.call("GET", "/placedb/v1/health").jsonValue?["placeCount"] == 5)
        let more = #"{"id":"late","displayName":{"text":"Late"},"location":{"latitude":46.52,"longitude":6.63}}"#
        #expect(f.cli(["import", try f.dir.write("late.ndjson", more + "\n")]).code == 0)
        #expect(router.call("GET", "/placedb/v1/health").jsonValue?["placeCount"] == 6)
        do {
            let db = try Database(path: f.db, mode: .readWrite)
            try db.execute("PRAGMA foreign_keys = OFF")
            try db.execute("DELETE FROM place WHERE place_id = 'cafe'")
        }
        #expect(router.call("GET", "/placedb/v1/health").jsonValue?["placeCount"] == 5)
    }

    @Test(
        "searchText and autocomplete on a database without a text index: 400 FAILED_PRECONDITION with the CLI's message"
    )
    func noTextIndex() throws {
        let f = try ServerFixture()
        #expect(f.cli(["text-index", "drop"]).code == 0)
        let router = try f.router()
        let search = router.call(
            "POST", "/v1/places:searchText", headers: ["X-Goog-FieldMask": "places.id"], body: #"{"textQuery":"cafe"}"#)
        let complete = router.call("POST", "/v1/places:autocomplete", body: #"{"input":"caf"}"#)
        let message =
            "\(f.db): this database has no text index (it was imported without one); build it with `placedb text-index build`"
        for r in [search, complete] {
            #expect(r.status == 400, "\(r.text)")
            #expect(r.errorStatus == "FAILED_PRECONDITION")
            // The CLI's message, the database's path said as "the database".
            #expect(
                r.jsonValue?["error"]?["message"]?.stringValue
                    == message.replacingOccurrences(of: f.db, with: "the database"))
            #expect(r.jsonValue?["error"]?["code"] == .int(400))
        }
        #expect(f.cli(["search", "cafe"]).err == "placedb search: \(message)\n")
        // Other routes still answer.
        #expect(router.call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id"]).status == 200)
        // Built again, it answers.
        #expect(f.cli(["text-index", "build"]).code == 0)
        #expect(
            router.call(
                "POST", "/v1/places:searchText", headers: ["X-Goog-FieldMask": "places.id"],
                body: #"{"textQuery":"cafe"}"#
            ).status == 200)
    }

    @Test("searchText answers what 'placedb search' prints, with the API's limits")
    func searchTextMatchesCLI() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let body =
            #"{"textQuery":"cafe du lac","locationBias":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":500}}}"#
        let r = router.call(
            "POST", "/v1/places:searchText", headers: ["X-Goog-FieldMask": "places.id,places.displayName"], body: body)
        #expect(r.status == 200, "\(r.text)")
        let cli = f.cli(["search", "--batch", "--fields", "id,displayName"], input: body + "\n")
        let compact = router.call(
            "POST", "/v1/places:searchText", query: [("prettyPrint", "false")],
            headers: ["X-Goog-FieldMask": "places.id,places.displayName"], body: body)
        #expect(compact.text == cli.out)
        #expect(r.jsonValue?["places"]?.arrayValue?.first?["id"]?.stringValue == "cafe")
        let plain = f.cli([
            "search", "cafe du lac", "--near", "46.52,6.63", "--fields", "id,displayName", "--output", "json",
        ])
        let unbiased = router.call(
            "POST", "/v1/places:searchText", headers: ["X-Goog-FieldMask": "places.id,places.displayName"],
            body:
                #"{"textQuery":"cafe du lac","locationBias":{"circle":{"center":{"latitude":46.52,"longitude":6.63}}}}"#
        )
        #expect(unbiased.text == plain.out)
        func status(_ body: String, mask: String? = "places.id") -> (Int, String?) {
            let r = router.call(
                "POST", "/v1/places:searchText", headers: mask.map { ["X-Goog-FieldMask": $0] } ?? [:], body: body)
            return (r.status, r.errorStatus)
        }
        #expect(status(#"{"textQuery":"cafe"}"#, mask: nil) == (400, "INVALID_ARGUMENT"))
        // Above 20 is served as 20, 0 as the default (the API's rules); negative is refused.
        #expect(status(#"{"textQuery":"cafe","maxResultCount":21}"#).0 == 200)
        #expect(status(#"{"textQuery":"cafe","pageSize":0}"#).0 == 200)
        #expect(status(#"{"textQuery":"cafe","pageSize":-1}"#) == (400, "INVALID_ARGUMENT"))
        #expect(status(#"{"textQuery":"cafe","maxResultCount":20}"#).0 == 200)
        #expect(status(#"{"textQuery":"  "}"#) == (400, "INVALID_ARGUMENT"))
        #expect(status(#"{}"#) == (400, "INVALID_ARGUMENT"))
        #expect(status(#"{"textQuery":"cafe","colour":1}"#) == (400, "INVALID_ARGUMENT"))
        #expect(
            status(
                #"{"textQuery":"cafe","locationBias":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":50001}}}"#
            ) == (400, "INVALID_ARGUMENT"))
        #expect(status(#"{"textQuery":"\#(String(repeating: "a", count: 1001))"}"#) == (400, "INVALID_ARGUMENT"))
        // FTS5 syntax is text, never a 500.
        #expect(status(#"{"textQuery":"\" NEAR( * AND"}"#).0 == 200)
        // With enum-encoding=int Google's clients send rankPreference as a number (DISTANCE 1).
        let byDistance = router.call(
            "POST", "/v1/places:searchText", query: [("$alt", "json;enum-encoding=int")],
            headers: ["X-Goog-FieldMask": "places.id"],
            body:
                #"{"textQuery":"cafe","rankPreference":1,"locationBias":{"circle":{"center":{"latitude":46.6,"longitude":6.7}}}}"#
        )
        #expect(byDistance.jsonValue?["places"]?.arrayValue?.first?["id"]?.stringValue == "far")
        #expect(status(#"{"textQuery":"cafe","rankPreference":7}"#) == (400, "INVALID_ARGUMENT"))
    }

    @Test("autocomplete answers what 'placedb autocomplete' prints; a mask keeps the paths it names")
    func autocompleteMatchesCLI() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let body = #"{"input":"cafe du l","origin":{"latitude":46.52,"longitude":6.63}}"#
        let r = router.call("POST", "/v1/places:autocomplete", query: [("prettyPrint", "false")], body: body)
        #expect(r.status == 200, "\(r.text)")
        let cli = f.cli(["autocomplete", "--batch"], input: body + "\n")
        #expect(r.text == cli.out)
        let first = r.jsonValue?["suggestions"]?.arrayValue?.first?["placePrediction"]
        #expect(first?["placeId"]?.stringValue == "cafe")
        #expect(first?["place"]?.stringValue == "places/cafe")
        #expect(first?["text"]?["text"]?.stringValue == "Café du Lac")
        let masked = router.call(
            "POST", "/v1/places:autocomplete", headers: ["X-Goog-FieldMask": "suggestions.placePrediction.placeId"],
            body: body)
        #expect(masked.jsonValue?["suggestions"]?.arrayValue?.first == ["placePrediction": ["placeId": "cafe"]])
        #expect(
            router.call("POST", "/v1/places:autocomplete", headers: ["X-Goog-FieldMask": "placeId"], body: body).status
                == 400)
        #expect(
            router.call("POST", "/v1/places:autocomplete", body: #"{"text":"cafe"}"#).errorStatus == "INVALID_ARGUMENT")
        #expect(router.call("GET", "/v1/places:autocomplete").status == 404)
    }

    @Test("photo media: 302 to the image unless skipHttpRedirect=true; sizes 1..4800; unknown photos 404")
    func photoMedia() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let path = "/v1/places/cafe/photos/ref-cafe-1/media"
        let redirect = router.call("GET", path, query: [("maxWidthPx", "32")], headers: ["Host": "127.0.0.1:9"])
        #expect(redirect.status == 302)
        let location = try #require(redirect.header("Location"))
        #expect(
            location
                == "http://127.0.0.1:9/placedb/v1/places/cafe/photos/ref-cafe-1/image?maxWidthPx=32&maxHeightPx=4800")
        let skip = router.call(
            "GET", path, query: [("maxHeightPx", "24"), ("skipHttpRedirect", "true")], headers: ["Host": "localhost:9"])
        #expect(skip.status == 200)
        #expect(skip.jsonValue?["name"] == "places/cafe/photos/ref-cafe-1/media")
        #expect(
            skip.jsonValue?["photoUri"]?.stringValue
                == "http://localhost:9/placedb/v1/places/cafe/photos/ref-cafe-1/image?maxWidthPx=4800&maxHeightPx=24")
        for bad in ["0", "4801", "abc"] {
            #expect(router.call("GET", path, query: [("maxWidthPx", bad)]).status == 400)
        }
        #expect(router.call("GET", path).status == 400)
        #expect(router.call("GET", "/v1/places/cafe/photos/nope/media", query: [("maxWidthPx", "10")]).status == 404)
        // A Host header that is not a host name is refused, never echoed into Location.
        let odd = router.call("GET", path, query: [("maxWidthPx", "10")], headers: ["Host": "evil.example/x?"])
        #expect(odd.status == 403)
        #expect(odd.header("Location") == nil)

        // The image: the bytes 'placedb photo fetch' writes for the same size.
        let image = router.call(
            "GET", "/placedb/v1/places/cafe/photos/ref-cafe-1/image",
            query: [("maxWidthPx", "32"), ("maxHeightPx", "4800")])
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/jpeg")
        let fetched = f.cli(["photo", "fetch", "ref-cafe-1", "--max-width", "32", "-o", "-"])
        #expect(fetched.code == 0, "\(fetched.err)")
        #expect(image.body == fetched.bytes)
        // No path outside the database: a name is only looked up in it.
        #expect(
            router.call(
                "GET", "/placedb/v1/places/cafe/photos/..%2F..%2Fetc%2Fpasswd/image", query: [("maxWidthPx", "10")]
            ).status == 404)
        #expect(
            router.call("GET", "/placedb/v1/places/../../etc/photos/passwd/image", query: [("maxWidthPx", "10")]).status
                == 404)
    }
}
