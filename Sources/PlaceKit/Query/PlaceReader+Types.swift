import PlaceModel
import PlaceStorage

extension PlaceReader {
    /// The names among `types` that are neither a type the Places API
    /// documents (`PlaceTypes`) nor a type of any place in the database, in
    /// their order: what a type filter is refused for, as the API refuses it.
    package func unknownTypes(_ types: [String]) throws -> [String] {
        var unknown: [String] = []
        for t in types where !PlaceTypes.isDocumented(t) && !unknown.contains(t) {
            if try !store.holdsType(t) { unknown.append(t) }
        }
        return unknown
    }

    /// Throws `invalidArgument` naming the first unknown type of each field
    /// (with the closest documented type when one is near).
    func checkTypes(_ fields: [(name: String, types: [String])]) throws {
        for (name, types) in fields where !types.isEmpty {
            if let bad = try unknownTypes(types).first {
                throw PlaceDBError.invalidArgument(PlaceTypes.unknownMessage(bad, field: name))
            }
        }
    }
}

extension PlaceTypes {
    /// `unknown place type 'X' in FIELD; did you mean 'Y'? (...)`.
    package static func unknownMessage(_ type: String, field: String) -> String {
        var message = "unknown place type '\(type.prefix(100))' in \(field)"
        if let near = closest(to: type) { message += "; did you mean '\(near)'?" }
        return message + " (the types of https://developers.google.com/maps/documentation/places/web-service/place-types, or any type the database holds)"
    }

    /// The documented type nearest `type` by edit distance, when near enough to be a typo.
    package static func closest(to type: String) -> String? {
        let a = Array(type.utf8)
        guard a.count <= 64 else { return nil }
        var best: (String, Int)?
        for candidate in all {
            let d = editDistance(a, Array(candidate.utf8))
            if best == nil || d < best!.1 { best = (candidate, d) }
        }
        guard let (name, d) = best, d <= max(2, name.count / 4) else { return nil }
        return name
    }

    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
