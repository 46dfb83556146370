import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// The server over loopback: libmicrohttpd in front of the router.
@Suite("placedb serve: HTTP")
struct HTTPServerTests {
    func start(_ f: ServerFixture, log: LogLines? = nil, _ configure: (inout ServerConfiguration) -> Void = { _ in })
        throws -> HTTPServer
    {
        try f.server(log: log, configure)
    }

    @Test("answers Place Details and searchNearby over a socket, and logs one line per request")
    func overSocket() throws {
        let f = try ServerFixture()
        let log = LogLines()
        let server = try start(f, log: log)
        defer { server.stop(timeout: 1) }
        let base = "http://127.0.0.1:\(server.port)"
        let details = try Curl.run(["-H", "X-Goog-FieldMask: id,displayName", "\(base)/v1/places/cafe"], in: f.dir)
        #expect(details.status == 200)
        #expect(
            String(decoding: details.body, as: UTF8.self)
                == f.cli(["place", "cafe", "--fields", "id,displayName", "--output", "json"]).out)
        let nearby = try Curl.run(
            [
                "-H", "X-Goog-FieldMask: places.id", "-H", "Content-Type: application/json",
                "--data-binary", PlacesRouterTests.nearbyBody, "\(base)/v1/places:searchNearby",
            ], in: f.dir)
        #expect(nearby.status == 200)
        #expect(
            String(decoding: nearby.body, as: UTF8.self)
                == f.cli(["nearby", "46.52,6.63", "--radius", "500", "--fields", "id", "--output", "json"]).out)
        let missing = try Curl.run(["-H", "X-Goog-FieldMask: id", "\(base)/v1/places/nowhere"], in: f.dir)
        #expect(missing.status == 404)
        // Percent-encoded IDs are decoded (an OpenStreetMap ID has a slash).
        let encoded = try Curl.run(["-H", "X-Goog-FieldMask: id", "\(base)/v1/places/ca%66e"], in: f.dir)
        #expect(encoded.status == 200)
        // Logged when each request completes.
        for _ in 0..<100 where log.all.count < 4 { usleep(10_000) }
        let lines = log.all
        #expect(lines.count == 4)
        let first = try #require(lines.first).split(separator: " ")
        #expect(first.count == 5)
        #expect(first.prefix(3) == ["GET", "/v1/places/cafe", "200"])
        #expect(Int(first[3]) == details.body.count)
        #expect(first[4].hasSuffix("us") && Int(first[4].dropLast(2)) != nil)
        #expect(lines[1].hasPrefix("POST /v1/places:searchNearby 200 "))
        #expect(lines[2].hasPrefix("GET /v1/places/nowhere 404 "))
    }

    @Test("a photo's 302 leads to the image placedb serves, the bytes 'photo fetch' writes")
    func photoRedirect() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        let out = try Curl.run(
            ["-L", "http://127.0.0.1:\(server.port)/v1/places/cafe/photos/ref-cafe-1/media?maxWidthPx=16"], in: f.dir)
        #expect(out.status == 200)
        #expect(out.body == f.cli(["photo", "fetch", "ref-cafe-1", "--max-width", "16", "-o", "-"]).bytes)
        #expect(out.body.count > 100)
    }

    @Test("a body over 1 MiB is answered 413, whether its length is announced or chunked")
    func bodyLimit() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        let big = try f.dir.write("big.json", String(repeating: " ", count: (1 << 20) + 1))
        let url = "http://127.0.0.1:\(server.port)/v1/places:searchNearby"
        let announced = try Curl.run(["-H", "X-Goog-FieldMask: *", "--data-binary", "@\(big)", url], in: f.dir)
        #expect(announced.status == 413)
        #expect((try? JSONValue(parsing: announced.body))?["error"]?["code"] == 413)
        let chunked = try Curl.run(
            ["-H", "X-Goog-FieldMask: *", "-H", "Transfer-Encoding: chunked", "--data-binary", "@\(big)", url],
            in: f.dir)
        #expect(chunked.status == 413)
        // Just under the limit is read (and is not JSON).
        let fits = try f.dir.write("fits.json", String(repeating: " ", count: (1 << 20) - 2) + "{}")
        #expect(try Curl.run(["-H", "X-Goog-FieldMask: *", "--data-binary", "@\(fits)", url], in: f.dir).status == 400)
    }

    @Test("headers larger than the limit are refused with a 4xx, never a crash; 8 KiB of headers are read")
    func headerLimit() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        let url = "http://127.0.0.1:\(server.port)/v1/places/cafe"
        for size in [20_000, 40_000] {
            let r = try Curl.run(
                ["-H", "X-Goog-FieldMask: id", "-H", "X-Junk: \(String(repeating: "a", count: size))", url], in: f.dir)
            #expect((400..<500).contains(r.status), "\(size) bytes of headers: \(r.status)")
        }
        #expect(try Curl.run(["-H", "X-Goog-FieldMask: id", url], in: f.dir).status == 200)
        // A long mask (every field of the API, several times over) and 8 KiB
        // of headers in all are well within the limit.
        let longMask = Array(
            repeating: "id,displayName,formattedAddress,location,types,primaryType,rating,userRatingCount", count: 60
        ).joined(separator: ",")
        let junk = String(repeating: "b", count: 8 * 1024 - longMask.utf8.count - 200)
        let fits = try Curl.run(["-H", "X-Goog-FieldMask: \(longMask)", "-H", "X-Junk: \(junk)", url], in: f.dir)
        #expect(fits.status == 200)
    }

    /// What is checked is the order of events, never a duration: a normal
    /// request gets its whole answer while every slow client still holds
    /// its connection halfway through a request. A server whose slow
    /// clients held its workers would answer only once they were dropped
    /// (the timeout here is far longer than the test), or refuse the
    /// normal client; a slow machine only makes the test slower.
    @Test("many slow clients (a byte at a time) holding connections do not keep other clients waiting")
    func slowClientsDoNotBlock() throws {
        let f = try ServerFixture()
        let server = try start(f) { $0.connectionTimeout = 120 }
        defer { server.stop(timeout: 1) }
        let expected = f.cli(["place", "cafe", "--fields", "id", "--output", "json"]).out
        // 200 connections, each sending its request line a byte at a time.
        var sockets: [Int32] = []
        defer { for s in sockets { close(s) } }
        for _ in 0..<200 { sockets.append(try RawClient.connect(port: server.port)) }
        let line = Array("GET /v1/places/cafe HTTP/1.1\r\n".utf8)
        for i in 0..<3 {
            for s in sockets { #expect(RawClient.send(s, [line[i]]) == 1) }
            let r = try Curl.run(
                ["-H", "X-Goog-FieldMask: id", "http://127.0.0.1:\(server.port)/v1/places/cafe"], in: f.dir)
            #expect(r.status == 200)
            #expect(String(decoding: r.body, as: UTF8.self) == expected)
            // Answered while the slow clients were all still connected.
            let open = sockets.filter { RawClient.isOpen($0) }.count
            #expect(
                open == sockets.count,
                "only \(open) of \(sockets.count) slow clients still connected after a normal request was answered")
            #expect(server.openConnections >= sockets.count)
        }
    }

    @Test("a slow client is disconnected once it has been idle for the connection timeout")
    func slowClientsTimeOut() throws {
        let f = try ServerFixture()
        let server = try start(f) { $0.connectionTimeout = 1 }
        defer { server.stop(timeout: 1) }
        var sockets: [Int32] = []
        defer { for s in sockets { close(s) } }
        for _ in 0..<20 { sockets.append(try RawClient.connect(port: server.port)) }
        for s in sockets { #expect(RawClient.send(s, Array("GET /v1/pl".utf8)) == 10) }
        // The server ends each connection (a read sees the end); waited
        // for up to 30 s in all, so that only a server that never does fails.
        let deadline = Date().addingTimeInterval(30)
        let closed = sockets.filter { RawClient.isClosedByPeer($0, within: max(1, Int(deadline.timeIntervalSinceNow))) }
            .count
        #expect(closed == sockets.count)
        for _ in 0..<300 where server.openConnections > 0 { usleep(10_000) }
        #expect(server.openConnections == 0)
        // And the server still serves.
        #expect(
            try Curl.run(["-H", "X-Goog-FieldMask: id", "http://127.0.0.1:\(server.port)/v1/places/cafe"], in: f.dir)
                .status == 200)
    }

    @Test("stop() refuses new connections and lets a request in flight finish")
    func gracefulStop() throws {
        let f = try ServerFixture()
        let server = try start(f)
        let s = try RawClient.connect(port: server.port)
        defer { close(s) }
        let body = #"{"placeIds":["cafe"]}"#
        _ = RawClient.send(
            s,
            Array(
                "POST /placedb/v1/places:resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n{"
                    .utf8))
        for _ in 0..<100 where server.inFlight == 0 { usleep(10_000) }
        #expect(server.inFlight == 1)
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.stop(timeout: 5)
            stopped.signal()
        }
        for _ in 0..<500 where server.isAccepting { usleep(10_000) }
        #expect(!server.isAccepting)
        #expect(throws: (any Error).self) { _ = try RawClient.connect(port: server.port) }
        _ = RawClient.send(s, Array(body.utf8.dropFirst()))
        let answer = RawClient.readAll(s)
        #expect(answer.hasPrefix("HTTP/1.1 200"))
        #expect(answer.contains("\"requestedId\": \"cafe\""))
        #expect(stopped.wait(timeout: .now() + 5) == .success)
    }

    /// Connections go to the event loops in turn: with libmicrohttpd's
    /// own pool, whichever loop woke first accepted, and one loop could hold
    /// every connection while the other idled (seen under wrk -c64).
    @Test("connections are shared evenly by the event loops", arguments: [2, 3])
    func connectionsSpread(threads: Int) throws {
        let f = try ServerFixture()
        let server = try start(f) { $0.threads = threads }
        defer { server.stop(timeout: 1) }
        let sockets = try openConnections(4 * threads, to: server)
        defer { for s in sockets { close(s) } }
        #expect(server.connectionsPerLoop == Array(repeating: 4, count: threads))
        expectServed(sockets)
    }

    @Test(
        "at --max-connections open, none waiting a second yet, a new connection is closed at once and the open ones stay served"
    )
    func connectionCap() throws {
        let f = try ServerFixture()
        let server = try start(f) {
            $0.maxConnections = 4
            $0.maxConnectionsPerClient = 5
        }
        defer { server.stop(timeout: 1) }
        let sockets = try openConnections(4, to: server)
        defer { for s in sockets { close(s) } }
        #expect(server.openConnections == 4)
        let extra = try RawClient.connect(port: server.port)
        defer { close(extra) }
        #expect(RawClient.isClosedByPeer(extra, within: 5))
        expectServed(sockets)
    }

    /// `count` connections, returned once the server holds them all (or 5 s passed).
    func openConnections(_ count: Int, to server: HTTPServer) throws -> [Int32] {
        var sockets: [Int32] = []
        for _ in 0..<count { sockets.append(try RawClient.connect(port: server.port)) }
        for _ in 0..<500 where server.openConnections < count { usleep(10_000) }
        return sockets
    }

    /// Each connection answers a Place Details request with 200.
    func expectServed(_ sockets: [Int32]) {
        for s in sockets {
            #expect(
                RawClient.send(s, Array("GET /v1/places/cafe?fields=id HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)) > 0)
            #expect(RawClient.readAll(s).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("a busy port is a one-line error")
    func portInUse() throws {
        let f = try ServerFixture()
        let server = try start(f)
        defer { server.stop(timeout: 1) }
        #expect {
            _ = try start(f) { $0.port = server.port }
        } throws: { error in
            "\(error)" == "cannot listen on 127.0.0.1:\(server.port): Address already in use"
        }
    }
}

/// Plain sockets, for clients that misbehave on purpose.
enum RawClient {
    static func connect(port: UInt16) throws -> Int32 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(s, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc != 0 {
            close(s)
            throw ServerError("connect failed: \(String(cString: strerror(errno)))")
        }
        return s
    }

    static func send(_ s: Int32, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Glibc.send(s, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything until the peer closes or 5 s pass.
    static func readAll(_ s: Int32) -> String {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(s, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += buffer[0..<n]
            if let text = String(bytes: out, encoding: .utf8), let head = text.range(of: "\r\n\r\n"),
                let lengthLine = text[..<head.lowerBound].split(separator: "\r\n").first(where: {
                    $0.lowercased().hasPrefix("content-length:")
                }),
                let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)),
                out.count - text[..<head.upperBound].utf8.count >= length
            {
                break
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when a read returns end of file (or a reset) within `seconds`.
    static func isClosedByPeer(_ s: Int32, within seconds: Int = 1) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        let n = recv(s, &byte, 1, 0)
        return n == 0 || (n < 0 && errno == ECONNRESET)
    }

    /// True when the peer has neither closed nor reset the connection (and
    /// sent nothing): a read that does not wait finds no data yet.
    static func isOpen(_ s: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(s, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_PEEK))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }
}
