import Foundation
import SQLiteDB
import PlaceModel

/// One place as the linker sees it.
struct LinkRow {
    let rowid: Int64
    let placeID: String
    let source: String
    let firstRun: Int64
    let lastRun: Int64
    let live: Bool
    let coordinate: Coordinate
    let extentMeters: Double
    var record: LinkRecord?
}

/// Links records that are the same physical place (docs/linking.md):
/// candidates near each new or changed place through the spatial index,
/// the same-place probability (`SamePlace.score`), links at or above
/// `SamePlace.threshold`, then groups in which every member fits every
/// other (a chain of shops along a street is never glued into one place),
/// each with a canonical member and a merged document.
///
/// Two records of one source are linked only when no capture held both:
/// their runs do not overlap. A provider that lists two IDs in one dump
/// says they are two places.
package final class PlaceLinker {
    let db: Database
    let run: Int64?
    /// Links at or above this probability.
    package var threshold = SamePlace.threshold
    /// Every pair across two groups must reach this to merge them.
    var fitFloor: Double { threshold * 0.5 }
    /// The source order for ties and canonical IDs (earlier first).
    package var sourceOrder: [String]

    package static let defaultSourceOrder = ["google-places", "overture", "osm", "geojson"]

    private var rows: [Int64: LinkRow] = [:]
    private var rowOrder: [Int64] = []
    private let cacheLimit = 200_000
    private var scoreCache: [PairKey: SamePlaceScore] = [:]

    struct PairKey: Hashable { let a: Int64; let b: Int64
        init(_ x: Int64, _ y: Int64) { a = min(x, y); b = max(x, y) }
    }

    package init(db: Database, run: Int64?) throws {
        self.db = db
        self.run = run
        var order = Self.defaultSourceOrder
        if let v = try db.scalar("SELECT value FROM link_setting WHERE name = 'source-order'")?.string,
           let parsed = try? JSONParser.parse(Array(v.utf8)), let names = parsed.arrayValue?.compactMap(\.stringValue) {
            order = names
        }
        sourceOrder = order
    }

    /// The rank of a source in `sourceOrder` (unlisted sources after, by name).
    func rank(_ source: String) -> Int { sourceOrder.firstIndex(of: source) ?? sourceOrder.count }

    // MARK: Reading places

    static let rowColumns = """
        p.id, p.place_id, p.source, p.first_run, p.last_run, p.removed_run, p.geom, e.west, e.east, e.south, e.north, f.area
        """
    static let rowFrom = "place p LEFT JOIN place_extent e ON e.id = p.id LEFT JOIN place_footprint f ON f.id = p.id"

    private func makeRow(_ row: Row) throws -> LinkRow? {
        guard let c = row.withBytes(6, { SpatiaLiteBlob.coordinate($0) }) else { return nil }
        var extent = 0.0
        if !row.isNull(7) {
            let west = try row.double(7), east = try row.double(8), south = try row.double(9), north = try row.double(10)
            extent = haversineMeters(south, west, north, east > 180 ? east - 360 : east) / 2
        }
        if let area = row.optionalDouble(11), area > 0 { extent = max(extent, (area / .pi).squareRoot()) }
        return LinkRow(rowid: try row.int64(0), placeID: try row.string(1), source: try row.string(2),
                       firstRun: try row.int64(3), lastRun: try row.int64(4), live: row.isNull(5),
                       coordinate: c, extentMeters: min(extent, 5_000), record: nil)
    }

    /// The place of `rowid` (cached), without its record's features.
    func row(_ rowid: Int64) throws -> LinkRow? {
        if let r = rows[rowid] { return r }
        let s = try db.cachedStatement("SELECT \(Self.rowColumns) FROM \(Self.rowFrom) WHERE p.id = ?")
        try s.bind(.integer(rowid), at: 1)
        defer { s.reset() }
        guard let r = try s.step(), let made = try makeRow(r) else { return nil }
        remember(made)
        return made
    }

    private func remember(_ r: LinkRow) {
        if rows.updateValue(r, forKey: r.rowid) == nil { rowOrder.append(r.rowid) }
        if rowOrder.count > cacheLimit {
            // Oldest half out: the pass moves on through space.
            let drop = rowOrder.prefix(cacheLimit / 2)
            for id in drop { rows[id] = nil }
            rowOrder.removeFirst(drop.count)
        }
    }

    /// The record's features (document and extras parsed once, cached).
    func record(_ rowid: Int64) throws -> LinkRecord? {
        guard var r = try row(rowid) else { return nil }
        if let rec = r.record { return rec }
        let s = try db.cachedStatement("SELECT place_id, doc, extra, \(StoredDocument.readColumns) FROM place WHERE id = ?")
        try s.bind(.integer(rowid), at: 1)
        defer { s.reset() }
        guard let row = try s.step() else { return nil }
        let doc = (try? StoredDocument.withDocument(row, docColumn: 1, layoutColumn: 3) { try JSONParser.parse($0) }) ?? .object(JSONObject())
        let extra: JSONValue? = row.isNull(2) ? nil : (try? row.withBytes(2) { try JSONParser.parse($0) })
        let rec = LinkRecord(placeID: r.placeID, source: r.source, coordinate: r.coordinate, extentMeters: r.extentMeters,
                             document: doc, extra: extra)
        r.record = rec
        rows[rowid] = r
        return rec
    }

    /// Whether two records may be one place at all: other sources, or one
    /// source's records that no capture held both of.
    static func eligible(_ a: LinkRow, _ b: LinkRow) -> Bool {
        a.source != b.source || a.lastRun < b.firstRun || b.lastRun < a.firstRun
    }

    /// The score of two places (cached for the pass).
    func score(_ a: Int64, _ b: Int64) throws -> SamePlaceScore? {
        let key = PairKey(a, b)
        if let s = scoreCache[key] { return s }
        guard let ra = try record(key.a), let rb = try record(key.b) else { return nil }
        let s = SamePlace.score(ra, rb)
        if scoreCache.count > 500_000 { scoreCache.removeAll(keepingCapacity: true) }
        scoreCache[key] = s
        return s
    }

    // MARK: Candidates

    /// The live places within reach of `r` (its extent, the search radius
    /// and a margin for the others' extents), eligible to be linked to it.
    func candidates(of r: LinkRow) throws -> [LinkRow] {
        let reach = min(SamePlace.searchRadiusMeters + r.extentMeters + 150, 6_000)
        let dLat = reach / 111_320
        let dLng = reach / (111_320 * max(0.01, cos(r.coordinate.latitude * .pi / 180)))
        let s = try db.cachedStatement("""
            SELECT \(Self.rowColumns) FROM idx_place_geom g JOIN place p ON p.id = g.pkid
            LEFT JOIN place_extent e ON e.id = p.id LEFT JOIN place_footprint f ON f.id = p.id
            WHERE g.xmin <= ?4 AND g.xmax >= ?2 AND g.ymin <= ?3 AND g.ymax >= ?1 AND p.removed_run IS NULL AND p.id != ?5
            """)
        try s.bind([.real(r.coordinate.latitude - dLat), .real(r.coordinate.longitude - dLng),
                    .real(r.coordinate.latitude + dLat), .real(r.coordinate.longitude + dLng), .integer(r.rowid)])
        defer { s.reset() }
        var out: [LinkRow] = []
        while let row = try s.step() {
            let id = try row.int64(0)
            let c: LinkRow
            if let cached = rows[id] { c = cached } else {
                guard let made = try makeRow(row) else { continue }
                remember(made)
                c = made
            }
            guard Self.eligible(r, c) else { continue }
            let d = r.coordinate.distance(to: c.coordinate)
            guard d <= SamePlace.searchRadiusMeters + r.extentMeters + c.extentMeters else { continue }
            out.append(c)
        }
        return out
    }

    // MARK: The pass

    /// Whether any two live places could be linked at all: more than one
    /// source, or one source whose records were not all seen together.
    func anythingToLink() throws -> Bool {
        var answer = false
        try db.forEachRow("SELECT count(DISTINCT source), min(last_run), max(first_run) FROM place WHERE removed_run IS NULL") { row in
            let sources = try row.int64(0)
            let minLast = row.optionalInt64(1) ?? 0, maxFirst = row.optionalInt64(2) ?? 0
            // One source: some pair is eligible only when some place's runs
            // end before another's begin.
            answer = sources > 1 || (sources == 1 && minLast < maxFirst)
        }
        return answer
    }

    /// Links the places changed since `since` (their run ids: first seen,
    /// updated or removed at or after it), or every place when nil: their
    /// old links are dropped, candidates scored, links written, and the
    /// groups they touch formed anew.
    package func link(changedSince since: Int64?) throws -> LinkSummary {
        let started = Date()
        var summary = LinkSummary()
        var seeds = Set<Int64>()
        if since == nil {
            try db.execute("DELETE FROM place_link; DELETE FROM place_group; UPDATE place SET group_id = NULL WHERE group_id IS NOT NULL;")
        }
        let anything = try anythingToLink()
        // The changed places, in chunks of rowids, each chunk in Hilbert order.
        var changed: [(rowid: Int64, key: UInt64, live: Bool)] = []
        let condition = since == nil ? "1" : "(p.first_run >= ?1 OR p.updated_run >= ?1 OR p.removed_run >= ?1)"
        let args: [DatabaseValue] = since.map { [.integer($0)] } ?? []
        func flush() throws {
            changed.sort { $0.key < $1.key }
            for c in changed {
                summary.examined += 1
                seeds.insert(c.rowid)
                if since != nil {
                    try db.run("DELETE FROM place_link WHERE a = ?1 OR b = ?1", [.integer(c.rowid)])
                }
                guard c.live, anything, let r = try row(c.rowid) else { continue }
                for cand in try candidates(of: r) {
                    // Each pair once in a full pass: from its lower rowid's side.
                    if since == nil, cand.rowid < r.rowid { continue }
                    guard let s = try score(r.rowid, cand.rowid) else { continue }
                    summary.scored += 1
                    if s.probability >= threshold {
                        let key = PairKey(r.rowid, cand.rowid)
                        try db.cachedStatement("""
                            INSERT OR REPLACE INTO place_link (a, b, probability, evidence, run) VALUES (?, ?, ?, ?, ?)
                            """).bindAndRun([.integer(key.a), .integer(key.b), .real(min(1, max(0, s.probability))),
                                             .text(JSONWriter().string(s.evidence)), .init(run)])
                        summary.linked += 1
                        seeds.insert(cand.rowid)
                    }
                }
            }
            changed.removeAll(keepingCapacity: true)
        }
        try db.forEachRow("SELECT p.id, p.geom, p.removed_run IS NULL FROM place p WHERE \(condition) ORDER BY p.id", args) { row in
            guard let c = row.withBytes(1, { SpatiaLiteBlob.coordinate($0) }) else { return }
            changed.append((try row.int64(0), Hilbert.key(c), try row.int64(2) != 0))
            if changed.count >= 100_000 { try flush() }
        }
        try flush()
        // Places named by rules are seeds too (a rule may name IDs just stored).
        if since != nil {
            try db.forEachRow("""
                SELECT p.id FROM link_rule r JOIN place p ON p.place_id IN (r.a, r.b)
                WHERE p.first_run >= ?1 OR p.updated_run >= ?1 OR r.run >= ?1
                """, args) { seeds.insert(try $0.int64(0)) }
        } else {
            try db.forEachRow("SELECT p.id FROM link_rule r JOIN place p ON p.place_id IN (r.a, r.b)") { seeds.insert(try $0.int64(0)) }
        }
        var done = Set<Int64>()
        for seed in seeds.sorted() where !done.contains(seed) {
            let component = try self.component(from: seed)
            done.formUnion(component)
            let (groups, refused) = try regroup(component)
            summary.refused += refused
            for g in groups where g.count > 1 {
                summary.groups += 1
                summary.grouped += g.count
            }
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// The places reachable from `seed` through links, current groups and
    /// `same` rules (bounded: a component is a neighbourhood, not a city).
    func component(from seed: Int64) throws -> Set<Int64> {
        var seen: Set<Int64> = [seed]
        var queue = [seed]
        let links = try db.cachedStatement("SELECT b FROM place_link WHERE a = ?1 UNION ALL SELECT a FROM place_link WHERE b = ?1")
        let group = try db.cachedStatement("""
            SELECT m.id FROM place p JOIN place m ON m.group_id = p.group_id WHERE p.id = ?1 AND p.group_id IS NOT NULL
            UNION SELECT p.group_id FROM place p WHERE p.id = ?1 AND p.group_id IS NOT NULL
            """)
        let rules = try db.cachedStatement("""
            SELECT o.id FROM place p JOIN link_rule r ON r.kind = 'same' AND (r.a = p.place_id OR r.b = p.place_id)
            JOIN place o ON o.place_id = CASE WHEN r.a = p.place_id THEN r.b ELSE r.a END WHERE p.id = ?1
            """)
        while let next = queue.popLast(), seen.count < 2_000 {
            for s in [links, group, rules] {
                try s.bind(.integer(next), at: 1)
                while let row = try s.step() {
                    let id = try row.int64(0)
                    if seen.insert(id).inserted { queue.append(id) }
                }
                s.reset()
            }
        }
        return seen
    }

    // MARK: Groups

    /// Forms the groups of one component anew: `same` rules first, then
    /// links best first, each merging two groups only when every member of
    /// one fits every member of the other (eligible, no `different` rule,
    /// probability at least `fitFloor`). Writes `group_id` and each group's
    /// `place_group` row. Returns the groups (rowids, canonical first) and
    /// the links refused.
    func regroup(_ component: Set<Int64>) throws -> (groups: [[Int64]], refused: Int) {
        var members: [Int64: LinkRow] = [:]
        for id in component { if let r = try row(id) { members[id] = r } }
        let live = members.values.filter(\.live).map(\.rowid).sorted()
        var byID: [String: Int64] = [:]
        for r in members.values where r.live { byID[r.placeID] = r.rowid }
        // Rules among the component's IDs.
        var same: [(Int64, Int64)] = []
        var different = Set<PairKey>()
        let ruleQuery = try db.cachedStatement("SELECT a, b, kind FROM link_rule WHERE a = ?1 OR b = ?1")
        for id in live {
            guard let r = members[id] else { continue }
            try ruleQuery.bind(.text(r.placeID), at: 1)
            while let row = try ruleQuery.step() {
                guard let a = byID[try row.string(0)], let b = byID[try row.string(1)] else { continue }
                if try row.string(2) == "same" { same.append((a, b)) } else { different.insert(PairKey(a, b)) }
            }
            ruleQuery.reset()
        }
        // Links among them, best first.
        var links: [(a: Int64, b: Int64, p: Double)] = []
        let linkQuery = try db.cachedStatement("SELECT a, b, probability FROM place_link WHERE a = ?1")
        let liveSet = Set(live)
        for id in live {
            try linkQuery.bind(.integer(id), at: 1)
            while let row = try linkQuery.step() {
                let b = try row.int64(1)
                if liveSet.contains(b) { links.append((id, b, try row.double(2))) }
            }
            linkQuery.reset()
        }
        links.sort { ($0.p, $1.a, $1.b) > ($1.p, $0.a, $0.b) }

        var groupOf: [Int64: Int] = [:]
        var groups: [[Int64]] = []
        for id in live { groupOf[id] = groups.count; groups.append([id]) }
        func forbidden(_ x: [Int64], _ y: [Int64], rule: Bool) throws -> Bool {
            for a in x {
                for b in y {
                    if different.contains(PairKey(a, b)) { return true }
                    if rule { continue }
                    guard let ra = members[a], let rb = members[b], Self.eligible(ra, rb) else { return true }
                    guard let s = try score(a, b), s.probability >= fitFloor else { return true }
                }
            }
            return false
        }
        func merge(_ a: Int64, _ b: Int64, rule: Bool) throws -> Bool {
            guard let ga = groupOf[a], let gb = groupOf[b], ga != gb else { return false }
            if try forbidden(groups[ga], groups[gb], rule: rule) { return false }
            for m in groups[gb] { groupOf[m] = ga }
            groups[ga] += groups[gb]
            groups[gb] = []
            return true
        }
        var refused = 0
        for (a, b) in same where !(try merge(a, b, rule: true)) {
            if let ga = groupOf[a], let gb = groupOf[b], ga != gb { refused += 1 }
        }
        for l in links where !(try merge(l.a, l.b, rule: false)) {
            if let ga = groupOf[l.a], let gb = groupOf[l.b], ga != gb { refused += 1 }
        }
        var out: [[Int64]] = []
        for g in groups where !g.isEmpty {
            let ordered = g.sorted { x, y in
                let rx = members[x]!, ry = members[y]!
                let kx = rank(rx.source), ky = rank(ry.source)
                if kx != ky { return kx < ky }
                return rx.placeID.utf8.lexicographicallyPrecedes(ry.placeID.utf8)
            }
            out.append(ordered)
        }
        // Removed members leave their groups.
        let setGroup = try db.cachedStatement("UPDATE place SET group_id = ? WHERE id = ? AND group_id IS NOT ?1")
        for r in members.values where !r.live {
            try setGroup.bindAndRun([.null, .integer(r.rowid)])
        }
        let dropGroup = try db.cachedStatement("DELETE FROM place_group WHERE id = ?")
        for id in component { try dropGroup.bindAndRun([.integer(id)]) }
        for g in out {
            let canonical = g.count > 1 ? DatabaseValue.integer(g[0]) : .null
            for m in g { try setGroup.bindAndRun([canonical, .integer(m)]) }
            if g.count > 1 { try writeGroup(g) }
        }
        return (out, refused)
    }

    /// The merged document of a group (canonical first in `group`): each
    /// member from the record that captured it last, ties to the earlier
    /// source in `sourceOrder`, then to the canonical order.
    func writeGroup(_ group: [Int64]) throws {
        struct Member { let placeID: String; let doc: JSONObject; let times: [String: Int64]; let captured: Int64 }
        var records: [Member] = []
        let s = try db.cachedStatement("""
            SELECT place_id, doc, coalesce(captured_at, 0), member_captured, \(StoredDocument.readColumns) FROM place WHERE id = ?
            """)
        for id in group {
            try s.bind(.integer(id), at: 1)
            defer { s.reset() }
            guard let row = try s.step() else { continue }
            let doc = (try? StoredDocument.withDocument(row, docColumn: 1, layoutColumn: 4) { try JSONParser.parse($0) })?.objectValue ?? JSONObject()
            let times = row.isNull(3) ? [:] : MemberMerge.times(try? row.withBytes(3) { try JSONParser.parse($0) })
            records.append(Member(placeID: try row.string(0), doc: doc, times: times, captured: try row.int64(2)))
        }
        guard !records.isEmpty else { return }
        var merged = JSONObject()
        var provenance = JSONObject()
        var keys: [String] = []
        var seen = Set<String>()
        for r in records { for k in r.doc.keys where seen.insert(k).inserted { keys.append(k) } }
        for key in keys where key != "id" && key != "name" && key != "location" {
            var best: (index: Int, time: Int64)?
            for (i, r) in records.enumerated() where r.doc[key] != nil {
                let t = r.times[key] ?? r.captured
                if best == nil || t > best!.time { best = (i, t) }
            }
            guard let best, let value = records[best.index].doc[key] else { continue }
            merged[key] = value
            provenance[key] = .string(records[best.index].placeID)
        }
        let membersJSON = JSONValue.array(records.map { .string($0.placeID) })
        try db.cachedStatement("INSERT OR REPLACE INTO place_group (id, doc, provenance, members) VALUES (?, ?, ?, ?)")
            .bindAndRun([.integer(group[0]), .text(JSONWriter().string(.object(merged))),
                         .text(JSONWriter().string(.object(provenance))), .text(JSONWriter().string(membersJSON))])
    }
}

extension Statement {
    /// Binds `values`, steps once, resets.
    func bindAndRun(_ values: [DatabaseValue]) throws {
        try bind(values)
        defer { reset() }
        _ = try step()
    }
}
