import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport
import SQLiteDB

/// The page at GET /, driven by a real headless browser (Debian's chromium).
@Suite("placedb serve: the page at /", .serialized)
struct ExplorerPageTests {
    static var chromium: String? {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            if let r = try? Tool.run("sh", ["-c", "command -v \(name)"]), r.status == 0 { return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        return nil
    }

    /// The DOM after the page's scripts ran.
    func dom(_ url: String, in dir: TempDirectory) throws -> String {
        try browse(url, in: dir).dom
    }

    /// The DOM after the page's scripts ran, and the browser's log
    /// (console messages, among them Content-Security-Policy violations).
    func browse(_ url: String, in dir: TempDirectory) throws -> (dom: String, log: String) {
        let browser = try #require(Self.chromium)
        let r = try Tool.run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(dir.file("chromium-profile"))",
                                       "--enable-logging=stderr", "--v=0", "--virtual-time-budget=15000", "--dump-dom", url])
        return (r.stdout, r.stderr)
    }

    /// A server on an ephemeral port for the fixture's database.
    func serve(_ f: ServerFixture) throws -> HTTPServer {
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        config.quiet = true
        return try HTTPServer(router: PlacesRouter(backend: ServerBackend(databasePath: f.db, connections: 2), configuration: config), configuration: config)
    }

    @Test("the page is served with a strict Content-Security-Policy (no inline script or style but its own, by hash), nosniff and no referrer")
    func securityHeaders() throws {
        let f = try ServerFixture()
        let page = try f.router().call("GET", "/")
        #expect(page.status == 200)
        let csp = try #require(page.header("Content-Security-Policy"))
        let directives = Dictionary(csp.split(separator: ";").map { d -> (String, String) in
            let parts = d.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }, uniquingKeysWith: { a, _ in a })
        #expect(directives["default-src"] == "'none'")
        #expect(directives["script-src"]?.hasPrefix("'sha256-") == true, "\(csp)")
        #expect(directives["style-src"]?.hasPrefix("'sha256-") == true, "\(csp)")
        #expect(directives["img-src"] == "'self' data:")
        #expect(directives["connect-src"] == "'self'")
        #expect(directives["base-uri"] == "'none'")
        #expect(directives["form-action"] == "'none'")
        #expect(directives["frame-ancestors"] == "'none'")
        #expect(!csp.contains("unsafe"), "\(csp)")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        // The hashes are those of the page's one script and one style element.
        let html = page.text
        #expect(html.components(separatedBy: "<script").count == 2 && html.components(separatedBy: "<style").count == 2)
        #expect(!html.contains(" onclick=") && !html.contains(" onload=") && !html.contains("javascript:"))
    }

    @Test("a javascript: attribution URI (stored by an older import) is shown as text, never a link; the page runs with no CSP violation",
          .enabled(if: ExplorerPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func javascriptAttributionIsText() throws {
        let f = try ServerFixture()
        // Stored as an older import (before import refused such URIs) left it.
        do {
            let db = try Database(path: f.db, mode: .readWrite)
            try db.execute(#"UPDATE place SET doc = replace(doc, 'https://example.org/a', 'javascript:document.title=`pwned`') WHERE place_id = 'cafe'"#)
            #expect(try db.scalar("SELECT count(*) FROM place WHERE doc LIKE '%javascript:%'")?.int == 1)
        }
        let served = try f.router().call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "photos"])
        #expect(served.text.contains("javascript:document.title"), "the page gets the URI: \(served.text)")
        let server = try serve(f)
        defer { server.stop(timeout: 2) }
        let (dom, log) = try browse("http://127.0.0.1:\(server.port)/#place=cafe&fix=46.5201,6.6301&accuracy=15", in: f.dir)
        #expect(dom.contains("<h2 id=\"place-name\">Café du Lac</h2>"), "\(dom.prefix(3000))")
        #expect(dom.contains("A. Photographer"), "the author is named")
        #expect(!dom.contains("href=\"javascript:"), "\(dom)")
        #expect(!dom.contains("<title>pwned</title>"))
        let caption = try #require(dom.range(of: "class=\"attribution\"")).upperBound
        let captionEnd = try #require(dom[caption...].range(of: "</figcaption>")).lowerBound
        #expect(dom[caption..<captionEnd] == ">Photo: <span>A. Photographer</span>", "\(dom[caption..<captionEnd])")
        #expect(!log.contains("Content Security Policy") && !log.contains("Refused to"), "\(log)")
    }

    @Test("the page's script and style run under its policy: no CSP violation while it shows a place, its neighbours and the current place",
          .enabled(if: ExplorerPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func noPolicyViolations() throws {
        let f = try ServerFixture()
        let server = try serve(f)
        defer { server.stop(timeout: 2) }
        let (dom, log) = try browse("http://127.0.0.1:\(server.port)/#place=cafe&fix=46.5201,6.6301&accuracy=15", in: f.dir)
        #expect(dom.contains("class=\"accuracy-circle\""), "\(dom.prefix(3000))")
        #expect(dom.contains("href=\"https://example.org/a\""), "an https attribution is still a link")
        #expect(!log.contains("Content Security Policy") && !log.contains("Refused to"), "\(log)")
        #expect(!log.contains("Uncaught"), "\(log)")
    }

    @Test("shows a place's details, its photo with the author's attribution (a photo without a local image by name, no broken image), its neighbours and the current place picture",
          .enabled(if: ExplorerPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func placePage() throws {
        // A second photo the café lists, whose image is not in the database.
        let f = try ServerFixture(places: serverPlaces.replacingOccurrences(
            of: #""photos":[{"name":"places/cafe/photos/ref-cafe-1""#,
            with: #""photos":[{"name":"places/cafe/photos/ref-cafe-2-without-image"},{"name":"places/cafe/photos/ref-cafe-1""#))
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        config.quiet = true
        let server = try HTTPServer(router: PlacesRouter(backend: ServerBackend(databasePath: f.db, connections: 2), configuration: config), configuration: config)
        defer { server.stop(timeout: 2) }
        let page = try Curl.run(["http://127.0.0.1:\(server.port)/"], in: f.dir)
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=UTF-8")
        // No outside assets: nothing is loaded from another origin.
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("//cdn"))

        let dom = try dom("http://127.0.0.1:\(server.port)/#place=cafe&fix=46.5201,6.6301&accuracy=15", in: f.dir)
        #expect(dom.contains("<h2 id=\"place-name\">Café du Lac</h2>"), "\(dom.prefix(3000))")
        #expect(dom.contains("cafe, food"))
        // The photo, served by placedb, with its author's attribution.
        #expect(dom.contains("/placedb/v1/places/cafe/photos/ref-cafe-1/image?maxWidthPx=400"))
        #expect(dom.contains("A. Photographer"))
        #expect(dom.contains("href=\"https://example.org/a\""))
        // The photo without an image: its name, no <img> (media answers 404).
        #expect(dom.contains("no local image: ref-cafe-2-without-ima"))
        #expect(!dom.contains("photos/ref-cafe-2-without-image/image"))
        // Nearby, with distances.
        let nearby = try #require(dom.range(of: "id=\"nearby-list\"")).upperBound
        #expect(dom[nearby...].contains("Parc"))
        // The current place: the --svg picture and the likelihoods.
        #expect(dom.contains("class=\"accuracy-circle\""))
        #expect(dom.contains("none of these:"))
    }

    @Test("search by name lists what searchText finds",
          .enabled(if: ExplorerPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func searchByName() throws {
        let f = try ServerFixture()
        var config = ServerConfiguration()
        config.port = 0
        config.quiet = true
        let server = try HTTPServer(router: PlacesRouter(backend: ServerBackend(databasePath: f.db, connections: 1), configuration: config), configuration: config)
        defer { server.stop(timeout: 2) }
        let dom = try dom("http://127.0.0.1:\(server.port)/#q=cafe%20du%20lac", in: f.dir)
        #expect(dom.contains("#place=cafe"), "\(dom.prefix(3000))")
        #expect(!dom.contains("<li class=\"error\">"), "\(dom.prefix(3000))")
    }
}
