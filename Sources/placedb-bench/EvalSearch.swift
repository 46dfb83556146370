// placedb-bench eval-search [--data DIR] [--dir DIR] [--seed S] [--regions a,b,...] [--trigram]
//
// Text search and autocomplete on real OpenStreetMap POIs: the newest
// snapshot of each region in DIR (default ../shared/data/osm/poi-nwr) is
// imported into a database of its own, and every named place is looked for
// from a point drawn uniformly within 500 m of it (seeded):
//   exact     its name; top-1 is it or a place of the same name
//   folded    its name lower-cased without diacritics; the same
//   prefix    autocomplete with the first 60% of its name's characters; it is in the top 5
//   typo      its name with one letter deleted from its longest word; it is in the top 5, and top-1
//   type      the words of its primary type; the nearest place of that primary type is in the top 5
// With --trigram the typo queries are also answered by an FTS5 trigram
// index over folded names (the alternative to the edit-distance step),
// ranked by the same formula, with its size.
import Foundation
import PlaceKit
import PlaceModel
import SQLiteDB

enum EvalSearch {
    struct Named {
        let id: String
        let name: String
        let type: String?
        let coordinate: Coordinate
    }

    struct Tally {
        var n = 0, exact = 0, folded = 0, prefix = 0, typo5 = 0, typo1 = 0, typeN = 0, type5 = 0
        var trigram5 = 0, trigram1 = 0
        /// Strictly the place itself (not one of the same name).
        var strictPrefix = 0, strictTypo5 = 0, strictTypo1 = 0
        static func += (a: inout Tally, b: Tally) {
            a.strictPrefix += b.strictPrefix; a.strictTypo5 += b.strictTypo5; a.strictTypo1 += b.strictTypo1
            a.n += b.n; a.exact += b.exact; a.folded += b.folded; a.prefix += b.prefix; a.typo5 += b.typo5;
            a.typo1 += b.typo1
            a.typeN += b.typeN; a.type5 += b.type5; a.trigram5 += b.trigram5; a.trigram1 += b.trigram1
        }
    }

    static func run(_ args: [String]) throws {
        let dataDir = option("--data", args) ?? "../shared/data/osm/poi-nwr"
        let dir = option("--dir", args) ?? "bench-out"
        let seed = UInt64(option("--seed", args) ?? "") ?? 2026
        let wanted = option("--regions", args).map { Set($0.split(separator: ",").map(String.init)) }
        let trigram = args.contains("--trigram")
        let misses = args.contains("--misses")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let newest = try newestSnapshots(in: dataDir, regions: wanted)
        print(
            "placedb-bench eval-search: named OSM POIs of \(dataDir), the newest snapshot per region, query points within 500 m (seed \(seed))"
        )
        print("")
        var header =
            "| region | named places | exact name top-1 | folded name top-1 | autocomplete 60% top-5 | typo top-5 | typo top-1 | type words: nearest of type in top-5 |"
        var rule = "|---|---|---|---|---|---|---|---|"
        if trigram { header += " trigram typo top-5 | trigram typo top-1 |"; rule += "---|---|" }
        print(header)
        print(rule)
        var total = Tally()
        var missLines: [String] = []
        for (region, file) in newest.sorted(by: { $0.key < $1.key }) {
            let db = "\(dir)/eval-search-\(region).sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            _ = try PlaceImporter(databasePath: db, options: ImportOptions(onError: .skip, source: "osm")).importInput(
                .file("\(dataDir)/\(file)"))
            let client = try PlaceReader(databasePath: db)
            let places = try named(client, db: db)
            var rng = SplitMix64(state: seed)
            var t = Tally()
            let trigramIndex = trigram ? try TrigramIndex(path: db) : nil
            for p in places {
                t.n += 1
                let angle = rng.unit() * 2 * Double.pi, r = 500 * rng.unit().squareRoot()
                let at = EvalCurrent.offset(p.coordinate, east: r * cos(angle), north: r * sin(angle))
                func search(_ q: String, limit: Int = 5) throws -> [TextSearchResult] {
                    var request = TextSearchRequest(textQuery: q, locationBias: .circle(center: at, radiusMeters: nil))
                    request.maxResultCount = limit
                    return try client.searchText(request, fields: try FieldMask(parsing: "id,displayName,primaryType"))
                }
                func sameName(_ r: TextSearchResult?) -> Bool {
                    guard let r else { return false }
                    return r.place.id.rawValue == p.id || r.place.displayName?.text == p.name
                }
                if sameName(try search(p.name, limit: 1).first) {
                    t.exact += 1
                } else if misses {
                    missLines.append("exact \(region) \(p.id) \(p.name)")
                }
                if sameName(try search(TextFolding.fold(p.name), limit: 1).first) { t.folded += 1 }
                let chars = Array(p.name)
                let cut = String(chars.prefix(Int((Double(chars.count) * 0.6).rounded(.up))))
                let suggestions = try client.autocomplete(
                    AutocompleteRequest(input: cut, locationBias: .circle(center: at, radiusMeters: nil)))
                if suggestions.contains(where: { $0.placeID.rawValue == p.id }) { t.strictPrefix += 1 }
                if suggestions.contains(where: { $0.placeID.rawValue == p.id || $0.mainText == p.name }) {
                    t.prefix += 1
                } else if misses {
                    missLines.append("prefix \(region) \(p.id) '\(cut)' -> \(suggestions.map(\.mainText))")
                }
                let typo = deleteLetter(p.name, &rng)
                let typoHits = try search(typo)
                if typoHits.contains(where: { $0.place.id.rawValue == p.id }) { t.strictTypo5 += 1 }
                if typoHits.first?.place.id.rawValue == p.id { t.strictTypo1 += 1 }
                if typoHits.contains(where: sameName) {
                    t.typo5 += 1
                } else if misses {
                    missLines.append(
                        "typo \(region) \(p.id) '\(typo)' (\(p.name)) -> \(typoHits.compactMap { $0.place.displayName?.text })"
                    )
                }
                if sameName(typoHits.first) { t.typo1 += 1 }
                if let tri = trigramIndex {
                    let ranked = try tri.search(typo, near: at, client: client)
                    if ranked.prefix(5).contains(p.id) { t.trigram5 += 1 }
                    if ranked.first == p.id { t.trigram1 += 1 }
                }
                if let type = p.type {
                    t.typeN += 1
                    let nearest = places.filter { $0.type == type }.min {
                        at.distance(to: $0.coordinate) < at.distance(to: $1.coordinate)
                    }
                    let words = type.replacingOccurrences(of: "_", with: " ")
                    let hits = try search(words)
                    if let nearest, hits.contains(where: { $0.place.id.rawValue == nearest.id }) {
                        t.type5 += 1
                    } else if misses {
                        missLines.append(
                            "type \(region) '\(words)' nearest \(nearest?.name ?? "-") -> \(hits.compactMap { $0.place.displayName?.text })"
                        )
                    }
                }
            }
            var row =
                "| \(region) | \(t.n) | \(pct(t.exact, t.n)) | \(pct(t.folded, t.n)) | \(pct(t.prefix, t.n)) | \(pct(t.typo5, t.n)) | \(pct(t.typo1, t.n)) | \(pct(t.type5, t.typeN)) |"
            if trigram { row += " \(pct(t.trigram5, t.n)) | \(pct(t.trigram1, t.n)) |" }
            print(row)
            total += t
        }
        var row =
            "| all | \(total.n) | \(pct(total.exact, total.n)) | \(pct(total.folded, total.n)) | \(pct(total.prefix, total.n)) | \(pct(total.typo5, total.n)) | \(pct(total.typo1, total.n)) | \(pct(total.type5, total.typeN)) |"
        if trigram { row += " \(pct(total.trigram5, total.n)) | \(pct(total.trigram1, total.n)) |" }
        print(row)
        print("")
        print(
            "targets: exact >= 99%, folded >= 99%, autocomplete >= 98%, typo top-5 >= 90% and top-1 >= 85%, type words >= 95%"
        )
        print(
            "(a hit is the place or one of the same name; strictly the place itself: autocomplete top-5 \(pct(total.strictPrefix, total.n)), typo top-5 \(pct(total.strictTypo5, total.n)), typo top-1 \(pct(total.strictTypo1, total.n)))"
        )
        for line in missLines.prefix(200) { print("miss: \(line)") }
    }

    static func pct(_ a: Int, _ n: Int) -> String { n == 0 ? "-" : fmt(100 * Double(a) / Double(n), 2) + "%" }

    /// The live named places of the database (their names as stored).
    static func named(_ client: PlaceReader, db: String) throws -> [Named] {
        let database = try Database(path: db, mode: .readOnly)
        var ids: [String] = []
        try database.forEachRow(
            "SELECT place_id FROM place WHERE name IS NOT NULL AND trim(name) <> '' AND removed_run IS NULL ORDER BY id"
        ) { row in
            ids.append(try row.string(0))
        }
        let mask = try FieldMask(parsing: "displayName,primaryType,location")
        return try ids.compactMap { id in
            let p = try client.fetchPlace(id: PlaceID(id), fields: mask, followAliases: false)
            guard let name = p.displayName?.text, !TextFolding.words(name).isEmpty else { return nil }
            return Named(id: id, name: name, type: p.primaryType, coordinate: p.coordinate)
        }
    }

    /// The name with one letter (drawn at random) deleted from its longest word.
    static func deleteLetter(_ name: String, _ rng: inout SplitMix64) -> String {
        let chars = Array(name)
        var best = (start: 0, length: 0), start = -1
        for i in 0...chars.count {
            let letter = i < chars.count && chars[i].isLetter
            if letter && start < 0 { start = i }
            if !letter && start >= 0 {
                if i - start > best.length { best = (start, i - start) }
                start = -1
            }
        }
        guard best.length > 0 else { return name }
        var out = chars
        out.remove(at: best.start + rng.int(best.length))
        return String(out)
    }
}

/// The alternative to the edit-distance step: an FTS5 trigram index over
/// each place's folded names (SQLite 3.40's trigram tokenizer has no
/// remove_diacritics), queried with any of the typed text's trigrams and
/// ranked by the same formula (BM25 share, distance, popularity).
final class TrigramIndex {
    let db: Database
    let path: String

    init(path: String) throws {
        self.path = path
        db = try Database(path: path, mode: .create)
        try db.loadExtension("mod_spatialite")
        try db.execute("DROP TABLE IF EXISTS eval_trigram")
        try db.execute("CREATE VIRTUAL TABLE eval_trigram USING fts5(names, tokenize = 'trigram')")
        var rows: [(Int64, String)] = []
        try db.forEachRow("SELECT rowid, coalesce(name, '') || ' ; ' || coalesce(other_names, '') FROM place_text") {
            row in
            rows.append((try row.int64(0), row.optionalString(1) ?? ""))
        }
        try db.transaction {
            let insert = try db.prepare("INSERT INTO eval_trigram (rowid, names) VALUES (?, ?)")
            for (rowid, text) in rows {
                insert.reset()
                try insert.bind([.integer(rowid), .text(TextFolding.fold(text))])
                try insert.run()
            }
        }
    }

    /// The place IDs found, best first (at most 5).
    func search(_ text: String, near: Coordinate, client: PlaceReader) throws -> [String] {
        let folded = Array(TextFolding.fold(text).unicodeScalars)
        guard folded.count >= 3 else { return [] }
        var grams = Set<String>()
        for i in 0...(folded.count - 3) {
            var g = String.UnicodeScalarView()
            g.append(contentsOf: folded[i..<(i + 3)])
            grams.insert("\"" + String(g).replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        var hits: [(Int64, Double)] = []
        let statement = try db.cachedStatement(
            "SELECT rowid, bm25(eval_trigram) AS s FROM eval_trigram WHERE eval_trigram MATCH ?1 ORDER BY s LIMIT 200")
        try statement.bind(.text(grams.sorted().joined(separator: " OR ")), at: 1)
        defer { statement.reset() }
        while let row = try statement.step() { hits.append((try row.int64(0), try row.double(1))) }
        guard let best = hits.map(\.1).min() else { return [] }
        let ranking = TextRanking()
        var scored: [(String, Double)] = []
        for (rowid, bm25) in hits {
            var id = "", coordinate = near
            try db.forEachRow(
                "SELECT p.place_id, g.ymin, g.xmin FROM place p JOIN idx_place_geom g ON g.pkid = p.id WHERE p.id = ?",
                [.integer(rowid)]
            ) { row in
                id = try row.string(0)
                coordinate = Coordinate(latitude: try row.double(1), longitude: try row.double(2))
            }
            let f = ranking.factors(
                bm25: bm25, bestBM25: best, nameMatch: 0, meters: near.distance(to: coordinate), scale: nil,
                ratingCount: nil, corrected: false)
            scored.append((id, f.score))
        }
        return scored.sorted { $0.1 > $1.1 }.prefix(5).map(\.0)
    }
}
