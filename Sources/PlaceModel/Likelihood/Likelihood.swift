import Foundation

/// One candidate's score: its likelihood and every factor behind it.
public struct Likelihood: Sendable, Equatable {
    /// The candidate's index in the array given to `score`.
    public var candidate: Int
    /// In 0...1; the likelihoods of one answer and its `noneLikelihood`
    /// sum to at most 1. (0 until normalized.)
    public var likelihood: Double = 0
    /// The footprint the model used, in meters east and north of the fix.
    public var footprint: ScoredFootprint
    /// Great-circle distance from the fix to the place's location.
    public var distanceMeters: Double
    /// p(fix | place), per square meter.
    public var density: Double
    public var typeFactor: Double
    public var popularityFactor: Double
    public var sourceFactor: Double
    public var statusFactor: Double
    public var extentFactor: Double
    /// 1 when open or unknown, `closedFactor` when closed.
    public var hoursFactor = 1.0
    /// Whether the place is open at the time asked (nil: unknown or no time).
    public var openNow: Bool?
    /// The product of the factors, hours aside.
    public var prior: Double
    /// prior × hours factor × density: the unnormalized likelihood.
    public var weight: Double
}

extension Likelihood {
    /// Every factor behind the weight, as `--explain` shows it (the
    /// viewport's evidence is the caller's to add).
    public var explanation: LikelihoodExplanation {
        LikelihoodExplanation(
            distanceMeters: distanceMeters, footprint: footprint.source.rawValue,
            footprintHalfWidth: footprint.halfWidth, footprintHalfHeight: footprint.halfHeight,
            footprintArea: footprint.area, footprintLength: footprint.length,
            footprintOffsetEast: footprint.centerEast, footprintOffsetNorth: footprint.centerNorth, density: density,
            typeFactor: typeFactor, popularityFactor: popularityFactor, sourceFactor: sourceFactor,
            statusFactor: statusFactor,
            extentFactor: extentFactor, hoursFactor: hoursFactor, openNow: openNow,
            prior: prior * hoursFactor, weight: weight)
    }
}
