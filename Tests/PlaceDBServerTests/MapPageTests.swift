import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport
import SQLiteDB

/// Names that must reach every client as text: markup, a script, an RTL
/// override, 10,000 characters.
let hostileNames = [
    #"<img src=x onerror="window.__pwned=1">Bold <b>name</b>"#,
    "<script>window.__pwned=2</script>",
    "\u{202E}exe.evil\u{202C} Café",
    "Long " + String(repeating: "x", count: 9995),
]

/// The hostile names as places next to the fixture's café.
let hostilePlaces =
    hostileNames.enumerated().map { i, name in
        let encoded = JSONWriter().string(.string(name))
        return
            #"{"id":"hostile-\#(i)","displayName":{"text":\#(encoded)},"location":{"latitude":46.5202,"longitude":\#(6.6302 + Double(i) * 0.0001)},"types":["cafe"],"primaryType":"cafe"}"#
    }.joined(separator: "\n") + "\n"

/// A building, a street, a park and a pond as `osmium export -a type,id` writes them.
let basemapFeatures = """
    {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[6.6300,46.5200],[6.6304,46.5200],[6.6304,46.5203],[6.6300,46.5203],[6.6300,46.5200]]]},"properties":{"@type":"way","@id":11,"building":"yes"}}
    {"type":"Feature","geometry":{"type":"LineString","coordinates":[[6.6290,46.5195],[6.6310,46.5196],[6.6320,46.5210]]},"properties":{"@type":"way","@id":12,"highway":"residential","name":"Rue du Test"}}
    {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[6.6306,46.5206],[6.6316,46.5206],[6.6316,46.5214],[6.6306,46.5214],[6.6306,46.5206]]]},"properties":{"@type":"way","@id":13,"leisure":"park","name":"Parc du Test","wheelchair":"yes"}}
    {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[6.6290,46.5190],[6.6296,46.5190],[6.6296,46.5193],[6.6290,46.5193],[6.6290,46.5190]]]},"properties":{"@type":"way","@id":14,"natural":"water"}}

    """

/// The map page at GET /, its assets and its data routes (`/map/...`);
/// the page itself in headless Chromium (`--dump-dom`). The walk through
/// the page in a driven browser is Tests/browser (Selenium).
@Suite("placedb serve: the map page at /", .serialized)
struct MapPageTests {
    static var chromium: String? {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            if let r = try? Tool.run("sh", ["-c", "command -v \(name)"]), r.status == 0 {
                return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The DOM after the page's scripts ran, and the browser's log
    /// (console messages, among them Content-Security-Policy violations).
    func browse(_ url: String, in dir: TempDirectory) throws -> (dom: String, log: String) {
        let browser = try #require(Self.chromium)
        let r = try Tool.run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=\(dir.file("chromium-profile"))",
                "--enable-logging=stderr", "--v=0", "--virtual-time-budget=15000", "--window-size=1100,720",
                "--dump-dom", url,
            ])
        return (r.stdout, r.stderr)
    }

    /// The fixture with the basemap's features (and `more` NDJSON places).
    func fixture(more: String = "") throws -> ServerFixture {
        let f = try ServerFixture(places: serverPlaces + more)
        let r = f.cli(["import", try f.dir.write("basemap.geojsonseq", basemapFeatures), "--all-features"])
        #expect(r.code == 0, "\(r.err)")
        return f
    }

    func json(_ r: HTTPResponse) throws -> JSONValue {
        try #require(r.jsonValue, "\(r.status) \(r.text.prefix(500))")
    }

    @Test(
        "the page and its assets are served with a strict Content-Security-Policy (scripts and styles from this server only, nothing inline), nosniff and no referrer"
    )
    func securityHeaders() throws {
        let f = try ServerFixture()
        let page = try f.router().call("GET", "/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=UTF-8")
        let csp = try #require(page.header("Content-Security-Policy"))
        let directives = Dictionary(
            csp.split(separator: ";").map { d -> (String, String) in
                let parts = d.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { a, _ in a })
        #expect(directives["default-src"] == "'none'")
        #expect(directives["script-src"] == "'self'", "\(csp)")
        #expect(directives["style-src"] == "'self'", "\(csp)")
        #expect(directives["img-src"] == "'self' data:")
        #expect(directives["connect-src"] == "'self'")
        #expect(directives["base-uri"] == "'none'")
        #expect(directives["form-action"] == "'none'")
        #expect(directives["frame-ancestors"] == "'none'")
        #expect(!csp.contains("unsafe"), "\(csp)")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        let html = page.text
        // No inline script or style, no handler attributes, nothing from another origin.
        #expect(
            html.components(separatedBy: "<script src=\"/map/assets/").count == 3
                && html.components(separatedBy: "<script").count == 3)
        #expect(!html.contains("<style") && !html.contains(" style="))
        #expect(!html.contains(" onclick=") && !html.contains(" onload=") && !html.contains("javascript:"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))
        // Every asset the page names is served, with its type and the same policy.
        let router = try f.router()
        for (path, type) in [
            ("/map/assets/leaflet.js", "text/javascript"), ("/map/assets/leaflet.css", "text/css"),
            ("/map/assets/page.js", "text/javascript"),
            ("/map/assets/page.css", "text/css"), ("/map/assets/leaflet-LICENSE.txt", "text/plain"),
        ] {
            #expect(html.contains("\"\(path)\""), "the page names \(path)")
            let r = router.call("GET", path)
            #expect(r.status == 200, "\(path)")
            #expect(r.header("Content-Type")?.hasPrefix(type) == true, "\(path): \(r.header("Content-Type") ?? "")")
            #expect(r.header("Content-Security-Policy") == csp)
            #expect(r.body.count > 1000, "\(path): \(r.body.count) bytes")
        }
        #expect(router.call("POST", "/map/assets/page.js").status == 404)
        // The router looks an asset up only under their prefix.
        #expect(
            MapPage.assets.count == 5 && MapPage.assets.keys.allSatisfy { $0.hasPrefix(PlacesRouter.mapAssetPrefix) })
    }

    @Test(
        "the embedded Leaflet is the vendored files' bytes (Scripts/embed-leaflet writes LeafletAssets.swift from Sources/PlaceDBServer/Vendor/leaflet)"
    )
    func embeddedLeafletIsVendored() throws {
        let vendor = Self.repository.appendingPathComponent("Sources/PlaceDBServer/Vendor/leaflet")
        for (file, path) in [
            ("leaflet.min.js", "/map/assets/leaflet.js"), ("leaflet.css", "/map/assets/leaflet.css"),
            ("LICENSE", "/map/assets/leaflet-LICENSE.txt"),
        ] {
            let bytes = [UInt8](try Data(contentsOf: vendor.appendingPathComponent(file)))
            let served = try #require(MapPage.assets[path]).body
            #expect(
                served.count == bytes.count && served == bytes,
                "\(file): the embedded copy differs; run Scripts/embed-leaflet")
        }
        #expect(
            String(decoding: try #require(MapPage.assets["/map/assets/leaflet-LICENSE.txt"]).body, as: UTF8.self)
                .contains("Vladimir Agafonkin"))
    }

    @Test("with an API key, the assets (no data) are served without it, the page and the map's data routes need it")
    func assetsNeedNoKey() throws {
        let f = try ServerFixture()
        let router = try f.router { $0.apiKey = "sekrit" }
        #expect(router.call("GET", "/map/assets/leaflet.js").status == 200)
        #expect(router.call("GET", "/").status == 403)
        #expect(router.call("GET", "/map/summary").status == 403)
        #expect(router.call("GET", "/map/features", query: [("bbox", "6,46,7,47")]).status == 403)
        #expect(router.call("GET", "/map/features", query: [("bbox", "6,46,7,47"), ("key", "sekrit")]).status == 200)
        #expect(router.call("GET", "/", query: [("key", "sekrit")]).status == 200)
    }

    @Test(
        "features: the points in the box with their ID, name, type and source; footprints from zoom 12 as Polygon and MultiLineString with their layer"
    )
    func features() throws {
        let f = try fixture()
        let router = try f.router()
        let near = try json(
            router.call("GET", "/map/features", query: [("bbox", "6.628,46.519,6.634,46.522"), ("zoom", "17")]))
        #expect(near["type"]?.stringValue == "FeatureCollection")
        let features = try #require(near["features"]?.arrayValue)
        let points = features.filter { $0["properties"]?["layer"]?.stringValue == "point" }
        let ids = Set(points.compactMap { $0["properties"]?["id"]?.stringValue })
        #expect(ids.isSuperset(of: ["cafe", "bar", "park"]), "\(ids)")
        #expect(!ids.contains("far"), "outside the box")
        #expect(!ids.contains("osm:w11"), "an unnamed building is no place: not a point")
        let cafe = try #require(points.first { $0["properties"]?["id"]?.stringValue == "cafe" })
        #expect(cafe["geometry"]?["coordinates"] == .array([.double(6.6301), .double(46.5201)]))
        #expect(cafe["properties"]?["name"]?.stringValue == "Café du Lac")
        #expect(cafe["properties"]?["type"]?.stringValue == "cafe")
        #expect(cafe["properties"]?["source"]?.stringValue != nil)
        // The footprints: the building, the street, the park.
        func footprint(_ id: String) -> JSONValue? {
            features.first {
                $0["properties"]?["id"]?.stringValue == id && $0["properties"]?["layer"]?.stringValue != "point"
            }
        }
        let building = try #require(footprint("osm:w11"), "\(near)")
        #expect(building["properties"]?["layer"]?.stringValue == "building")
        #expect(building["geometry"]?["type"]?.stringValue == "Polygon")
        let ring = try #require(building["geometry"]?["coordinates"]?.arrayValue?.first?.arrayValue)
        #expect(ring.count == 5 && ring.first == ring.last, "a closed ring of the four corners: \(ring)")
        for corner in [(6.6300, 46.5200), (6.6304, 46.5200), (6.6304, 46.5203), (6.6300, 46.5203)] {
            #expect(
                ring.contains { v in
                    guard let a = v.arrayValue, let x = a.first?.doubleValue, let y = a.last?.doubleValue else {
                        return false
                    }
                    return abs(x - corner.0) < 2e-6 && abs(y - corner.1) < 2e-6
                }, "corner \(corner) in \(ring)")
        }
        #expect(footprint("osm:w12")?["geometry"]?["type"]?.stringValue == "MultiLineString")
        #expect(footprint("osm:w12")?["properties"]?["layer"]?.stringValue == "street")
        #expect(footprint("osm:w13")?["properties"]?["layer"]?.stringValue == "green")
        #expect(footprint("osm:w14")?["properties"]?["layer"]?.stringValue == "water", "natural=water, by its tags")
        #expect(near["truncated"]?["points"] == .bool(false) && near["truncated"]?["footprints"] == .bool(false))
        #expect(near["zoomForFootprints"] == nil)
        // At zoom 10: points only, and the zoom at which outlines come.
        let far = try json(router.call("GET", "/map/features", query: [("bbox", "6.0,46.0,7.0,47.0"), ("zoom", "10")]))
        #expect(far["features"]?.arrayValue?.allSatisfy { $0["properties"]?["layer"]?.stringValue == "point" } == true)
        #expect(far["zoomForFootprints"] == .int(12))
        #expect(far["features"]?.arrayValue?.contains { $0["properties"]?["id"]?.stringValue == "far" } == true)
    }

    @Test("features: at most `limit` points a request, a sample spread over the box, and truncated says so")
    func featureLimit() throws {
        // 400 places on a 20 x 20 grid.
        var lines = ""
        for i in 0..<20 {
            for j in 0..<20 {
                lines +=
                    #"{"id":"g\#(i)-\#(j)","displayName":{"text":"G \#(i) \#(j)"},"location":{"latitude":\#(46.0 + Double(i) * 0.01),"longitude":\#(6.0 + Double(j) * 0.01)},"types":["cafe"]}"#
                    + "\n"
            }
        }
        // 300 more in a cluster (one cell of the grid) and 3 alone.
        for i in 0..<300 {
            lines +=
                #"{"id":"c\#(i)","displayName":{"text":"C \#(i)"},"location":{"latitude":\#(47.0 + Double(i % 17) * 0.0001),"longitude":\#(7.0 + Double(i / 17) * 0.0001)},"types":["cafe"]}"#
                + "\n"
        }
        for (i, at) in [(47.1, 7.1), (47.2, 7.25), (47.25, 7.05)].enumerated() {
            lines +=
                #"{"id":"alone\#(i)","displayName":{"text":"A"},"location":{"latitude":\#(at.0),"longitude":\#(at.1)},"types":["cafe"]}"#
                + "\n"
        }
        let f = try ServerFixture(places: serverPlaces + lines)
        let router = try f.router()
        let all = try json(
            router.call("GET", "/map/features", query: [("bbox", "5.99,45.99,6.2,46.2"), ("limit", "400")]))
        #expect(all["features"]?.arrayValue?.count == 400)
        #expect(all["truncated"]?["points"] == .bool(false))
        let some = try json(
            router.call("GET", "/map/features", query: [("bbox", "5.99,45.99,6.2,46.2"), ("limit", "64")]))
        let points = try #require(some["features"]?.arrayValue)
        #expect(points.count <= 64 && points.count >= 32, "\(points.count)")
        #expect(some["truncated"]?["points"] == .bool(true))
        // Spread: every quarter of the box has some.
        let lngs = points.compactMap { $0["geometry"]?["coordinates"]?.arrayValue?.first?.doubleValue }
        let lats = points.compactMap { $0["geometry"]?["coordinates"]?.arrayValue?.last?.doubleValue }
        for (west, south) in [(true, true), (true, false), (false, true), (false, false)] {
            #expect(
                zip(lngs, lats).contains { ($0 < 6.095) == west && ($1 < 46.095) == south },
                "quarter west \(west) south \(south)")
        }
        // A cluster in one cell gets what the empty cells left: the limit is reached, the lone places kept.
        let clustered = try json(
            router.call("GET", "/map/features", query: [("bbox", "6.99,46.99,7.3,47.3"), ("limit", "100")]))
        let ids = Set((clustered["features"]?.arrayValue ?? []).compactMap { $0["properties"]?["id"]?.stringValue })
        #expect(ids.count == 100, "\(ids.count)")
        #expect(ids.isSuperset(of: ["alone0", "alone1", "alone2"]))
        #expect(clustered["truncated"]?["points"] == .bool(true))
    }

    @Test("features: a bad bbox, zoom or limit is one 400 line naming the parameter")
    func badFeatureRequests() throws {
        let router = try ServerFixture().router()
        for (query, word) in [
            ([(String, String)](), "bbox is required"), ([("bbox", "1,2,3")], "bbox must be four numbers"),
            ([("bbox", "<script>,2,3,4")], "bbox must be four numbers"), ([("bbox", "10,2,3,4")], "west < east"),
            ([("bbox", "1,2,3,95")], "north <= 90"), ([("bbox", "1,2,3,4"), ("zoom", "99")], "zoom must be"),
            ([("bbox", "1,2,3,4"), ("limit", "0")], "limit must be"),
            ([("bbox", "nan,2,3,4")], "bbox must be four numbers"),
        ] {
            let r = router.call("GET", "/map/features", query: query)
            #expect(r.status == 400, "\(query)")
            #expect(r.errorStatus == "INVALID_ARGUMENT")
            let message = r.jsonValue?["error"]?["message"]?.stringValue ?? ""
            #expect(message.contains(word) && !message.contains("\n"), "\(query): \(message)")
        }
        #expect(router.call("GET", "/map/places/no-such-place").status == 404)
        #expect(router.call("POST", "/map/features", query: [("bbox", "1,2,3,4")]).status == 404)
    }

    @Test(
        "summary: the places' count and extent, counts by source and type, named examples; counted again after an import"
    )
    func summary() throws {
        let f = try fixture()
        let router = try f.router()
        let s = try json(router.call("GET", "/map/summary"))
        let places = try #require(s["places"]?.intValue)
        #expect(
            places == 8,
            "the 5 places, the street, the unnamed building and pond (the OSM park is linked to park: one place): \(s)")
        let extent = try #require(s["extent"])
        #expect(extent["south"]?.doubleValue ?? 99 <= 46.5201 && extent["north"]?.doubleValue ?? 0 >= 46.6, "\(extent)")
        #expect(extent["west"]?.doubleValue ?? 99 <= 6.6301 && extent["east"]?.doubleValue ?? 0 >= 6.7, "\(extent)")
        let sources = try #require(s["bySource"]?.arrayValue)
        #expect(sources.contains { $0["source"]?.stringValue == "osm" })
        let types = try #require(s["byType"]?.arrayValue)
        #expect(types.first { $0["type"]?.stringValue == "cafe" }?["count"] == .int(3), "\(types)")
        let examples = try #require(s["examples"]?.arrayValue)
        #expect(examples.first?["id"]?.stringValue == "bar", "the most rated first: \(examples)")
        #expect(s["footprints"] == .int(4))
        #expect(s["textIndex"] == .bool(true))
        // An import changes it.
        #expect(
            f.cli([
                "import",
                try f.dir.write(
                    "more.ndjson",
                    #"{"id":"new","displayName":{"text":"New"},"location":{"latitude":46.52,"longitude":6.63},"types":["bakery"]}"#
                        + "\n"),
            ]).code == 0)
        let again = try json(router.call("GET", "/map/summary"))
        #expect(again["places"]?.intValue == places + 1)
    }

    @Test(
        "a place's sources and IDs and its OpenStreetMap tags (/map/places/{id}); an old ID answers for the current place"
    )
    func placeExtras() throws {
        let f = try fixture()
        let router = try f.router()
        let street = try json(router.call("GET", "/map/places/osm:w12"))
        #expect(street["id"]?.stringValue == "osm:w12")
        #expect(street["provenance"]?["source"]?.stringValue == "osm")
        #expect(street["extra"]?["osm"]?["tags"]?["highway"]?.stringValue == "residential", "\(street)")
        let old = try json(router.call("GET", "/map/places/old"))
        #expect(old["id"]?.stringValue == "cafe", "\(old)")
    }

    @Test(
        "hostile names (markup, a script, an RTL override, 10,000 characters) come back from the map's routes as JSON strings, the long one cut to 200 characters; the page's bytes never hold them"
    )
    func hostileNamesInData() throws {
        let f = try fixture(more: hostilePlaces)
        let router = try f.router()
        let features = try json(
            router.call(
                "GET", "/map/features",
                query: [("bbox", "6.628,46.519,6.634,46.522"), ("zoom", "18"), ("prettyPrint", "false")]))
        let names = Dictionary(
            uniqueKeysWithValues: (features["features"]?.arrayValue ?? []).compactMap { v -> (String, String)? in
                guard v["properties"]?["layer"]?.stringValue == "point", let id = v["properties"]?["id"]?.stringValue,
                    let n = v["properties"]?["name"]?.stringValue
                else { return nil }
                return (id, n)
            })
        for (i, name) in hostileNames.enumerated() {
            let served = try #require(names["hostile-\(i)"], "\(names.keys.sorted())")
            if name.count > MapFeatureRequest.maxNameCharacters {
                #expect(served == String(name.prefix(MapFeatureRequest.maxNameCharacters)) + "…")
            } else {
                #expect(served == name)
            }
        }
        // As JSON text: no raw markup survives unescaped as markup would need.
        let raw = router.call("GET", "/map/features", query: [("bbox", "6.628,46.519,6.634,46.522"), ("zoom", "18")])
        #expect(raw.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(router.call("GET", "/map/places/hostile-1").jsonValue?["id"]?.stringValue == "hostile-1")
        let page = router.call("GET", "/").text + router.call("GET", "/map/assets/page.js").text
        for name in hostileNames { #expect(!page.contains(name)) }
    }

    @Test(
        "in the browser: a place's details, hours, photo with attribution, sources and tags; hostile names are text; no CSP violation, no error",
        .enabled(
            if: MapPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func placeInBrowser() throws {
        let f = try fixture(more: hostilePlaces)
        let server = try f.server()
        defer { server.stop(timeout: 2) }
        let (dom, log) = try browse("http://127.0.0.1:\(server.port)/#place=cafe", in: f.dir)
        #expect(dom.contains("<h2 id=\"place-name\" dir=\"auto\">Café du Lac</h2>"), "\(dom.prefix(3000))")
        #expect(dom.contains("Monday: 8:00 AM – 6:00 PM"))
        #expect(dom.contains("/placedb/v1/places/cafe/photos/ref-cafe-1/image?maxWidthPx=640"))
        #expect(dom.contains("href=\"https://example.org/a\""))
        #expect(dom.contains("A. Photographer"))
        #expect(dom.contains("Sources and IDs"))
        #expect(dom.contains("class=\"leaflet-container"), "Leaflet drew the map")
        #expect(!log.contains("Content Security Policy") && !log.contains("Refused to"), "\(log)")
        #expect(!log.contains("Uncaught"), "\(log)")
        for i in 0..<2 {
            let (dom, log) = try browse("http://127.0.0.1:\(server.port)/#place=hostile-\(i)", in: f.dir)
            let heading = try #require(dom.range(of: "<h2 id=\"place-name\" dir=\"auto\">")).upperBound
            let end = try #require(dom[heading...].range(of: "</h2>")).lowerBound
            let escaped = hostileNames[i].replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                of: "<", with: "&lt;"
            ).replacingOccurrences(of: ">", with: "&gt;")
            #expect(String(dom[heading..<end]) == escaped, "\(dom[heading..<end])")
            #expect(!dom.contains("<script>window.__pwned") && !dom.contains("<img src=\"x\""))
            #expect(!log.contains("Uncaught"), "\(log)")
        }
    }

    @Test(
        "a javascript: attribution URI (stored by an older import) is shown as text, never a link",
        .enabled(
            if: MapPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func javascriptAttributionIsText() throws {
        let f = try ServerFixture()
        // As an older import (before import refused such URIs) left it.
        do {
            let db = try Database(path: f.db, mode: .readWrite)
            try db.execute(
                #"UPDATE place SET doc = replace(doc, 'https://example.org/a', 'javascript:document.title=`pwned`') WHERE place_id = 'cafe'"#
            )
            #expect(try db.scalar("SELECT count(*) FROM place WHERE doc LIKE '%javascript:%'")?.int == 1)
        }
        let server = try f.server()
        defer { server.stop(timeout: 2) }
        let (dom, log) = try browse("http://127.0.0.1:\(server.port)/#place=cafe", in: f.dir)
        #expect(dom.contains("A. Photographer"), "\(dom.prefix(3000))")
        #expect(!dom.contains("href=\"javascript:"))
        #expect(!dom.contains("<title>pwned</title>"))
        let caption = try #require(dom.range(of: "class=\"attribution\"")).upperBound
        let captionEnd = try #require(dom[caption...].range(of: "</figcaption>")).lowerBound
        #expect(dom[caption..<captionEnd] == ">Photo: <bdi>A. Photographer</bdi>", "\(dom[caption..<captionEnd])")
        #expect(!log.contains("Content Security Policy") && !log.contains("Refused to"), "\(log)")
    }

    @Test(
        "a database removed while served: the page says so in one line (health's reason), without the file's path",
        .enabled(
            if: MapPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func removedDatabaseBanner() throws {
        let f = try ServerFixture()
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 1
        config.quiet = true
        let server = try HTTPServer(
            router: PlacesRouter(
                backend: ServerBackend(databasePath: f.db, connections: 1, checkInterval: 0), configuration: config),
            configuration: config)
        defer { server.stop(timeout: 2) }
        try FileManager.default.removeItem(atPath: f.db)
        let (dom, _) = try browse("http://127.0.0.1:\(server.port)/", in: f.dir)
        let start = try #require(
            dom.range(of: "<p id=\"banner\" class=\"banner\" role=\"alert\">"), "\(dom.prefix(2000))"
        ).upperBound
        let banner = String(dom[start..<(try #require(dom[start...].range(of: "</p>")).lowerBound)])
        #expect(banner.contains("removed"), "\(banner)")
        #expect(!banner.contains(f.db) && !banner.contains("\n"), "\(banner)")
    }
}
