// placedb-bench eval-link-drift [--data DIR] [--pairs a:b,...]
//
// Real drift (issue 30): two OpenStreetMap snapshots of one region
// (../shared/data/osm/poi-nwr) imported as two different sources with no ID
// in common (the newer one renumbered: every @id + 10^12), linked by the
// import, then compared with the truth, the OSM ID: a place that persisted
// (its type and ID are in both snapshots) should be one group; a group that
// joins an old and a new record of different OSM IDs joins two different
// places (by that truth; the redraws osm/derived lists are counted apart,
// since they are the same place under a new ID).
import Foundation
import PlaceKit
import PlaceModel
import SQLiteDB

enum LinkDriftEval {
    static let defaultPairs = [
        "andorra-2013-05-28:andorra-2021-10-28", "liechtenstein-2015-07-27:liechtenstein-2021-10-28",
    ]
    static let offset: Int64 = 1_000_000_000_000

    static func run(_ args: [String]) throws {
        let data = option("--data", args) ?? "../shared/data/osm"
        guard FileManager.default.fileExists(atPath: "\(data)/poi-nwr") else {
            print("SKIP: \(data)/poi-nwr is absent; nothing to evaluate")
            return
        }
        let pairs = option("--pairs", args).map { $0.split(separator: ",").map(String.init) } ?? defaultPairs
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("placedb-link-drift-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        print("placedb-bench eval-link-drift: two snapshots as two sources, the newer renumbered; truth: the OSM ID")
        print("")
        print(
            "| old | new | persisted | linked (same group) | recall | old-new pairs grouped | of different IDs | of them listed redraws | of them with a twin of their own | wrong-link rate | reviewed by hand: same / duplicate / different / not reviewed | wrong by review | link s |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for pair in pairs {
            let parts = pair.split(separator: ":").map(String.init)
            guard parts.count == 2 else { throw BenchError(message: "--pairs: expected OLD:NEW, found \(pair)") }
            let db = "\(dir)/\(parts[0]).sqlite"
            let renumbered = "\(dir)/\(parts[1]).renumbered.geojsonseq"
            let newIDs = try renumber("\(data)/poi-nwr/\(parts[1]).poi-nwr.geojsonseq", to: renumbered)
            var options = ImportOptions(source: "osm-old")
            options.link = false
            _ = try PlaceImporter(databasePath: db, options: options).importInput(
                .file("\(data)/poi-nwr/\(parts[0]).poi-nwr.geojsonseq"))
            options = ImportOptions(source: "osm-new")
            let importer = try PlaceImporter(databasePath: db, options: options)
            _ = try importer.importInput(.file(renumbered))
            let started = Date()
            _ = try importer.link()
            let seconds = Date().timeIntervalSince(started)
            let redraws = try derivedRedraws(data, parts[0], parts[1])
            let r = try measure(db, newIDs: newIDs, redraws: redraws)
            print(
                "| \(parts[0]) | \(parts[1]) | \(r.persisted) | \(r.linked) | \(pct(r.linked, r.persisted)) | \(r.grouped) | \(r.wrong) | \(r.wrongRedraws) | \(r.wrongPersisted) | \(pct(r.wrong - r.wrongRedraws, r.grouped)) (\(pct(r.wrong, r.grouped)) counting redraws) | \(r.reviewed[.same] ?? 0) / \(r.reviewed[.duplicate] ?? 0) / \(r.reviewed[.different] ?? 0) / \(r.reviewed[nil] ?? 0) | \(pct(r.reviewed[.different] ?? 0, r.grouped)) (\(pct((r.reviewed[.different] ?? 0) + (r.reviewed[.duplicate] ?? 0), r.grouped)) with duplicates) | \(fmt(seconds, 2)) |"
            )
            if args.contains("--misses") {
                for m in r.examples { FileHandle.standardError.write(Data("\(m)\n".utf8)) }
            }
        }
    }

    static func pct(_ a: Int, _ b: Int) -> String {
        b == 0 ? "-" : String(format: "%.1f%%", 100 * Double(a) / Double(max(1, b)))
    }

    /// Writes the snapshot with every @id + `offset`; returns the original IDs.
    static func renumber(_ input: String, to output: String) throws -> Set<String> {
        let text = try String(contentsOfFile: input, encoding: .utf8)
        var out = ""
        var ids = Set<String>()
        for line in text.split(whereSeparator: \.isNewline) {
            var l = String(line)
            if l.hasPrefix("\u{1E}") { l.removeFirst() }
            guard var f = try JSONParser.parse(Array(l.utf8)).objectValue, var p = f["properties"]?.objectValue,
                let id = p["@id"]?.intValue, let type = p["@type"]?.stringValue
            else { continue }
            ids.insert(PlaceIDSpelling.osmID(type: type, number: Int64(id)))
            p["@id"] = .int(Int64(id) + offset)
            f["properties"] = .object(p)
            out += JSONWriter().string(.object(f)) + "\n"
        }
        try out.write(toFile: output, atomically: true, encoding: .utf8)
        return ids
    }

    /// The probable ID changes osm/derived lists between the two dates
    /// (old -> new), chains across its files composed (2013 -> 2020 ->
    /// 2021), when files cover them.
    static func derivedRedraws(_ data: String, _ old: String, _ new: String) throws -> Set<String> {
        var next: [String: Set<String>] = [:]
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: "\(data)/derived") else { return [] }
        let region = old.split(separator: "-").first.map(String.init) ?? old
        for file in files where file.hasPrefix("osm-id-changes_\(region)_") && file.hasSuffix(".csv") {
            let text = try String(contentsOfFile: "\(data)/derived/\(file)", encoding: .utf8)
            for line in text.split(whereSeparator: \.isNewline).dropFirst() {
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                guard f.count > 2 else { continue }
                next[AliasEval.osmID(String(f[0])), default: []].insert(AliasEval.osmID(String(f[1])))
            }
        }
        var out = Set<String>()
        for start in next.keys {
            var frontier: Set<String> = [start], seen: Set<String> = [start]
            while !frontier.isEmpty {
                var more = Set<String>()
                for id in frontier {
                    for n in next[id] ?? [] where seen.insert(n).inserted {
                        more.insert(n); out.insert("\(start) \(n)")
                    }
                }
                frontier = more
            }
        }
        return out
    }

    struct Result {
        var persisted = 0, linked = 0, grouped = 0, wrong = 0, wrongRedraws = 0, wrongPersisted = 0
        /// The pairs of different OSM IDs not listed as redraws, by the
        /// verdict of `LinkDriftReview` (nil: not reviewed).
        var reviewed: [LinkDriftReview.Verdict?: Int] = [:]
        var examples: [String] = []
    }

    static func measure(_ path: String, newIDs: Set<String>, redraws: Set<String>) throws -> Result {
        let db = try Database(path: path, mode: .readOnly)
        var groupOf: [String: Int64] = [:]
        var oldIDs = Set<String>()
        var members: [Int64: [(id: String, source: String)]] = [:]
        try db.forEachRow("SELECT place_id, source, group_id FROM place WHERE removed_run IS NULL") { row in
            let id = try row.string(0), source = try row.string(1)
            if source == "osm-old" { oldIDs.insert(id) }
            if let g = row.optionalInt64(2) {
                groupOf[id] = g
                members[g, default: []].append((id, source))
            }
        }
        func shifted(_ id: String, by delta: Int64) -> String {
            guard let type = PlaceIDSpelling.osmType(id), let short = PlaceIDSpelling.osmShortForm(id),
                let n = Int64(short.dropFirst())
            else { return id }
            return PlaceIDSpelling.osmID(type: type, number: n + delta)
        }
        func original(_ renumbered: String) -> String { shifted(renumbered, by: -offset) }
        func renumberedID(_ id: String) -> String { shifted(id, by: offset) }
        var r = Result()
        for id in oldIDs where newIDs.contains(id) {
            r.persisted += 1
            if let g = groupOf[id], groupOf[renumberedID(id)] == g {
                r.linked += 1
            } else if r.examples.count < 40 {
                r.examples.append("missed: \(id)")
            }
        }
        for (_, m) in members {
            for a in m where a.source == "osm-old" {
                for b in m where b.source == "osm-new" {
                    r.grouped += 1
                    let truth = original(b.id)
                    if truth != a.id {
                        r.wrong += 1
                        // Certainly two places: one of them has its own twin on the other side.
                        if newIDs.contains(a.id) || oldIDs.contains(truth) { r.wrongPersisted += 1 }
                        if redraws.contains("\(a.id) \(truth)") { r.wrongRedraws += 1; continue }
                        r.reviewed[LinkDriftReview.verdicts["\(a.id) \(truth)"], default: 0] += 1
                        if r.examples.count < 80 {
                            r.examples.append(
                                "wrong\(newIDs.contains(a.id) || oldIDs.contains(truth) ? " (twin elsewhere)" : ""): \(a.id) ~ \(truth)"
                            )
                        }
                    }
                }
            }
        }
        return r
    }
}
