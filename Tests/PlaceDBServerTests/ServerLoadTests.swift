import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

/// wrk on loopback, bounded in time (figures are Scripts/bench-serve's; here
/// only correctness under load), and imports while serving.
@Suite("placedb serve: load and imports while serving", .serialized)
struct ServerLoadTests {
    static var wrkMissing: Bool { (try? Tool.run("sh", ["-c", "command -v wrk"]))?.status != 0 }

    func start(_ f: ServerFixture) throws -> HTTPServer {
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        config.quiet = true
        let router = try PlacesRouter(backend: ServerBackend(databasePath: f.db, connections: 2), configuration: config)
        return try HTTPServer(router: router, configuration: config)
    }

    /// wrk's summary: requests, non-2xx answers, socket errors.
    func wrk(_ args: [String]) throws -> (requests: Int, non2xx: Int, socketErrors: String?, output: String) {
        let r = try Tool.run("wrk", args)
        let text = r.stdout
        let requests = text.firstMatch(of: /(\d+) requests in/).flatMap { Int($0.1) } ?? 0
        let non2xx = text.firstMatch(of: /Non-2xx or 3xx responses: (\d+)/).flatMap { Int($0.1) } ?? 0
        let socket = text.firstMatch(of: /Socket errors: (.*)/).map { String($0.1) }
        return (requests, non2xx, socket, text)
    }

    @Test(
        "64 connections for 2 s of Place Details and searchNearby: every answer 200, no socket error",
        .enabled(if: !ServerLoadTests.wrkMissing, "needs wrk (apt-get install wrk; Scripts/setup installs it)"))
    func wrkLoad() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 2) }
        let details = try wrk([
            "-t1", "-c64", "-d2s", "--timeout", "5s", "-H", "X-Goog-FieldMask: *",
            "http://127.0.0.1:\(server.port)/v1/places/cafe",
        ])
        #expect(details.requests > 100, "\(details.output)")
        #expect(details.non2xx == 0, "\(details.output)")
        #expect(details.socketErrors == nil, "\(details.output)")
        let script = try f.dir.write(
            "nearby.lua",
            """
            wrk.method = "POST"
            wrk.body = '\(PlacesRouterTests.nearbyBody)'
            wrk.headers["X-Goog-FieldMask"] = "places.id,places.displayName"
            """)
        let nearby = try wrk([
            "-t1", "-c64", "-d2s", "--timeout", "5s", "-s", script,
            "http://127.0.0.1:\(server.port)/v1/places:searchNearby",
        ])
        #expect(nearby.requests > 100, "\(nearby.output)")
        #expect(nearby.non2xx == 0, "\(nearby.output)")
        #expect(nearby.socketErrors == nil, "\(nearby.output)")
    }

    @Test("an import into the served database is seen by the next request")
    func importWhileServing() throws {
        let f = try ServerFixture()
        let router = try f.router()
        let h = ["X-Goog-FieldMask": "id,displayName"]
        #expect(router.call("GET", "/v1/places/newcomer", headers: h).status == 404)
        // Warm every pooled connection (and the nearby path) before the import.
        for _ in 0..<4 {
            _ = router.call(
                "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "places.id"],
                body: PlacesRouterTests.nearbyBody)
        }
        let r = f.cli([
            "import",
            try f.dir.write(
                "more.ndjson",
                #"{"id":"newcomer","displayName":{"text":"Newcomer"},"location":{"latitude":46.52,"longitude":6.63},"types":["cafe"]}"#
                    + "\n"),
        ])
        #expect(r.code == 0, "\(r.err)")
        for _ in 0..<2 {
            let details = router.call("GET", "/v1/places/newcomer", headers: h)
            #expect(details.status == 200)
            #expect(details.jsonValue?["displayName"]?["text"] == "Newcomer")
            let nearby = router.call(
                "POST", "/v1/places:searchNearby", headers: ["X-Goog-FieldMask": "places.id"],
                body: PlacesRouterTests.nearbyBody)
            #expect(nearby.jsonValue?["places"]?.arrayValue?.first?["id"] == "newcomer")
        }
        #expect(router.call("GET", "/placedb/v1/health").jsonValue?["placeCount"] == 6)
    }

    @Test("the server opens the database read-only: a request never changes it")
    func readOnly() throws {
        let f = try ServerFixture()
        func files() -> [Data?] { [f.db, f.db + "-wal"].map { FileManager.default.contents(atPath: $0) } }
        let before = files()
        let router = try f.router()
        #expect(router.call("GET", "/v1/places/old", headers: ["X-Goog-FieldMask": "*"]).status == 200)
        #expect(router.call("POST", "/placedb/v1/places:resolve", body: #"{"placeIds":["old","x"]}"#).status == 200)
        #expect(
            router.call("GET", "/placedb/v1/places/cafe/photos/ref-cafe-1/image", query: [("maxWidthPx", "8")]).status
                == 200)
        // SQLite's WAL readers may leave an empty -wal file; nothing is written.
        let after = files()
        #expect(after[0] == before[0])
        #expect((after[1] ?? Data()).isEmpty && (before[1] ?? Data()).isEmpty)
    }
}
