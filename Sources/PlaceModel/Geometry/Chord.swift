#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Conversions between great-circle meters and chord lengths on the unit
/// sphere, which the index compares because they need no trigonometry.
package enum Chord {
    /// The chord of an arc of `meters` (clamped to half the circumference).
    @inline(__always)
    static func fromMeters(_ meters: Double) -> Double {
        let half = min(max(meters, 0) / (2 * Earth.meanRadius), Double.pi / 2)
        return 2 * sin(half)
    }

    /// A squared-chord threshold that keeps everything within `meters`,
    /// widened by far more than the rounding of either distance formula
    /// (a few 1e-16 on the unit sphere, under a nanometer), so pruning by
    /// it never drops a point the haversine formula puts inside.
    @inline(__always)
    package static func squaredThreshold(meters: Double) -> Double {
        if meters.isInfinite { return .infinity }
        let c = fromMeters(meters) * (1 + 1e-9) + 1e-12
        return c * c
    }
}
