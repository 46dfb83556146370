// placedb-bench osm-hours [--data DIR] [--runs R] [--list]
//
// Reads every OpenStreetMap POI export under DIR (default ../shared/data/osm:
// poi/ and poi-nwr/ *.geojsonseq, RFC 8142 lines starting with 0x1E), takes
// each feature's properties.opening_hours, and prints the share placedb
// evaluates and the forms it leaves, with counts and examples. Then times
// parsing and evaluating those values (minimum and median over R runs).
// --list also prints every distinct value left, with its reason.
import Foundation
import PlaceKit
import PlaceModel

enum OSMHoursBench {
    static func run(_ args: [String]) throws {
        let root = option("--data", args) ?? "../shared/data/osm"
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 5)
        let values = try readValues(root: root)
        guard !values.isEmpty else {
            throw BenchError(message: "no opening_hours values under \(root)/poi and \(root)/poi-nwr")
        }
        var coverage = OSMOpeningHours.Coverage()
        for v in values { coverage.add(v) }
        print(
            "placedb-bench osm-hours: \(values.count) opening_hours values (\(coverage.distinctValues) distinct) in \(root)/poi and \(root)/poi-nwr"
        )
        print("")
        print(
            "evaluated: \(coverage.evaluated) of \(coverage.values) values (\(fmt(100 * coverage.share))%), \(coverage.distinctEvaluated) of \(coverage.distinctValues) distinct (\(fmt(100 * coverage.distinctShare))%); \(coverage.distinctWithUndecidedHours) distinct evaluated values leave some hours of the week UNKNOWN (a range past midnight read two ways)"
        )
        print("")
        print("| form left (UNKNOWN) | values | distinct | examples |")
        print("|---|---|---|---|")
        for f in coverage.leftForms {
            let examples = f.examples.map { "`\($0.replacingOccurrences(of: "|", with: "\\|"))`" }.joined(
                separator: ", ")
            print("| \(f.form.rawValue) | \(f.count) | \(f.distinct) | \(examples) |")
        }

        if args.contains("--list") {
            print("")
            var listed = Set<String>()
            for v in values where listed.insert(v).inserted {
                if case .unsupported(let u) = OSMOpeningHours.parse(v) {
                    print("\(u.form.rawValue)\t\(v)\t\(u.reason)")
                }
            }
        }

        // Speed: parse every value; evaluate every supported one at a fixed time.
        let zurich = "Europe/Zurich"
        let at = Date(timeIntervalSince1970: 1_774_778_400) // 2026-03-29T10:00:00Z
        let places: [Place] = values.map { v in
            Place(
                id: "bench", coordinate: Coordinate(latitude: 0, longitude: 0),
                document: JSONObject([
                    ("timeZone", ["id": .string(zurich)]),
                    ("regularOpeningHours", OSMOpeningHours.regularOpeningHours(v)),
                ]))
        }
        // The same weeks as Places API (New) periods alone (the weekly values).
        let periodPlaces: [Place] = values.compactMap { v in
            guard case .supported(let parsed) = OSMOpeningHours.parse(v), let periods = parsed.weeklyPeriods else {
                return nil
            }
            return Place(
                id: "bench", coordinate: Coordinate(latitude: 0, longitude: 0),
                document: JSONObject([
                    ("timeZone", ["id": .string(zurich)]),
                    ("regularOpeningHours", ["periods": .array(periods.map(\.json))]),
                ]))
        }
        var parseTimes: [Double] = [], evalTimes: [Double] = [], periodTimes: [Double] = []
        var open = 0
        for run in 0...runs {
            let t0 = Date()
            var supported = 0
            for v in values { if case .supported = OSMOpeningHours.parse(v) { supported += 1 } }
            let t1 = Date()
            open = 0
            for p in places where p.isOpen(at: at).state == .open { open += 1 }
            let t2 = Date()
            for p in periodPlaces { _ = p.isOpen(at: at) }
            let t3 = Date()
            if run > 0 {
                parseTimes.append(t1.timeIntervalSince(t0))
                evalTimes.append(t2.timeIntervalSince(t1))
                periodTimes.append(t3.timeIntervalSince(t2))
            }
            precondition(supported == coverage.evaluated)
        }
        print("")
        print("| step | runs | seconds (min / median) | values/s (best) |")
        print("|---|---|---|---|")
        print(
            "| OSMOpeningHours.parse | \(runs) | \(fmt(parseTimes.min()!, 4)) / \(fmt(median(parseTimes), 4)) | \(Int(Double(values.count) / parseTimes.min()!)) |"
        )
        print(
            "| place.isOpen(at:) on the OSM text (parse + evaluate, \(zurich)) | \(runs) | \(fmt(evalTimes.min()!, 4)) / \(fmt(median(evalTimes), 4)) | \(Int(Double(values.count) / evalTimes.min()!)) |"
        )
        print(
            "| place.isOpen(at:) on v1 periods (\(periodPlaces.count) weekly values) | \(runs) | \(fmt(periodTimes.min()!, 4)) / \(fmt(median(periodTimes), 4)) | \(Int(Double(periodPlaces.count) / periodTimes.min()!)) |"
        )
        print("")
        print(
            "(\(open) of \(values.count) places open at 2026-03-29T10:00:00Z, a Sunday, the day Europe/Zurich moves to summer time)"
        )
    }

    static func readValues(root: String) throws -> [String] {
        var values: [String] = []
        for sub in ["poi", "poi-nwr"] {
            let dir = "\(root)/\(sub)"
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names.sorted() where name.hasSuffix(".geojsonseq") {
                let data = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)"))
                for line in data.split(separator: 0x0A) {
                    let bytes = Array(line.drop { $0 == 0x1E || $0 == 0x20 })
                    guard !bytes.isEmpty else { continue }
                    let feature = try JSONValue(parsing: bytes)
                    if let v = feature["properties"]?["opening_hours"]?.stringValue { values.append(v) }
                }
            }
        }
        return values
    }
}
