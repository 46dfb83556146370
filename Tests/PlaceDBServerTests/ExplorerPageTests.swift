import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

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
        let browser = try #require(Self.chromium)
        let r = try Tool.run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(dir.file("chromium-profile"))",
                                       "--virtual-time-budget=15000", "--dump-dom", url])
        return r.stdout
    }

    @Test("shows a place's details, its photo with the author's attribution, its neighbours and the current place picture",
          .enabled(if: ExplorerPageTests.chromium != nil, "needs chromium (apt-get install chromium; Scripts/setup installs it)"))
    func placePage() throws {
        let f = try ServerFixture()
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
