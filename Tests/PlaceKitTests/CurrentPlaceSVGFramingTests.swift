import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// The geometry of a current-place picture, read back from the SVG it is:
/// the map's square, the 68% circle, each place's footprint, each label's
/// box (its width estimated from its text: `SVGWriter.textWidth`, generous
/// per character), each arrow.
struct PictureGeometry {
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)
    let doc: SVGElements
    let map: Box

    init(_ svg: String) throws {
        doc = SVGElements(svg)
        if let error = doc.error { throw error }
        let m = try #require(doc.with(class: "map").first)
        let x = doc.double(m, "x"), y = doc.double(m, "y")
        map = (x, y, x + doc.double(m, "width"), y + doc.double(m, "height"))
    }

    var mapWidth: Double { map.x1 - map.x0 }

    /// The points of a path's `d` ("M x,y L x,y ... Z").
    static func points(_ d: String) -> [(Double, Double)] {
        d.split(whereSeparator: { "MLZ".contains($0) }).compactMap { pair in
            let xy = pair.split(separator: ",")
            guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]) else { return nil }
            return (x, y)
        }
    }

    /// An element's box as drawn (a rect's, a path's points'), cut to the map; nil when it lies outside it.
    func drawnBox(_ e: SVGElements.Element) -> Box? {
        var b: Box
        if e.name == "rect" {
            let x = doc.double(e, "x"), y = doc.double(e, "y")
            b = (x, y, x + doc.double(e, "width"), y + doc.double(e, "height"))
        } else {
            let ps = Self.points(e.attributes["d"] ?? "")
            guard !ps.isEmpty else { return nil }
            b = (ps.map(\.0).min()!, ps.map(\.1).min()!, ps.map(\.0).max()!, ps.map(\.1).max()!)
        }
        b = (max(b.x0, map.x0), max(b.y0, map.y0), min(b.x1, map.x1), min(b.y1, map.y1))
        return b.x0 <= b.x1 && b.y0 <= b.y1 ? b : nil
    }

    func footprint(rank: Int) -> SVGElements.Element? {
        doc.with(class: "footprint").first { $0.attributes["data-rank"] == "\(rank)" }
    }

    /// The widest side of the most likely place's footprint in the map, and
    /// the 68% circle's diameter, as fractions of the map's width.
    var topSpan: Double {
        guard let f = footprint(rank: 1), let b = drawnBox(f) else { return 0 }
        return max(b.x1 - b.x0, b.y1 - b.y0) / mapWidth
    }

    var circleSpan: Double {
        guard let c = doc.with(class: "accuracy-circle").first else { return 0 }
        return 2 * doc.double(c, "r") / mapWidth
    }

    /// Each label with the box its text takes (start-anchored at x, baseline y).
    var labels: [(element: SVGElements.Element, box: Box)] {
        doc.with(class: "label").map { e in
            let size = Double(e.attributes["font-size"] ?? "") ?? .nan
            let x = doc.double(e, "x"), y = doc.double(e, "y")
            return (e, (x, y - size, x + SVGWriter.textWidth(e.text, fontSize: size), y + 0.3 * size))
        }
    }

    static func inside(_ b: Box, _ frame: Box) -> Bool {
        b.x0 >= frame.x0 - 0.01 && b.y0 >= frame.y0 - 0.01 && b.x1 <= frame.x1 + 0.01 && b.y1 <= frame.y1 + 0.01
    }

    /// The distance from a point to a box (0 inside).
    static func distance(_ p: (Double, Double), _ b: Box) -> Double {
        let dx = max(b.x0 - p.0, 0, p.0 - b.x1), dy = max(b.y0 - p.1, 0, p.1 - b.y1)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The problems of the picture's frame and labels, none when it is
    /// right: the most likely place's footprint or the 68% circle spans at
    /// least 5% of the map's width; every label lies inside the map,
    /// within 12 px of its anchor, and the anchor is on what it names (in
    /// its footprint's drawn box, at its location dot, or an arrow's tail
    /// towards it).
    func problems() -> [String] {
        var out: [String] = []
        if !doc.with(class: "footprint").isEmpty && max(topSpan, circleSpan) < 0.05 {
            out.append("the top place spans \(topSpan), the circle \(circleSpan) of the width")
        }
        for (e, box) in labels {
            let rank = e.attributes["data-rank"] ?? "?"
            if !Self.inside(box, map) { out.append("label \(rank) '\(e.text)' \(box) is outside the map \(map)") }
            let anchor = (doc.double(e, "data-anchor-x"), doc.double(e, "data-anchor-y"))
            if Self.distance(anchor, box) > 12 {
                out.append("label \(rank) '\(e.text)' is \(Self.distance(anchor, box)) px from its anchor")
            }
            switch e.attributes["data-target"] {
            case "footprint":
                let footprint = footprint(rank: Int(rank) ?? 0)
                let onShape = footprint.flatMap(drawnBox).map { Self.distance(anchor, $0) <= 1 } ?? false
                let dot = doc.with(class: "location").first { $0.attributes["data-rank"] == rank }
                let onDot =
                    dot.map {
                        abs(doc.double($0, "cx") - anchor.0) <= 0.02 && abs(doc.double($0, "cy") - anchor.1) <= 0.02
                    } ?? false
                if !onShape && !onDot {
                    out.append("label \(rank) '\(e.text)': its anchor \(anchor) is not on its footprint")
                }
            case "arrow":
                let arrow = doc.with(class: "arrow").first { $0.attributes["data-rank"] == rank }
                let atTail =
                    arrow.map {
                        abs(doc.double($0, "data-tail-x") - anchor.0) <= 0.02
                            && abs(doc.double($0, "data-tail-y") - anchor.1) <= 0.02
                    } ?? false
                if !atTail { out.append("label \(rank) '\(e.text)': no arrow of its place at its anchor") }
            default: out.append("label \(rank) names nothing")
            }
        }
        // No text past the picture's edge (a legend line, the subtitle).
        if let root = doc.elements.first {
            let width = doc.double(root, "width"), height = doc.double(root, "height")
            for t in doc.elements
            where t.name == "text" && t.attributes["class"] != "label" && t.attributes["text-anchor"] == nil {
                let size = Double(t.attributes["font-size"] ?? "12") ?? 12
                let bold = t.attributes["font-weight"] == "bold"
                let x = doc.double(t, "x"), y = doc.double(t, "y")
                if x + SVGWriter.textWidth(t.text, fontSize: size, bold: bold) > width || y > height {
                    out.append("text '\(t.text)' passes the picture's edge")
                }
            }
        }
        return out
    }
}

@Suite("The current-place picture frames the answer")
struct CurrentPlaceSVGFramingTests {
    static let fix = Coordinate(latitude: 42.5078, longitude: 1.5211)

    static func box(_ w: Double, _ e: Double, _ s: Double, _ n: Double, source: String = "type") -> FootprintOutline {
        FootprintOutline(
            kind: .box, source: source,
            parts: [
                [
                    .init(east: w, north: s), .init(east: e, north: s), .init(east: e, north: n),
                    .init(east: w, north: n),
                ]
            ],
            location: .init(east: (w + e) / 2, north: (s + n) / 2))
    }

    /// The issue's picture, by hand: a small winner at the fix, a likely
    /// place 300 m east (too far to frame at 5 m), three locality boxes of
    /// likelihood 0.006 around, one of them a kilometre wide, and a place
    /// 600 m west.
    static func scene(accuracy: Double) -> CurrentPlaceScene {
        var request = CurrentPlaceRequest(location: fix, accuracyMeters: accuracy)
        request.maxResultCount = 10
        func place(_ id: String, _ name: String, _ type: String) -> Place {
            Place(
                id: PlaceID(id), coordinate: fix,
                document: JSONObject([
                    ("displayName", .object(JSONObject([("text", .string(name)), ("languageCode", .string("en"))]))),
                    ("primaryType", .string(type)),
                ]))
        }
        let listed: [(Place, Double, FootprintOutline)] = [
            (place("winner", "Plaça del Poble", "plaza"), 0.799958, box(-6, 6, -4, 8)),
            (place("east", "Far East Bakery", "bakery"), 0.1, box(300, 340, -20, 20)),
            (place("town1", "Andorra la Vella", "locality"), 0.006, box(-500, 500, -120, 880)),
            (place("town2", "Escaldes-Engordany", "locality"), 0.006, box(900, 1900, -300, 700)),
            (place("town3", "Santa Coloma", "locality"), 0.006, box(-1900, -900, -1400, -400)),
            (place("west", "West Museum", "museum"), 0.01, box(-620, -580, -20, 20)),
        ]
        let result = PlaceLikelihoodList(
            placeLikelihoods: listed.map { PlaceLikelihood(place: $0.0, likelihood: $0.1) }, noneLikelihood: 0.072,
            sigmaMeters: accuracy / 1.51, searchRadiusMeters: 4 * accuracy / 1.51 + 200, candidateCount: 40)
        return CurrentPlaceScene(request: request, result: result, footprints: listed.map(\.2))
    }

    @Test(
        "the view frames the fix and the likely places; the top place or the circle spans 5% of it; labels inside, next to their places",
        arguments: [5.0, 15, 20, 65, 300])
    func framed(accuracy: Double) throws {
        let scene = Self.scene(accuracy: accuracy)
        let view = scene.view()
        let picture = try PictureGeometry(scene.svg())
        #expect(picture.problems().isEmpty, "\(accuracy) m: \(picture.problems())")
        #expect(max(picture.topSpan, picture.circleSpan) >= 0.05)
        // The fix's circle and the top place are in the view.
        #expect(view.west <= -accuracy && view.east >= accuracy && view.south <= -accuracy && view.north >= accuracy)
        #expect(view.west <= -6 && view.east >= 6 && view.south <= -4 && view.north >= 8)
        // The 0.006 localities never set the view (below the floor).
        #expect(!view.framed.contains(2) && !view.framed.contains(3) && !view.framed.contains(4))
        // Every place drawn has one label.
        #expect(picture.labels.count == 6)
    }

    @Test(
        "places outside the view are arrows at its edge, pointing their way, labelled with name, likelihood and distance"
    )
    func arrows() throws {
        let scene = Self.scene(accuracy: 5)
        let view = scene.view()
        // At 5 m the bakery 300 m east would make the 10 m circle and the
        // 12 m winner specks: it is left out of the frame.
        #expect(view.side < 300)
        let picture = try PictureGeometry(scene.svg())
        let arrows = picture.doc.with(class: "arrow")
        let ranks = Set(arrows.compactMap { $0.attributes["data-rank"] })
        // The bakery (east), Andorra la Vella (its box covers the view, its location is 380 m north), Escaldes (east),
        // Santa Coloma (south-west) and the museum (west).
        #expect(ranks == ["2", "3", "4", "5", "6"], "\(ranks)")
        let centreX = (picture.map.x0 + picture.map.x1) / 2
        for a in arrows {
            let tip = (picture.doc.double(a, "data-tip-x"), picture.doc.double(a, "data-tip-y"))
            let edge = min(
                tip.0 - picture.map.x0, picture.map.x1 - tip.0, tip.1 - picture.map.y0, picture.map.y1 - tip.1)
            #expect(
                edge >= 0 && edge <= 20,
                "arrow \(a.attributes["data-rank"] ?? "") tip \(tip) is \(edge) px from the edge")
            switch a.attributes["data-place-id"] {
            case "east", "town2": #expect(tip.0 > centreX + 200)
            case "west", "town3": #expect(tip.0 < centreX - 200)
            case "town1": #expect(tip.1 < picture.map.y0 + 20 && abs(tip.0 - centreX) < 40)
            default: Issue.record("an arrow for \(a.attributes["data-place-id"] ?? "")")
            }
        }
        let bakery = try #require(picture.labels.first { $0.element.attributes["data-place-id"] == "east" })
        #expect(bakery.element.attributes["data-target"] == "arrow")
        #expect(
            bakery.element.text.contains("Far East Bakery") && bakery.element.text.contains("0.100")
                && bakery.element.text.contains("320 m"),
            "\(picture.labels.map { ($0.element.text, $0.box, $0.element.attributes["data-anchor-x"] ?? "", $0.element.attributes["data-anchor-y"] ?? "") })"
        )
        // The locality around the view is outlined, not filled (it would tint the whole map), and pointed at.
        let town = try #require(picture.footprint(rank: 3))
        #expect(town.attributes["data-shown"] == "arrow" && town.attributes["fill"] == "none")
        #expect(picture.footprint(rank: 1)?.attributes["fill"] != "none")
        #expect(picture.problems().isEmpty, "\(picture.problems())")
    }

    @Test("likelihoods are rounded, not truncated: 0.799958 reads 0.800")
    func rounded() throws {
        #expect(CurrentPlaceScene.likelihood(0.799958) == "0.800")
        #expect(CurrentPlaceScene.likelihood(0.0996) == "0.100")
        #expect(CurrentPlaceScene.likelihood(0.0004) == "<0.001")
        #expect(CurrentPlaceScene.likelihood(0) == "0.000")
        let picture = try PictureGeometry(Self.scene(accuracy: 15).svg())
        let top = try #require(picture.labels.first { $0.element.attributes["data-rank"] == "1" })
        #expect(top.element.text.hasSuffix(" 0.800"), "\(top.element.text)")
        #expect(!picture.doc.elements.contains { $0.text.contains("0.799") })
        #expect(picture.footprint(rank: 1)?.attributes["data-likelihood"] == "0.799958")
    }

    @Test("a label that finds no free spot next to its place is cut to its rank, never moved away from it")
    func crowded() throws {
        // Twelve places at the same spot: their names cannot all sit next to it.
        var request = CurrentPlaceRequest(location: Self.fix, accuracyMeters: 20)
        request.maxResultCount = 20
        let listed = (0..<12).map { i -> PlaceLikelihood in
            let p = Place(
                id: PlaceID("p\(i)"), coordinate: Self.fix,
                document: JSONObject([
                    ("displayName", .object(JSONObject([("text", .string("A rather long place name number \(i)"))])))
                ]))
            return PlaceLikelihood(place: p, likelihood: 0.08)
        }
        let footprints = (0..<12).map { _ in Self.box(-3, 3, 10, 16) }
        let scene = CurrentPlaceScene(
            request: request,
            result: PlaceLikelihoodList(
                placeLikelihoods: listed, noneLikelihood: 0.04, sigmaMeters: 13,
                searchRadiusMeters: 60, candidateCount: 12), footprints: footprints)
        let picture = try PictureGeometry(scene.svg())
        #expect(picture.problems().isEmpty, "\(picture.problems())")
        let labels = picture.labels
        #expect(labels.count == 12)
        #expect(labels.contains { $0.element.text.contains("A rather long") })
        #expect(labels.contains { Int($0.element.text) != nil }, "some labels are cut to their rank")
    }
}

extension CurrentPlaceSVGFramingTests {
    @Test("the stored streets that meet the view are drawn, under the places; those off it are not")
    func streets() throws {
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let at = CurrentPlaceSVGTests.at
        let square = [(10.0, -15.0), (50, -15), (50, 15), (10, 15), (10, -15)].map { at($0.0, $0.1) }.joined(
            separator: ",")
        let near = [(-200.0, -8.0), (0, -10), (200, -12)].map { at($0.0, $0.1) }.joined(separator: ",")
        let far = [(-200.0, 3000.0), (200, 3000)].map { at($0.0, $0.1) }.joined(separator: ",")
        let features = [
            #"{"type":"Feature","id":"park","geometry":{"type":"Polygon","coordinates":[[\#(square)]]},"properties":{"name":"Square Park","types":["park"]}}"#,
            #"{"type":"Feature","id":"street-near","geometry":{"type":"LineString","coordinates":[\#(near)]},"properties":{"name":"Near Street","types":["route"]}}"#,
            #"{"type":"Feature","id":"street-far","geometry":{"type":"LineString","coordinates":[\#(far)]},"properties":{"name":"Far Street","types":["route"]}}"#,
        ]
        let summary = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("f.geojson", features.joined(separator: "\n") + "\n")))
        #expect(summary.inserted == 3)
        let scene = try PlaceReader(databasePath: db).findPlaceLikelihoodScene(
            CurrentPlaceRequest(location: CurrentPlaceSVGTests.origin, accuracyMeters: 10))
        // Streets are never candidates: the park alone is listed.
        #expect(scene.result.placeLikelihoods.map(\.place.id.rawValue) == ["park"])
        #expect(scene.streets.count == 1)
        let view = scene.view()
        for p in scene.streets.joined() {
            #expect(abs(p.north + 10) < 3, "a point of the near street: \(p)")
        }
        #expect(
            scene.streets.joined().contains { $0.east < view.west }
                && scene.streets.joined().contains { $0.east > view.east })
        let svg = scene.svg()
        let picture = try PictureGeometry(svg)
        let drawn = picture.doc.with(class: "street")
        #expect(drawn.count == 1)
        // Under the places: before the first footprint in the document.
        let firstStreet = try #require(picture.doc.elements.firstIndex { ($0.attributes["class"] ?? "") == "street" })
        let firstFootprint = try #require(
            picture.doc.elements.firstIndex { ($0.attributes["class"] ?? "").hasPrefix("footprint") })
        #expect(firstStreet < firstFootprint)
        #expect(picture.problems().isEmpty, "\(picture.problems())")
        // A view wider than 3 km reads no streets (the near one would be in it).
        let wide = try PlaceReader(databasePath: db).findPlaceLikelihoodScene(
            CurrentPlaceRequest(location: CurrentPlaceSVGTests.origin, accuracyMeters: 2000))
        #expect(wide.view().side > CurrentPlaceScene.maxStreetViewMeters)
        #expect(wide.streets.isEmpty)
        // Without streets stored, none is drawn.
        let empty = try PictureGeometry(Self.scene(accuracy: 20).svg())
        #expect(empty.doc.with(class: "street").isEmpty)
    }
}

/// The picture of real answers, from a database of the newest OSM snapshot
/// of each region of ../shared/data/osm/poi-nwr: at each region's centre
/// (the median latitude and longitude of its features, where its places
/// are densest) and the issue's Andorra fix, at 5, 20, 65 and 300 m.
@Suite(
    "The current-place picture on the OSM regions (../shared/data/osm/poi-nwr)",
    .enabled(if: CorpusData.has("osm/poi-nwr"), "needs ../shared/data/osm/poi-nwr"))
struct CurrentPlaceSVGCorpusTests {
    /// The newest snapshot of each region (the name before its date).
    static func newest() -> [String: URL] {
        var out: [String: URL] = [:]
        for url in CorpusData.files(under: "osm/poi-nwr", extension: "geojsonseq") {
            let name = url.lastPathComponent
            let region = String(name.prefix { !$0.isNumber }.dropLast())
            if let old = out[region], old.lastPathComponent > name { continue }
            out[region] = url
        }
        return out
    }

    /// The median latitude and longitude of a file's features (each by its first vertex).
    static func centre(_ url: URL) throws -> Coordinate {
        var lats: [Double] = [], lngs: [Double] = []
        for line in try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline) {
            let json = line.drop { $0 == "\u{1E}" || $0 == " " }
            guard !json.isEmpty,
                let feature = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                let geometry = feature["geometry"] as? [String: Any]
            else { continue }
            var c: Any? = geometry["coordinates"]
            while let list = c as? [Any], let first = list.first, first is [Any] { c = first }
            if let p = c as? [NSNumber], p.count >= 2 {
                lngs.append(p[0].doubleValue)
                lats.append(p[1].doubleValue)
            }
        }
        lats.sort()
        lngs.sort()
        return Coordinate(latitude: lats[lats.count / 2], longitude: lngs[lngs.count / 2])
    }

    @Test(
        "at every region's centre at 5, 20, 65 and 300 m: the top place or the circle spans 5% of the width, no label outside the map or away from its place"
    )
    func regions() throws {
        let dir = try TempDirectory()
        let db = dir.file("osm.sqlite")
        let files = Self.newest()
        #expect(files.count >= 7, "\(files.keys.sorted())")
        var fixes: [(String, Coordinate)] = [
            ("andorra (the issue's fix)", Coordinate(latitude: 42.5078, longitude: 1.5211))
        ]
        for (region, url) in files.sorted(by: { $0.key < $1.key }) {
            _ = try PlaceImporter(databasePath: db).importInput(.file(url.path))
            fixes.append((region, try Self.centre(url)))
        }
        let reader = try PlaceReader(databasePath: db)
        var pictures = 0
        for (region, fix) in fixes {
            for accuracy in [5.0, 20, 65, 300] {
                let scene = try reader.findPlaceLikelihoodScene(
                    CurrentPlaceRequest(location: fix, accuracyMeters: accuracy))
                let picture = try PictureGeometry(scene.svg())
                #expect(
                    picture.problems().isEmpty,
                    "\(region) \(fix.latitude),\(fix.longitude) at \(accuracy) m: \(picture.problems())")
                if !scene.result.placeLikelihoods.isEmpty { pictures += 1 }
            }
        }
        // Most fixes list places (a picture with places is what is checked).
        #expect(pictures >= 3 * fixes.count, "\(pictures) pictures with places of \(4 * fixes.count)")
    }
}
