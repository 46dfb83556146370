/// One HTTP request as the routes see it: the method, the path (already
/// percent-decoded by libmicrohttpd), the query arguments, the headers
/// (names in lower case) and the whole body.
struct HTTPRequest: Sendable {
    package var method: String
    package var path: String
    package var query: [(name: String, value: String)]
    package var headers: [String: String]
    package var body: [UInt8]

    init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        var lower: [String: String] = [:]
        for (k, v) in headers { lower[k.lowercased()] = v }
        self.headers = lower
        self.body = body
    }

    /// The first query argument of this name.
    package func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    package func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// One HTTP response: a status, headers and the whole body.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// A JSON body, with the API's content type.
    package static func json(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: bytes)
    }
}
