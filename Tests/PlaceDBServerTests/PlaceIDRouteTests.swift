import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

/// Place IDs on the server: one path segment (docs/server.md#place-ids).
@Suite("placedb serve: place IDs")
struct PlaceIDRouteTests {
    /// The server fixture's places, an OpenStreetMap node and a place whose source ID holds a '/'.
    static let places =
        serverPlaces + """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[6.6302,46.5202]},"properties":{"@type":"node","@id":42,"amenity":"cafe","name":"Nœud"}}
            {"id":"gb/shop/1","displayName":{"text":"Slash"},"location":{"latitude":46.5203,"longitude":6.6303},"photos":[{"name":"places/gb/shop/1/photos/s1","widthPx":64,"heightPx":48}]}

            """

    @Test(
        "the one spelling, old OpenStreetMap spellings (also with the '/' encoded once more) and a stored ID's source spelling answer the same place"
    )
    func spellingsAnswer() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let mask = ["X-Goog-FieldMask": "name,id,displayName"]
        let osm = router.call("GET", "/v1/places/osm:n42", headers: mask)
        #expect(osm.status == 200)
        #expect(osm.jsonValue?["name"] == "places/osm:n42")
        #expect(osm.text == f.cli(["place", "osm:node/42", "--fields", "name,id,displayName", "--output", "json"]).out)
        // As libmicrohttpd hands the paths over, decoded once: Google's
        // client sends osm%3Anode%252F42 for places/osm:node%2F42.
        for path in ["/v1/places/osm:node/42", "/v1/places/osm:node%2F42", "/v1/places/osm:node%2f42"] {
            #expect(router.call("GET", path, headers: mask).text == osm.text, "\(path)")
        }
        let slash = router.call("GET", "/v1/places/gb%2Fshop%2F1", headers: mask)
        #expect(slash.status == 200)
        #expect(slash.jsonValue?["name"] == "places/gb%2Fshop%2F1")
        #expect(router.call("GET", "/v1/places/gb/shop/1", headers: mask).text == slash.text)
        let resolved = router.call(
            "POST", "/placedb/v1/places:resolve",
            body: #"{"placeIds": ["osm:node/42", "places/osm:way/42", "gb/shop/1"]}"#)
        #expect(resolved.jsonValue?["results"]?.arrayValue?.map { $0["placeId"] } == ["osm:n42", nil, "gb%2Fshop%2F1"])
        #expect(router.call("GET", "/placedb/v1/places/osm:node/42/openStatus").status == 200)
        // Its photo's image, stored under the one spelling (media answers only a photo with an image).
        let image = try f.dir.write("s1.jpg", bytes: TestImages.make(width: 64, height: 48, format: .jpeg))
        #expect(f.cli(["photo", "add", "places/gb%2Fshop%2F1/photos/s1", image]).code == 0)
        let media = router.call(
            "GET", "/v1/places/gb/shop/1/photos/s1/media", query: [("maxWidthPx", "10"), ("skipHttpRedirect", "true")])
        #expect(media.status == 200)
        #expect(
            media.jsonValue?["name"] == "places/gb%2Fshop%2F1/photos/s1/media", "the photo's name in the one spelling")
        #expect(
            media.jsonValue?["photoUri"]?.stringValue?.contains("/placedb/v1/places/gb%252Fshop%252F1/photos/s1/image?")
                == true)
    }

    @Test("an unknown ID is NOT_FOUND as before; a '/' that is no older spelling of a stored ID is 400 naming the rule")
    func slashRule() throws {
        let f = try ServerFixture(places: Self.places)
        let router = try f.router()
        let mask = ["X-Goog-FieldMask": "id"]
        #expect(router.call("GET", "/v1/places/nosuch", headers: mask).status == 404)
        #expect(router.call("GET", "/v1/places/osm:n43", headers: mask).status == 404)
        #expect(
            router.call("GET", "/v1/places/osm:node/43", headers: mask).status == 404,
            "an old spelling of no stored ID is NOT_FOUND")
        for path in ["/v1/places/no/such", "/v1/places/cafe/extra", "/v1/places/gb/shop/2"] {
            let r = router.call("GET", path, headers: mask)
            #expect(r.status == 400, "\(path)")
            #expect(r.errorStatus == "INVALID_ARGUMENT")
            let message = r.jsonValue?["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains("one path segment") && message.contains("osm:n1"), "\(message)")
        }
    }

    @Test("over a socket, percent-encoded as Google's client and curl send them")
    func overSocket() throws {
        let f = try ServerFixture(places: Self.places)
        let server = try f.server()
        defer { server.stop(timeout: 1) }
        let base = "http://127.0.0.1:\(server.port)/v1/places/"
        for (path, id) in [
            ("osm%3An42", "osm:n42"), ("osm%3Anode%252F42", "osm:n42"), ("osm:node%2F42", "osm:n42"),
            ("gb%252Fshop%252F1", "gb%2Fshop%2F1"),
        ] {
            let r = try Curl.run(["-H", "X-Goog-FieldMask: id", base + path], in: f.dir)
            #expect(r.status == 200, "\(path)")
            #expect((try? JSONValue(parsing: r.body))?["id"] == .string(id), "\(path)")
        }
        #expect(try Curl.run(["-H", "X-Goog-FieldMask: id", base + "a%2Fb"], in: f.dir).status == 400)
    }
}
