import Foundation
import PlaceDBServer
import PlaceModel

/// The `http` target: the input is an HTTP request as a client writes it
/// (`METHOD TARGET`, header lines, an empty line, the body), split and
/// decoded as libmicrohttpd hands it to placedb (the path and query
/// percent-decoded), answered by the router of `placedb serve` on the batch
/// target's database, with an API key and an allow-list in force. Checked:
/// every answer has an HTTP status; a JSON answer parses, an error's has
/// the API's shape; the access log's escaping leaves printable ASCII only;
/// a NUL anywhere in the target is seen.
enum HTTPFuzzer {
    static let key = "fuzz-key"

    nonisolated(unsafe) static var router: PlacesRouter = {
        let db = BatchFuzzer.setUp()
        var config = ServerConfiguration()
        config.port = 0
        config.threads = 1
        config.apiKey = key
        config.allowedHosts = ["places.test"]
        do {
            return try PlacesRouter(backend: ServerBackend(databasePath: db, connections: 1), configuration: config)
        } catch {
            fatalError("fuzz harness: cannot open the http database: \(error)")
        }
    }()

    static func run(_ data: UnsafeRawBufferPointer) {
        let bytes = Array(data)
        // The head ends at the first empty line; the rest is the body.
        var headEnd = bytes.count, bodyStart = bytes.count
        for i in 0..<bytes.count where bytes[i] == 0x0A && i + 1 < bytes.count && bytes[i + 1] == 0x0A {
            headEnd = i
            bodyStart = i + 2
            break
        }
        let lines = bytes[..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first else { return }
        let parts = first.split(separator: 0x20, maxSplits: 1)
        let method = String(decoding: parts.first ?? [], as: UTF8.self)
        let target = Array(parts.count > 1 ? parts[1] : [])
        if target.contains(0) {
            BatchFuzzer.check(HTTPRequest.targetHasNUL(target), "a NUL byte in the target was not seen")
        }
        let escaped = AccessLog.escape(target)
        BatchFuzzer.check(
            escaped.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F },
            "the access log's escape left a byte that is not printable ASCII")
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let path = decode(target[..<(question ?? target.endIndex)])
        var query: [(name: String, value: String)] = []
        if let question {
            for pair in target[(question + 1)...].split(separator: UInt8(ascii: "&")) {
                let kv = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                query.append((decode(kv[0]), kv.count > 1 ? decode(kv[1]) : ""))
            }
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        // Most inputs should reach the routes: the key unless the input gives one.
        if !headers.contains(where: { $0.name.lowercased() == "x-goog-api-key" })
            && !query.contains(where: { $0.name == "key" })
        {
            headers.append(("X-Goog-Api-Key", key))
        }
        let request = HTTPRequest(
            method: method.isEmpty ? "GET" : method, path: path.isEmpty ? "/" : path, query: query,
            headers: headers, body: Array(bytes[bodyStart...]))
        let response = router.respond(to: request)
        BatchFuzzer.check((200..<600).contains(response.status), "status \(response.status)")
        if response.header("Content-Type")?.hasPrefix("application/json") == true {
            guard let json = try? JSONValue(parsing: response.body) else {
                fatalError("fuzz check failed: a JSON answer (status \(response.status)) that does not parse")
            }
            if response.status >= 400 {
                BatchFuzzer.check(
                    json["error"]?["status"]?.stringValue != nil && json["error"]?["code"]?.intValue == response.status,
                    "an error answer without the API's shape (status \(response.status))")
            }
        }
        if let host = headers.first(where: { $0.name.lowercased() == "host" })?.value, response.status != 403 {
            BatchFuzzer.check(
                HostAllowList(listening: "127.0.0.1", allowed: ["places.test"]).allows(host),
                "a Host the allow-list refuses was answered")
        }
    }

    /// Percent-decoding as libmicrohttpd does it (`+` in the query is not a space here).
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let h = hex(bytes[i + 1]),
                let l = hex(bytes[i + 2])
            {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: b - 0x30
        case 0x41...0x46: b - 0x41 + 10
        case 0x61...0x66: b - 0x61 + 10
        default: nil
        }
    }
}
