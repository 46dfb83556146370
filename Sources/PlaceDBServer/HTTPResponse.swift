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
