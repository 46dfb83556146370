import Foundation
#if canImport(Glibc)
import Glibc
#endif
package import PlaceModel
import PlaceStorage

/// Why two stored places are (not) one place, as `placedb link --explain A B` shows it.
package struct LinkExplanation: Sendable {
    package let a: String
    package let b: String
    package let probability: Double
    package let threshold: Double
    package let evidence: JSONValue
    package let distanceMeters: Double
    /// False when the linker never pairs them (one source's records seen in one capture).
    package let eligible: Bool
    package let rule: LinkRuleKind?
    /// Whether a link is stored for them, and whether they share a group.
    package let linked: Bool
    package let sameGroup: Bool

    package var json: JSONValue {
        var o = JSONObject()
        o["a"] = .string(a)
        o["b"] = .string(b)
        o["probability"] = .double((probability * 1000).rounded() / 1000)
        o["threshold"] = .double(threshold)
        o["distanceMeters"] = .double((distanceMeters * 10).rounded() / 10)
        o["eligible"] = .bool(eligible)
        if let rule { o["rule"] = .string(rule.rawValue) }
        o["linked"] = .bool(linked)
        o["sameGroup"] = .bool(sameGroup)
        o["evidence"] = evidence
        return .object(o)
    }
}

/// Links a whole database again (`placedb link`), and explains a pair,
/// while no import writes it (`ImportLock`).
package enum Linking {
    /// Drops every link and group and links every live place again, in
    /// one transaction: after a threshold or source-order change, or for a
    /// database imported with `--no-link`. The user's `same`/`different`
    /// rules are kept and applied.
    package static func relink(databasePath: String? = nil, threshold: Double? = nil, sourceOrder: [String]? = nil,
                              waiting: ((_ otherImport: Int32?) -> Void)? = nil) throws -> LinkSummary {
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
            return LinkExplanation(a: a.rawValue, b: b.rawValue, probability: e.score.probability, threshold: SamePlace.threshold,
                                   evidence: e.score.evidence ?? .null, distanceMeters: e.distance, eligible: e.eligible, rule: e.rule,
                                   linked: e.linked, sameGroup: e.sameGroup)
        }
    }
}
