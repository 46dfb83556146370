import Foundation
import PlaceModel
import PlaceStorage

extension CurrentPlaceScene {
    /// The part of the plane the picture shows: a square, in meters east
    /// and north of the fix.
    public struct View: Sendable, Equatable {
        public var west: Double
        public var south: Double
        /// The square's side, meters.
        public var side: Double
        /// The places (indices into the listed places) whose footprints set it.
        public var framed: [Int]

        public var east: Double { west + side }
        public var north: Double { south + side }

        /// Whether the box `b` (meters from the fix) meets the view.
        func meets(_ b: (west: Double, east: Double, south: Double, north: Double)) -> Bool {
            b.west <= east && b.east >= west && b.south <= north && b.north >= south
        }
    }

    /// Places at least this likely set the view, with the most likely
    /// place and the fix's 68% circle; the others are drawn where they
    /// meet it and pointed at by an arrow at its edge where they do not.
    public static let likelihoodFloor = 0.05

    /// The view is at least this wide (meters), unless the accuracy and the
    /// most likely place are so small that it would make both specks
    /// (then 36 times the accuracy, or 18 times the place's size).
    public static let minViewMeters = 80.0

    /// The view the picture frames: the smallest square (and a tenth more)
    /// that holds the fix's 68% circle, the most likely place's footprint
    /// and the footprints of the places at least `likelihoodFloor` likely,
    /// each within 1 km of the fix (or the search radius when that is
    /// larger). A place past the floor is left out of the frame when it
    /// would make the view so wide that neither the circle nor the most
    /// likely place spans a twentieth of it (so 0.8 times 40 accuracies or
    /// 20 times the top place's size at most); it is still drawn where it
    /// meets the view.
    public func view() -> View {
        let accuracy = Self.bounded(request.accuracyMeters, CurrentPlaceRequest.maxAccuracyMeters)
        let places = result.placeLikelihoods
        let drawn = min(places.count, footprints.count, Self.maxDrawnPlaces)
        let searchRadius = result.searchRadiusMeters.isFinite ? max(result.searchRadiusMeters, 0) : 0
        let limit = min(max(searchRadius * 1.1, accuracy * 1.15, 1000), Self.maxViewMeters)
        typealias Box = (west: Double, east: Double, south: Double, north: Double)
        func clipped(_ i: Int) -> Box? {
            let b = footprints[i].bounds
            guard b.west.isFinite, b.east.isFinite, b.south.isFinite, b.north.isFinite else { return nil }
            let w = max(b.west, -limit), e = min(b.east, limit), s = max(b.south, -limit), n = min(b.north, limit)
            return w <= e && s <= n ? (w, e, s, n) : nil
        }
        func union(_ a: Box, _ b: Box) -> Box {
            (min(a.west, b.west), max(a.east, b.east), min(a.south, b.south), max(a.north, b.north))
        }
        func side(_ b: Box) -> Double { max(b.east - b.west, b.north - b.south) }

        let r = accuracy * 1.1
        var box: Box = (-r, r, -r, r)
        var framed: [Int] = []
        var topSpan = 0.0
        if drawn > 0, let top = clipped(0) {
            box = union(box, top)
            framed.append(0)
            topSpan = side(top)
        }
        let cap = max(side(box), 0.8 * max(40 * accuracy, 20 * topSpan))
        for i in (drawn > 1 ? 1..<drawn : 0..<0) where places[i].likelihood >= Self.likelihoodFloor {
            guard let b = clipped(i) else { continue }
            let u = union(box, b)
            if side(u) <= cap {
                box = u
                framed.append(i)
            }
        }
        let minSide = min(Self.minViewMeters, max(36 * accuracy, 18 * topSpan))
        let s = min(max(side(box) * 1.1, minSide), 2 * Self.maxViewMeters)
        let cx = (box.west + box.east) / 2, cy = (box.south + box.north) / 2
        return View(west: cx - s / 2, south: cy - s / 2, side: s, framed: framed)
    }
}

extension PlaceReader {
    /// The streets (places of primary type "route": OSM ways with a highway
    /// tag and other routes) whose stored lines meet `view`, nearest the
    /// view's centre first, at most `CurrentPlaceScene.maxDrawnStreets`
    /// of them: their lines in meters from the fix, cut to the segments
    /// near the view. Must run inside `store.read`.
    func streets(in view: CurrentPlaceScene.View, fix: Coordinate) throws -> [[FootprintOutline.Point]] {
        let corner = max(abs(view.west), abs(view.east), abs(view.south), abs(view.north)) * 2.0.squareRoot()
        let rects = GeoRect.covering(center: fix, meters: corner + 10)
        let input = try store.loadPlaces(
            in: rects, extentRects: rects, typeFilter: TypeFilter(includedPrimaryTypes: ["route"]))
        let perDegree = Earth.meanRadius * Earth.radiansPerDegree
        let cosFix = cos(fix.latitude * Earth.radiansPerDegree)
        // Segments within a margin of the view are kept (a line leaving
        // and re-entering it is cut in pieces).
        let margin = view.side * 0.05
        let w = view.west - margin, e = view.east + margin, s = view.south - margin, n = view.north + margin
        let cx = view.west + view.side / 2, cy = view.south + view.side / 2
        var found: [(distance: Double, lines: [[FootprintOutline.Point]])] = []
        for i in 0..<input.count {
            let shapeIndex = Int(input.shapeIndexes[i])
            guard shapeIndex >= 0 else { continue }
            let info = input.shapes.info(shapeIndex)
            var dl = input.longitudes[i] - fix.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            let ox = dl * cosFix * perDegree, oy = (input.latitudes[i] - fix.latitude) * perDegree
            // Its box first: most streets of the query's rectangles are off the view.
            let bw = ox + Double(info.west), be = ox + Double(info.east), bs = oy + Double(info.south),
                bn = oy + Double(info.north)
            guard bw <= e, be >= w, bs <= n, bn >= s else { continue }
            let shape = input.shapes.shape(shapeIndex)
            var lines: [[FootprintOutline.Point]] = []
            var start = 0
            for count in shape.partCounts {
                var part = (start..<start + Int(count)).map {
                    FootprintOutline.Point(
                        east: ox + Double(shape.coordinates[2 * $0]), north: oy + Double(shape.coordinates[2 * $0 + 1]))
                }
                if shape.kind == .area, let first = part.first { part.append(first) }
                start += Int(count)
                var piece: [FootprintOutline.Point] = []
                for (a, b) in zip(part, part.dropFirst()) {
                    if min(a.east, b.east) <= e && max(a.east, b.east) >= w && min(a.north, b.north) <= n
                        && max(a.north, b.north) >= s
                    {
                        if piece.isEmpty { piece.append(a) }
                        piece.append(b)
                    } else if !piece.isEmpty {
                        lines.append(piece)
                        piece = []
                    }
                }
                if piece.count >= 2 { lines.append(piece) }
            }
            guard !lines.isEmpty else { continue }
            let dx = max(bw - cx, 0, cx - be), dy = max(bs - cy, 0, cy - bn)
            found.append(((dx * dx + dy * dy).squareRoot(), lines))
        }
        found.sort { $0.distance < $1.distance }
        var out: [[FootprintOutline.Point]] = []
        var vertices = 0, streets = 0
        for f in found {
            let n = f.lines.reduce(0) { $0 + $1.count }
            if streets >= CurrentPlaceScene.maxDrawnStreets || vertices + n > CurrentPlaceScene.maxStreetVertices {
                break
            }
            out += f.lines
            vertices += n
            streets += 1
        }
        return out
    }
}
