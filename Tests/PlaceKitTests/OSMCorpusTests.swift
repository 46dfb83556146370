import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Every OpenStreetMap export under ../shared/data/osm/poi and osm/poi-nwr
/// (real `osmium export` output) imports with zero rejects, and each place
/// matches its source feature: ID from @type/@id, name, and a location that
/// is the node itself or lies on or inside the way's or relation's geometry
/// (checked here with an independent ray-casting test).
@Suite("OpenStreetMap corpus (../shared/data/osm)", .enabled(if: CorpusData.has("osm"), "needs ../shared/data/osm"))
struct OSMCorpusTests {
    static let files =
        CorpusData.files(under: "osm/poi", extension: "geojsonseq")
        + CorpusData.files(under: "osm/poi-nwr", extension: "geojsonseq")

    @Test("the shared OSM corpus holds its exports")
    func present() {
        #expect(Self.files.count >= 20)
    }

    typealias Ring = [(x: Double, y: Double)]

    static func rings(_ geometry: [String: Any]) -> (points: Ring, areas: [[Ring]], lines: [Ring]) {
        func pos(_ a: Any) -> (Double, Double) {
            let p = a as! [NSNumber]
            return (p[0].doubleValue, p[1].doubleValue)
        }
        let coords = geometry["coordinates"]
        switch geometry["type"] as? String {
        case "Point": return ([pos(coords!)], [], [])
        case "LineString":
            let line = (coords as! [Any]).map(pos)
            if line.count >= 4, line.first! == line.last! { return ([], [[line]], [line]) }
            return ([], [], [line])
        case "MultiPolygon":
            let polys = (coords as! [[[Any]]]).map { $0.map { $0.map(pos) } }
            return ([], polys, polys.flatMap { $0 })
        case "Polygon":
            let rings = (coords as! [[Any]]).map { $0.map(pos) }
            return ([], [rings], rings)
        default: return ([], [], [])
        }
    }

    static func inside(_ p: (Double, Double), _ polygon: [Ring]) -> Bool {
        var odd = false
        for ring in polygon {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.y > p.1) != (b.y > p.1) {
                    let x = a.x + (p.1 - a.y) / (b.y - a.y) * (b.x - a.x)
                    if p.0 < x { odd.toggle() }
                }
            }
        }
        return odd
    }

    static func onLine(_ p: (Double, Double), _ line: Ring) -> Bool {
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y
            let l2 = dx * dx + dy * dy
            let t = l2 > 0 ? max(0, min(1, ((p.0 - a.x) * dx + (p.1 - a.y) * dy) / l2)) : 0
            if hypot(p.0 - (a.x + t * dx), p.1 - (a.y + t * dy)) < 1e-9 { return true }
        }
        return false
    }

    @Test("every OSM export imports with zero rejects and each place matches its feature", arguments: files)
    func file(_ url: URL) throws {
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        // Every feature, the member nodes that are not places included.
        var options = ImportOptions()
        options.allFeatures = true
        let summary = try PlaceImporter(databasePath: db, options: options).importInput(.file(url.path))
        #expect(summary.rejected == 0)
        #expect(summary.skippedCount == 0)

        var features: [String: [[String: Any]]] = [:]
        var order: [String] = []
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let json = String(line).trimmingCharacters(in: CharacterSet(charactersIn: "\u{1E}"))
            guard !json.isEmpty else { continue }
            let f = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            let p = f["properties"] as! [String: Any]
            let id = "osm:\(p["@type"] as! String)/\((p["@id"] as! NSNumber).int64Value)"
            if features[id] == nil { order.append(id) }
            features[id, default: []].append(f)
        }
        #expect(summary.records == features.values.reduce(0) { $0 + $1.count })
        #expect(summary.inserted == features.count)

        let client = try PlaceReader(databasePath: db)
        #expect(try client.placeCount() == features.count)
        for id in order {
            let place = try client.fetchPlace(id: PlaceID(id))
            let versions = features[id]!
            let props = versions.last!["properties"] as! [String: Any]
            #expect(place.displayName?.text == props["name"] as? String, "\(id) name")
            let p = (place.coordinate.longitude, place.coordinate.latitude)
            let matches = versions.contains { f in
                let g = Self.rings(f["geometry"] as! [String: Any])
                if let point = g.points.first { return abs(point.x - p.0) < 1e-12 && abs(point.y - p.1) < 1e-12 }
                return g.areas.contains { Self.inside(p, $0) } || g.lines.contains { Self.onLine(p, $0) }
            }
            #expect(matches, "\(url.lastPathComponent): \(id) at \(p) is not on or inside its geometry")
        }
    }

    @Test(
        "by default the features with neither a name nor a POI key are skipped, counted, and the rest imported",
        arguments: files)
    func skipsWhatIsNotAPlace(_ url: URL) throws {
        let dir = try TempDirectory()
        let summary = try PlaceImporter(databasePath: dir.file("places.sqlite")).importInput(.file(url.path))
        // The last version of each ID decides; the rule written out here on its own.
        var last: [String: [String: Any]] = [:]
        var records = 0, notPlaces = 0
        let poiKeys = ["amenity", "shop", "tourism", "leisure", "healthcare", "office", "craft", "historic"]
        func isPlace(_ p: [String: Any]) -> Bool { p["name"] != nil || poiKeys.contains { p[$0] != nil } }
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            let json = String(line).trimmingCharacters(in: CharacterSet(charactersIn: "\u{1E}"))
            guard !json.isEmpty else { continue }
            records += 1
            let p =
                (try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any])["properties"]
                as! [String: Any]
            last["\(p["@type"] as! String)/\((p["@id"] as! NSNumber).int64Value)"] = p
            if !isPlace(p) { notPlaces += 1 }
        }
        #expect(summary.rejected == 0)
        #expect(summary.inserted == last.values.filter(isPlace).count)
        #expect(summary.skippedCount == notPlaces)
        #expect(summary.records == records)
    }
}
