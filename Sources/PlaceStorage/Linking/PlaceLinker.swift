import Foundation
package import SQLiteDB
package import PlaceModel

/// The linker's score of a pair: the record scorer's (`SamePlace`) with
/// the footprint evidence the database adds.
package struct LinkScore: Sendable {
    package let probability: Double
    /// Built only when asked (`--explain`, stored links).
    package let evidence: JSONValue?
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

    /// Whether any rule is stored (none: no rule queries).
    private var hasRules = true
    /// A full pass after every group was dropped: no stale groups to undo.
    private var fresh = false
    /// Whether any place has an extent (none: no query of `place_extent`;
    /// the linker works in one transaction, which no other writer changes).
    private var hasExtents: Bool?

    /// Places and records read, bounded: the pass moves through space, a
    /// neighbourhood at a time.
    private var rows = BoundedCache<Int64, (row: LinkRow, placeID: String)>(limit: 32_768)
    private var records = BoundedCache<Int64, LinkRecord>(limit: 16_384)
    private var scoreCache = BoundedCache<PairKey, Double>(limit: 65_536)
    /// Threads that build records and score pairs (the links and groups do
    /// not depend on it).
    package var workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    private var sourceCodes: [String: Int32] = [:]
    private(set) var sourceNames: [String] = []

    func sourceCode(_ name: String) -> Int32 {
        if let c = sourceCodes[name] { return c }
        let c = Int32(sourceNames.count)
        sourceNames.append(name)
        sourceCodes[name] = c
        return c
    }
    /// The place ID of a row read by `row`.
    func placeID(_ rowid: Int64) throws -> String? {
        if let e = rows.get(rowid) { return e.placeID }
        _ = try row(rowid)
        return rows.get(rowid)?.placeID
    }

    struct PairKey: Hashable {
        let a: Int64; let b: Int64
        init(_ x: Int64, _ y: Int64) { a = min(x, y); b = max(x, y) }
    }

    package init(db: Database, run: Int64?) throws {
        self.db = db
        self.run = run
        var order = Self.defaultSourceOrder
        if let v = try db.scalar("SELECT value FROM link_setting WHERE name = 'source-order'")?.string,
            let parsed = try? JSONParser.parse(Array(v.utf8)), let names = parsed.arrayValue?.compactMap(\.stringValue)
        {
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

    private func makeRow(_ row: Row) throws -> (row: LinkRow, placeID: String)? {
        guard let c = row.withBytes(6, { SpatiaLiteBlob.coordinate($0) }) else { return nil }
        var extent = 0.0
        var box: GeoRect?
        if !row.isNull(7) {
            let west = try row.double(7), east = try row.double(8), south = try row.double(9),
                north = try row.double(10)
            // Only a viewport that says the place's size is a footprint
            // (not Google's default map view of about 300 m, the same for an
            // ATM as for a station: `LinkRecord.extentMeters(viewport:)`).
            let viewport: JSONValue = [
                "low": ["latitude": .double(south), "longitude": .double(west)],
                "high": ["latitude": .double(north), "longitude": .double(east > 180 ? east - 360 : east)],
            ]
            extent = LinkRecord.extentMeters(viewport: viewport)
            if extent > 0 { box = GeoRect(south: south, west: west, north: north, east: east) }
        }
        if let area = row.optionalDouble(11), area > 0 { extent = max(extent, (area / .pi).squareRoot()) }
        let rowid = try row.int64(0)
        return (
            LinkRow(
                rowid: rowid, source: sourceCode(try row.string(2)),
                firstRun: try row.int64(3), lastRun: try row.int64(4), live: row.isNull(5),
                coordinate: c, extentMeters: min(extent, 5_000), box: box), try row.string(1)
        )
    }

    /// The place of `rowid` (cached), without its record's features.
    func row(_ rowid: Int64) throws -> LinkRow? {
        if let e = rows.get(rowid) { return e.row }
        let s = try db.cachedStatement("SELECT \(Self.rowColumns) FROM \(Self.rowFrom) WHERE p.id = ?")
        try s.bind(.integer(rowid), at: 1)
        defer { s.reset() }
        guard let r = try s.step(), let made = try makeRow(r) else { return nil }
        rows.put(rowid, made)
        return made.row
    }

    /// What a record's features are built from, read from the database.
    struct RecordInput: Sendable {
        let placeID: String
        let source: String
        let coordinate: Coordinate
        let extentMeters: Double
        /// The whole document (nil: unreadable, an empty object) and the extras.
        let document: [UInt8]?
        let extra: [UInt8]?

        /// The features (document and extras parsed, names folded): the
        /// costly part, on any thread.
        func record() -> LinkRecord {
            let doc = document.flatMap { try? JSONParser.parse($0) } ?? .object(JSONObject())
            let ext: JSONValue? = extra.flatMap { try? JSONParser.parse($0) }
            return LinkRecord(
                placeID: placeID, source: source, coordinate: coordinate, extentMeters: extentMeters, document: doc,
                extra: ext)
        }
    }

    /// The input of `rowid`'s record; nil for a place not stored.
    func recordInput(_ rowid: Int64) throws -> RecordInput? {
        guard let r = try row(rowid), let placeID = try placeID(rowid) else { return nil }
        let s = try db.cachedStatement(
            "SELECT place_id, doc, extra, \(StoredDocument.readColumns) FROM place WHERE id = ?")
        try s.bind(.integer(rowid), at: 1)
        defer { s.reset() }
        guard let row = try s.step() else { return nil }
        let doc = try? StoredDocument.withDocument(row, docColumn: 1, layoutColumn: 3) { [UInt8]($0) }
        let extra: [UInt8]? = row.isNull(2) ? nil : row.withBytes(2) { [UInt8]($0) }
        return RecordInput(
            placeID: placeID, source: sourceNames[Int(r.source)], coordinate: r.coordinate,
            extentMeters: r.extentMeters,
            document: doc, extra: extra)
    }

    /// The record's features (document and extras parsed once, cached).
    func record(_ rowid: Int64) throws -> LinkRecord? {
        if let rec = records.get(rowid) { return rec }
        guard let input = try recordInput(rowid) else { return nil }
        let rec = input.record()
        records.put(rowid, rec)
        return rec
    }

    /// `transform` of each element, on up to `workers` threads; in order.
    static func parallelMap<T: Sendable, U: Sendable>(
        _ items: [T], workers: Int, _ transform: @escaping @Sendable (T) -> U
    ) -> [U] {
        let n = items.count
        let threads = min(workers, n / 16)
        guard threads > 1 else { return items.map(transform) }
        return [U](unsafeUninitializedCapacity: n) { buffer, count in
            let slots = UnsafeSlots(base: buffer.baseAddress!)
            items.withUnsafeBufferPointer { input in
                let source = UnsafeSlots(base: UnsafeMutablePointer(mutating: input.baseAddress!))
                // Interleaved runs of 16: the threads' shares cost alike.
                DispatchQueue.concurrentPerform(iterations: threads) { t in
                    var start = t * 16
                    while start < n {
                        for i in start..<min(n, start + 16) {
                            (slots.base + i).initialize(to: transform(source.base[i]))
                        }
                        start += threads * 16
                    }
                }
            }
            count = n
        }
    }

    /// Whether two records may be one place at all: other sources, or one
    /// source's records that no capture held both of.
    static func eligible(_ a: LinkRow, _ b: LinkRow) -> Bool {
        a.source != b.source || a.lastRun < b.firstRun || b.lastRun < a.firstRun
    }

    /// The score of two places (cached for the pass); with `evidence`, the
    /// scorer's evidence and the footprint term (`--explain`, stored links).
    func score(_ a: Int64, _ b: Int64, evidence: Bool = false, cache: Bool = true) throws -> LinkScore? {
        let key = PairKey(a, b)
        if !evidence, cache, let p = scoreCache.get(key) { return LinkScore(probability: p, evidence: nil) }
        guard let ra = try record(key.a), let rb = try record(key.b), let ba = try row(key.a), let bb = try row(key.b)
        else { return nil }
        let result = Self.score(ra, rb, ba.box, bb.box, evidence: evidence)
        if cache { scoreCache.put(key, result.probability) }
        return result
    }

    /// The score of two records (`a` the lower rowid's) with their
    /// footprint boxes: the scorer's probability with the footprint and
    /// same-point terms. A pure function: any thread.
    static func score(_ ra: LinkRecord, _ rb: LinkRecord, _ boxA: GeoRect?, _ boxB: GeoRect?, evidence: Bool)
        -> LinkScore
    {
        var footprint = Self.footprintTerm(boxA, boxB)
        var samePoint = false
        if boxA == nil, boxB == nil, ra.coordinate.distance(to: rb.coordinate) < Self.samePointMeters {
            // One point, kept where it was while the record changed (a
            // renamed shop, a corrected name): +2 to the log-odds, unless
            // the categories conflict.
            let conflict = SamePlace.score(ra, rb).evidence["categoryConflict"]?["value"]?.doubleValue ?? 0
            if conflict == 0 { samePoint = true; footprint.logit += Self.samePointLogit }
        }
        guard evidence else {
            return LinkScore(probability: Self.adjusted(SamePlace.probability(ra, rb), footprint.logit), evidence: nil)
        }
        let s = SamePlace.score(ra, rb)
        var o = s.evidence.objectValue ?? JSONObject()
        let p = Self.adjusted(s.probability, footprint.logit)
        if let iou = footprint.iou {
            o["footprint"] = .object(
                JSONObject([
                    ("iou", .double((iou * 1000).rounded() / 1000)), ("contribution", .double(footprint.logit)),
                ]))
        }
        if samePoint {
            o["samePoint"] = .object(
                JSONObject([("meters", .double(Self.samePointMeters)), ("contribution", .double(Self.samePointLogit))]))
        }
        if footprint.iou != nil || samePoint { o["probability"] = .double(p) }
        return LinkScore(probability: p, evidence: .object(o))
    }

    /// Two points closer than this are one point, drawn once.
    static let samePointMeters = 0.5
    static let samePointLogit = 2.0

    /// `p` with `logit` added to its log-odds (0 and 1 stay: a veto stays one).
    static func adjusted(_ p: Double, _ logit: Double) -> Double {
        guard logit != 0, p > 0, p < 1 else { return p }
        return 1 / (1 + exp(-(log(p / (1 - p)) + logit)))
    }

    /// The footprint evidence of two records that both have one (ways,
    /// areas, viewports): the intersection over union of their bounding
    /// boxes. One outline drawn again (a renumbered or renamed building)
    /// overlaps itself almost whole; two buildings side by side not at
    /// all. Designed, not fitted (the labelled pairs have no geometry):
    /// IoU >= 0.8: +3 to the log-odds; >= 0.5: +1.5; two footprints over
    /// 15 m that do not meet: -1.5; otherwise 0.
    static func footprintTerm(_ a: GeoRect?, _ b: GeoRect?) -> (iou: Double?, logit: Double) {
        guard let a, let b else { return (nil, 0) }
        let w = max(0, min(a.east, b.east) - max(a.west, b.west)),
            h = max(0, min(a.north, b.north) - max(a.south, b.south))
        let inter = w * h
        let areaA = (a.east - a.west) * (a.north - a.south), areaB = (b.east - b.west) * (b.north - b.south)
        let union = areaA + areaB - inter
        guard union > 0 else { return (nil, 0) }
        let iou = inter / union
        if iou >= 0.8 { return (iou, 3) }
        if iou >= 0.5 { return (iou, 1.5) }
        let big = 15.0 / 111_320
        if inter == 0, min(a.north - a.south, a.east - a.west) > big, min(b.north - b.south, b.east - b.west) > big {
            return (iou, -1.5)
        }
        return (iou, 0)
    }

    // MARK: Candidates

    /// The live places within reach of `r` (its extent, the search radius
    /// and a margin for the others' extents), eligible to be linked to it.
    func candidates(of r: LinkRow, above: Bool = false) throws -> [LinkRow] {
        // The points within reach, from the R*Tree alone; then the places
        // whose extent reaches in though their point lies farther.
        let reach = min(SamePlace.searchRadiusMeters + r.extentMeters, 6_000)
        let dLat = reach / 111_320
        let dLng = reach / (111_320 * max(0.01, cos(r.coordinate.latitude * .pi / 180)))
        let (south, north) = (r.coordinate.latitude - dLat, r.coordinate.latitude + dLat)
        let (west, east) = (r.coordinate.longitude - dLng, r.coordinate.longitude + dLng)
        func box(_ shift: Double) -> [DatabaseValue] {
            [.real(south), .real(west + shift), .real(north), .real(east + shift)]
        }
        // Across the antimeridian the reach goes on at the other side: the
        // points there are found by the box shifted a turn; a viewport that
        // crosses it is stored with east + 360, so a box west of it is
        // tried shifted by a turn too.
        var pointBoxes = [box(0)], extentBoxes = [box(0)]
        if west < -180 { pointBoxes.append(box(360)); extentBoxes.append(box(360)) }
        if east > 180 { pointBoxes.append(box(-360)) }
        if west >= -180, west < -160 { extentBoxes.append(box(360)) }
        var found: [Int64] = []
        if hasExtents == nil { hasExtents = try db.scalar("SELECT EXISTS (SELECT 1 FROM place_extent)")?.int64 == 1 }
        for (sql, boxes) in [
            (
                "SELECT pkid FROM idx_place_geom WHERE xmin <= ?4 AND xmax >= ?2 AND ymin <= ?3 AND ymax >= ?1",
                pointBoxes
            ),
            (
                "SELECT id FROM place_extent WHERE west <= ?4 AND east >= ?2 AND south <= ?3 AND north >= ?1",
                extentBoxes
            ),
        ]
        where hasExtents == true || sql.contains("idx_place_geom") {
            let s = try db.cachedStatement(sql)
            for b in boxes {
                try s.bind(b)
                while let row = try s.step() { found.append(try row.int64(0)) }
                s.reset()
            }
        }
        var out: [LinkRow] = []
        var seen = Set<Int64>()
        for id in found where id != r.rowid && (!above || id > r.rowid) && seen.insert(id).inserted {
            guard let c = try row(id), c.live, Self.eligible(r, c) else { continue }
            let d = r.coordinate.distance(to: c.coordinate)
            guard d <= SamePlace.searchRadiusMeters + r.extentMeters + c.extentMeters else { continue }
            out.append(c)
        }
        return out
    }

    // MARK: The pass

    /// Whether any two live places could be linked at all: more than one
    /// source, or one source whose records were not all seen together.
    func anythingToLink() throws -> Bool { try anythingToLink(changedSince: nil).answer }

    /// `anythingToLink()`, and in the same scan of the live places the
    /// number changed since run `since` (nil: all of them).
    func anythingToLink(changedSince since: Int64?) throws -> (answer: Bool, changed: Int) {
        var answer = false, changed = 0
        try db.forEachRow(
            """
            SELECT count(DISTINCT source), min(last_run), max(first_run),
                   sum(?1 IS NULL OR first_run >= ?1 OR updated_run >= ?1)
            FROM place WHERE removed_run IS NULL
            """, [since.map { .integer($0) } ?? .null]
        ) { row in
            let sources = try row.int64(0)
            let minLast = row.optionalInt64(1) ?? 0, maxFirst = row.optionalInt64(2) ?? 0
            // One source: some pair is eligible only when some place's runs
            // end before another's begin.
            answer = sources > 1 || (sources == 1 && minLast < maxFirst)
            changed = Int(row.optionalInt64(3) ?? 0)
        }
        return (answer, changed)
    }

    /// Links the places changed since `since` (their run ids: first seen,
    /// updated or removed at or after it), or every place when nil: their
    /// old links are dropped, candidates scored, links written, and the
    /// groups they touch formed anew.
    package func link(changedSince since: Int64?, changes: ChangedPlaces? = nil) throws -> LinkSummary {
        let started = Date()
        var summary = LinkSummary()
        hasRules = try db.scalar("SELECT EXISTS (SELECT 1 FROM link_rule)")?.int64 == 1
        if since == nil {
            try db.execute(
                "DELETE FROM place_link; DELETE FROM place_group; UPDATE place SET group_id = NULL WHERE group_id IS NOT NULL;"
            )
            fresh = true
            try linkAll(&summary)
        } else {
            try linkChanged(since: since!, changes: changes, &summary)
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// One block's records built and pairs scored, off the thread that
    /// reads and writes the database.
    final class BlockJob: @unchecked Sendable {
        struct Pair { let a: Int64; let b: Int64; let boxA: GeoRect?; let boxB: GeoRect? }
        /// Inputs, set before the job runs: the cached records the pairs
        /// need, the records to build, those the previous job built.
        var known: [Int64: LinkRecord] = [:]
        var newIDs: [Int64] = []
        var inputs: [RecordInput] = []
        var fromPrevious: [Int64] = []
        var pairs: [Pair] = []
        /// Outputs: the records built (as `newIDs`), each pair's
        /// probability (nil: a record could not be read).
        var built: [LinkRecord] = []
        var probabilities: [Double?] = []
        let finished = DispatchSemaphore(value: 0)

        func run(workers: Int, previous: PreviousRecords) {
            built = PlaceLinker.parallelMap(inputs, workers: workers) { $0.record() }
            var local = known
            for (id, rec) in zip(newIDs, built) { local[id] = rec }
            for id in fromPrevious { local[id] = previous.records[id] }
            probabilities = pairs.map { p in
                guard let ra = local[p.a], let rb = local[p.b] else { return nil }
                return PlaceLinker.score(ra, rb, p.boxA, p.boxB, evidence: false).probability
            }
            previous.records = Dictionary(zip(newIDs, built), uniquingKeysWith: { x, _ in x })
        }
    }
    /// The records the last job built (the builder's alone).
    final class PreviousRecords: @unchecked Sendable { var records: [Int64: LinkRecord] = [:] }

    private lazy var builder = DispatchQueue(label: "placedb.link.records")
    private let previousRecords = PreviousRecords()
    private var pending: BlockJob?
    /// The records the pending job builds.
    private var inFlight = Set<Int64>()

    /// Scores the pairs of a block of live places (`r`, its candidate) and
    /// writes the links: the records not cached are built and the pairs
    /// scored on another thread while the next block is read (with more
    /// than one worker), the links written in the blocks' order.
    /// `onLink` is told each link's ends. `finishBlocks` ends the last.
    private func linkBlock(
        _ pairs: [(Int64, Int64)], _ summary: inout LinkSummary, _ onLink: (Int64, Int64) throws -> Void
    ) throws {
        guard !pairs.isEmpty else { return }
        let job = BlockJob()
        var asked = Set<Int64>()
        job.pairs.reserveCapacity(pairs.count)
        for (x, y) in pairs {
            let key = PairKey(x, y)
            guard let ba = try row(key.a), let bb = try row(key.b) else { continue }
            for id in [key.a, key.b] where asked.insert(id).inserted {
                if let rec = records.get(id) {
                    job.known[id] = rec
                } else if inFlight.contains(id) {
                    job.fromPrevious.append(id)
                } else if let input = try recordInput(id) {
                    job.newIDs.append(id)
                    job.inputs.append(input)
                }
            }
            job.pairs.append(.init(a: key.a, b: key.b, boxA: ba.box, boxB: bb.box))
        }
        if workers > 1 {
            let previous = previousRecords, threads = workers - 1
            builder.async {
                job.run(workers: threads, previous: previous)
                job.finished.signal()
            }
        } else {
            job.run(workers: 1, previous: previousRecords)
            job.finished.signal()
        }
        try finishBlocks(&summary, onLink)
        pending = job
        inFlight = Set(job.newIDs)
    }

    /// Waits for the pending block's job and writes its links.
    private func finishBlocks(_ summary: inout LinkSummary, _ onLink: (Int64, Int64) throws -> Void) throws {
        guard let job = pending else { return }
        pending = nil
        inFlight = []
        job.finished.wait()
        for (id, rec) in zip(job.newIDs, job.built) { records.put(id, rec) }
        let insert = try db.cachedStatement(
            "INSERT OR REPLACE INTO place_link (a, b, probability, evidence, run) VALUES (?, ?, ?, ?, ?)")
        for (pair, probability) in zip(job.pairs, job.probabilities) {
            guard let p = probability else { continue }
            summary.scored += 1
            guard p >= threshold else { continue }
            // The evidence is not stored: `resolve` and `link --explain`
            // compute it when asked (building it costs many times the score).
            try insert.bindAndRun([.integer(pair.a), .integer(pair.b), .real(min(1, max(0, p))), .null, .init(run)])
            summary.linked += 1
            try onLink(pair.a, pair.b)
        }
    }

    /// Places a block holds (the pass reads one block while the records of
    /// the one before are built).
    package var blockSize = 4_096

    /// A full pass (every link and group dropped before): the live places
    /// in the order of the spatial index's leaves (neighbours close in the
    /// order, so the bounded caches keep what the next places need; memory
    /// does not grow with the database), each pair once, from its lower
    /// rowid's side; then each group formed once, from its smallest rowid.
    private func linkAll(_ summary: inout LinkSummary) throws {
        guard try anythingToLink() else {
            summary.examined = try db.scalar("SELECT count(*) FROM place WHERE removed_run IS NULL")?.int ?? 0
            return
        }
        var pairs: [(Int64, Int64)] = []
        try forEachBlock { ids in
            for id in ids {
                guard let r = try row(id), r.live else { continue }
                summary.examined += 1
                for cand in try candidates(of: r, above: true) { pairs.append((r.rowid, cand.rowid)) }
            }
            try linkBlock(pairs, &summary) { _, _ in }
            pairs.removeAll(keepingCapacity: true)
        }
        try finishBlocks(&summary) { _, _ in }
        // Places named by rules first (the old way: their components may
        // reach removed places), then every place that has a link.
        var done = Set<Int64>()
        if hasRules {
            var seeds = Set<Int64>()
            try db.forEachRow("SELECT p.id FROM link_rule r JOIN place p ON p.place_id IN (r.a, r.b)") {
                seeds.insert(try $0.int64(0))
            }
            for seed in seeds.sorted() where !done.contains(seed) {
                let c = try component(from: seed)
                done.formUnion(c.members)
                try count(regroup(c.members, links: nil), &summary)
            }
        }
        // Then each component once, from its smallest member: the lower
        // end of its links (a < b), met in rowid order (the writes go to
        // the tables in their order). A component the bound cuts is formed
        // from the first place met, its members marked done.
        let ends = try db.prepare("SELECT DISTINCT a FROM place_link")
        while let row = try ends.step() {
            let id = try row.int64(0)
            guard !done.contains(id) else { continue }
            let c = try component(from: id)
            guard c.members.count > 1 else { continue }
            if c.whole {
                guard c.members.min() == id else { continue }
            } else {
                done.formUnion(c.members)
            }
            try count(regroup(c.members, links: c.whole ? c.links : nil), &summary)
        }
    }

    /// Calls `body` with the place rowids of the spatial index, a block at
    /// a time, in the order of its leaves.
    private func forEachBlock(_ body: ([Int64]) throws -> Void) throws {
        var ids: [Int64] = []
        ids.reserveCapacity(blockSize)
        // The scan reads the R*Tree alone; `body` writes other tables.
        try db.forEachRow("SELECT pkid FROM idx_place_geom") { row in
            ids.append(try row.int64(0))
            if ids.count >= blockSize {
                try body(ids)
                ids.removeAll(keepingCapacity: true)
            }
        }
        if !ids.isEmpty { try body(ids) }
    }

    private func count(_ result: (groups: [[Int64]], refused: Int), _ summary: inout LinkSummary) {
        summary.refused += result.refused
        for g in result.groups where g.count > 1 {
            summary.groups += 1
            summary.grouped += g.count
        }
    }

    /// The places changed since run `since` (an import's): their old links
    /// dropped, their candidates scored, and the groups they touch formed
    /// anew.
    private func linkChanged(since: Int64, changes: ChangedPlaces?, _ summary: inout LinkSummary) throws {
        // The places whose groups may change: the ends of dropped and new
        // links, the members of the changed places' groups, the places
        // rules name. A changed place with no link before or after is
        // alone either way: nothing to do for it. They are kept in a
        // temporary table (an import of millions of places links millions).
        try db.execute(
            "CREATE TEMP TABLE IF NOT EXISTS link_seed (id INTEGER PRIMARY KEY); DELETE FROM temp.link_seed;")
        defer { try? db.execute("DROP TABLE IF EXISTS temp.link_seed") }
        let addSeed = try db.cachedStatement("INSERT OR IGNORE INTO temp.link_seed (id) VALUES (?)")
        struct Seeds {
            let add: Statement
            func insert(_ id: Int64) throws { try add.bindAndRun([.integer(id)]) }
        }
        let seeds = Seeds(add: addSeed)
        // The changed places: by their runs (a read of every place), or,
        // where the import tracked the rows it wrote and they are few
        // against the table, those rows alone (`ChangedPlaces`). Many:
        // reading every place costs no more than linking them.
        var condition = "(p.first_run >= ?1 OR p.updated_run >= ?1 OR p.removed_run >= ?1)"
        var args: [DatabaseValue] = [.integer(since)]
        if let changes, try ChangedPlaces.isTracking(db) {
            let newest = try db.scalar("SELECT max(id) FROM place")?.int64 ?? 0
            let updated = try db.scalar("SELECT count(*) FROM temp.\(ChangedPlaces.table)")?.int64 ?? 0
            if (max(0, newest - changes.rowidBefore) + updated) * 8 <= newest {
                try db.run(
                    "INSERT OR IGNORE INTO temp.\(ChangedPlaces.table) (id) SELECT id FROM place WHERE id > ?",
                    [.integer(changes.rowidBefore)])
                condition = "p.id IN (SELECT id FROM temp.\(ChangedPlaces.table))"
                args = []
                summary.changesFromRowsWritten = true
            }
        }
        let changedIDs = "SELECT p.id FROM place p WHERE \(condition)"
        // Each of these reads every place (the runs have no index): they
        // are skipped where there is no link or no group to find, as in a
        // fresh import or one of a single source.
        if try db.scalar("SELECT EXISTS (SELECT 1 FROM place_link)")?.int64 == 1 {
            try db.forEachRow(
                """
                SELECT a, b FROM place_link WHERE a IN (\(changedIDs)) OR b IN (\(changedIDs))
                """, args
            ) {
                try seeds.insert(try $0.int64(0)); try seeds.insert(try $0.int64(1))
            }
            try db.run("DELETE FROM place_link WHERE a IN (\(changedIDs)) OR b IN (\(changedIDs))", args)
        }
        if try db.scalar("SELECT EXISTS (SELECT 1 FROM place WHERE group_id IS NOT NULL)")?.int64 == 1 {
            try db.forEachRow(
                """
                SELECT m.id FROM place m WHERE m.group_id IN (SELECT p.group_id FROM place p WHERE \(condition) AND p.group_id IS NOT NULL)
                """, args
            ) { try seeds.insert(try $0.int64(0)) }
        }
        // Few tracked places: their candidates say whether any can be linked.
        let (anything, changedCount) =
            summary.changesFromRowsWritten ? (true, 0) : try anythingToLink(changedSince: since)
        // The changed live places, in chunks of rowids, each chunk in
        // Hilbert order (the candidates' rows stay cached while the pass
        // moves through a neighbourhood).
        var changed: [(rowid: Int64, key: UInt64)] = []
        var pairs: [(Int64, Int64)] = []
        func flush() throws {
            changed.sort { $0.key < $1.key }
            for start in stride(from: 0, to: changed.count, by: blockSize) {
                for c in changed[start..<min(changed.count, start + blockSize)] {
                    guard let r = try row(c.rowid) else { continue }
                    for cand in try candidates(of: r) { pairs.append((r.rowid, cand.rowid)) }
                }
                try linkBlock(pairs, &summary) {
                    try seeds.insert($0); try seeds.insert($1)
                }
                pairs.removeAll(keepingCapacity: true)
            }
            try finishBlocks(&summary) {
                try seeds.insert($0); try seeds.insert($1)
            }
            changed.removeAll(keepingCapacity: true)
        }
        if anything {
            try db.forEachRow(
                "SELECT p.id, p.geom FROM place p WHERE \(condition) AND p.removed_run IS NULL ORDER BY p.id", args
            ) { row in
                summary.examined += 1
                guard let c = row.withBytes(1, { SpatiaLiteBlob.coordinate($0) }) else { return }
                changed.append((try row.int64(0), Hilbert.key(c)))
                if changed.count >= 100_000 { try flush() }
            }
            try flush()
        } else {
            summary.examined = changedCount
        }
        // Places named by rules are seeds too (a rule may name IDs just stored).
        if hasRules {
            try db.forEachRow(
                """
                SELECT p.id FROM link_rule r JOIN place p ON p.place_id IN (r.a, r.b)
                WHERE \(condition) OR r.run >= \(since)
                """, args
            ) { try seeds.insert(try $0.int64(0)) }
        }
        // Each seed in rowid order, unless a component formed before held
        // it (its members leave the table).
        let batch = try db.cachedStatement("SELECT id FROM temp.link_seed WHERE id > ? ORDER BY id LIMIT 4096")
        let pending = try db.cachedStatement("SELECT 1 FROM temp.link_seed WHERE id = ?")
        let done = try db.cachedStatement("DELETE FROM temp.link_seed WHERE id = ?")
        var after = Int64.min
        while true {
            var ids: [Int64] = []
            try batch.bind(.integer(after), at: 1)
            while let row = try batch.step() { ids.append(try row.int64(0)) }
            batch.reset()
            guard let last = ids.last else { break }
            after = last
            for seed in ids {
                try pending.bind(.integer(seed), at: 1)
                let waiting = try pending.step() != nil
                pending.reset()
                guard waiting else { continue }
                let c = try component(from: seed)
                for m in c.members { try done.bindAndRun([.integer(m)]) }
                try count(regroup(c.members, links: nil), &summary)
            }
        }
    }

    /// The places reachable from `seed` through links, current groups and
    /// `same` rules (bounded: a component is a neighbourhood, not a city),
    /// whether the bound left it whole, and the links among its members
    /// (each once; all of them when whole).
    func component(from seed: Int64) throws -> (
        members: Set<Int64>, whole: Bool, links: [(a: Int64, b: Int64, p: Double)]
    ) {
        var seen: Set<Int64> = [seed]
        var queue = [seed]
        var links: [(a: Int64, b: Int64, p: Double)] = []
        var whole = true
        let linked = try db.cachedStatement(
            """
            SELECT b, probability FROM place_link WHERE a = ?1 UNION ALL SELECT a, -1 FROM place_link WHERE b = ?1
            """)
        let group = try db.cachedStatement(
            """
            SELECT m.id FROM place p JOIN place m ON m.group_id = p.group_id WHERE p.id = ?1 AND p.group_id IS NOT NULL
            UNION SELECT p.group_id FROM place p WHERE p.id = ?1 AND p.group_id IS NOT NULL
            """)
        let rules = try db.cachedStatement(
            """
            SELECT o.id FROM place p JOIN link_rule r ON r.kind = 'same' AND (r.a = p.place_id OR r.b = p.place_id)
            JOIN place o ON o.place_id = CASE WHEN r.a = p.place_id THEN r.b ELSE r.a END WHERE p.id = ?1
            """)
        while let next = queue.popLast() {
            if seen.count >= 2_000 { whole = false; break }
            try linked.bind(.integer(next), at: 1)
            while let row = try linked.step() {
                let id = try row.int64(0)
                let p = try row.double(1)
                // Each link once: from its lower end (a < b).
                if p >= 0 { links.append((next, id, p)) }
                if seen.insert(id).inserted { queue.append(id) }
            }
            linked.reset()
            for s in (fresh ? [] : [group]) + (hasRules ? [rules] : []) {
                try s.bind(.integer(next), at: 1)
                while let row = try s.step() {
                    let id = try row.int64(0)
                    if seen.insert(id).inserted { queue.append(id) }
                }
                s.reset()
            }
        }
        return (seen, whole, links)
    }

    // MARK: Groups

    /// Forms the groups of one component anew: `same` rules first, then
    /// links best first, each merging two groups only when every member of
    /// one fits every member of the other (eligible, no `different` rule,
    /// probability at least `fitFloor`). Writes `group_id` and each group's
    /// `place_group` row. Returns the groups (rowids, canonical first) and
    /// the links refused.
    func regroup(_ component: Set<Int64>, links known: [(a: Int64, b: Int64, p: Double)]?) throws -> (
        groups: [[Int64]], refused: Int
    ) {
        var members: [Int64: LinkRow] = [:]
        for id in component { if let r = try row(id) { members[id] = r } }
        let live = members.values.filter(\.live).map(\.rowid).sorted()
        var byID: [String: Int64] = [:]
        var idOf: [Int64: String] = [:]
        for r in members.values { idOf[r.rowid] = try placeID(r.rowid) }
        for r in members.values where r.live { if let id = idOf[r.rowid] { byID[id] = r.rowid } }
        // Rules among the component's IDs.
        var same: [(Int64, Int64)] = []
        var different = Set<PairKey>()
        var preferred = Set<Int64>()
        let ruleQuery = try db.cachedStatement("SELECT a, b, kind, preferred FROM link_rule WHERE a = ?1 OR b = ?1")
        for id in live where hasRules {
            guard let pid = idOf[id] else { continue }
            try ruleQuery.bind(.text(pid), at: 1)
            while let row = try ruleQuery.step() {
                guard let a = byID[try row.string(0)], let b = byID[try row.string(1)] else { continue }
                if try row.string(2) == "same" {
                    same.append((a, b))
                    if let p = row.optionalString(3), let id = byID[p] { preferred.insert(id) }
                } else {
                    different.insert(PairKey(a, b))
                }
            }
            ruleQuery.reset()
        }
        // Links among them, best first.
        var links: [(a: Int64, b: Int64, p: Double)] = []
        let liveSet = Set(live)
        if let known {
            // The component's links, read while it was found.
            links = known.filter { liveSet.contains($0.a) && liveSet.contains($0.b) }
        } else {
            let linkQuery = try db.cachedStatement("SELECT a, b, probability FROM place_link WHERE a = ?1")
            for id in live {
                try linkQuery.bind(.integer(id), at: 1)
                while let row = try linkQuery.step() {
                    let b = try row.int64(1)
                    if liveSet.contains(b) { links.append((id, b, try row.double(2))) }
                }
                linkQuery.reset()
            }
        }
        links.sort { ($0.p, $1.a, $1.b) > ($1.p, $0.a, $0.b) }
        // A linked pair's score is its link's probability (the same
        // computation, stored): no record is built for it.
        var linkScore: [PairKey: Double] = [:]
        for l in links { linkScore[PairKey(l.a, l.b)] = l.p }

        var groupOf: [Int64: Int] = [:]
        var groups: [[Int64]] = []
        for id in live { groupOf[id] = groups.count; groups.append([id]) }
        func forbidden(_ x: [Int64], _ y: [Int64], rule: Bool) throws -> Bool {
            for a in x {
                for b in y {
                    if different.contains(PairKey(a, b)) { return true }
                    if rule { continue }
                    guard let ra = members[a], let rb = members[b], Self.eligible(ra, rb) else { return true }
                    if let p = linkScore[PairKey(a, b)] {
                        if p < fitFloor { return true }
                        continue
                    }
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
                // The ID a same rule named second first (an export's round trip keeps its canonical IDs).
                let px = preferred.contains(x), py = preferred.contains(y)
                if px != py { return px }
                let kx = rank(sourceNames[Int(rx.source)]), ky = rank(sourceNames[Int(ry.source)])
                if kx != ky { return kx < ky }
                return (idOf[x] ?? "").utf8.lexicographicallyPrecedes((idOf[y] ?? "").utf8)
            }
            out.append(ordered)
        }
        // Removed members leave their groups.
        let setGroup = try db.cachedStatement("UPDATE place SET group_id = ? WHERE id = ? AND group_id IS NOT ?1")
        for r in members.values where !r.live {
            try setGroup.bindAndRun([.null, .integer(r.rowid)])
        }
        let dropGroup = try db.cachedStatement("DELETE FROM place_group WHERE id = ?")
        if !fresh { for id in component { try dropGroup.bindAndRun([.integer(id)]) } }
        for g in out {
            // After a full reset every group_id is NULL: a place alone needs no write.
            if fresh && g.count == 1 { continue }
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
        let s = try db.cachedStatement(
            """
            SELECT place_id, doc, coalesce(captured_at, 0), member_captured, \(StoredDocument.readColumns) FROM place WHERE id = ?
            """)
        for id in group {
            try s.bind(.integer(id), at: 1)
            defer { s.reset() }
            guard let row = try s.step() else { continue }
            let doc =
                (try? StoredDocument.withDocument(row, docColumn: 1, layoutColumn: 4) { try JSONParser.parse($0) })?
                .objectValue ?? JSONObject()
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
            .bindAndRun([
                .integer(group[0]), .text(JSONWriter().string(.object(merged))),
                .text(JSONWriter().string(.object(provenance))), .text(JSONWriter().string(membersJSON)),
            ])
    }
}

/// Elements that threads fill at distinct indices.
struct UnsafeSlots<T>: @unchecked Sendable {
    let base: UnsafeMutablePointer<T>
}

extension Statement {
    /// Binds `values`, steps once, resets.
    func bindAndRun(_ values: [DatabaseValue]) throws {
        try bind(values)
        defer { reset() }
        _ = try step()
    }
}
