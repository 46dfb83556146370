import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

@Suite("Fix density of polygons and lines")
struct NormalShapeTests {
    /// An area shape from rings of (east, north) as given (orientation included).
    func area(_ rings: [[(Double, Double)]]) -> FootprintShape {
        FootprintShape(
            kind: .area, partCounts: rings.map { UInt16($0.count) },
            coordinates: rings.flatMap { $0.flatMap { [Float($0.0), Float($0.1)] } })
    }

    func mass(_ shape: FootprintShape, fix: (Double, Double), sigma: Double) -> Double {
        shape.density(east: -fix.0, north: -fix.1, sigma: sigma) * shape.area
    }

    /// Even-odd point-in-polygon over every ring.
    func inside(_ p: (Double, Double), _ rings: [[(Double, Double)]]) -> Bool {
        var odd = false
        for r in rings {
            var j = r.count - 1
            for i in r.indices {
                let a = r[i], b = r[j]
                if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 { odd.toggle() }
                j = i
            }
        }
        return odd
    }

    /// The fraction of `n` normal fixes around `fix` that fall in the rings.
    func monteCarlo(_ rings: [[(Double, Double)]], fix: (Double, Double), sigma: Double, n: Int, seed: UInt64) -> Double
    {
        var rng = TestRandom(seed: seed)
        var hits = 0
        for _ in 0..<n where inside((fix.0 + sigma * rng.normal(), fix.1 + sigma * rng.normal()), rings) { hits += 1 }
        return Double(hits) / Double(n)
    }

    @Test(
        "a rectangle gives the box formula's density to 1e-6, inside, on the edges and 4 sigma out",
        arguments: [0.3, 1, 3.3, 13, 200])
    func rectangleMatchesBox(sigma: Double) {
        let (w, h) = (24.0, 7.0)
        // Corners around (3, -2): the origin inside, off-centre.
        let rect = area([[(-9, -5.5), (-9 + w, -5.5), (-9 + w, -5.5 + h), (-9, -5.5 + h)]])
        let centre = (-9 + w / 2, -5.5 + h / 2)
        var checked = 0
        for fx in stride(from: -9 - 4 * sigma, through: -9 + w + 4 * sigma, by: (w + 8 * sigma) / 13) {
            for fy in stride(from: -5.5 - 4 * sigma, through: -5.5 + h + 4 * sigma, by: (h + 8 * sigma) / 11) {
                let gx = max(abs(fx - centre.0) - w / 2, 0), gy = max(abs(fy - centre.1) - h / 2, 0)
                if gx * gx + gy * gy > 16 * sigma * sigma { continue }
                let box =
                    NormalBox.density(center: centre.0 - fx, half: w / 2, sigma: sigma)
                    * NormalBox.density(center: centre.1 - fy, half: h / 2, sigma: sigma)
                let polygon = rect.density(east: -fx, north: -fy, sigma: sigma)
                #expect(
                    abs(polygon - box) <= 1e-6 * box, "fix (\(fx), \(fy)), sigma \(sigma): \(polygon) against \(box)")
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    @Test("the direction of the rings does not matter once they are oriented; a hole subtracts itself")
    func orientation() {
        let square = [(0.0, 0.0), (10, 0), (10, 10), (0, 10)]
        let ccw = mass(area([square]), fix: (3, 4), sigma: 2)
        #expect(abs(ccw - NormalBox.mass(-1.5, 3.5) * NormalBox.mass(-2, 3)) < 1e-9)
        // A hole (clockwise) covering the fix's neighbourhood takes its mass out.
        let hole = [(2.0, 3.0), (2, 5), (4, 5), (4, 3)]
        let holed = mass(area([square, hole]), fix: (3, 4), sigma: 2)
        let inHole = NormalBox.mass(-0.5, 0.5) * NormalBox.mass(-0.5, 0.5)
        #expect(abs(holed - (ccw - inHole)) < 1e-9)
    }

    @Test(
        "a concave L and a ring with a hole match Monte Carlo",
        arguments: [
            (1.5, 5.0, 30.0), (25.0, 25.0, 5.0), (25.0, 25.0, 15.0), (-10.0, 20.0, 8.0),
        ])
    func monteCarloShapes(fx: Double, fy: Double, sigma: Double) {
        let n = 200_000
        // The L (counter-clockwise, 700 m²).
        let l = [lShape]
        let lMass = mass(area(l), fix: (fx, fy), sigma: sigma)
        let lEstimate = monteCarlo(l, fix: (fx, fy), sigma: sigma, n: n, seed: 7)
        let lError = (lEstimate * (1 - lEstimate) / Double(n)).squareRoot()
        #expect(abs(lMass - lEstimate) <= 4 * lError + 1e-4, "L: \(lMass) against Monte Carlo \(lEstimate) ± \(lError)")
        // A 30 m square with a 14 m square hole (clockwise), around (20, 20).
        let ring = [[(5.0, 5.0), (35, 5), (35, 35), (5, 35)], [(13.0, 13.0), (13, 27), (27, 27), (27, 13)]]
        let ringMass = mass(area(ring), fix: (fx, fy), sigma: sigma)
        let ringEstimate = monteCarlo(ring, fix: (fx, fy), sigma: sigma, n: n, seed: 11)
        let ringError = (ringEstimate * (1 - ringEstimate) / Double(n)).squareRoot()
        #expect(
            abs(ringMass - ringEstimate) <= 4 * ringError + 1e-4,
            "ring: \(ringMass) against Monte Carlo \(ringEstimate) ± \(ringError)")
    }

    @Test("the L's density is its own, not its box's: inside it, it is higher; in its notch, far lower")
    func lAgainstItsBox() {
        let l = area([lShape])
        let sigma = 3.3
        func box(_ f: (Double, Double)) -> Double {
            NormalBox.density(center: 20 - f.0, half: 20, sigma: sigma)
                * NormalBox.density(center: 20 - f.1, half: 20, sigma: sigma)
        }
        let arm = (5.0, 30.0), notch = (25.0, 25.0)
        #expect(l.density(east: -arm.0, north: -arm.1, sigma: sigma) > 1.5 * box(arm))
        #expect(l.density(east: -notch.0, north: -notch.1, sigma: sigma) < 1e-3 * box(notch))
    }

    @Test(
        "a line's density is the fix error averaged along it",
        arguments: [(0.0, 0.0, 3.0), (12.0, -4.0, 3.0), (40.0, 30.0, 20.0)])
    func lineDensity(fx: Double, fy: Double, sigma: Double) {
        let points: [(Double, Double)] = [(-30, 0), (0, 10), (25, -5), (30, 20)]
        let line = FootprintShape(
            kind: .lines, partCounts: [4], coordinates: points.flatMap { [Float($0.0), Float($0.1)] })
        // The midpoint rule along the line, 0.01 m steps.
        var sum = 0.0, length = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            let l = hypot(b.0 - a.0, b.1 - a.1)
            let steps = Int(l / 0.01)
            for i in 0..<steps {
                let t = (Double(i) + 0.5) / Double(steps)
                let dx = a.0 + t * (b.0 - a.0) - fx, dy = a.1 + t * (b.1 - a.1) - fy
                sum +=
                    exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) / (2 * Double.pi * sigma * sigma) * l
                    / Double(steps)
            }
            length += l
        }
        let expected = sum / length
        let got = line.density(east: -fx, north: -fy, sigma: sigma)
        #expect(abs(got - expected) <= 1e-6 * expected, "\(got) against \(expected)")
    }
}
