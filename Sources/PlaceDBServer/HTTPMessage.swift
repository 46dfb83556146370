/// One HTTP request as the routes see it: the method, the path (already
/// percent-decoded by libmicrohttpd), the query arguments, the headers
/// (as received; names are looked up without regard to case) and the
/// whole body.
package struct HTTPRequest: Sendable {
    package var method: String
    package var path: String
    package var query: [(name: String, value: String)]
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(
        method: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    init(
        method: String, path: String, query: [(name: String, value: String)] = [], headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.init(
            method: method, path: path, query: query, headers: headers.map { (name: $0.key, value: $0.value) },
            body: body)
    }

    /// Whether a request target as sent holds a NUL: a raw zero byte or
    /// `%00` (in the path or the query).
    package static func targetHasNUL(_ target: [UInt8]) -> Bool {
        var i = 0
        while i < target.count {
            if target[i] == 0 { return true }
            if target[i] == UInt8(ascii: "%"), i + 2 < target.count, target[i + 1] == UInt8(ascii: "0"),
                target[i + 2] == UInt8(ascii: "0")
            {
                return true
            }
            i += 1
        }
        return false
    }

    /// The first query argument of this name.
    package func query(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The first header of this name, in any case (`x-goog-fieldmask` is `X-Goog-FieldMask`).
    package func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.name, name) }?.value
    }

    /// Equal names, ASCII letters compared without regard to case (no
    /// lowercased copies: the router asks for a few headers per request).
    static func sameName(_ a: String, _ b: String) -> Bool {
        // Over the strings' own UTF-8 storage: no iterators, no copies.
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for i in 0..<x.count where x[i] != y[i] {
                    let lx = x[i] >= 0x41 && x[i] <= 0x5A ? x[i] | 0x20 : x[i]
                    let ly = y[i] >= 0x41 && y[i] <= 0x5A ? y[i] | 0x20 : y[i]
                    if lx != ly { return false }
                }
                return true
            }
        }
    }
}
