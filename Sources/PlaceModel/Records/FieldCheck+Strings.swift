#if canImport(Glibc)
    import Glibc
#endif

/// The strings a record stores, checked for every format before it is
/// kept (docs/reliability.md, "Values a record may not hold"):
///
/// - No string holds U+0000 (NUL): not the place ID, not an alias ID, not
///   a member name, not a text anywhere in the document or the extras.
///   C strings end at a NUL, so a tool reading the database with them (or
///   SQLite's C API used carelessly) would cut `a\0x` and `a\0y` to the
///   same `a`.
/// - Every URI member of the document (`uri`, or a name ending in `Uri`:
///   `websiteUri`, `googleMapsUri`, `authorAttributions[].uri`,
///   `photoUri`, `providerUri`, `googleMapsLinks.directionsUri`, ...) is an
///   absolute `http` or `https` URI (the scheme in any case), or a
///   reference with no scheme at all: no `:` and no control character
///   (a legacy capture's `profile_photo_url` is `redacted`; a page resolves
///   such a reference against its own http(s) address). A `javascript:`
///   or `data:` link stored as given would run wherever a page links it;
///   browsers drop tabs and newlines and leading spaces before a scheme,
///   so any `:` outside an exact `http://` or `https://` refuses the value.
extension FieldCheck {
    package static func strings(_ decoded: DecodedPlace) throws(DecodeError) {
        let pid = decoded.place.id.rawValue
        if hasNUL(pid) {
            throw DecodeError("the place ID '\(pid.prefix(80))' contains U+0000 (NUL), which no ID may hold")
        }
        for edge in decoded.aliases {
            for id in [edge.aliasID, edge.placeID] where hasNUL(id) {
                throw DecodeError(
                    "the alias ID '\(id.prefix(80))' contains U+0000 (NUL), which no ID may hold", placeID: pid)
            }
        }
        if let found = problem(in: decoded.place.document, uris: true) ?? problem(in: decoded.extra, uris: false) {
            throw DecodeError(found.problem.message(found.path), placeID: pid)
        }
    }

    /// True for an absolute http(s) URI: the scheme `http` or `https` in
    /// any case, `://`, and a host.
    package static func isWebURI(_ s: String) -> Bool {
        var u = s.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let b = u.next(), b | 0x20 == expected else { return false }
        }
        guard var b = u.next() else { return false }
        if b | 0x20 == UInt8(ascii: "s") { guard let n = u.next() else { return false }; b = n }
        guard b == UInt8(ascii: ":"), u.next() == UInt8(ascii: "/"), u.next() == UInt8(ascii: "/") else { return false }
        guard let host = u.next() else { return false }
        return host != UInt8(ascii: "/")
    }

    /// A relative reference that cannot name a scheme: no `:`, no control
    /// character or space.
    static func isSchemeless(_ s: String) -> Bool {
        !s.isEmpty && !s.utf8.contains { $0 == UInt8(ascii: ":") || $0 <= 0x20 || $0 == 0x7F }
    }

    /// Whether a member holds a URI, by its name.
    /// (Bytes compared, not `hasSuffix`: every member name of every
    /// record passes here.)
    static func isURIMember(_ key: String) -> Bool {
        let u = key.utf8
        let n = u.count
        guard n >= 3 else { return false }
        let i = u.index(u.endIndex, offsetBy: -3)
        guard u[u.index(i, offsetBy: 1)] == UInt8(ascii: "r"), u[u.index(i, offsetBy: 2)] == UInt8(ascii: "i") else {
            return false
        }
        let first = u[i]
        return (first == UInt8(ascii: "U") && n > 3) || (first == UInt8(ascii: "u") && n == 3)
    }

    enum StringProblem {
        case nul, memberName(String), notAString(JSONValue), notWeb(String)

        func message(_ path: String) -> String {
            switch self {
            case .nul: "\(path) contains U+0000 (NUL), which no stored text may hold"
            case .memberName(let key):
                "the member name '\(key.prefix(80))'\(path.isEmpty ? "" : " in \(path)") contains U+0000 (NUL), which no stored text may hold"
            case .notAString(let v): "\(path) is \(v.kindDescription), expected a string (an http(s) URI)"
            case .notWeb(let s):
                "\(path) '\(s.prefix(80))' is not an http(s) URI (a link is kept as an absolute http: or https: URI, or as a reference with no scheme)"
            }
        }
    }

    private static func joined(_ key: String, _ sub: String) -> String {
        sub.isEmpty ? key : sub.utf8.first == UInt8(ascii: "[") ? key + sub : key + "." + sub
    }

    static func problem(in object: JSONObject, uris: Bool) -> (path: String, problem: StringProblem)? {
        for (key, value) in object {
            if hasNUL(key) { return ("", .memberName(key)) }
            if uris, value != .null, isURIMember(key) {
                guard let s = value.stringValue else { return (key, .notAString(value)) }
                if !isWebURI(s) && !isSchemeless(s) { return (key, hasNUL(s) ? .nul : .notWeb(s)) }
            }
            if let found = problem(in: value, uris: uris) { return (joined(key, found.path), found.problem) }
        }
        return nil
    }

    static func problem(in value: JSONValue, uris: Bool) -> (path: String, problem: StringProblem)? {
        switch value {
        case .string(let s): return hasNUL(s) ? ("", .nul) : nil
        case .object(let o): return problem(in: o, uris: uris)
        case .array(let a):
            for (i, v) in a.enumerated() {
                if let found = problem(in: v, uris: uris) { return (joined("[\(i)]", found.path), found.problem) }
            }
            return nil
        default: return nil
        }
    }

    /// (memchr over a large string's storage; a small string's few bytes
    /// are scanned where they are, without the copy `withUTF8` makes.)
    static func hasNUL(_ s: String) -> Bool {
        if let found = s.utf8.withContiguousStorageIfAvailable({ b -> Bool in
            guard let base = b.baseAddress, !b.isEmpty else { return false }
            return memchr(base, 0, b.count) != nil
        }) {
            return found
        }
        return s.utf8.contains(0)
    }
}
