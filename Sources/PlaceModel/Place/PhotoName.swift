import Foundation

/// Photo resource names, `places/{placeID}/photos/{reference}`.
package enum PhotoName {
    /// The reference: what follows the first `/photos/` (the whole name
    /// when it has none). The migration's SQL backfill computes the same.
    package static func reference(of name: String) -> String {
        guard let r = name.range(of: "/photos/") else { return name }
        return String(name[r.upperBound...])
    }

    /// How a user named a photo: a full name, or a reference (exact, or a
    /// unique prefix of at least `minReferencePrefix` characters).
    package enum Query: Equatable {
        case name(String)
        case reference(String)

        /// Parses `places/{id}/photos/{ref}` (a trailing `/media`, as in the
        /// API's media resource name, is dropped) or a bare reference.
        package init(parsing text: String) throws(PlaceDBError) {
            var text = text
            if text.hasPrefix("places/") {
                if text.hasSuffix("/media") { text.removeLast(6) }
                guard let r = text.range(of: "/photos/"), r.lowerBound > text.index(text.startIndex, offsetBy: 7),
                    !text[r.upperBound...].isEmpty, !text[r.upperBound...].contains("/")
                else {
                    throw PlaceDBError.invalidArgument(
                        "'\(text)' is not a photo name: expected places/{placeID}/photos/{reference} or a bare reference"
                    )
                }
                // The place ID in placedb's spelling (`osm:node/1` is `osm:n1`).
                let id = String(text[text.index(text.startIndex, offsetBy: 7)..<r.lowerBound])
                self = .name("places/\(PlaceIDSpelling.canonical(id))/photos/\(text[r.upperBound...])")
            } else {
                guard !text.isEmpty, !text.contains("/") else {
                    throw PlaceDBError.invalidArgument(
                        "'\(text)' is not a photo name: expected places/{placeID}/photos/{reference} or a bare reference"
                    )
                }
                self = .reference(text)
            }
        }

        var text: String {
            switch self {
            case .name(let n): n
            case .reference(let r): r
            }
        }
    }
}
