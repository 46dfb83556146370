import Foundation

/// A place and the probability that the visitor is at it.
public struct PlaceLikelihood: Sendable, Equatable {
    public var place: Place
    /// In 0...1; the list's likelihoods sum to at most 1.
    public var likelihood: Double
    /// Filled when asked for (`explain: true`).
    public var explanation: LikelihoodExplanation?

    package init(place: Place, likelihood: Double, explanation: LikelihoodExplanation? = nil) {
        self.place = place
        self.likelihood = likelihood
        self.explanation = explanation
    }
}
