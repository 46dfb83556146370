/// Why one place ID stands for another.
public enum AliasReason: String, Sendable, CaseIterable, Codable {
    /// The place moved (`movedPlaceId`), or a snapshot found it again nearby.
    case moved
    /// The same place drawn anew (an OSM node redrawn as a building way).
    case redrawn
    /// The whole source was re-keyed (a bulk renumbering).
    case renumbered
    /// Several old IDs became one place.
    case merged
    /// One old ID became several places.
    case split
    /// A response filed under a requested ID that differs from the ID it
    /// carries (`requested` before schema 8; alias files may still say so).
    case requestedReturned = "requested-returned"
    /// A deprecated ID of the same place (legacy `id`, `reference`, `alt_ids`).
    case deprecated
    /// Given in an alias file (`placedb alias import`).
    case explicit
    /// The place's Maps CID (`cid:{digits}`, the `cid=` of its
    /// `googleMapsUri` or legacy `url`): a second ID of the same place,
    /// not a move (schema 13).
    case cid
    /// Another record of the same physical place (a member of the
    /// place's group: docs/linking.md). Never stored as an alias edge: it
    /// is the place's group.
    case samePlace = "same-place"

    /// The reasons an alias edge can have (all but `samePlace`).
    public static var edgeReasons: [AliasReason] { allCases.filter { $0 != .samePlace } }
}

/// A user's linking rule (alias files: `same A B`, `different A B`).
package enum LinkRuleKind: String, Sendable, CaseIterable {
    case same
    case different
}
