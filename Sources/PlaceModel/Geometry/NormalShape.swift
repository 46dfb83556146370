#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fix density of a footprint shape (`FootprintShape`): the visitor
/// stands uniformly in its area (or along its lines), and the fix is that
/// position plus a 2-D normal error of deviation σ on each axis.
///
/// For an area, p(fix) = (1/A) ∫_area N(x − fix; σ²I) dx, the area's
/// Gaussian mass around the fix over its area. The mass is a sum over the
/// edges of the triangles they make with the fix (the fan decomposition):
/// in polar coordinates around the fix, a triangle's mass is
/// (1/2π) ∫ (1 − exp(−r(θ)²/2σ²)) dθ, and along an edge at signed distance
/// h from the fix, at position s along it (r² = h² + s², dθ = h ds / r²),
///
///     mass = (1/2π) Σ_edges h ∫_{s_a}^{s_b} g(h² + s²) ds,  g(u) = (1 − e^(−u/2σ²)) / u.
///
/// Rings running the other way (holes) subtract themselves. g is smooth
/// (entire in u, at most 1/2σ²), so Gauss–Legendre with 8 nodes on panels
/// of at most 3σ is exact to about 1e-9 relative (a test holds a rectangle
/// to the box formula and concave shapes to Monte Carlo). Beyond
/// |s| = √(78σ² − h²) the exponential is below e^−39 and the integral of
/// h/(h² + s²) is the angle the rest of the edge subtends (an arctangent);
/// an edge whose line is that far from the fix contributes just its angle,
/// and those angles add up to the winding number (1 inside, 0 outside).
///
/// For lines, p(fix) = (1/L) ∫_line N(x(s) − fix) ds, in closed form per
/// segment: e^(−h²/2σ²) / (σ√2π) × (Φ(s_b/σ) − Φ(s_a/σ)) / L.
package enum NormalShape {
    /// Gauss–Legendre nodes and weights on [-1, 1], 8 points.
    package static let nodes = SIMD8<Double>(
        -0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
        0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363)
    package static let weights = SIMD8<Double>(
        0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
        0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763)
    /// The longest panel, in σ: 8 nodes on 3σ keep the relative error near 1e-9.
    package static let panel = 3.0
    /// Edges (or their parts) farther than √cutoff σ from the fix count only by their angle.
    static let cutoff = 78.0

    /// The Gaussian mass of the area's rings around the fix (σ on each
    /// axis), the shape's origin lying `east`, `north` meters from the fix.
    package static func mass(
        _ c: UnsafeBufferPointer<Float>, _ parts: UnsafeBufferPointer<UInt16>, east: Double, north: Double,
        sigma: Double
    ) -> Double {
        var total = 0.0, start = 0
        for count in parts {
            let n = Int(count)
            var ax = east + Double(c[2 * start]), ay = north + Double(c[2 * start + 1])
            for i in 0..<n {
                let j = start + (i + 1 == n ? 0 : i + 1)
                let bx = east + Double(c[2 * j]), by = north + Double(c[2 * j + 1])
                total += edge(ax, ay, bx, by, sigma: sigma)
                ax = bx
                ay = by
            }
            start += n
        }
        return min(1, max(0, total / (2 * Double.pi)))
    }

    /// 2π × the signed mass of the triangle (fix, a, b), the fix at the origin.
    @inline(__always)
    package static func edge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, sigma: Double) -> Double {
        var ux = bx - ax, uy = by - ay
        let length = (ux * ux + uy * uy).squareRoot()
        guard length > 0 else { return 0 }
        ux /= length
        uy /= length
        // Signed distance of the edge's line from the fix, and the ends' positions along it.
        let h = ax * uy - ay * ux
        if h == 0 { return 0 }
        let sa = ax * ux + ay * uy, sb = sa + length
        let h2 = h * h, s2 = sigma * sigma
        let far = cutoff * s2
        if h2 >= far { return atan2(ax * by - ay * bx, ax * bx + ay * by) }
        let reach = (far - h2).squareRoot()
        var result = 0.0
        if sa < -reach { result += atan(min(sb, -reach) / h) - atan(sa / h) }
        if sb > reach { result += atan(sb / h) - atan(max(sa, reach) / h) }
        let a = max(sa, -reach), b = min(sb, reach)
        if b > a {
            let panels = max(1, Int(((b - a) / (panel * sigma)).rounded(.up)))
            let half = (b - a) / Double(panels) / 2
            let k = 1 / (2 * s2)
            let x = nodes, w = weights
            var integral = 0.0
            for p in 0..<panels {
                let s = a + Double(2 * p + 1) * half + half * x
                let u = h2 + s * s
                var g = SIMD8<Double>()
                for q in 0..<8 { g[q] = u[q] > 0 ? -expm1(-u[q] * k) / u[q] : k }
                integral += half * (w * g).sum()
            }
            result += h * integral
        }
        return result
    }

    /// ∫ N(x(s) − fix) ds along the lines (per meter), their origin lying
    /// `east`, `north` meters from the fix; divided by the length, the fix
    /// density of a visitor uniformly along them.
    package static func lineIntegral(
        _ c: UnsafeBufferPointer<Float>, _ parts: UnsafeBufferPointer<UInt16>, east: Double, north: Double,
        sigma: Double
    ) -> Double {
        var total = 0.0, start = 0
        let norm = 1 / (sigma * (2 * Double.pi).squareRoot())
        for count in parts {
            let n = Int(count)
            for i in 1..<max(n, 1) {
                let ax = east + Double(c[2 * (start + i - 1)]), ay = north + Double(c[2 * (start + i - 1) + 1])
                let bx = east + Double(c[2 * (start + i)]), by = north + Double(c[2 * (start + i) + 1])
                var ux = bx - ax, uy = by - ay
                let length = (ux * ux + uy * uy).squareRoot()
                guard length > 0 else { continue }
                ux /= length
                uy /= length
                let h = ax * uy - ay * ux
                let sa = ax * ux + ay * uy
                let u = h / sigma
                total += exp(-0.5 * u * u) * norm * NormalBox.mass(sa / sigma, (sa + length) / sigma)
            }
            start += n
        }
        return total
    }
}

extension FootprintShape {
    /// p(fix | visitor uniformly in the shape), per m², with the shape's
    /// origin `east`, `north` meters from the fix.
    package func density(east: Double, north: Double, sigma: Double) -> Double {
        coordinates.withUnsafeBufferPointer { c in
            partCounts.withUnsafeBufferPointer { p in
                switch kind {
                case .area: NormalShape.mass(c, p, east: east, north: north, sigma: sigma) / FootprintShape.area(c, p)
                case .lines:
                    NormalShape.lineIntegral(c, p, east: east, north: north, sigma: sigma) / FootprintShape.length(c, p)
                }
            }
        }
    }
}
