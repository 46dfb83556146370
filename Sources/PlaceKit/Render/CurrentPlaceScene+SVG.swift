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

    /// The map's square and the legend, in pixels.
    static let mapX = 20.0, mapY = 64.0, mapSize = 560.0
    static let legendWidth = 300.0
    /// The labels' font size and the most a label's box lies from the
    /// point it names (its anchor), in pixels.
    static let labelFontSize = 12.0
    static let labelReach = 12.0

    /// The picture of what the model saw, as a self-contained SVG document.
    /// The view (`view()`) frames the fix's 68% circle, the most likely
    /// place and the places at least `likelihoodFloor` likely; in it, the
    /// stored streets as a light basemap, each listed place's footprint
    /// (polygon, line or box, to scale in meters in the local plane around
    /// the fix, north up) shaded by its likelihood and labelled with its
    /// name and likelihood next to it, and for a place the view does not
    /// meet, an arrow at the edge pointing at it, labelled; a legend and a
    /// scale bar. Every label lies inside the map, next to what it names,
    /// or is cut to its rank. Text is escaped; nothing outside the document
    /// is referenced.
    ///
    /// Its work and size are bounded whatever the scene holds (a scene
    /// may be built by hand, unvalidated): the accuracy is taken within
    /// (0, `CurrentPlaceRequest.maxAccuracyMeters`], the view within
    /// `maxViewMeters`, at most `maxDrawnPlaces` places, `maxDrawnVertices`
    /// vertices of footprints and `maxStreetVertices` of streets are drawn.
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

        let view = view()
        let mapX = Self.mapX, mapY = Self.mapY, mapSize = Self.mapSize
        let legendX = mapX + mapSize + 20
        let where_ = "\(Self.degrees(fix.latitude)),\(Self.degrees(fix.longitude))"
        let title = "placedb current \(where_), accuracy \(SVGWriter.number(accuracy)) m (68%)"
        let width = max(legendX + Self.legendWidth, mapX + SVGWriter.textWidth(title, fontSize: 17, bold: true) + 20)
        let height = mapY + mapSize + 36
        let scale = mapSize / view.side
        func x(_ east: Double) -> Double { mapX + (east - view.west) * scale }
        func y(_ north: Double) -> Double { mapY + (view.north - north) * scale }
        let n = SVGWriter.number

        var svg = SVGWriter(
            width: width, height: height, title: "Current place at \(where_), accuracy \(n(accuracy)) m",
            description:
                "The fix at \(where_) with its 68% circle of \(n(accuracy)) m, and the footprints of the \(places.count) places listed, "
                + "shaded by likelihood; none of these: \(Self.likelihood(result.noneLikelihood)). North is up; meters in the local plane around the fix."
        )
        svg.element("rect", [("width", n(width)), ("height", n(height)), ("fill", "#ffffff")])
        svg.element(
            "text", [("x", n(mapX)), ("y", "26"), ("font-size", "17"), ("font-weight", "bold"), ("fill", "#111827")],
            text: title)
        let subtitle =
            "σ \(n(min(result.sigmaMeters, Self.maxViewMeters))) m per axis · \(result.candidateCount) candidate\(result.candidateCount == 1 ? "" : "s") · "
            + "\(places.count) listed · none of these \(Self.likelihood(result.noneLikelihood)) · to scale, north up"
        svg.element(
            "text", [("x", n(mapX)), ("y", "48"), ("font-size", "12.5"), ("fill", "#4b5563")],
            text: SVGWriter.fit(subtitle, width: width - mapX - 12, fontSize: 12.5))

        // The map, clipped to its square.
        svg.start("defs")
        svg.start("clipPath", [("id", "map-clip")])
        svg.element("rect", [("x", n(mapX)), ("y", n(mapY)), ("width", n(mapSize)), ("height", n(mapSize))])
        svg.end()
        svg.end()
        svg.element(
            "rect",
            [
                ("class", "map"), ("x", n(mapX)), ("y", n(mapY)), ("width", n(mapSize)), ("height", n(mapSize)),
                ("fill", "#f5f5f0"), ("stroke", "#9ca3af"),
                ("data-west", n(view.west)), ("data-south", n(view.south)), ("data-side", n(view.side)),
            ])
        svg.start("g", [("clip-path", "url(#map-clip)")])
        // A light grid at the scale bar's step.
        let step = SVGWriter.niceLength(atMost: view.side / 3.5)
        svg.start("g", [("stroke", "#e5e5dc"), ("stroke-width", "1")])
        let firstEast = (view.west / step).rounded(.up), firstNorth = (view.south / step).rounded(.up)
        for k in 0..<Self.maxGridLines {
            let ge = (firstEast + Double(k)) * step
            if ge <= view.east {
                svg.element("line", [("x1", n(x(ge))), ("y1", n(mapY)), ("x2", n(x(ge))), ("y2", n(mapY + mapSize))])
            }
            let gn = (firstNorth + Double(k)) * step
            if gn <= view.north {
                svg.element("line", [("x1", n(mapX)), ("y1", n(y(gn))), ("x2", n(mapX + mapSize)), ("y2", n(y(gn)))])
            }
        }
        svg.end()

        // The streets, a light basemap under everything.
        if !streets.isEmpty {
            svg.start(
                "g",
                [
                    ("class", "streets"), ("data-count", "\(streets.count)"), ("fill", "none"), ("stroke", "#d6d3d1"),
                    ("stroke-width", "3"), ("stroke-linecap", "round"), ("stroke-linejoin", "round"),
                ])
            var budget = Self.maxStreetVertices
            for line in streets where line.count >= 2 && line.count <= budget {
                budget -= line.count
                svg.element(
                    "path",
                    [
                        ("class", "street"),
                        ("d", "M" + line.map { "\(n(x($0.east))),\(n(y($0.north)))" }.joined(separator: "L")),
                    ])
            }
            svg.end()
        }

        // Footprints in two passes, so none hides another: the fills of
        // areas and boxes (least likely first), then every outline and line
        // on top. The element of the first pass (the line's of the second)
        // carries the place's ID, rank and likelihood.
        let order = (0..<drawn).sorted {
            places[$0].likelihood < places[$1].likelihood || (places[$0].likelihood == places[$1].likelihood && $0 > $1)
        }
        func kind(_ i: Int) -> FootprintOutline.Kind { asBox[i] ? .box : footprints[i].kind }
        // Where each place's label goes: a point of it inside the view,
        // or nil (then an arrow at the edge points at it).
        let framed = Set(view.framed)
        let anchors = (0..<drawn).map {
            Self.anchor(footprints[$0], kind: kind($0), view: view, framed: framed.contains($0))
        }
        // Filled: the places that set the view and those wholly in it (a
        // large box of an unlikely place reaching in is only outlined, so
        // it does not tint the map).
        let filled = (0..<drawn).map { i -> Bool in
            let b = footprints[i].bounds
            return framed.contains(i)
                || (b.west >= view.west && b.east <= view.east && b.south >= view.south && b.north <= view.north)
        }
        func info(_ i: Int) -> [(String, String)] {
            [
                ("class", "footprint \(kind(i).rawValue)"), ("data-rank", "\(i + 1)"),
                ("data-place-id", places[i].place.id.rawValue),
                ("data-source", footprints[i].source),
                ("data-likelihood", String(format: "%.6f", PlaceReader.roundedLikelihood(places[i].likelihood))),
                ("data-shown", anchors[i] == nil ? "arrow" : "map"),
            ]
                + (asBox[i] ? [("data-drawn", "box")] : [])
        }
        func path(_ f: FootprintOutline) -> String {
            f.parts.map { part in
                "M" + part.map { "\(n(x($0.east))),\(n(y($0.north)))" }.joined(separator: "L")
                    + (f.kind == .line ? "" : "Z")
            }.joined()
        }
        func box(_ f: FootprintOutline) -> [(String, String)] {
            let b = f.bounds
            return [
                ("x", n(x(b.west))), ("y", n(y(b.north))), ("width", n((b.east - b.west) * scale)),
                ("height", n((b.north - b.south) * scale)),
            ]
        }
        for i in order {
            let f = footprints[i], hue = Self.color(rank: i)
            let fill =
                filled[i] ? [("fill", hue), ("fill-opacity", Self.opacity(places[i].likelihood))] : [("fill", "none")]
            switch kind(i) {
            case .box: svg.element("rect", info(i) + box(f) + fill)
            case .polygon: svg.element("path", info(i) + [("d", path(f))] + fill + [("fill-rule", "evenodd")])
            case .line: continue
            }
        }
        // The fix's 68% circle.
        svg.element(
            "circle",
            [
                ("class", "accuracy-circle"), ("cx", n(x(0))), ("cy", n(y(0))), ("r", n(accuracy * scale)),
                ("fill", "#2563eb"), ("fill-opacity", "0.06"), ("stroke", "#2563eb"), ("stroke-width", "1.5"),
                ("stroke-dasharray", "6 4"),
            ])
        for i in order {
            let f = footprints[i], hue = Self.color(rank: i), p = places[i].likelihood
            let stroke: [(String, String)] = [
                ("fill", "none"), ("stroke", hue), ("stroke-width", i == 0 ? "2.5" : "1.5"),
            ]
            switch kind(i) {
            case .box:
                svg.element(
                    "rect",
                    [("class", "outline")] + box(f) + stroke + (f.source == "type" ? [("stroke-dasharray", "3 2")] : [])
                )
            case .polygon: svg.element("path", [("class", "outline"), ("d", path(f))] + stroke)
            case .line:
                svg.element(
                    "path",
                    info(i) + [
                        ("d", path(f)), ("fill", "none"), ("stroke", hue),
                        ("stroke-opacity", Self.opacity(0.4 + 0.6 * p)),
                        ("stroke-width", n(2 + 4 * p)), ("stroke-linecap", "round"), ("stroke-linejoin", "round"),
                    ])
            }
            svg.element(
                "circle",
                [
                    ("class", "location"), ("data-rank", "\(i + 1)"), ("cx", n(x(f.location.east))),
                    ("cy", n(y(f.location.north))),
                    ("r", "2.5"), ("fill", hue),
                ])
        }

        // The fix itself, over the footprints.
        svg.element(
            "circle",
            [
                ("class", "fix"), ("cx", n(x(0))), ("cy", n(y(0))), ("r", "4.5"), ("fill", "#2563eb"),
                ("stroke", "#ffffff"), ("stroke-width", "2"),
            ])

        // Arrows at the edge towards the places the view does not meet.
        let inner = (x0: mapX + 16, y0: mapY + 16, x1: mapX + mapSize - 16, y1: mapY + mapSize - 16)
        let centre = (x: mapX + mapSize / 2, y: mapY + mapSize / 2)
        var labelAnchors: [(x: Double, y: Double)?] = anchors.map { $0.map { (x($0.east), y($0.north)) } }
        var arrowBoxes: [Self.Box] = []
        for i in 0..<drawn where anchors[i] == nil {
            // Towards the place's location.
            let target = footprints[i].location
            var dx = x(target.east) - centre.x, dy = y(target.north) - centre.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length.isFinite, length > 0 else { continue }
            dx /= length; dy /= length
            var t = Double.infinity
            if dx > 0 {
                t = min(t, (inner.x1 - centre.x) / dx)
            } else if dx < 0 {
                t = min(t, (inner.x0 - centre.x) / dx)
            }
            if dy > 0 {
                t = min(t, (inner.y1 - centre.y) / dy)
            } else if dy < 0 {
                t = min(t, (inner.y0 - centre.y) / dy)
            }
            let tip = (x: centre.x + dx * t, y: centre.y + dy * t)
            let tail = (x: tip.x - dx * 22, y: tip.y - dy * 22)
            let head1 = (x: tip.x - dx * 8 - dy * 4.5, y: tip.y - dy * 8 + dx * 4.5),
                head2 = (x: tip.x - dx * 8 + dy * 4.5, y: tip.y - dy * 8 - dx * 4.5)
            svg.element(
                "path",
                [
                    ("class", "arrow"), ("data-rank", "\(i + 1)"), ("data-place-id", places[i].place.id.rawValue),
                    ("data-tip-x", n(tip.x)), ("data-tip-y", n(tip.y)), ("data-tail-x", n(tail.x)),
                    ("data-tail-y", n(tail.y)),
                    (
                        "d",
                        "M\(n(tail.x)),\(n(tail.y))L\(n(tip.x)),\(n(tip.y))M\(n(head1.x)),\(n(head1.y))L\(n(tip.x)),\(n(tip.y))L\(n(head2.x)),\(n(head2.y))"
                    ),
                    ("fill", "none"), ("stroke", Self.color(rank: i)), ("stroke-width", "2.5"),
                    ("stroke-linecap", "round"),
                    ("stroke-linejoin", "round"),
                ])
            labelAnchors[i] = tail
            let xs = [tail.x, tip.x, head1.x, head2.x], ys = [tail.y, tip.y, head1.y, head2.y]
            arrowBoxes.append((xs.min()! - 1, ys.min()! - 1, xs.max()! + 1, ys.max()! + 1))
        }
        svg.end()

        // North and the scale bar.
        svg.element(
            "text",
            [
                ("x", n(mapX + mapSize - 16)), ("y", n(mapY + 20)), ("font-size", "13"), ("font-weight", "bold"),
                ("text-anchor", "middle"), ("fill", "#374151"),
            ], text: "N ↑")
        let barMeters = SVGWriter.niceLength(atMost: view.side * 0.3)
        let barX = mapX + 14, barY = mapY + mapSize - 16, barLength = barMeters * scale
        svg.start("g", [("id", "scale-bar"), ("data-meters", n(barMeters))])
        svg.element(
            "rect",
            [
                ("x", n(barX - 6)), ("y", n(barY - 20)), ("width", n(barLength + 12)), ("height", "28"),
                ("fill", "#ffffff"), ("fill-opacity", "0.8"),
            ])
        svg.element(
            "line",
            [
                ("class", "scale-bar"), ("x1", n(barX)), ("y1", n(barY)), ("x2", n(barX + barLength)), ("y2", n(barY)),
                ("stroke", "#111827"), ("stroke-width", "3"),
            ])
        for tick in [barX, barX + barLength] {
            svg.element(
                "line",
                [
                    ("x1", n(tick)), ("y1", n(barY - 5)), ("x2", n(tick)), ("y2", n(barY + 3)), ("stroke", "#111827"),
                    ("stroke-width", "1.5"),
                ])
        }
        svg.element(
            "text",
            [
                ("class", "scale-label"), ("x", n(barX + barLength / 2)), ("y", n(barY - 8)), ("font-size", "12"),
                ("text-anchor", "middle"), ("fill", "#111827"),
            ], text: Self.meters(barMeters))
        svg.end()

        // Labels: name and likelihood next to what they name (a point of
        // the footprint in the view, or an arrow's tail), inside the map,
        // clear of each other, the fix, the north sign and the scale bar;
        // where no such spot is free, the rank alone.
        let fontSize = Self.labelFontSize
        let frame: Self.Box = (mapX + 2, mapY + 2, mapX + mapSize - 2, mapY + mapSize - 2)
        // A small footprint in the view (48 px or less each way): its
        // label goes beside it, not over it, and other labels keep off
        // the most likely place's.
        let smallBoxes = (0..<drawn).map { i -> Self.Box? in
            guard anchors[i] != nil else { return nil }
            let b = footprints[i].bounds
            let box: Self.Box = (
                max(x(b.west), mapX), max(y(b.north), mapY), min(x(b.east), mapX + mapSize),
                min(y(b.south), mapY + mapSize)
            )
            guard box.x0 <= box.x1, box.y0 <= box.y1, box.x1 - box.x0 <= 48, box.y1 - box.y0 <= 48 else { return nil }
            return box
        }
        var taken: [Self.Box] =
            [
                (x(0) - 5.5, y(0) - 5.5, x(0) + 5.5, y(0) + 5.5),
                (mapX + mapSize - 30, mapY + 4, mapX + mapSize - 2, mapY + 26),
                (barX - 6, barY - 20, barX + barLength + 6, barY + 8),
            ] + arrowBoxes + (drawn > 0 ? smallBoxes[0].map { [$0] } ?? [] : [])
        svg.start(
            "g",
            [
                ("font-size", n(fontSize)), ("fill", "#111827"), ("stroke", "#ffffff"), ("stroke-width", "3"),
                ("paint-order", "stroke"), ("stroke-linejoin", "round"),
            ])
        for i in 0..<drawn {
            guard let a = labelAnchors[i] else { continue }
            let name = Self.name(places[i].place), p = Self.likelihood(places[i].likelihood)
            var full = "\(i + 1). \(Self.short(name, 34)) \(p)"
            if anchors[i] == nil {
                let d =
                    (footprints[i].location.east * footprints[i].location.east + footprints[i].location.north
                    * footprints[i].location.north).squareRoot()
                full = "\(i + 1). \(Self.short(name, 28)) \(p), \(Self.distance(d))"
            }
            full = SVGWriter.fit(full, width: mapSize - 8, fontSize: fontSize)
            // The anchor, then the middles of a small footprint's sides.
            var tries = [a]
            var obstacles = taken
            if let b = smallBoxes[i] {
                let mx = (b.x0 + b.x1) / 2, my = (b.y0 + b.y1) / 2
                tries += [(b.x1, my), (b.x0, my), (mx, b.y0), (mx, b.y1)]
                obstacles.append(b)
            }
            var text = full, spot: (x: Double, y: Double, box: Self.Box)?, anchor = a
            search: for candidate in [full, "\(i + 1)"] {
                for t in tries {
                    if let found = Self.labelSpot(candidate, at: t, fontSize: fontSize, frame: frame, taken: obstacles)
                    {
                        (text, spot, anchor) = (candidate, found, t)
                        break search
                    }
                }
            }
            if spot == nil {
                // Nowhere free: the rank over whatever is there, still next to its place.
                text = "\(i + 1)"
                spot = Self.labelSpot(text, at: a, fontSize: fontSize, frame: frame, taken: [])
            }
            guard let s = spot else { continue }
            taken.append(s.box)
            svg.element(
                "text",
                [
                    ("class", "label"), ("data-rank", "\(i + 1)"), ("data-place-id", places[i].place.id.rawValue),
                    ("data-target", anchors[i] == nil ? "arrow" : "footprint"),
                    ("data-anchor-x", n(anchor.x)), ("data-anchor-y", n(anchor.y)),
                    ("x", n(s.x)), ("y", n(s.y)), ("font-size", n(fontSize)),
                ], text: text)
        }
        svg.end()
        if places.isEmpty {
            svg.element(
                "text",
                [
                    ("x", n(mapX + mapSize / 2)), ("y", n(mapY + 24)), ("font-size", "14"), ("text-anchor", "middle"),
                    ("fill", "#4b5563"),
                ], text: "no places near this fix")
        }

        // The legend: every place listed, most likely first, then none of these.
        let legendText = Self.legendWidth - 24
        var ly = mapY + 12
        svg.element(
            "text",
            [("x", n(legendX)), ("y", n(ly)), ("font-size", "13"), ("font-weight", "bold"), ("fill", "#111827")],
            text: "Likelihood (darker: likelier)")
        ly += 22
        for (i, l) in places.prefix(drawn).enumerated() {
            let f = footprints[i]
            svg.element(
                "rect",
                [
                    ("x", n(legendX)), ("y", n(ly - 11)), ("width", "14"), ("height", "14"),
                    ("fill", Self.color(rank: i)),
                    ("fill-opacity", Self.opacity(l.likelihood)), ("stroke", Self.color(rank: i)),
                ])
            svg.element(
                "text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "12"), ("fill", "#111827")],
                text: SVGWriter.fit(
                    "\(i + 1). \(Self.likelihood(l.likelihood))  \(Self.name(l.place))", width: legendText, fontSize: 12
                ))
            let distance = (f.location.east * f.location.east + f.location.north * f.location.north).squareRoot()
            let type = l.place.primaryType ?? l.place.types.first
            let outside = anchors[i] == nil ? " (arrow)" : ""
            svg.element(
                "text", [("x", n(legendX + 20)), ("y", n(ly + 14)), ("font-size", "10.5"), ("fill", "#6b7280")],
                text: SVGWriter.fit(
                    "\(f.source)\(type.map { ", \($0)" } ?? ""), \(Self.distance(distance)) away\(outside)",
                    width: legendText, fontSize: 10.5))
            ly += 34
            if (ly > mapY + mapSize - 105 || i + 1 == drawn) && i + 1 < places.count {
                svg.element(
                    "text", [("x", n(legendX)), ("y", n(ly)), ("font-size", "11"), ("fill", "#6b7280")],
                    text: "… \(places.count - i - 1) more")
                ly += 20
                break
            }
        }
        svg.element(
            "text", [("x", n(legendX)), ("y", n(ly)), ("font-size", "12"), ("fill", "#111827")],
            text: "none of these: \(Self.likelihood(result.noneLikelihood))")
        ly += 24
        svg.element("circle", [("cx", n(legendX + 7)), ("cy", n(ly - 4)), ("r", "4.5"), ("fill", "#2563eb")])
        svg.element(
            "text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "11"), ("fill", "#4b5563")],
            text: "the fix; dashed circle: 68% (\(Self.meters(accuracy)))")
        ly += 18
        svg.element(
            "text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "11"), ("fill", "#4b5563")],
            text: "dashed box: size by type")
        ly += 18
        svg.element(
            "text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "11"), ("fill", "#4b5563")],
            text: "arrow at the edge: a place outside the view")
        if !streets.isEmpty {
            ly += 18
            svg.element(
                "line",
                [
                    ("x1", n(legendX)), ("y1", n(ly - 4)), ("x2", n(legendX + 14)), ("y2", n(ly - 4)),
                    ("stroke", "#d6d3d1"), ("stroke-width", "3"),
                ])
            svg.element(
                "text", [("x", n(legendX + 20)), ("y", n(ly)), ("font-size", "11"), ("fill", "#4b5563")],
                text: "stored streets")
        }
        return svg.finish()
    }

    /// A box in pixels: x0, y0, x1, y1.
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// Where a label goes next to `anchor`: right of it, left of it, above
    /// or below (each moved inside `frame`; a text at baseline y takes
    /// y - fontSize to y + 0.3 fontSize, its width by
    /// `SVGWriter.textWidth`), the first whose box lies
    /// within `labelReach` of the anchor and meets none of `taken`; nil
    /// when none does. The text's start and baseline, and its box.
    static func labelSpot(_ text: String, at anchor: (x: Double, y: Double), fontSize: Double, frame: Box, taken: [Box])
        -> (x: Double, y: Double, box: Box)?
    {
        let w = SVGWriter.textWidth(text, fontSize: fontSize), h = 1.3 * fontSize, gap = 6.0
        // Box top-left corners around the anchor.
        let corners = [
            (anchor.x + gap, anchor.y - h / 2), (anchor.x - gap - w, anchor.y - h / 2),
            (anchor.x - 6, anchor.y - gap - h), (anchor.x - 6, anchor.y + gap),
            (anchor.x + 6 - w, anchor.y - gap - h), (anchor.x + 6 - w, anchor.y + gap),
            (anchor.x - w / 2, anchor.y - gap - h), (anchor.x - w / 2, anchor.y + gap),
        ]
        for (cx, cy) in corners {
            let x0 = min(max(cx, frame.x0), frame.x1 - w), y0 = min(max(cy, frame.y0), frame.y1 - h)
            guard x0 >= frame.x0 - 0.01, y0 >= frame.y0 - 0.01 else { continue }
            let box: Box = (x0, y0, x0 + w, y0 + h)
            let dx = max(box.x0 - anchor.x, 0, anchor.x - box.x1), dy = max(box.y0 - anchor.y, 0, anchor.y - box.y1)
            guard (dx * dx + dy * dy).squareRoot() <= labelReach else { continue }
            if taken.contains(where: { box.x0 < $0.x1 && box.x1 > $0.x0 && box.y0 < $0.y1 && box.y1 > $0.y0 }) {
                continue
            }
            return (x0, y0 + fontSize, box)
        }
        return nil
    }

    /// Where a footprint's label goes, in meters from the fix: a point of
    /// it inside `view` (kept a little from the edge): the place's own
    /// location (its dot); else, for a place that set the view, the middle
    /// of a box's part in the view, or the middle of a polygon's box when
    /// that lies inside it, or else the middle vertex or edge of those in
    /// the view; for another place, the same for a line or a footprint at
    /// most a third of the view wide (a large area reaching into the view
    /// from afar is labelled by an arrow towards it, not in the middle of
    /// the map). Nil for an arrow.
    static func anchor(_ f: FootprintOutline, kind: FootprintOutline.Kind, view: View, framed: Bool) -> FootprintOutline
        .Point?
    {
        let inset = view.side * 0.01
        func inside(_ p: FootprintOutline.Point) -> Bool {
            p.east >= view.west + inset && p.east <= view.east - inset && p.north >= view.south + inset
                && p.north <= view.north - inset
        }
        if inside(f.location) { return f.location }
        let b = f.bounds
        guard b.west.isFinite, b.east.isFinite, b.south.isFinite, b.north.isFinite else { return nil }
        if !framed && kind != .line && max(b.east - b.west, b.north - b.south) > view.side / 3 { return nil }
        let w = max(b.west, view.west + inset), e = min(b.east, view.east - inset)
        let s = max(b.south, view.south + inset), n = min(b.north, view.north - inset)
        guard w <= e, s <= n else { return nil }
        let middle = FootprintOutline.Point(east: (w + e) / 2, north: (s + n) / 2)
        if kind == .box { return middle }
        if kind == .polygon && contains(f, middle) { return middle }
        var points: [FootprintOutline.Point] = []
        for part in f.parts {
            for (k, p) in part.enumerated() {
                if inside(p) { points.append(p) }
                if k + 1 < part.count {
                    let q = part[k + 1],
                        m = FootprintOutline.Point(east: (p.east + q.east) / 2, north: (p.north + q.north) / 2)
                    if inside(m) { points.append(m) }
                }
            }
        }
        return points.isEmpty ? nil : points[points.count / 2]
    }

    /// Whether `p` lies inside the rings of `f` (even-odd, so holes are out).
    static func contains(_ f: FootprintOutline, _ p: FootprintOutline.Point) -> Bool {
        var odd = false
        for ring in f.parts where ring.count >= 3 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.north > p.north) != (b.north > p.north),
                    p.east < a.east + (p.north - a.north) / (b.north - a.north) * (b.east - a.east)
                {
                    odd.toggle()
                }
                j = i
            }
        }
        return odd
    }

    /// `value` within (0, `limit`]: `limit` when it is not a positive
    /// finite number.
    static func bounded(_ value: Double, _ limit: Double) -> Double {
        value.isFinite && value > 0 ? min(value, limit) : limit
    }

    static func name(_ p: Place) -> String { p.displayName?.text ?? p.id.rawValue }

    static func short(_ s: String, _ limit: Int) -> String { s.count <= limit ? s : String(s.prefix(limit - 1)) + "…" }

    /// A likelihood as the picture writes it: rounded to 3 decimals
    /// (0.799958 is "0.800"); "<0.001" for a likelihood above 0 that would
    /// round to 0.
    static func likelihood(_ p: Double) -> String {
        let p = p.isFinite ? min(max(p, 0), 1) : 0
        return p > 0 && p < 0.0005 ? "<0.001" : String(format: "%.3f", p)
    }

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
        let palette = [
            "#c2410c", "#7c3aed", "#0f766e", "#b91c1c", "#a16207", "#be185d", "#4d7c0f", "#1e40af", "#6b7280",
            "#0e7490",
        ]
        return palette[rank % palette.count]
    }
}
