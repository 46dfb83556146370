// placedb-bench aliases-eval [--data DIR] [--threshold S] [--radius M]
//
// Imports the dated OpenStreetMap snapshots of Andorra and Liechtenstein
// (../shared/data/osm/poi-nwr) in date order as snapshots of one source
// each, then compares the alias edges placedb's matcher recorded with the
// probable ID changes in osm/derived/*.csv (same normalized name within
// 150 m): pairs linked, linked elsewhere, not linked, and the edges beyond
// the list (printed, for inspection by hand).
import Foundation
import PlaceKit
import PlaceModel

enum AliasEval {
    static let regions: [(source: String, snapshots: [String], derived: [String])] = [
        (
            "osm-andorra", ["andorra-2013-05-28", "andorra-2020-05-01", "andorra-2021-04-13", "andorra-2021-10-28"],
            ["andorra_2013-05-28_to_2020-05-01", "andorra_2020-05-01_to_2021-10-28"]
        ),
        (
            "osm-liechtenstein", ["liechtenstein-2013-08-03", "liechtenstein-2015-07-27", "liechtenstein-2021-10-28"],
            ["liechtenstein_2013-08-03_to_2015-07-27", "liechtenstein_2015-07-27_to_2021-10-28"]
        ),
    ]

    /// `osm:n123` of the derived CSVs' `n123` (placedb's spelling is osmium's short form).
    static func osmID(_ short: String) -> String {
        "osm:\(short)"
    }

    static func run(_ args: [String]) throws {
        let data = option("--data", args) ?? "../shared/data/osm"
        guard FileManager.default.fileExists(atPath: "\(data)/derived") else {
            print("SKIP: \(data) is absent; nothing to evaluate")
            return
        }
        var matching = MatchOptions()
        if let t = option("--threshold", args).flatMap(Double.init) { matching.threshold = t }
        if let r = option("--radius", args).flatMap(Double.init) { matching.radiusMeters = r }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("placedb-alias-eval-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        print("placedb-bench aliases-eval: matcher radius \(matching.radiusMeters) m, threshold \(matching.threshold)")
        print("")
        print("| region | snapshot | added | removed | linked by alias |")
        print("|---|---|---|---|---|")
        var report: [String] = []
        for region in regions {
            let db = "\(dir)/\(region.source).sqlite"
            for name in region.snapshots {
                var options = ImportOptions(snapshot: region.source)
                options.matching = matching
                let importer = try PlaceImporter(databasePath: db, options: options)
                let s = try importer.importInput(.file("\(data)/poi-nwr/\(name).poi-nwr.geojsonseq"))
                let removed = try importer.finishSnapshot()
                print("| \(region.source) | \(name) | \(s.inserted) | \(removed) | \(importer.lastSnapshotLinks) |")
            }
            let client = try PlaceReader(databasePath: db)
            let edges = try client.aliasEdges()
            var listed = Set<String>()
            for file in region.derived {
                let text = try String(contentsOfFile: "\(data)/derived/osm-id-changes_\(file).csv", encoding: .utf8)
                var linked = 0, elsewhere = 0, missing = 0, total = 0
                for line in text.split(whereSeparator: \.isNewline).dropFirst() {
                    let f = line.split(separator: ",", omittingEmptySubsequences: false)
                    guard f.count > 2 else { continue }
                    total += 1
                    let old = osmID(String(f[0])), new = osmID(String(f[1]))
                    listed.insert("\(old) \(new)")
                    let targets = edges.filter { $0.aliasID == old }.map(\.placeID)
                    if targets.contains(new) {
                        linked += 1
                    } else if !targets.isEmpty {
                        elsewhere += 1
                    } else {
                        missing += 1
                    }
                }
                report.append("| \(file) | \(total) | \(linked) | \(elsewhere) | \(missing) |")
            }
            let reasons = Dictionary(grouping: edges, by: \.reason.rawValue).mapValues(\.count).sorted {
                $0.key < $1.key
            }
            report.append(
                "| \(region.source): all edges | \(edges.count) (\(reasons.map { "\($0.key) \($0.value)" }.joined(separator: ", "))) | | | |"
            )
            let extra = edges.filter { !listed.contains("\($0.aliasID) \($0.placeID)") }
            report.append("| \(region.source): edges beyond the list | \(extra.count) | | | |")
            for e in extra {
                let a = try? client.fetchPlace(id: PlaceID(e.aliasID), followAliases: false)
                let b = try? client.fetchPlace(id: PlaceID(e.placeID), followAliases: false)
                FileHandle.standardError.write(
                    Data(
                        "extra \(e.reason.rawValue) \(e.confidence): \(e.aliasID) '\(a?.displayName?.text ?? "?")' -> \(e.placeID) '\(b?.displayName?.text ?? "?")'\n"
                            .utf8))
            }
        }
        print("")
        print("| derived list (osm/derived) | pairs | linked | linked elsewhere | not linked |")
        print("|---|---|---|---|---|")
        for line in report { print(line) }
    }
}
