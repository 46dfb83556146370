import Foundation
public import PlaceModel
import PlaceKit

/// A seeded generator for test data (SplitMix64), so "random" inputs are
/// the same on every run. Shared by every test target.
public struct TestRandom: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
    /// Uniform in 0..<n.
    public mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// A standard normal deviate (Box-Muller).
    public mutating func normal() -> Double {
        let u = max(unit(), 1e-300), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
    /// A point uniform on the sphere.
    public mutating func spherePoint() -> Coordinate {
        Coordinate(latitude: asin(uniform(-1, 1)) * 180 / Double.pi, longitude: uniform(-180, 180))
    }
}
