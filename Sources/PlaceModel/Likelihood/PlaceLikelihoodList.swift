import Foundation

/// The answer to a current-place query.
public struct PlaceLikelihoodList: Sendable {
    /// Most likely first (ties by place ID).
    public var placeLikelihoods: [PlaceLikelihood]
    /// The probability that the visitor is at none of the listed places'
    /// candidates (1 − the sum over all candidates).
    public var noneLikelihood: Double
    /// σ of the fix error on each axis, in meters.
    public var sigmaMeters: Double
    /// How far from the fix candidates were sought (footprints aside).
    public var searchRadiusMeters: Double
    /// Places that got a likelihood (before `limit` and type filters).
    public var candidateCount: Int
    /// The fix is too coarse to name a place: the model's
    /// `approximateListLength` most likely places hold less than
    /// `approximateMass` of the probability, and more places share the rest.
    public var approximate = false
    /// The share of the probability the `approximateListLength` most
    /// likely places hold (the `approximate` test's measure).
    public var topMass = 0.0
    /// With `approximate`: the locality the fix falls in (or the nearest),
    /// when the database has one.
    public var locality: PlaceLocality?

    package init(
        placeLikelihoods: [PlaceLikelihood], noneLikelihood: Double, sigmaMeters: Double, searchRadiusMeters: Double,
        candidateCount: Int
    ) {
        self.placeLikelihoods = placeLikelihoods
        self.noneLikelihood = noneLikelihood
        self.sigmaMeters = sigmaMeters
        self.searchRadiusMeters = searchRadiusMeters
        self.candidateCount = candidateCount
    }
}
