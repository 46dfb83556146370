import Foundation

/// Whether two records are the same physical place: a logistic model over
/// the evidence of `LinkRecord` (names, phones, websites, social pages,
/// house number, postcode, categories, brand and branch, upstream record
/// IDs), plus a distance term designed from principle, not fitted (the
/// labelled pairs have no coordinates):
///
/// - the gap `d` is the distance between the two coordinates less both
///   extents (a way's footprint, a viewport), never below 0;
/// - up to 30 m two records of one place are usual (geocoders, building
///   centroids against entrances): +0.5 at 0 m falling to 0 at 30 m;
/// - 30-50 m: neutral (a large building, a mall's shops);
/// - 50 m to `searchRadiusMeters`: ever more against, down to -4 (only
///   strong agreement, a phone and a name, links there);
/// - beyond `searchRadiusMeters`: never the same place (probability 0).
///
/// The learned weights (`SamePlaceWeights`) come from
/// `placedb-bench fit-link` on the dev pairs.
package struct SamePlaceScore: Sendable {
    /// Calibrated P(same place) in [0, 1] (calibrated on the dev pairs'
    /// candidate mix, 60% same).
    public let probability: Double
    let a: LinkRecord
    let b: LinkRecord
    /// Object: each feature's value and contribution to the logit, the
    /// distance term, the bias and the logit; for `placedb link --explain`.
    /// Built when asked for: it costs many times the score.
    public var evidence: JSONValue { SamePlace.evidence(a, b) }
}
