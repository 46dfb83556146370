import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// The elements of an SVG document, as an XML parser reads it (so the
/// document must be well-formed, and text comes back unescaped).
final class SVGElements: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    var elements: [Element] = []
    private var stack: [Int] = []
    var error: (any Error)?

    init(_ svg: String) {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        if !parser.parse() { error = parser.parserError ?? CocoaError(.propertyListReadCorrupt) }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: name, attributes: attributes))
        stack.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let i = stack.last { elements[i].text += string }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { error = parseError }

    func with(class name: String) -> [Element] {
        elements.filter { ($0.attributes["class"] ?? "").split(separator: " ").contains(Substring(name)) }
    }

    func double(_ e: Element, _ key: String) -> Double { Double(e.attributes[key] ?? "") ?? .nan }
}

@Suite("The current-place picture (--svg)")
struct CurrentPlaceSVGTests {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }
    static let origin = Coordinate(latitude: 46.5, longitude: 6.6)

    init() throws { dir = try TempDirectory() }

    /// A point `east`, `north` meters from the origin, as "lng,lat".
    static func at(_ east: Double, _ north: Double) -> String {
        let perDegree = Earth.meanRadius * Double.pi / 180
        let lat = origin.latitude + north / perDegree
        let lng = origin.longitude + east / (perDegree * cos(origin.latitude * Double.pi / 180))
        return "[\(lng),\(lat)]"
    }

    static let awkwardName = #"Café <"Bar"> & 'Grill' ]]> --"#

    /// A 40 m x 30 m square park east of the origin, a path (an open line)
    /// north of it, and a café (a point) with markup in its name west of it.
    func importFixture() throws {
        let square = [(10.0, -15.0), (50, -15), (50, 15), (10, 15), (10, -15)].map { Self.at($0.0, $0.1) }.joined(
            separator: ",")
        let line = [(-20.0, 25.0), (0, 30), (25, 32)].map { Self.at($0.0, $0.1) }.joined(separator: ",")
        let features = [
            #"{"type":"Feature","id":"park","geometry":{"type":"Polygon","coordinates":[[\#(square)]]},"properties":{"name":"Square Park","types":["park"]}}"#,
            #"{"type":"Feature","id":"path","geometry":{"type":"LineString","coordinates":[\#(line)]},"properties":{"name":"Lakeside Path","types":["hiking_area"]}}"#,
            #"{"type":"Feature","id":"cafe","geometry":{"type":"Point","coordinates":\#(Self.at(-6, 0))},"properties":{"name":"\#(Self.awkwardName.replacingOccurrences(of: "\"", with: "\\\""))","types":["cafe"]}}"#,
        ]
        let summary = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("fixture.geojson", features.joined(separator: "\n") + "\n")))
        #expect(summary.inserted == 3)
    }

    func scene(accuracy: Double = 20) throws -> CurrentPlaceScene {
        try PlaceReader(databasePath: db).findPlaceLikelihoodScene(
            CurrentPlaceRequest(location: Self.origin, accuracyMeters: accuracy))
    }

    @Test("the scene lists the same places and likelihoods as findPlaceLikelihoods, with the footprint kind of each")
    func sceneMatchesTheAnswer() throws {
        try importFixture()
        let scene = try scene()
        let answer = try PlaceReader(databasePath: db).findPlaceLikelihoods(location: Self.origin, accuracy: 20)
        #expect(
            scene.result.placeLikelihoods.map(\.place.id.rawValue) == answer.placeLikelihoods.map(\.place.id.rawValue))
        #expect(scene.result.placeLikelihoods.map(\.likelihood) == answer.placeLikelihoods.map(\.likelihood))
        #expect(scene.result.noneLikelihood == answer.noneLikelihood)
        #expect(scene.footprints.count == 3)
        let kinds = Dictionary(
            uniqueKeysWithValues: zip(
                scene.result.placeLikelihoods.map(\.place.id.rawValue), scene.footprints.map(\.kind)))
        #expect(kinds == ["park": .polygon, "path": .line, "cafe": .box])
        // The park's polygon lies where it was drawn, in meters from the fix.
        let parkIndex = try #require(scene.result.placeLikelihoods.firstIndex { $0.place.id.rawValue == "park" })
        let park = scene.footprints[parkIndex].bounds
        #expect(
            abs(park.west - 10) < 0.5 && abs(park.east - 50) < 0.5 && abs(park.south + 15) < 0.5
                && abs(park.north - 15) < 0.5)
    }

    @Test("the SVG is well-formed, has one shape per place of the right kind, and escapes its labels")
    func wellFormedShapesAndLabels() throws {
        try importFixture()
        let scene = try scene()
        let svg = scene.svg()
        let doc = SVGElements(svg)
        #expect(doc.error == nil)
        #expect(doc.elements.first?.name == "svg")
        // Self-contained: nothing fetched from outside.
        #expect(!svg.contains("href"))
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("@import"))

        let shapes = doc.with(class: "footprint")
        #expect(shapes.count == scene.result.placeLikelihoods.count)
        var byID: [String: SVGElements.Element] = [:]
        for s in shapes { byID[s.attributes["data-place-id"] ?? ""] = s }
        #expect(byID["park"]?.name == "path")
        #expect(byID["park"]?.attributes["class"] == "footprint polygon")
        #expect(byID["path"]?.name == "path")
        #expect(byID["path"]?.attributes["class"] == "footprint line")
        #expect(byID["path"]?.attributes["fill"] == "none")
        #expect(byID["cafe"]?.name == "rect")
        #expect(byID["cafe"]?.attributes["class"] == "footprint box")

        // Shaded by likelihood: the likelier place is the darker.
        let ranked = scene.result.placeLikelihoods
        let first = try #require(byID[ranked[0].place.id.rawValue]),
            last = try #require(byID[ranked[2].place.id.rawValue])
        #expect(ranked[0].likelihood > ranked[2].likelihood)
        if first.attributes["class"] != "footprint line" && last.attributes["class"] != "footprint line" {
            #expect(doc.double(first, "fill-opacity") > doc.double(last, "fill-opacity"))
        }

        // Each label carries the name (unescaped by the parser) and the likelihood.
        let labels = doc.with(class: "label")
        #expect(labels.count == 3)
        let cafeRank = try #require(ranked.firstIndex { $0.place.id.rawValue == "cafe" })
        let cafeLabel = try #require(labels.first { $0.attributes["data-rank"] == "\(cafeRank + 1)" })
        #expect(cafeLabel.text.contains(Self.awkwardName))
        #expect(cafeLabel.text.contains(CurrentPlaceScene.likelihood(ranked[cafeRank].likelihood)))
        #expect(!svg.contains(#"<"Bar">"#))
        #expect(svg.contains("Café &lt;&quot;Bar&quot;&gt; &amp; &apos;Grill&apos; ]]&gt; --"))
    }

    @Test("the scale bar's length matches the meters it claims, as the 68% circle and the park do")
    func scaleBar() throws {
        try importFixture()
        for accuracy in [5.0, 20, 300] {
            let doc = SVGElements(try scene(accuracy: accuracy).svg())
            #expect(doc.error == nil)
            let circle = try #require(doc.with(class: "accuracy-circle").first)
            let pixelsPerMeter = doc.double(circle, "r") / accuracy
            let bar = try #require(doc.with(class: "scale-bar").first)
            let label = try #require(doc.with(class: "scale-label").first).text
            let parts = label.split(separator: " ")
            let claimed = try #require(Double(parts[0])) * (parts[1] == "km" ? 1000 : 1)
            let length = doc.double(bar, "x2") - doc.double(bar, "x1")
            #expect(
                abs(length / claimed - pixelsPerMeter) < 0.01 * pixelsPerMeter,
                "accuracy \(accuracy): \(length) px for \(label), circle \(pixelsPerMeter) px/m")
            // A nice number: 1, 2 or 5 times a power of ten.
            let mantissa = claimed / pow(10, log10(claimed).rounded(.down))
            #expect([1.0, 2, 5].contains { abs($0 - mantissa) < 1e-9 })
            // The 40 m wide park is 40 m wide on the picture too.
            let park = try #require(doc.with(class: "footprint").first { $0.attributes["data-place-id"] == "park" })
            let xs = (park.attributes["d"] ?? "").split(whereSeparator: { "MLZ".contains($0) }).compactMap {
                Double($0.split(separator: ",")[0])
            }
            #expect(xs.count == 4)
            if let lo = xs.min(), let hi = xs.max() {
                #expect(abs((hi - lo) / pixelsPerMeter - 40) < 0.5, "accuracy \(accuracy)")
            }
        }
    }

    @Test("a fix with no places near it draws the fix alone, and says so")
    func emptyScene() throws {
        try importFixture()
        let far = try PlaceReader(databasePath: db).findPlaceLikelihoodScene(
            CurrentPlaceRequest(location: Coordinate(latitude: 10, longitude: 10), accuracyMeters: 20))
        #expect(far.footprints.isEmpty)
        let doc = SVGElements(far.svg())
        #expect(doc.error == nil)
        #expect(doc.with(class: "footprint").isEmpty)
        #expect(doc.with(class: "fix").count == 1)
        #expect(doc.elements.contains { $0.text == "no places near this fix" })
    }

    @Test("escaping keeps every character XML allows and replaces those it does not")
    func escaping() {
        #expect(SVGWriter.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(SVGWriter.escape("tab\tnew\nline") == "tab\tnew\nline")
        #expect(SVGWriter.escape("bell\u{07}nul\u{0}") == "bell\u{FFFD}nul\u{FFFD}")
        #expect(SVGWriter.escape("Zürich 東京 🏔") == "Zürich 東京 🏔")
        let doc = SVGElements(
            #"<?xml version="1.0"?><t a=""# + SVGWriter.escape("x\u{01}\"<'&") + #"">"# + SVGWriter.escape("]]>\u{1F}&")
                + "</t>")
        #expect(doc.error == nil)
        #expect(doc.elements.first?.attributes["a"] == "x\u{FFFD}\"<'&")
        #expect(doc.elements.first?.text == "]]>\u{FFFD}&")
    }

    @Test("numbers are short and never -0 or nan; nice lengths are 1, 2 or 5 times a power of ten")
    func numbers() {
        #expect(SVGWriter.number(12) == "12")
        #expect(SVGWriter.number(-0.001) == "0")
        #expect(SVGWriter.number(3.14159) == "3.14")
        #expect(SVGWriter.number(2.5) == "2.5")
        #expect(SVGWriter.number(.nan) == "0")
        #expect(SVGWriter.niceLength(atMost: 37) == 20)
        #expect(SVGWriter.niceLength(atMost: 50) == 50)
        #expect(SVGWriter.niceLength(atMost: 0.9) == 0.5)
        #expect(SVGWriter.niceLength(atMost: 1999) == 1000)
    }
}

/// The renderer bounds its own work: a scene built by hand (unvalidated)
/// cannot make it loop or write without end. Counts and sizes, never time.
@Suite("The current-place picture's bounds")
struct CurrentPlaceSVGBoundsTests {
    static let fix = Coordinate(latitude: 46.5, longitude: 6.6)

    /// A scene of `places` places, each a polygon of `vertices` vertices
    /// around the fix, with the request's accuracy as given (not validated).
    static func scene(accuracy: Double, places: Int = 3, vertices: Int = 8, searchRadius: Double = 100)
        -> CurrentPlaceScene
    {
        var request = CurrentPlaceRequest(location: fix, accuracyMeters: 20)
        request.accuracyMeters = accuracy
        let listed = (0..<places).map {
            PlaceLikelihood(place: Place(id: PlaceID("p\($0)"), coordinate: fix), likelihood: 0.5 / Double(places))
        }
        let footprints = (0..<places).map { i in
            let ring = (0..<vertices).map { k -> FootprintOutline.Point in
                let a = 2 * Double.pi * Double(k) / Double(vertices)
                return FootprintOutline.Point(east: Double(i) + 30 * cos(a), north: 30 * sin(a))
            }
            return FootprintOutline(
                kind: .polygon, source: "polygon", parts: [ring], location: .init(east: Double(i), north: 0))
        }
        let result = PlaceLikelihoodList(
            placeLikelihoods: listed, noneLikelihood: 0.5, sigmaMeters: accuracy, searchRadiusMeters: searchRadius,
            candidateCount: places)
        return CurrentPlaceScene(request: request, result: result, footprints: footprints)
    }

    /// The vertices of every footprint path drawn, filled or outlined (each "x,y" pair).
    static func drawnVertices(_ svg: String) -> Int {
        SVGElements(svg).elements.filter {
            $0.name == "path" && ($0.attributes["class"] ?? "").hasPrefix("footprint")
                || $0.attributes["class"] == "outline"
        }.reduce(0) { $0 + ($1.attributes["d"] ?? "").split(separator: ",").count - 1 }
    }

    @Test(
        "an accuracy of 1e308, infinity or NaN (the probe's hang) draws a bounded, well-formed picture",
        arguments: [1e308, Double.infinity, Double.nan, -5])
    func absurdAccuracy(accuracy: Double) throws {
        let svg = Self.scene(accuracy: accuracy, searchRadius: accuracy).svg()
        let doc = SVGElements(svg)
        #expect(doc.error == nil)
        // The grid: a few lines each way (the step is a third of the view or more).
        let grid = doc.elements.filter {
            $0.name == "line" && $0.attributes["class"] == nil && $0.attributes["x1"] != nil
        }
        #expect(grid.count <= 2 * 16 + 4, "\(grid.count) lines")
        #expect(svg.utf8.count < 100_000, "\(svg.utf8.count) bytes")
        #expect(!svg.contains("nan") && !svg.contains("inf"))
        // The view is at most 150 km from the fix: the scale bar says so.
        let bar = try #require(doc.elements.first { $0.attributes["id"] == "scale-bar" })
        #expect(doc.double(bar, "data-meters") <= 100_000)
    }

    @Test("the footprints drawn hold at most 100,000 vertices; the rest are drawn as boxes")
    func vertexBudget() throws {
        // 300 places of 2,000 vertices each: 600,000 vertices, drawn twice (fill and outline) before.
        let scene = Self.scene(accuracy: 20, places: 300, vertices: 2_000)
        let svg = scene.svg()
        let doc = SVGElements(svg)
        #expect(doc.error == nil)
        let vertices = Self.drawnVertices(svg)
        #expect(vertices <= 2 * 100_000, "\(vertices) vertices drawn")
        #expect(vertices >= 2 * 98_000, "the budget is used: \(vertices)")
        let footprints = doc.with(class: "footprint")
        #expect(footprints.count == 200, "at most 200 places drawn, got \(footprints.count)")
        let boxes = footprints.filter { $0.attributes["data-drawn"] == "box" }
        #expect(
            boxes.count == 150 && boxes.allSatisfy { $0.name == "rect" && $0.attributes["data-source"] == "polygon" })
        #expect(svg.utf8.count < 8_000_000, "\(svg.utf8.count) bytes")
        #expect(svg.contains(" more"), "the legend says how many more are listed")
    }

    @Test("a scene with fewer footprints than places draws the places it has footprints for (no trap)")
    func fewerFootprints() {
        var scene = Self.scene(accuracy: 20, places: 5)
        scene.footprints.removeLast(3)
        let doc = SVGElements(scene.svg())
        #expect(doc.error == nil)
        #expect(doc.with(class: "footprint").count == 2)
    }
}
