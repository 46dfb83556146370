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
        return message
            + " (the types of https://developers.google.com/maps/documentation/places/web-service/place-types, or any type the database holds)"
    }

    /// The documented type nearest `type`, when near enough to be a typo (`Typo`).
    package static func closest(to type: String) -> String? {
        Typo.closest(type, among: all, divisor: 4)
    }
}
