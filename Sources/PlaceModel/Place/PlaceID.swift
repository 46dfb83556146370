/// A place identifier, as the source gave it (`ChIJ...`, `osm:n42`, ...),
/// in placedb's one spelling (`PlaceIDSpelling`).
public struct PlaceID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    /// The Places API resource name, `places/{id}`.
    public var resourceName: String { "places/\(rawValue)" }
    public static func < (a: PlaceID, b: PlaceID) -> Bool { a.rawValue < b.rawValue }

    /// Accepts a bare ID or a `places/{id}` resource name, in any spelling
    /// placedb reads (`osm:node/42` is `osm:n42`): the ID is canonical
    /// (`PlaceIDSpelling.canonical`).
    public init(parsing text: String) {
        if text.hasPrefix("places/") {
            let rest = String(text.dropFirst(7))
            if !rest.contains("/") || PlaceIDSpelling.isOldOSM(rest) {
                rawValue = PlaceIDSpelling.canonical(rest)
                return
            }
        }
        rawValue = PlaceIDSpelling.canonical(text)
    }
}
