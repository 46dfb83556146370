// placedb-bench eval-link-import [--pairs PATH]
//
// Issue 30's measurement on the labelled pairs, end to end: each pair's two
// sides (Overture/Meta and Microsoft, SOURCES.md "Conflation") become
// Overture GeoJSON features at one spot per pair, the two records 30 m
// apart, written as two files; the files are imported as two sources into
// a new database, the second import linking; then the pairs placedb put in
// one group are compared with the labels: precision, recall, F1.
import Foundation
import PlaceKit
import PlaceModel
import SQLiteDB

enum LinkImportEval {
    static func run(_ args: [String]) throws {
        let path = option("--pairs", args) ?? LinkEval.defaultPairs
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped: \(path) is absent; nothing to evaluate")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("placedb-link-import-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = JSONWriter()
        var sideA = "", sideB = ""
        var truth: [(number: Int, label: Bool, a: String, b: String)] = []
        var seenA = Set<String>(), seenB = Set<String>()
        for line in try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        where !line.isEmpty {
            let row = try JSONValue(parsing: String(line))
            guard let number = row["pair"]?.intValue, let label = row["label"]?.intValue else { continue }
            let spot = Coordinate(
                latitude: 40 + Double(number % 1000) * 0.01, longitude: -100 + Double(number / 1000) * 0.01)
            let east = 30 / (111_195 * cos(spot.latitude * .pi / 180))
            var a = LinkEval.feature(row, prefix: "", at: spot)
            var b = LinkEval.feature(
                row, prefix: "base_", at: Coordinate(latitude: spot.latitude, longitude: spot.longitude + east))
            // A record in two pairs is two records here (one per spot).
            func unique(_ f: inout JSONValue, _ seen: inout Set<String>) -> String {
                var id = f["id"]?.stringValue ?? "pair-\(number)"
                if !seen.insert(id).inserted, var o = f.objectValue {
                    id += "@\(number)"
                    o["id"] = .string(id)
                    f = .object(o)
                    seen.insert(id)
                }
                return id
            }
            let idA = unique(&a, &seenA), idB = unique(&b, &seenB)
            sideA += writer.string(a) + "\n"
            sideB += writer.string(b) + "\n"
            truth.append((number, label == 1, idA, idB))
        }
        let fileA = "\(dir)/overture-meta.geojsonseq", fileB = "\(dir)/microsoft.geojsonseq", db = "\(dir)/pairs.sqlite"
        try sideA.write(toFile: fileA, atomically: true, encoding: .utf8)
        try sideB.write(toFile: fileB, atomically: true, encoding: .utf8)
        var options = ImportOptions(format: .overture, onError: .skip, source: "overture-meta")
        options.link = false
        _ = try PlaceImporter(databasePath: db, options: options).importInput(.file(fileA))
        options = ImportOptions(format: .overture, onError: .skip, source: "microsoft")
        let importer = try PlaceImporter(databasePath: db, options: options)
        let imported = try importer.importInput(.file(fileB))
        let link = try importer.link()
        let store = try Database(path: db, mode: .readOnly)
        var group: [String: Int64] = [:]
        try store.forEachRow("SELECT place_id, source, group_id FROM place WHERE group_id IS NOT NULL") { row in
            group["\(try row.string(1))|\(try row.string(0))"] = try row.int64(2)
        }
        var tp = 0, fp = 0, fn = 0, tn = 0
        for t in truth {
            let same = group["overture-meta|\(t.a)"].map { $0 == group["microsoft|\(t.b)"] } ?? false
            switch (same, t.label) {
            case (true, true): tp += 1
            case (true, false): fp += 1
            case (false, true): fn += 1
            case (false, false): tn += 1
            }
        }
        let p = Double(tp) / Double(max(1, tp + fp)), r = Double(tp) / Double(max(1, tp + fn))
        print(
            "placedb-bench eval-link-import: \(truth.count) labelled pairs imported as two sources (\(imported.inserted) records in the second), one spot per pair, the records 30 m apart"
        )
        if let link {
            print(
                "  linking: \(link.scored) pairs scored, \(link.linked) links, \(link.groups) groups of \(link.grouped) records, \(link.refused) refused, \(fmt(link.seconds, 2)) s"
            )
        }
        print("")
        print("| pairs | same place | grouped | TP | FP | FN | TN | precision | recall | F1 |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        print(
            "| \(truth.count) | \(truth.filter(\.label).count) | \(tp + fp) | \(tp) | \(fp) | \(fn) | \(tn) | \(fmt(p, 3)) | \(fmt(r, 3)) | \(fmt(2 * p * r / max(1e-9, p + r), 3)) |"
        )
    }
}
