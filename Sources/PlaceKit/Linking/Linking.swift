import Foundation
#if canImport(Glibc)
    import Glibc
#endif
package import PlaceModel
import PlaceStorage

/// Links a whole database again (`placedb link`), and explains a pair,
/// while no import writes it (`ImportLock`).
package enum Linking {
    /// Drops every link and group and links every live place again, in
    /// one transaction: after a threshold or source-order change, or for a
    /// database imported with `--no-link`. The user's `same`/`different`
    /// rules are kept and applied.
    package static func relink(
        databasePath: String? = nil, threshold: Double? = nil, sourceOrder: [String]? = nil,
        waiting: ((_ otherImport: Int32?) -> Void)? = nil
    ) throws -> LinkSummary {
        if let threshold, !(threshold > 0 && threshold <= 1) {
            throw PlaceDBError.invalidArgument("threshold \(threshold) is outside (0, 1]")
        }
        return try TextIndexMaintenance.withStore(databasePath, waiting: waiting) { store in
            try store.write {
                if let sourceOrder { try store.setLinkSourceOrder(sourceOrder) }
                return try store.link(changedSince: nil, threshold: threshold)
            }
        }
    }

    /// The score, evidence and state of two stored places.
    package static func explain(_ a: PlaceID, _ b: PlaceID, databasePath: String? = nil) throws -> LinkExplanation {
        let path = try PlaceStore.resolvePath(databasePath)
        let store = try PlaceStore(path: path, writable: false)
        return try store.read {
            guard let e = try store.explainLink(a.rawValue, b.rawValue) else {
                let missing = try store.place(id: a) == nil ? a : b
                throw PlaceDBError.notFound(missing)
            }
            return LinkExplanation(
                a: a.rawValue, b: b.rawValue, probability: e.score.probability, threshold: SamePlace.threshold,
                evidence: e.score.evidence ?? .null, distanceMeters: e.distance, eligible: e.eligible, rule: e.rule,
                linked: e.linked, sameGroup: e.sameGroup)
        }
    }
}
