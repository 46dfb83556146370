// The charts of a current-place evaluation as self-contained SVG, for docs/
// next to the tables: a calibration (reliability) diagram per accuracy and
// top-1 by accuracy. They take what an evaluation already counts (top-1
// fractions, and per method the ten equal confidence bins behind its ECE),
// so every mode of `eval-current` (OSM, Google) draws with the same calls.
import Foundation
import PlaceKit

enum EvalCharts {
    /// One confidence bin: answers whose top-1 confidence fell in it, how
    /// many of them were right, and the sum of their confidences.
    struct Bin {
        var n: Int
        var correct: Int
        var confidenceSum: Double
    }

    /// A method's calibration at one accuracy: its ten bins (0-10%, ...,
    /// 90-100%) and its expected calibration error.
    struct Calibration {
        var method: String
        var ece: Double
        var bins: [Bin]
    }

    /// One panel of the reliability diagram (e.g. "5 m").
    struct Panel {
        var title: String
        var methods: [Calibration]
    }

    /// A method's top-1 accuracy (0...1) at each category (accuracy) of the chart.
    struct Series {
        var name: String
        var values: [Double]
    }

    /// Colours by method name, the same in every chart; others by order.
    static func color(_ method: String, _ index: Int) -> String {
        let known = ["placedb model": "#c2410c", "nearest place": "#4b5563", "distance-only": "#2563eb"]
        if let c = known[method] { return c }
        let palette = ["#7c3aed", "#0f766e", "#be185d", "#a16207", "#1e40af"]
        return palette[index % palette.count]
    }

    static let n = SVGWriter.number

    /// The width that holds the title (17 px, bold) and the header's other
    /// lines (text, font size) whole from `left`, with a margin: a chart is
    /// widened rather than its subtitle cut at the edge.
    static func headerWidth(left: Double, title: String, lines: [(String, Double)]) -> Double {
        let widest = lines.map { SVGWriter.textWidth($0.0, fontSize: $0.1) }.max() ?? 0
        return (left + max(SVGWriter.textWidth(title, fontSize: 17, bold: true), widest) + 16).rounded(.up)
    }

    /// The reliability diagram: per panel, each method's accuracy against
    /// its confidence per bin (markers sized by the bin's share of
    /// answers), the diagonal of perfect calibration, the ECE in the
    /// legend, and under it the share of answers per bin.
    static func reliability(title: String, subtitle: String, panels: [Panel]) -> String {
        let plot = 200.0, gap = 56.0, left = 48.0, top = 112.0
        let perRow = min(max(panels.count, 1), 4)
        let rows = (panels.count + perRow - 1) / perRow
        let histogram = 36.0, legend = 16.0 * Double(panels.map(\.methods.count).max() ?? 0)
        let cellHeight = plot + histogram + legend + 64
        let axes =
            "x: top-1 confidence (mean per 10% bin) · y: how often the top-1 was right · on the dashed diagonal, confidence is honest"
        let width = max(
            left + Double(perRow) * (plot + gap) - gap + 24,
            headerWidth(left: left, title: title, lines: [(subtitle, 12), (axes, 11.5)]))
        let height = top + Double(max(rows, 1)) * cellHeight
        var svg = SVGWriter(width: width, height: height, title: title, description: subtitle)
        svg.element("rect", [("width", n(width)), ("height", n(height)), ("fill", "#ffffff")])
        svg.element(
            "text", [("x", n(left)), ("y", "28"), ("font-size", "17"), ("font-weight", "bold"), ("fill", "#111827")],
            text: title)
        svg.element("text", [("x", n(left)), ("y", "50"), ("font-size", "12"), ("fill", "#4b5563")], text: subtitle)
        svg.element("text", [("x", n(left)), ("y", "68"), ("font-size", "11.5"), ("fill", "#4b5563")], text: axes)
        for (k, panel) in panels.enumerated() {
            let x0 = left + Double(k % perRow) * (plot + gap), y0 = top + Double(k / perRow) * cellHeight
            func px(_ v: Double) -> Double { x0 + v * plot }
            func py(_ v: Double) -> Double { y0 + (1 - v) * plot }
            svg.start("g", [("class", "panel"), ("data-title", panel.title)])
            svg.element(
                "text",
                [("x", n(x0)), ("y", n(y0 - 8)), ("font-size", "13"), ("font-weight", "bold"), ("fill", "#111827")],
                text: panel.title)
            svg.element(
                "rect",
                [
                    ("x", n(x0)), ("y", n(y0)), ("width", n(plot)), ("height", n(plot)), ("fill", "#fafaf7"),
                    ("stroke", "#9ca3af"),
                ])
            for t in stride(from: 0.0, through: 1.0, by: 0.2) {
                svg.element(
                    "line",
                    [("x1", n(px(t))), ("y1", n(y0)), ("x2", n(px(t))), ("y2", n(y0 + plot)), ("stroke", "#e5e7eb")])
                svg.element(
                    "line",
                    [("x1", n(x0)), ("y1", n(py(t))), ("x2", n(x0 + plot)), ("y2", n(py(t))), ("stroke", "#e5e7eb")])
                svg.element(
                    "text",
                    [
                        ("x", n(px(t))), ("y", n(y0 + plot + 13)), ("font-size", "10"), ("text-anchor", "middle"),
                        ("fill", "#6b7280"),
                    ],
                    text: "\(Int((t * 100).rounded()))%")
                svg.element(
                    "text",
                    [
                        ("x", n(x0 - 4)), ("y", n(py(t) + 3.5)), ("font-size", "10"), ("text-anchor", "end"),
                        ("fill", "#6b7280"),
                    ],
                    text: "\(Int((t * 100).rounded()))%")
            }
            svg.element(
                "line",
                [
                    ("x1", n(px(0))), ("y1", n(py(0))), ("x2", n(px(1))), ("y2", n(py(1))), ("stroke", "#9ca3af"),
                    ("stroke-dasharray", "4 3"),
                ])
            for (m, method) in panel.methods.enumerated() {
                let total = max(1, method.bins.reduce(0) { $0 + $1.n })
                let color = color(method.method, m)
                let points = method.bins.filter { $0.n > 0 }.map { b in
                    (
                        x: b.confidenceSum / Double(b.n), y: Double(b.correct) / Double(b.n),
                        share: Double(b.n) / Double(total)
                    )
                }
                svg.start(
                    "g",
                    [
                        ("class", "method"), ("data-method", method.method),
                        ("data-ece", String(format: "%.4f", method.ece)),
                    ])
                if points.count > 1 {
                    svg.element(
                        "polyline",
                        [
                            ("points", points.map { "\(n(px($0.x))),\(n(py($0.y)))" }.joined(separator: " ")),
                            ("fill", "none"), ("stroke", color), ("stroke-width", "1.5"), ("stroke-opacity", "0.8"),
                        ])
                }
                for p in points {
                    svg.element(
                        "circle",
                        [
                            ("class", "bin"), ("cx", n(px(p.x))), ("cy", n(py(p.y))),
                            ("r", n(2.5 + 6 * p.share.squareRoot())),
                            ("fill", color), ("fill-opacity", "0.75"), ("stroke", "#ffffff"), ("stroke-width", "0.8"),
                        ])
                }
                svg.end()
            }
            // The share of answers per bin, one thin bar per method.
            let hy = y0 + plot + 22
            let slot = plot / 10, bar = (slot - 2) / Double(max(panel.methods.count, 1))
            for (m, method) in panel.methods.enumerated() {
                let total = max(1, method.bins.reduce(0) { $0 + $1.n })
                for (i, b) in method.bins.enumerated() where b.n > 0 {
                    let h = histogram * Double(b.n) / Double(total)
                    svg.element(
                        "rect",
                        [
                            ("x", n(x0 + Double(i) * slot + 1 + Double(m) * bar)), ("y", n(hy + histogram - h)),
                            ("width", n(bar)),
                            ("height", n(max(h, 0.5))), ("fill", color(method.method, m)), ("fill-opacity", "0.6"),
                        ])
                }
            }
            svg.element(
                "text",
                [
                    ("x", n(x0 + plot)), ("y", n(hy + histogram + 12)), ("font-size", "9.5"), ("text-anchor", "end"),
                    ("fill", "#6b7280"),
                ],
                text: "share of answers per bin")
            var ly = hy + histogram + 30
            for (m, method) in panel.methods.enumerated() {
                svg.element(
                    "circle", [("cx", n(x0 + 5)), ("cy", n(ly - 4)), ("r", "4"), ("fill", color(method.method, m))])
                svg.element(
                    "text", [("x", n(x0 + 14)), ("y", n(ly)), ("font-size", "11"), ("fill", "#111827")],
                    text: "\(method.method): ECE \(String(format: "%.3f", method.ece))")
                ly += 16
            }
            svg.end()
        }
        return svg.finish()
    }

    /// Top-1 by accuracy: a group of bars per category, one per method,
    /// each labelled with its percentage; the axis runs from 0 to 100%.
    static func top1(title: String, subtitle: String, categories: [String], series: [Series]) -> String {
        let left = 56.0, top = 96.0, plotHeight = 260.0
        let group = max(90.0, 30.0 * Double(series.count) + 30)
        let width = max(
            560, left + Double(categories.count) * group + 180,
            headerWidth(left: left, title: title, lines: [(subtitle, 12)]))
        let plotWidth = Double(categories.count) * group
        let height = top + plotHeight + 56
        var svg = SVGWriter(width: width, height: height, title: title, description: subtitle)
        svg.element("rect", [("width", n(width)), ("height", n(height)), ("fill", "#ffffff")])
        svg.element(
            "text", [("x", n(left)), ("y", "28"), ("font-size", "17"), ("font-weight", "bold"), ("fill", "#111827")],
            text: title)
        svg.element("text", [("x", n(left)), ("y", "50"), ("font-size", "12"), ("fill", "#4b5563")], text: subtitle)
        func py(_ v: Double) -> Double { top + (1 - v) * plotHeight }
        for t in stride(from: 0.0, through: 1.0, by: 0.2) {
            svg.element(
                "line",
                [
                    ("x1", n(left)), ("y1", n(py(t))), ("x2", n(left + plotWidth)), ("y2", n(py(t))),
                    ("stroke", "#e5e7eb"),
                ])
            svg.element(
                "text",
                [
                    ("x", n(left - 6)), ("y", n(py(t) + 4)), ("font-size", "10.5"), ("text-anchor", "end"),
                    ("fill", "#6b7280"),
                ],
                text: "\(Int((t * 100).rounded()))%")
        }
        svg.element(
            "text",
            [
                ("x", "14"), ("y", n(top + plotHeight / 2)), ("font-size", "11"), ("fill", "#4b5563"),
                ("text-anchor", "middle"),
                ("transform", "rotate(-90 14 \(n(top + plotHeight / 2)))"),
            ], text: "top-1 (the true place ranked first)")
        let bar = (group - 30) / Double(max(series.count, 1))
        for (c, category) in categories.enumerated() {
            let gx = left + Double(c) * group + 15
            for (s, line) in series.enumerated() where c < line.values.count {
                let v = min(max(line.values[c], 0), 1)
                svg.element(
                    "rect",
                    [
                        ("class", "bar"), ("data-method", line.name), ("data-category", category),
                        ("data-value", String(format: "%.4f", v)),
                        ("x", n(gx + Double(s) * bar)), ("y", n(py(v))), ("width", n(bar - 2)),
                        ("height", n(v * plotHeight)),
                        ("fill", color(line.name, s)),
                    ])
                svg.element(
                    "text",
                    [
                        ("x", n(gx + Double(s) * bar + (bar - 2) / 2)), ("y", n(py(v) - 4)), ("font-size", "9.5"),
                        ("text-anchor", "middle"), ("fill", "#111827"),
                    ], text: String(format: "%.1f", 100 * v))
            }
            svg.element(
                "text",
                [
                    ("x", n(gx + (group - 30) / 2)), ("y", n(top + plotHeight + 18)), ("font-size", "12"),
                    ("text-anchor", "middle"),
                    ("fill", "#111827"),
                ], text: category)
        }
        svg.element(
            "line",
            [("x1", n(left)), ("y1", n(py(0))), ("x2", n(left + plotWidth)), ("y2", n(py(0))), ("stroke", "#374151")])
        svg.element(
            "text",
            [
                ("x", n(left + plotWidth / 2)), ("y", n(top + plotHeight + 40)), ("font-size", "11"),
                ("text-anchor", "middle"),
                ("fill", "#4b5563"),
            ], text: "fix accuracy (68% radius)")
        var ly = top + 10
        for (s, line) in series.enumerated() {
            svg.element(
                "rect",
                [
                    ("x", n(left + plotWidth + 20)), ("y", n(ly - 10)), ("width", "12"), ("height", "12"),
                    ("fill", color(line.name, s)),
                ])
            svg.element(
                "text", [("x", n(left + plotWidth + 38)), ("y", n(ly)), ("font-size", "11.5"), ("fill", "#111827")],
                text: line.name)
            ly += 20
        }
        return svg.finish()
    }

    /// Writes `text` to DIR/name and says so on stdout.
    static func write(_ text: String, dir: String, name: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        print("wrote \(path)")
    }
}
