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
