import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

/// Places for the server tests: a café with hours and a photo, a place
/// that moved (old -> cafe), neighbours for nearby and current place.
let serverPlaces = """
    {"id":"cafe","displayName":{"text":"Café du Lac","languageCode":"fr"},"location":{"latitude":46.5201,"longitude":6.6301},"types":["cafe","food"],"primaryType":"cafe","userRatingCount":10,"businessStatus":"OPERATIONAL","priceLevel":"PRICE_LEVEL_MODERATE","utcOffsetMinutes":60,"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":18,"minute":0}}],"weekdayDescriptions":["Monday: 8:00 AM – 6:00 PM"]},"photos":[{"name":"places/cafe/photos/ref-cafe-1","widthPx":64,"heightPx":48,"authorAttributions":[{"displayName":"A. Photographer","uri":"https://example.org/a"}]}]}
    {"id":"bar","displayName":{"text":"Bar"},"location":{"latitude":46.5205,"longitude":6.6305},"types":["bar"],"primaryType":"bar","userRatingCount":500,"businessStatus":"CLOSED_TEMPORARILY"}
    {"id":"park","displayName":{"text":"Parc"},"location":{"latitude":46.521,"longitude":6.631},"types":["park"],"primaryType":"park"}
    {"id":"old","displayName":{"text":"Café du Lac (old)"},"location":{"latitude":46.5201,"longitude":6.6301},"types":["cafe"],"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"cafe"}
    {"id":"far","displayName":{"text":"Far"},"location":{"latitude":46.6,"longitude":6.7},"types":["cafe"]}

    """

/// A database built by the CLI, the CLI to compare answers with, and a router.
final class ServerFixture: @unchecked Sendable {
    let dir: TempDirectory
    let db: String

    init(places: String = serverPlaces) throws {
        dir = try TempDirectory("placedb-serve")
        db = dir.file("places.sqlite")
        let r = cli(["import", try dir.write("places.ndjson", places)])
        #expect(r.code == 0, "\(r.err)")
        let image = TestImages.make(width: 64, height: 48, format: .jpeg)
        let added = cli(["photo", "add", "places/cafe/photos/ref-cafe-1", try dir.write("cafe.jpg", bytes: image)])
        #expect(added.code == 0, "\(added.err)")
    }

    /// Runs the CLI in-process on the fixture's database.
    func cli(_ args: [String], input: String = "") -> (code: Int32, out: String, err: String, bytes: [UInt8]) {
        let console = CapturedConsole(environment: ["PLACEDB_DATABASE": db], input: input)
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdout, console.stderr, console.stdoutBytes)
    }

    func router(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> PlacesRouter {
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        config.version = CommandLineTool.version
        configure(&config)
        return try PlacesRouter(
            backend: ServerBackend(databasePath: db, connections: config.threads), configuration: config)
    }
}

extension ServerFixture {
    /// The server on a free loopback port (2 threads unless `configure` says
    /// otherwise), its access log into `log`.
    func server(log: LogLines? = nil, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> HTTPServer
    {
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 2
        configure(&config)
        let router = try PlacesRouter(
            backend: ServerBackend(databasePath: db, connections: config.threads), configuration: config)
        return try HTTPServer(router: router, configuration: config, log: { line in log?.append(line) })
    }
}

extension PlacesRouter {
    /// A request straight to the router (no socket).
    func call(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: String = ""
    ) -> HTTPResponse {
        respond(
            to: HTTPRequest(
                method: method, path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: headers,
                body: Array(body.utf8)))
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    var jsonValue: JSONValue? { try? JSONValue(parsing: body) }
    /// The error's `status` (INVALID_ARGUMENT, ...).
    var errorStatus: String? { jsonValue?["error"]?["status"]?.stringValue }
}

/// curl, for tests over a real socket: the status, headers and body.
struct Curl {
    let status: Int
    let headers: String
    let body: [UInt8]

    static func run(_ args: [String], in dir: TempDirectory) throws -> Curl {
        let bodyFile = dir.file("curl-body-\(UUID().uuidString)")
        let headerFile = dir.file("curl-headers-\(UUID().uuidString)")
        let r = try Tool.run(
            "curl", ["-s", "-o", bodyFile, "-D", headerFile, "-w", "%{http_code}", "--max-time", "20"] + args)
        let body = (FileManager.default.contents(atPath: bodyFile)).map { [UInt8]($0) } ?? []
        let headers = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        return Curl(status: Int(r.stdout) ?? -1, headers: headers, body: body)
    }

    func header(_ name: String) -> String? {
        for line in headers.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// Lines the server logged, for the access-log tests.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
