import Foundation
import PlaceModel
import PlaceStorage

extension CurrentPlaceScene {
    /// The picture draws the footprints and labels of at most this many
    /// places, the most likely first (the legend says how many more).
    public static let maxDrawnPlaces = 200
    /// The footprints drawn hold at most this many vertices in all: a
    /// footprint that would pass it is drawn as its box instead
    /// (`data-drawn="box"`), so a picture stays a few MB at most.
    public static let maxDrawnVertices = 100_000
    /// The view reaches at most this far from the fix, in meters: 1.1 times
    /// the search radius of the largest accuracy accepted (4σ of 50 km,
    /// 132 km).
    public static let maxViewMeters = 150_000.0
    /// At most this many grid lines each way (the grid's step is a third
    /// of the view or more, so 10 at most are drawn).
    static let maxGridLines = 16

    /// The picture of what the model saw, as a self-contained SVG document:
    /// the fix and its 68% circle, each listed place's footprint (polygon,
    /// line or box, to scale in meters in the local plane around the fix,
    /// north up) shaded by its likelihood and labelled with its name and
    /// likelihood, a legend, and a scale bar. Text is escaped; nothing
    /// outside the document is referenced.
    ///
    /// Its work and size are bounded whatever the scene holds (a scene
    /// may be built by hand, unvalidated): the accuracy is taken within
    /// (0, `CurrentPlaceRequest.maxAccuracyMeters`], the view within
    /// `maxViewMeters`, at most `maxDrawnPlaces` places and
    /// `maxDrawnVertices` vertices are drawn.
    public func svg() -> String {
        let fix = request.location
        let accuracy = Self.bounded(request.accuracyMeters, CurrentPlaceRequest.maxAccuracyMeters)
        let places = result.placeLikelihoods
        // Places drawn (footprint and label): those with a footprint, the
        // most likely first, at most maxDrawnPlaces.
        let drawn = min(places.count, footprints.count, Self.maxDrawnPlaces)
        // A footprint whose vertices would pass the budget is drawn as its box.
        var asBox = [Bool](repeating: false, count: drawn)
        var vertices = 0
        for i in 0..<drawn {
            let f = footprints[i]
            let n = f.parts.reduce(0) { $0 + $1.count }
            if f.kind != .box && vertices + n > Self.maxDrawnVertices { asBox[i] = true } else { vertices += n }
        }

        // The view: a square around the fix holding the 68% circle and the
        // footprints whole (a viewport's 250 m x 300 m box shows for what it
        // is), up to 1 km or the search radius when that is larger (a large
        // park's far side is cut).
        let searchRadius = result.searchRadiusMeters.isFinite ? max(result.searchRadiusMeters, 0) : 0
        let limit = min(max(searchRadius * 1.1, accuracy * 1.15, 1000), Self.maxViewMeters)
        var reach = max(accuracy * 1.15, 10)
        for f in footprints.prefix(drawn) {
            let b = f.bounds
            let far = 1.08 * max(abs(b.west), abs(b.east), abs(b.south), abs(b.north))
            if far.isFinite { reach = max(reach, far) }
        }
        let half = min(reach, limit)

        let mapSize = 560.0, mapX = 20.0, mapY = 64.0
        let legendX = mapX + mapSize + 20, width = legendX + 260
        let height = mapY + mapSize + 36
        let scale = mapSize / (2 * half)
        func x(_ east: Double) -> Double { mapX + (east + half) * scale }
        func y(_ north: Double) -> Double { mapY + (half - north) * scale }
        let n = SVGWriter.number

        let where_ = "\(Self.degrees(fix.latitude)),\(Self.degrees(fix.longitude))"
        var svg = SVGWriter(
            width: width, height: height, title: "Current place at \(where_), accuracy \(n(accuracy)) m",
            description: "The fix at \(where_) with its 68% circle of \(n(accuracy)) m, and the footprints of the \(places.count) places listed, "
                + "shaded by likelihood; none of these: \(Self.likelihood(result.noneLikelihood)). North is up; meters in the local plane around the fix.")
        svg.element("rect", [("width", n(width)), ("height", n(height)), ("fill", "#ffffff")])
        svg.element("text", [("x", n(mapX)), ("y", "26"), ("font-size", "17"), ("font-weight", "bold"), ("fill", "#111827")],
                    text: "placedb current \(where_), accuracy \(n(accuracy)) m (68%)")
        svg.element("text", [("x", n(mapX)), ("y", "48"), ("font-size", "12.5"), ("fill", "#4b5563")],
                    text: "σ \(n(min(result.sigmaMeters, Self.maxViewMeters))) m per axis · \(result.candidateCount) candidate\(result.candidateCount == 1 ? "" : "s") · "
                        + "\(places.count) listed · none of these \(Self.likelihood(result.noneLikelihood)) · footprints to scale, north up")

        // The map, clipped to its square.
        svg.start("defs")
        svg.start("clipPath", [("id", "map-clip")])
        svg.element("rect", [("x", n(mapX)), ("y", n(mapY)), ("width", n(mapSize)), ("height", n(mapSize))])
        svg.end()
        svg.end()
        svg.element("rect", [("x", n(mapX)), ("y", n(mapY)), ("width", n(mapSize)), ("height", n(mapSize)),
                             ("fill", "#f5f5f0"), ("stroke", "#9ca3af")])
        svg.start("g", [("clip-path", "url(#map-clip)")])
        // A light grid at the scale bar's step.
        let step = SVGWriter.niceLength(atMost: half * 2 / 3.5)
        svg.start("g", [("stroke", "#e5e5dc"), ("stroke-width", "1")])
        let firstLine = (-half / step).rounded(.down)
        for k in 0..<Self.maxGridLines {
            let g = (firstLine + Double(k)) * step
            if g > half { break }
            svg.element("line", [("x1", n(x(g))), ("y1", n(mapY)), ("x2", n(x(g))), ("y2", n(mapY + mapSize))])
            svg.element("line", [("x1", n(mapX)), ("y1", n(y(g))), ("x2", n(mapX + mapSize)), ("y2", n(y(g)))])
        }
        svg.end()

        // Footprints in two passes, so none hides another: the fills of
        // areas and boxes (least likely first), then every outline and line
        // on top. The element of the first pass (the line's of the second)
        // carries the place's ID, rank and likelihood.
        let order = (0..<drawn).sorted { places[$0].likelihood < places[$1].likelihood || (places[$0].likelihood == places[$1].likelihood && $0 > $1) }
        func kind(_ i: Int) -> FootprintOutline.Kind { asBox[i] ? .box : footprints[i].kind }
        func info(_ i: Int) -> [(String, String)] {
            [("class", "footprint \(kind(i).rawValue)"), ("data-rank", "\(i + 1)"), ("data-place-id", places[i].place.id.rawValue),
             ("data-source", footprints[i].source), ("data-likelihood", Self.likelihood(places[i].likelihood))]
                + (asBox[i] ? [("data-drawn", "box")] : [])
        }
        func path(_ f: FootprintOutline) -> String {
            f.parts.map { part in
                "M" + part.map { "\(n(x($0.east))),\(n(y($0.north)))" }.joined(separator: "L") + (f.kind == .line ? "" : "Z")
            }.joined()
        }
        func box(_ f: FootprintOutline) -> [(String, String)] {
            let b = f.bounds
            return [("x", n(x(b.west))), ("y", n(y(b.north))), ("width", n((b.east - b.west) * scale)), ("height", n((b.north - b.south) * scale))]
        }
        for i in order {
            let f = footprints[i], hue = Self.color(rank: i), fill = [("fill", hue), ("fill-opacity", Self.opacity(places[i].likelihood))]
            switch kind(i) {
            case .box: svg.element("rect", info(i) + box(f) + fill)
            case .polygon: svg.element("path", info(i) + [("d", path(f))] + fill + [("fill-rule", "evenodd")])
            case .line: continue
            }
        }
        // The fix's 68% circle.
        svg.element("circle", [("class", "accuracy-circle"), ("cx", n(x(0))), ("cy", n(y(0))), ("r", n(accuracy * scale)),
                               ("fill", "#2563eb"), ("fill-opacity", "0.06"), ("stroke", "#2563eb"), ("stroke-width", "1.5"),
                               ("stroke-dasharray", "6 4")])
        for i in order {
            let f = footprints[i], hue = Self.color(rank: i), p = places[i].likelihood
            let stroke: [(String, String)] = [("fill", "none"), ("stroke", hue), ("stroke-width", "1.5")]
            switch kind(i) {
            case .box: svg.element("rect", [("class", "outline")] + box(f) + stroke + (f.source == "type" ? [("stroke-dasharray", "3 2")] : []))
            case .polygon: svg.element("path", [("class", "outline"), ("d", path(f))] + stroke)
            case .line:
                svg.element("path", info(i) + [("d", path(f)), ("fill", "none"), ("stroke", hue), ("stroke-opacity", Self.opacity(0.4 + 0.6 * p)),
                                               ("stroke-width", n(2 + 4 * p)), ("stroke-linecap", "round"), ("stroke-linejoin", "round")])
            }
            svg.element("circle", [("cx", n(x(f.location.east))), ("cy", n(y(f.location.north))), ("r", "2.5"), ("fill", hue)])
        }

        // The fix itself, over the footprints.
        svg.element("circle", [("class", "fix"), ("cx", n(x(0))), ("cy", n(y(0))), ("r", "4.5"), ("fill", "#2563eb"),
                               ("stroke", "#ffffff"), ("stroke-width", "2")])
        svg.end()

        // Labels: name and likelihood at each footprint, moved down a line
        // while they would overlap one already placed.
        var placed: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        let fontSize = 12.0, lineHeight = 15.0
        svg.start("g", [("font-size", n(fontSize)), ("fill", "#111827"), ("stroke", "#ffffff"), ("stroke-width", "3"),
                        ("paint-order", "stroke"), ("stroke-linejoin", "round")])
        for i in 0..<drawn {
            let f = footprints[i]
            let label = "\(i + 1). \(Self.short(Self.name(places[i].place), 34)) \(Self.likelihood(places[i].likelihood))"
            let w = Double(label.count) * fontSize * 0.56
            let anchor = Self.anchor(f, half: half)
            var lx = min(max(x(anchor.east) + 6, mapX + 2), mapX + mapSize - w - 2)
            var ly = min(max(y(anchor.north) - 6, mapY + lineHeight), mapY + mapSize - 4)
            for _ in 0..<12 where placed.contains(where: { lx < $0.x1 && lx + w > $0.x0 && ly - lineHeight < $0.y1 && ly > $0.y0 }) {
                ly += lineHeight
                if ly > mapY + mapSize - 4 { ly = mapY + lineHeight }
            }
            lx = max(lx, mapX + 2)
            placed.append((lx, ly - lineHeight, lx + w, ly))
            svg.element("text", [("class", "label"), ("data-rank", "\(i + 1)"), ("x", n(lx)), ("y", n(ly))], text: label)
        }
        svg.end()
        if places.isEmpty {
            svg.element("text", [("x", n(mapX + mapSize / 2)), ("y", n(mapY + 24)), ("font-size", "14"), ("text-anchor", "middle"),
                                 ("fill", "#4b5563")], text: "no places near this fix")
        }

        // North and the scale bar.
        svg.element("text", [("x", n(mapX + mapSize - 16)), ("y", n(mapY + 20)), ("font-size", "13"), ("font-weight", "bold"),
                             ("text-anchor", "middle"), ("fill", "#374151")], text: "N ↑")
        let barMeters = SVGWriter.niceLength(atMost: half * 2 * 0.3)
        let barX = mapX + 14, barY = mapY + mapSize - 16, barLength = barMeters * scale
        svg.start("g", [("id", "scale-bar"), ("data-meters", n(barMeters))])
        svg.element("rect", [("x", n(barX - 6)), ("y", n(barY - 20)), ("width", n(barLength + 12)), ("height", "28"),
                             ("fill", "#ffffff"), ("fill-opacity", "0.8")])
        svg.element("line", [("class", "scale-bar"), ("x1", n(barX)), ("y1", n(barY)), ("x2", n(barX + barLength)), ("y2", n(barY)),
                             ("stroke", "#111827"), ("stroke-width", "3")])
        for tick in [barX, barX + barLength] {
            svg.element("line", [("x1", n(tick)), ("y1", n(barY - 5)), ("x2", n(tick)), ("y2", n(barY + 3)), ("stroke", "#111827"), ("stroke-width", "1.5")])
        }
        svg.element("text", [("class", "scale-label"), ("x", n(barX + barLength / 2)), ("y", n(barY - 8)), ("font-size", "12"),
                             ("text-anchor", "middle"), ("fill", "#111827")], text: Self.meters(barMeters))
        svg.end()

        // The legend: every place listed, most likely first, then none of these.
        var ly = mapY + 12
        svg.element("text", [("x", n(legendX)), ("y", n(ly)), ("font-size", "13"), ("font-weight", "bold"), ("fill", "#111827")],
                    text: "Likelihood (fill: darker is likelier)")
        ly += 22
        for (i, l) in places.prefix(drawn).enumerated() {
            let f = footprints[i]
            svg.element("rect", [("x", n(legendX)), ("y", n(ly - 11)), ("width", "14"), ("height", "14"), ("fill", Self.color(rank: i)),
                                 ("fill-opacity", Self.opacity(l.likelihood)), ("stroke", Self.color(rank: i))])
            svg.element("text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "12"), ("fill", "#111827")],
                        text: "\(i + 1). \(Self.likelihood(l.likelihood))  \(Self.short(Self.name(l.place), 26))")
            let distance = (f.location.east * f.location.east + f.location.north * f.location.north).squareRoot()
            let type = l.place.primaryType ?? l.place.types.first
            svg.element("text", [("x", n(legendX + 20)), ("y", n(ly + 14)), ("font-size", "10.5"), ("fill", "#6b7280")],
                        text: "\(f.source)\(type.map { ", \(Self.short($0, 20))" } ?? ""), \(Self.distance(distance)) away")
            ly += 34
            if (ly > mapY + mapSize - 30 || i + 1 == drawn) && i + 1 < places.count {
                svg.element("text", [("x", n(legendX)), ("y", n(ly)), ("font-size", "11"), ("fill", "#6b7280")],
                            text: "… \(places.count - i - 1) more")
                ly += 20
                break
            }
        }
        svg.element("text", [("x", n(legendX)), ("y", n(ly)), ("font-size", "12"), ("fill", "#111827")],
                    text: "none of these: \(Self.likelihood(result.noneLikelihood))")
        ly += 24
        svg.element("circle", [("cx", n(legendX + 7)), ("cy", n(ly - 4)), ("r", "4.5"), ("fill", "#2563eb")])
        svg.element("text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "11"), ("fill", "#4b5563")],
                    text: "the fix; dashed circle: 68% (\(Self.meters(accuracy)))")
        ly += 18
        svg.element("text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "11"), ("fill", "#4b5563")],
                    text: "dashed box: size by type")
        return svg.finish()
    }

    /// Where a footprint's label goes: the middle of its part inside the
    /// view (a line's middle vertex, else the middle of its box, clipped).
    static func anchor(_ f: FootprintOutline, half: Double) -> FootprintOutline.Point {
        if f.kind == .line, let line = f.parts.first {
            // Halfway along the (first) line.
            let length = zip(line, line.dropFirst()).reduce(0) { $0 + hypot($1.1.east - $1.0.east, $1.1.north - $1.0.north) }
            var left = length / 2
            for (a, b) in zip(line, line.dropFirst()) {
                let d = hypot(b.east - a.east, b.north - a.north)
                if d >= left && d > 0 {
                    let m = FootprintOutline.Point(east: a.east + (b.east - a.east) * left / d, north: a.north + (b.north - a.north) * left / d)
                    if abs(m.east) <= half && abs(m.north) <= half { return m }
                    break
                }
                left -= d
            }
        }
        let b = f.bounds
        let w = max(b.west, -half), e = min(b.east, half), s = max(b.south, -half), n = min(b.north, half)
        return .init(east: (max(w, min(e, (w + e) / 2))), north: max(s, min(n, (s + n) / 2)))
    }

    /// `value` within (0, `limit`]: `limit` when it is not a positive
    /// finite number.
    static func bounded(_ value: Double, _ limit: Double) -> Double {
        value.isFinite && value > 0 ? min(value, limit) : limit
    }

    static func name(_ p: Place) -> String { p.displayName?.text ?? p.id.rawValue }

    static func short(_ s: String, _ limit: Int) -> String { s.count <= limit ? s : String(s.prefix(limit - 1)) + "…" }

    /// As `placedb current` prints it: rounded down, 3 decimals here.
    static func likelihood(_ p: Double) -> String { String(format: "%.3f", (p * 1000).rounded(.down) / 1000) }

    static func opacity(_ p: Double) -> String { String(format: "%.3f", 0.06 + 0.64 * min(max(p, 0), 1)) }

    static func meters(_ m: Double) -> String {
        m >= 1000 ? "\(SVGWriter.number(m / 1000)) km" : "\(SVGWriter.number(m)) m"
    }

    /// A distance as the text output prints one: 0.1 m below 10 m, then whole meters, then km.
    static func distance(_ m: Double) -> String {
        m < 10 ? String(format: "%.1f m", m) : m < 1000 ? "\(Int(m.rounded())) m" : String(format: "%.2f km", m / 1000)
    }

    static func degrees(_ d: Double) -> String {
        var s = String(format: "%.6f", d)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// Colours of the places by rank (distinct, readable on white); the
    /// shade of each is its likelihood.
    static func color(rank: Int) -> String {
        let palette = ["#c2410c", "#7c3aed", "#0f766e", "#b91c1c", "#a16207", "#be185d", "#4d7c0f", "#1e40af", "#6b7280", "#0e7490"]
        return palette[rank % palette.count]
    }
}
