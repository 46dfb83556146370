import SQLiteDB
package import PlaceModel

extension PlaceStore {
    /// Links the places changed since run `since` (all when nil) in the
    /// running transaction (`PlaceLinker`). `changes`: the places this
    /// connection tracked as it wrote them (`trackChangedPlaces`), which
    /// the pass reads instead of every place's runs when they are few.
    /// `workers` and `blockSize` (the linker's threads and blocks) change
    /// its speed, never its result.
    package func link(
        changedSince since: Int64?, changes: ChangedPlaces? = nil, threshold: Double? = nil, workers: Int? = nil,
        blockSize: Int? = nil
    ) throws -> LinkSummary {
        let linker = try PlaceLinker(db: db, run: nil)
        if let threshold { linker.threshold = threshold }
        if let workers { linker.workers = workers }
        if let blockSize { linker.blockSize = blockSize }
        return try linker.link(changedSince: since, changes: changes)
    }
}

extension PlaceStore {
    /// Records a user's rule for two IDs (stored or not yet): the later
    /// rule for a pair replaces the earlier.
    package func recordLinkRule(_ kind: LinkRuleKind, _ x: String, _ y: String, origin: String?, run: Int64?) throws {
        let (a, b) = x.utf8.lexicographicallyPrecedes(y.utf8) ? (x, y) : (y, x)
        try db.run(
            "INSERT OR REPLACE INTO link_rule (a, b, kind, preferred, origin, run) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(a), .text(b), .text(kind.rawValue), kind == .same ? .text(y) : .null, DatabaseValue(origin),
                DatabaseValue(run),
            ])
    }

    /// Sets the source order of the linker (ties between captures, canonical IDs).
    package func setLinkSourceOrder(_ order: [String]) throws {
        try db.run(
            "INSERT OR REPLACE INTO link_setting (name, value) VALUES ('source-order', ?)",
            [.text(JSONWriter().string(.array(order.map(JSONValue.string))))])
    }

    /// The score and evidence of two stored places, as the linker computes
    /// it, with whether the linker may link them at all and why not.
    package func explainLink(_ x: String, _ y: String) throws -> (
        score: LinkScore, eligible: Bool, rule: LinkRuleKind?, distance: Double, linked: Bool, sameGroup: Bool
    )? {
        let linker = try PlaceLinker(db: db, run: nil)
        var ids: [Int64] = []
        for id in [x, y] {
            guard let rowid = try db.scalar("SELECT id FROM place WHERE place_id = ?", [.text(id)])?.int64 else {
                return nil
            }
            ids.append(rowid)
        }
        guard let ra = try linker.row(ids[0]), let rb = try linker.row(ids[1]),
            let s = try linker.score(ids[0], ids[1], evidence: true)
        else { return nil }
        let (a, b) = x.utf8.lexicographicallyPrecedes(y.utf8) ? (x, y) : (y, x)
        let rule = try db.scalar("SELECT kind FROM link_rule WHERE a = ? AND b = ?", [.text(a), .text(b)])?.string
            .flatMap(LinkRuleKind.init(rawValue:))
        let linked =
            try db.scalar(
                "SELECT 1 FROM place_link WHERE a = ? AND b = ?",
                [.integer(min(ids[0], ids[1])), .integer(max(ids[0], ids[1]))]) != nil
        let g =
            try db.scalar(
                "SELECT count(DISTINCT group_id) = 1 AND count(group_id) = 2 FROM place WHERE id IN (?, ?)",
                [.integer(ids[0]), .integer(ids[1])])?.int64 == 1
        return (s, PlaceLinker.eligible(ra, rb), rule, ra.coordinate.distance(to: rb.coordinate), linked, g)
    }

    /// The group of a place: its members' IDs (canonical first) and the
    /// provenance of the merged document (member -> the place ID that
    /// gave it); nil for a place alone.
    package func group(of placeID: String) throws -> (members: [String], provenance: JSONObject)? {
        var out: (members: [String], provenance: JSONObject)?
        try db.forEachRow(
            """
            SELECT g.members, g.provenance FROM place p JOIN place_group g ON g.id = p.group_id WHERE p.place_id = ?
            """, [.text(placeID)]
        ) { row in
            let members =
                (try? row.withBytes(0) { try JSONParser.parse($0) })?.arrayValue?.compactMap(\.stringValue) ?? []
            let provenance = (try? row.withBytes(1) { try JSONParser.parse($0) })?.objectValue ?? JSONObject()
            out = (members, provenance)
        }
        return out
    }
}
