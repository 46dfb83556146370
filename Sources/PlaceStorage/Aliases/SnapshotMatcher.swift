import Foundation
package import SQLiteDB
package import PlaceModel

/// Links removed places to added ones after a snapshot: name similarity
/// (bigram Dice on folded names), distance, and type agreement, assigned
/// greedily best-first. An added place that takes several removed ones is a
/// merge; a removed place with two near-equal best candidates is a split; a
/// change of OSM element type (node -> way) is a redraw; a snapshot that
/// re-keys most of its source is a renumbering.
package struct SnapshotMatcher {
    package struct Candidate {
        let rowid: Int64
        let id: String
        let name: String?
        let folded: [UInt32]
        let numbers: Set<String>
        let coordinate: Coordinate
        let types: Set<String>
        let primaryType: String?
    }

    package let options: MatchOptions

    /// Number tokens of a name ("II", "2", "IV"): two names that differ
    /// only there ("Mühleholz I" / "Mühleholz II") are different places.
    package static func numbers(_ name: String?) -> Set<String> {
        guard let name else { return [] }
        let roman: Set<String> = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
        var out = Set<String>()
        for token in name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
            let t = String(token)
            if t.allSatisfy(\.isNumber) || roman.contains(t) { out.insert(t) }
        }
        return out
    }

    package static func load(_ db: Database, _ sql: String, _ args: [DatabaseValue]) throws -> [Candidate] {
        var out: [Candidate] = []
        try db.forEachRow(sql, args) { row in
            guard let c = row.withBytes(3, { SpatiaLiteBlob.coordinate($0) }) else { return }
            let doc = (try? row.withBytes(4) { try JSONParser.parse($0) }) ?? .null
            let types = Set((doc["types"]?.arrayValue ?? []).compactMap(\.stringValue)).subtracting([
                "point_of_interest", "establishment",
            ])
            let name = row.optionalString(2)
            out.append(
                Candidate(
                    rowid: try row.int64(0), id: try row.string(1), name: name, folded: bigrams(name),
                    numbers: numbers(name),
                    coordinate: c, types: types, primaryType: row.optionalString(5)))
        }
        return out
    }

    /// Folded (case, diacritics, punctuation) character bigrams, packed.
    static func bigrams(_ name: String?) -> [UInt32] {
        guard let name else { return [] }
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let scalars = folded.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? $0.value : 32 }
        var compact: [UInt32] = []
        for s in scalars where !(s == 32 && (compact.last == 32 || compact.isEmpty)) { compact.append(s) }
        if compact.last == 32 { compact.removeLast() }
        if compact.count < 2 { return compact.map { $0 << 16 } }
        return (0..<(compact.count - 1)).map { compact[$0] << 16 ^ compact[$0 + 1] }.sorted()
    }

    static func dice(_ a: [UInt32], _ b: [UInt32]) -> Double {
        if a.isEmpty || b.isEmpty { return 0 }
        if a == b { return 1 }
        var i = 0, j = 0, common = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { common += 1; i += 1; j += 1 } else if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return 2 * Double(common) / Double(a.count + b.count)
    }

    package static func meters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = 6_371_008.8
        let p1 = a.latitude * .pi / 180, p2 = b.latitude * .pi / 180
        let dp = p2 - p1, dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    struct Link {
        let removed: Candidate
        let added: Candidate
        let score: Double
        let nameSimilarity: Double
        let distance: Double
        let typeMatch: String
    }

    /// The alias edges for removed -> added, best first.
    package func match(removed: [Candidate], added: [Candidate], renumbering: Bool) -> [AliasEdge] {
        guard !removed.isEmpty, !added.isEmpty else { return [] }
        // A grid of about the radius, so each removed place looks at 9 cells.
        let cell = options.radiusMeters / 111_320
        func key(_ c: Coordinate) -> SIMD2<Int32> {
            let scale = max(0.01, cos(c.latitude * .pi / 180))
            return SIMD2(Int32((c.latitude / cell).rounded(.down)), Int32((c.longitude * scale / cell).rounded(.down)))
        }
        var grid: [SIMD2<Int32>: [Int]] = [:]
        for (i, a) in added.enumerated() { grid[key(a.coordinate), default: []].append(i) }

        var links: [Link] = []
        for r in removed {
            let k = key(r.coordinate)
            for dy in -1...1 {
                for dx in -1...1 {
                    for i in grid[k &+ SIMD2(Int32(dy), Int32(dx))] ?? [] {
                        let a = added[i]
                        let d = Self.meters(r.coordinate, a.coordinate)
                        guard d <= options.radiusMeters else { continue }
                        var n = Self.dice(r.folded, a.folded)
                        if !r.numbers.isEmpty, !a.numbers.isEmpty, r.numbers != a.numbers { n = min(n, 0.5) }
                        let t: (Double, String)
                        if let p = r.primaryType, p == a.primaryType {
                            t = (1, "primary")
                        } else if !r.types.isDisjoint(with: a.types) {
                            t = (0.5, "shared")
                        } else {
                            t = (0, "none")
                        }
                        let score =
                            options.nameWeight * n + options.distanceWeight * max(0, 1 - d / options.radiusMeters)
                            + options.typeWeight * t.0
                        if score >= options.threshold {
                            links.append(
                                Link(removed: r, added: a, score: score, nameSimilarity: n, distance: d, typeMatch: t.1)
                            )
                        }
                    }
                }
            }
        }
        links.sort { ($0.score, $1.removed.id, $1.added.id) > ($1.score, $0.removed.id, $0.added.id) }

        // Best first: each removed place takes its best free candidate; an
        // added place may take several removed ones (a merge). A removed
        // place whose next candidate is nearly as good is split.
        var bestOf: [String: Link] = [:]
        var splits: [String: [Link]] = [:]
        var takenBy: [String: Int] = [:]
        var claimed = Set<String>()
        for link in links {
            if let best = bestOf[link.removed.id] {
                if best.score - link.score < 0.05, !claimed.contains(link.added.id), link.nameSimilarity >= 0.9 {
                    splits[link.removed.id, default: [best]].append(link)
                    claimed.insert(link.added.id)
                }
                continue
            }
            bestOf[link.removed.id] = link
            takenBy[link.added.id, default: 0] += 1
            claimed.insert(link.added.id)
        }
        var edges: [AliasEdge] = []
        for (removedID, best) in bestOf.sorted(by: { $0.key < $1.key }) {
            let group = splits[removedID] ?? [best]
            for link in group {
                let reason: AliasReason
                if group.count > 1 {
                    reason = .split
                } else if takenBy[link.added.id, default: 0] > 1 {
                    reason = .merged
                } else if renumbering {
                    reason = .renumbered
                } else if Self.osmType(link.removed.id) != Self.osmType(link.added.id) {
                    reason = .redrawn
                } else {
                    reason = .moved
                }
                let evidence: JSONValue = [
                    "matcher": "snapshot",
                    "score": .double((link.score * 1000).rounded() / 1000),
                    "nameSimilarity": .double((link.nameSimilarity * 1000).rounded() / 1000),
                    "distanceMeters": .double((link.distance * 10).rounded() / 10),
                    "typeMatch": .string(link.typeMatch),
                ]
                edges.append(
                    AliasEdge(
                        aliasID: link.removed.id, placeID: link.added.id, reason: reason,
                        confidence: min(1, max(0.001, (link.score * 1000).rounded() / 1000)), evidence: evidence))
            }
        }
        return edges
    }

    /// `node` of `osm:n42` (or `osm:node/42`), nil for other IDs.
    static func osmType(_ id: String) -> String? {
        PlaceIDSpelling.osmType(id)
    }

    package init(options: MatchOptions) {
        self.options = options
    }
}
