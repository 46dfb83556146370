import Foundation

/// The model's answer for one fix.
public struct LikelihoodScores: Sendable, Equatable {
    /// One per candidate that can be where the visitor is, in the
    /// candidates' order (`ranked` sorts them).
    public var likelihoods: [Likelihood]
    /// The probability that the visitor is at none of the candidates.
    public var noneLikelihood: Double
    /// σ of the fix error on each axis, in meters.
    public var sigmaMeters: Double
    /// How far from the fix candidates count (footprints aside).
    public var searchRadiusMeters: Double
    /// The normalizer: `noneDensity` plus every weight.
    public var total: Double

    /// Most likely first; equal likelihoods in the candidates' order.
    public var ranked: [Likelihood] {
        likelihoods.enumerated().sorted { a, b in
            a.element.weight > b.element.weight || (a.element.weight == b.element.weight && a.offset < b.offset)
        }.map(\.element)
    }
}
