#if canImport(Glibc)
import Glibc
#endif

/// The strings a record stores, checked for every format before it is
/// kept (docs/reliability.md, "Values a record may not hold"): no string
/// holds U+0000 (NUL), not the place ID, not an alias ID, not a member
/// name, not a text anywhere in the document or the extras. C strings end
/// at a NUL, so a tool reading the database with them would cut `a\0x` and
/// `a\0y` to the same `a` (`placedb export` did, before SQLite text was
/// bound and read with its length).
extension FieldCheck {
    package static func strings(_ decoded: DecodedPlace) throws(DecodeError) {
        let pid = decoded.place.id.rawValue
        if hasNUL(pid) {
            throw DecodeError("the place ID '\(pid.prefix(80))' contains U+0000 (NUL), which no ID may hold")
        }
        for edge in decoded.aliases {
            for id in [edge.aliasID, edge.placeID] where hasNUL(id) {
                throw DecodeError("the alias ID '\(id.prefix(80))' contains U+0000 (NUL), which no ID may hold", placeID: pid)
            }
        }
        if let found = problem(in: decoded.place.document) ?? problem(in: decoded.extra) {
            throw DecodeError(found.problem.message(found.path), placeID: pid)
        }
    }

    enum StringProblem {
        case nul, memberName(String)

        func message(_ path: String) -> String {
            switch self {
            case .nul: "\(path) contains U+0000 (NUL), which no stored text may hold"
            case .memberName(let key): "the member name '\(key.prefix(80))'\(path.isEmpty ? "" : " in \(path)") contains U+0000 (NUL), which no stored text may hold"
            }
        }
    }

    private static func joined(_ key: String, _ sub: String) -> String {
        sub.isEmpty ? key : sub.utf8.first == UInt8(ascii: "[") ? key + sub : key + "." + sub
    }

    /// The first string of `object` that breaks a rule, and its path
    /// (`reviews[1].text.text`); the path is built only for it.
    static func problem(in object: JSONObject) -> (path: String, problem: StringProblem)? {
        for (key, value) in object {
            if hasNUL(key) { return ("", .memberName(key)) }
            if let found = problem(in: value) { return (joined(key, found.path), found.problem) }
        }
        return nil
    }

    static func problem(in value: JSONValue) -> (path: String, problem: StringProblem)? {
        switch value {
        case .string(let s): return hasNUL(s) ? ("", .nul) : nil
        case .object(let o): return problem(in: o)
        case .array(let a):
            for (i, v) in a.enumerated() {
                if let found = problem(in: v) { return (joined("[\(i)]", found.path), found.problem) }
            }
            return nil
        default: return nil
        }
    }

    static func hasNUL(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { b in
            guard let base = b.baseAddress, !b.isEmpty else { return false }
            return memchr(base, 0, b.count) != nil
        }
    }
}
