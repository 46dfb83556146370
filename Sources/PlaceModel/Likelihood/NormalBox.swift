import Foundation

/// One axis of a footprint: the fix's density along it.
enum NormalBox {
    /// P(a < Z < b) for a standard normal Z, accurate in the tails.
    package static func mass(_ a: Double, _ b: Double) -> Double {
        let s = 1 / 2.0.squareRoot()
        if a >= 0 { return 0.5 * (erfc(a * s) - erfc(b * s)) }
        if b <= 0 { return 0.5 * (erfc(-b * s) - erfc(-a * s)) }
        return 1 - 0.5 * erfc(-a * s) - 0.5 * erfc(b * s)
    }

    /// The density at 0 of a uniform interval [center ± half] plus normal
    /// error of deviation `sigma`.
    package static func density(center: Double, half: Double, sigma: Double) -> Double {
        if half < 1e-6 * sigma {
            let u = center / sigma
            return exp(-0.5 * u * u) / (sigma * (2 * Double.pi).squareRoot())
        }
        return mass((center - half) / sigma, (center + half) / sigma) / (2 * half)
    }
}
