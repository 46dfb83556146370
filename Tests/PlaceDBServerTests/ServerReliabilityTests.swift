import Foundation
import Synchronization
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// The findings of the adversarial probe of issue 29 that concern
/// `placedb serve`, one test (or more) each. Nothing here measures a
/// duration: what is checked is what happened before what, with limits
/// far from the machine's speed.
@Suite("placedb serve: clients that misbehave")
struct ServerReliabilityTests {
    func start(_ f: ServerFixture, log: LogLines? = nil, _ configure: (inout ServerConfiguration) -> Void = { _ in })
        throws -> HTTPServer
    {
        try f.server(log: log, configure)
    }

    // MARK: - Slow and half-open clients (finding 3)

    @Test("a client that sends a byte every 100 ms is cut at the request deadline, though it is never idle")
    func slowlorisMeetsTheRequestDeadline() throws {
        let f = try ServerFixture()
        let server = try start(f) {
            $0.connectionTimeout = 60
            $0.requestTimeout = 1
        }
        defer { server.stop(timeout: 1) }
        let s = try RawClient.connect(port: server.port)
        defer { close(s) }
        // 600 bytes of headers at 10 a second would take a minute; the
        // idle timeout (60 s) never fires, so only a deadline ends it.
        let request = Array(
            ("GET /v1/places/cafe HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + String(repeating: "a", count: 550)
                + "\r\n\r\n").utf8)
        var sent = 0
        for byte in request {
            if RawClient.send(s, [byte]) != 1 { break }
            sent += 1
            if RawClient.isClosedByPeer(s, waitingMilliseconds: 100) { break }
        }
        #expect(sent < request.count, "the whole slow request was accepted: the server never cut it")
        #expect(RawClient.isClosedByPeer(s, within: 5))
    }

    @Test("a partial request whose client closed its side is closed at once, not held for the timeout")
    func halfClosedPartialRequest() throws {
        let f = try ServerFixture()
        let server = try start(f) {
            $0.connectionTimeout = 120
            $0.requestTimeout = 120
        }
        defer { server.stop(timeout: 1) }
        let s = try RawClient.connect(port: server.port)
        defer { close(s) }
        #expect(RawClient.send(s, Array("GET /v1/pl".utf8)) == 10)
        shutdown(s, Int32(SHUT_WR))
        // Both timeouts are 120 s: a close within 10 s is the sweep's.
        #expect(RawClient.isClosedByPeer(s, within: 10))
        for _ in 0..<500 where server.openConnections > 0 { usleep(10_000) }
        #expect(server.openConnections == 0)
    }

    @Test("a complete request sent before the client closes its side is still answered")
    func halfClosedCompleteRequest() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        let s = try RawClient.connect(port: server.port)
        defer { close(s) }
        _ = RawClient.send(s, Array("GET /v1/places/cafe?fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        shutdown(s, Int32(SHUT_WR))
        #expect(RawClient.readAll(s).hasPrefix("HTTP/1.1 200"))
    }

    /// Before: at --max-connections open, every new connection was closed
    /// at once, so clients holding connections locked everyone else out.
    @Test("at the connection cap, the connection waiting longest (over a second) is closed for the new one")
    func capClosesTheLongestWaiting() throws {
        let f = try ServerFixture()
        let server = try start(f) {
            $0.maxConnections = 4
            $0.maxConnectionsPerClient = 5
            $0.connectionTimeout = 120
        }
        defer { server.stop(timeout: 1) }
        var slow: [Int32] = []
        defer { for s in slow { close(s) } }
        for _ in 0..<4 {
            let s = try RawClient.connect(port: server.port)
            _ = RawClient.send(s, Array("GET /v1/pl".utf8))
            slow.append(s)
        }
        for _ in 0..<500 where server.openConnections < 4 { usleep(10_000) }
        #expect(server.openConnections == 4)
        // Past the eviction age and a sweep, a newcomer is served.
        usleep(1_600_000)
        let newcomer = try RawClient.connect(port: server.port)
        defer { close(newcomer) }
        #expect(
            RawClient.send(newcomer, Array("GET /v1/places/cafe?fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                > 0)
        #expect(RawClient.readAll(newcomer).hasPrefix("HTTP/1.1 200"))
        #expect(slow.filter { RawClient.isClosedByPeer($0, within: 5) }.count == 1)
    }

    /// Before: at the cap, a new connection went to the loop whose
    /// longest-waiting connection was the earliest as of the last sweep
    /// (every 250 ms), so a burst of new connections (wrk's 64 at once)
    /// all went to one loop while the other idled: wrk with slow clients
    /// at the cap got 52-89% of its requests/s alone.
    @Test(
        "at the connection cap, new connections still go to the event loops in turn; one waiting connection closed for each"
    )
    func capSpreadsNewConnections() throws {
        let threads = Mutex<Set<UInt>>([])
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        config.quiet = true
        config.maxConnections = 8
        config.maxConnectionsPerClient = 16
        config.connectionTimeout = 120
        let server = try HTTPServer(configuration: config) { _ in
            let me = UInt(pthread_self())
            threads.withLock { _ = $0.insert(me) }
            return .json(Array("{}".utf8))
        }
        defer { server.stop(timeout: 1) }
        var slow: [Int32] = []
        defer { for s in slow { close(s) } }
        for _ in 0..<8 {
            let s = try RawClient.connect(port: server.port)
            _ = RawClient.send(s, Array("GET /sl".utf8))
            slow.append(s)
        }
        for _ in 0..<500 where server.openConnections < 8 { usleep(10_000) }
        #expect(server.connectionsPerLoop == [4, 4])
        // Past the eviction age and a sweep, four newcomers at once.
        usleep(1_600_000)
        var newcomers: [Int32] = []
        defer { for s in newcomers { close(s) } }
        for _ in 0..<4 { newcomers.append(try RawClient.connect(port: server.port)) }
        for s in newcomers {
            _ = RawClient.send(s, Array("GET /new HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(RawClient.readAll(s).hasPrefix("HTTP/1.1 200"))
        }
        #expect(threads.withLock { $0.count } == 2, "the newcomers were all answered by one event loop")
        let closed = { slow.filter { RawClient.isClosedByPeer($0, waitingMilliseconds: 0) }.count }
        for _ in 0..<500 where closed() < 4 || server.openConnections > 8 { usleep(10_000) }
        #expect(closed() == 4)
        #expect(server.openConnections == 8)
    }

    @Test("one client address holds at most --max-connections-per-client; another address is still served")
    func capPerClientAddress() throws {
        let f = try ServerFixture()
        let server = try start(f) {
            $0.maxConnections = 100
            $0.maxConnectionsPerClient = 3
        }
        defer { server.stop(timeout: 1) }
        var held: [Int32] = []
        defer { for s in held { close(s) } }
        for _ in 0..<3 { held.append(try RawClient.connect(port: server.port)) }
        for _ in 0..<500 where server.openConnections < 3 { usleep(10_000) }
        let fourth = try RawClient.connect(port: server.port)
        defer { close(fourth) }
        #expect(RawClient.isClosedByPeer(fourth, within: 5))
        let other = try RawClient.connect(port: server.port, from: "127.0.0.2")
        defer { close(other) }
        _ = RawClient.send(other, Array("GET /v1/places/cafe?fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(RawClient.readAll(other).hasPrefix("HTTP/1.1 200"))
        // Closing one frees its place.
        close(held.removeLast())
        for _ in 0..<500 where server.openConnections > 3 { usleep(10_000) }
        let again = try RawClient.connect(port: server.port)
        defer { close(again) }
        _ = RawClient.send(again, Array("GET /v1/places/cafe?fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(RawClient.readAll(again).hasPrefix("HTTP/1.1 200"))
    }

    @Test("the default per-client cap is half the connection cap", arguments: [(1000, 500), (4, 2), (1, 1), (5, 3)])
    func defaultPerClientCap(total: UInt32, perClient: UInt32) {
        var c = ServerConfiguration()
        c.maxConnections = total
        #expect(c.effectiveMaxConnectionsPerClient == perClient)
        c.maxConnectionsPerClient = 7
        #expect(c.effectiveMaxConnectionsPerClient == 7)
    }

    // MARK: - A request that holds its loop; stopping (finding 1)

    /// Before: stop() waited for the loops' threads (MHD_stop_daemon joins
    /// them), so a request that never ended kept SIGTERM from stopping
    /// the server.
    @Test(
        "stop() returns by its deadline while a request still holds an event loop, and the other loop keeps serving until then"
    )
    func stopWhileARequestHoldsALoop() throws {
        let release = Atomic<Bool>(false)
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        config.quiet = true
        let server = try HTTPServer(configuration: config) { request in
            if request.path == "/hold" {
                for _ in 0..<6000 where !release.load(ordering: .relaxed) { usleep(10_000) }
            }
            return .json(Array("{}".utf8))
        }
        let held = try RawClient.connect(port: server.port)
        defer { close(held) }
        _ = RawClient.send(held, Array("GET /hold HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        for _ in 0..<500 where server.inFlight == 0 { usleep(10_000) }
        #expect(server.inFlight == 1)
        // The other loop still answers (connections go to the loops in turn).
        var answered = 0
        for _ in 0..<4 {
            let s = try RawClient.connect(port: server.port)
            var timeout = timeval(tv_sec: 0, tv_usec: 500_000)
            setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = RawClient.send(s, Array("GET /other HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            var byte: UInt8 = 0
            if recv(s, &byte, 1, 0) == 1 { answered += 1 }
            close(s)
        }
        #expect(answered >= 2)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop(timeout: 1)
            stopped.signal()
        }
        // The request holds its loop for up to 60 s: stop must not wait for it.
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        release.store(true, ordering: .relaxed)
    }

    // MARK: - 128 connections on one loop (finding 4)

    static var wrkMissing: Bool { ServerLoadTests.wrkMissing }

    /// libmicrohttpd 0.9.75's own epoll loop stalled with exactly 128
    /// busy connections on a loop (it waited again, with its blocking
    /// timeout, after a full batch of 128 events): `-c128` on one thread
    /// got 0 requests in 2 s, `-c127` about 30,000.
    @Test(
        "no connection count from 1 to 512 stalls an event loop (wrk, 1 s each, 1 and 2 threads)",
        .enabled(if: !ServerReliabilityTests.wrkMissing, "needs wrk (apt-get install wrk; Scripts/setup installs it)"))
    func noStallAtAnyConnectionCount() throws {
        let f = try ServerFixture()
        for threads in [1, 2] {
            let server = try start(f) {
                $0.threads = threads
                $0.quiet = true
                $0.maxConnectionsPerClient = 1000
            }
            defer { server.stop(timeout: 1) }
            var counts: [(connections: Int, requests: Int, output: String)] = []
            for c in [1, 2, 64, 127, 128, 129, 255, 256, 257, 384, 512] {
                let r = try Tool.run(
                    "wrk",
                    [
                        "-t\(min(2, c))", "-c\(c)", "-d1s", "--timeout", "5s",
                        "http://127.0.0.1:\(server.port)/placedb/v1/health",
                    ])
                let requests = r.stdout.firstMatch(of: /(\d+) requests in/).flatMap { Int($0.1) } ?? 0
                counts.append((c, requests, r.stdout))
                #expect(!r.stdout.contains("Socket errors"), "\(threads) threads, -c\(c): \(r.stdout)")
                #expect(!r.stdout.contains("Non-2xx"), "\(threads) threads, -c\(c): \(r.stdout)")
            }
            // A stall answers almost nothing where its neighbours answer
            // thousands (0 in 2 s at -c128 on one thread; with 2 threads,
            // -c256 about 1/130 of -c255). One or two connections are bound
            // by the round trip, not the loop: a debug build under the whole
            // suite's load gave -c1 1/6 of the median, hence 1/20 here.
            let median = counts.map(\.requests).sorted()[counts.count / 2]
            for c in counts {
                #expect(
                    c.requests * 20 >= median,
                    "\(threads) threads, -c\(c.connections): \(c.requests) requests against a median of \(median)")
            }
        }
    }

    // MARK: - What the server reads and writes (findings 6, 7, 10, 13, 15)

    @Test(
        "the access log writes the target as sent, control and non-ASCII bytes escaped: no forged line, no terminal escape"
    )
    func accessLogEscapes() throws {
        let f = try ServerFixture()
        let log = LogLines()
        let server = try start(f, log: log)
        defer { server.stop(timeout: 1) }
        let forged = "/v1/places/x%0a127.0.0.1%20GET%20/admin%20200"
        _ = try Curl.run(["-H", "X-Goog-FieldMask: id", "http://127.0.0.1:\(server.port)\(forged)"], in: f.dir)
        let s = try RawClient.connect(port: server.port)
        defer { close(s) }
        _ = RawClient.send(
            s,
            [UInt8]("GET /v1/places/a".utf8) + [0x1B]
                + [UInt8]("[31m\u{202E}b?fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        _ = RawClient.readAll(s)
        for _ in 0..<500 where log.all.count < 2 { usleep(10_000) }
        let lines = log.all
        #expect(lines.count == 2, "\(lines)")
        for line in lines {
            #expect(!line.contains("\n") && !line.contains("\u{1B}") && !line.contains("\u{202E}"), "\(line)")
        }
        #expect(
            lines.contains { $0.hasPrefix("GET \(forged) 400 ") }, "a '/' in a place ID that is no older spelling: 400")
        #expect(lines.contains { $0.hasPrefix("GET /v1/places/a\\x1B[31m\\xE2\\x80\\xAEb?fields=id ") })
    }

    @Test("a NUL in the path or a query argument's name or value is refused with 400, never cut")
    func nulInRequests() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        let base = "http://127.0.0.1:\(server.port)"
        let path = try Curl.run(["-H", "X-Goog-FieldMask: id", "\(base)/v1/places/cafe%00junk"], in: f.dir)
        #expect(path.status == 400)
        #expect(String(decoding: path.body, as: UTF8.self).contains("NUL"))
        let query = try Curl.run(["\(base)/v1/places/cafe?fields=id%00junk"], in: f.dir)
        #expect(query.status == 400)
        // A header value with a percent-encoded NUL is not decoded (headers
        // are not percent-encoded); one decoded from the query is refused.
        let header = try Curl.run(["-H", "X-Goog-FieldMask: id", "\(base)/v1/places/cafe?%00=x"], in: f.dir)
        #expect(header.status == 400)
        // The same place without the NUL is still there.
        #expect(try Curl.run(["-H", "X-Goog-FieldMask: id", "\(base)/v1/places/cafe"], in: f.dir).status == 200)
    }

    @Test("Host: IP literals, localhost, the listening host and --allow-host names are served; other names 403")
    func hostAllowList() throws {
        let f = try ServerFixture()
        let router = try f.router { $0.host = "127.0.0.1" }
        func status(_ host: String) -> Int { router.call("GET", "/placedb/v1/health", headers: ["Host": host]).status }
        for ok in [
            "127.0.0.1:8080", "127.0.0.1", "localhost:8080", "LOCALHOST", "[::1]:8080", "10.1.2.3:80", "localhost.",
        ] {
            #expect(status(ok) == 200, "\(ok)")
        }
        for bad in [
            "evil.example", "evil.example:8080", "127.0.0.1.nip.io:8080", "ex\u{E9}mple.org", "a b", "[::1",
            "localhost:80x", "",
        ] {
            #expect(status(bad) == 403, "\(bad)")
        }
        #expect(router.call("GET", "/placedb/v1/health").status == 200) // no Host (HTTP/1.0)
        #expect(
            router.call("GET", "/placedb/v1/health", headers: ["Host": "evil.example"]).errorStatus
                == "PERMISSION_DENIED")
        let named = try f.router { $0.allowedHosts = ["places.test"] }
        #expect(named.call("GET", "/placedb/v1/health", headers: ["Host": "Places.Test:8080"]).status == 200)
        #expect(named.call("GET", "/placedb/v1/health", headers: ["Host": "other.test"]).status == 403)
        let any = try f.router { $0.allowedHosts = ["*"] }
        #expect(any.call("GET", "/placedb/v1/health", headers: ["Host": "other.test"]).status == 200)
    }

    @Test("serve --allow-host refuses what is not a host name (64)")
    func allowHostOption() throws {
        let f = try ServerFixture()
        let r = f.cli(["serve", "--allow-host", "ex ample", "--listen", "127.0.0.1:0"])
        #expect(r.code == 64)
        #expect(r.err.contains("--allow-host"))
    }

    @Test("photo media without a usable Host names the port the server listens on, IPv6 in brackets")
    func photoURIWithoutHost() throws {
        let f = try ServerFixture()
        let router = try f.router()
        router.listening(host: "127.0.0.1", port: 8123)
        let path = "/v1/places/cafe/photos/ref-cafe-1/media"
        let plain = router.call("GET", path, query: [("maxWidthPx", "10")])
        #expect(plain.header("Location")?.hasPrefix("http://127.0.0.1:8123/placedb/v1/") == true)
        let v6 = try f.router { $0.host = "::1" }
        v6.listening(host: "::1", port: 9)
        #expect(
            v6.call("GET", path, query: [("maxWidthPx", "10")]).header("Location")?.hasPrefix(
                "http://[::1]:9/placedb/v1/") == true)
        let any = try f.router { $0.host = "0.0.0.0" }
        any.listening(host: "0.0.0.0", port: 9)
        #expect(
            any.call("GET", path, query: [("maxWidthPx", "10")]).header("Location")?.hasPrefix(
                "http://127.0.0.1:9/placedb/v1/") == true)
        // Over a socket, an HTTP/1.0 request without Host.
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        let s = try RawClient.connect(port: server.port)
        defer { close(s) }
        _ = RawClient.send(s, Array("GET \(path)?maxWidthPx=10 HTTP/1.0\r\n\r\n".utf8))
        let answer = RawClient.readAll(s)
        #expect(
            answer.contains(
                "Location: http://127.0.0.1:\(server.port)/placedb/v1/places/cafe/photos/ref-cafe-1/image?"),
            "\(answer.prefix(300))")
    }

    @Test(
        "with a key sent as X-Goog-Api-Key, photo media's redirect leads to the image; the link serves that photo only")
    func photoRedirectWithHeaderKey() throws {
        let f = try ServerFixture()
        let router = try f.router { $0.apiKey = "secret" }
        let media = router.call(
            "GET", "/v1/places/cafe/photos/ref-cafe-1/media", query: [("maxWidthPx", "16")],
            headers: ["X-Goog-Api-Key": "secret"])
        #expect(media.status == 302)
        let location = try #require(media.header("Location"))
        #expect(!location.contains("secret"))
        let components = try #require(URLComponents(string: location))
        let query = (components.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let image = router.respond(to: HTTPRequest(method: "GET", path: components.path, query: query, headers: [:]))
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/jpeg")
        // The token does not open another route, and a made-up one opens nothing.
        let token = try #require(query.first { $0.name == "token" }?.value)
        #expect(router.call("GET", "/v1/places/cafe", query: [("token", token), ("fields", "id")]).status == 403)
        #expect(
            router.call(
                "GET", components.path, query: [("maxWidthPx", "16"), ("token", "0123456789abcdef0123456789abcdef")]
            ).status == 403)
        // With ?key=, the key is carried as before.
        let keyed = router.call(
            "GET", "/v1/places/cafe/photos/ref-cafe-1/media", query: [("maxWidthPx", "16"), ("key", "secret")])
        #expect(keyed.header("Location")?.contains("key=secret") == true)
    }

    /// Found by the http fuzz target: the photo route's parser took the
    /// slash before `media` as the end of `/photos/`, and trapped
    /// (a range whose lower bound passed its upper bound).
    @Test("a photo path without a reference (ID/photos/media, ID/photos//image) is 404, not a trap")
    func photoPathWithoutReference() throws {
        let f = try ServerFixture()
        let router = try f.router()
        // Under /v1/places/ they are place IDs with a '/' that is no older
        // spelling of a stored ID: 400 (docs/server.md#place-ids).
        for (path, status) in [
            ("/v1/places/cafe/photos/media", 400), ("/v1/places/cafe/photos//media", 400),
            ("/placedb/v1/places/cafe/photos/image", 404), ("/v1/places//photos/x/media", 400),
        ] {
            #expect(
                router.call("GET", path, query: [("maxWidthPx", "10")], headers: ["X-Goog-FieldMask": "id"]).status
                    == status, "\(path)")
        }
        #expect(PlacesRouter.PhotoPath("cafe/photos/ref/media", suffix: "/media")?.name == "places/cafe/photos/ref")
        #expect(
            PlacesRouter.PhotoPath("a/photos/b/photos/ref/media", suffix: "/media")?.name
                == "places/a%2Fphotos%2Fb/photos/ref",
            "the place ID in placedb's spelling")
    }

    // MARK: - The database file (finding 11)

    @Test("a database replaced under its path is opened anew; a removed one is NOT_SERVING in health")
    func databaseReplacedOrRemoved() throws {
        let f = try ServerFixture()
        var config = ServerConfiguration()
        config.threads = 1
        let router = try PlacesRouter(
            backend: ServerBackend(databasePath: f.db, connections: 1, checkInterval: 0), configuration: config)
        #expect(router.call("GET", "/placedb/v1/health").jsonValue?["placeCount"] == 5)
        // Another database, moved over the served path (a new inode).
        let other = f.dir.file("other.sqlite")
        let r = f.cli([
            "import",
            try f.dir.write(
                "one.ndjson",
                #"{"id":"solo","displayName":{"text":"Solo"},"location":{"latitude":1,"longitude":2},"types":["cafe"]}"#
                    + "\n"), "--db", other,
        ])
        #expect(r.code == 0, "\(r.err)")
        #expect(rename(other, f.db) == 0)
        for suffix in ["-wal", "-shm"] { unlink(f.db + suffix) }
        let health = router.call("GET", "/placedb/v1/health")
        #expect(health.status == 200)
        #expect(health.jsonValue?["placeCount"] == 1)
        #expect(router.call("GET", "/v1/places/solo", headers: ["X-Goog-FieldMask": "id"]).status == 200)
        #expect(router.call("GET", "/v1/places/cafe", headers: ["X-Goog-FieldMask": "id"]).status == 404)
        // Removed: health says so; answers still come from the open file.
        #expect(unlink(f.db) == 0)
        let gone = router.call("GET", "/placedb/v1/health")
        #expect(gone.status == 503)
        #expect(gone.jsonValue?["status"] == "NOT_SERVING")
        #expect(gone.jsonValue?["reason"]?.stringValue?.contains("removed") == true)
        #expect(router.call("GET", "/v1/places/solo", headers: ["X-Goog-FieldMask": "id"]).status == 200)
    }

    // MARK: - Field masks (finding 14)

    @Test(
        "autocomplete mask paths must name members of the response",
        arguments: [
            ("suggestions.placePrediction.placeId", 200), ("suggestions.placePrediction.text.text", 200),
            ("suggestions.*", 200),
            ("suggestions.placePrediction.structuredFormat.mainText.matches.endOffset", 200),
            ("suggestions.queryPrediction.text", 200),
            ("suggestions.placePrediction.nope", 400), ("suggestions.placePrediction.placeId.x", 400),
            ("suggestionsx", 400), ("suggestions..placeId", 400),
        ])
    func autocompleteMasks(mask: String, status: Int) throws {
        let f = try ServerFixture()
        let router = try f.router()
        let r = router.call(
            "POST", "/v1/places:autocomplete", headers: ["X-Goog-FieldMask": mask], body: #"{"input": "caf"}"#)
        #expect(r.status == status, "\(mask): \(r.text)")
    }
}

extension RawClient {
    /// A connection from a given loopback address (127.0.0.0/8 is all this machine's).
    static func connect(port: UInt16, from source: String) throws -> Int32 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let rc =
            bound != 0
            ? bound
            : withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        if rc != 0 {
            close(s)
            throw ServerError("connect from \(source) failed: \(String(cString: strerror(errno)))")
        }
        return s
    }

    /// True when a read returns end of file (or a reset) within `waitingMilliseconds`.
    static func isClosedByPeer(_ s: Int32, waitingMilliseconds ms: Int) -> Bool {
        var p = pollfd(fd: s, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(ms)) == 1 else { return false }
        var byte: UInt8 = 0
        let n = recv(s, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }
}
