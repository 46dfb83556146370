package import SQLiteDB
package import PlaceModel

/// Follows alias edges to a live place with prepared statements; detects
/// cycles; never loops. Chains of any length are followed: every hop goes
/// to an ID not visited yet, so a walk ends after at most as many hops as
/// there are alias edges.
package final class PlaceIDResolver {
    private let db: Database
    private let findPlace: Statement
    private let canonicalID: Statement
    private let groupLink: Statement
    private let edges: Statement

    private let runTime: Statement
    private var runTimes: [Int64: String] = [:]

    /// Hashes of every alias ID: an ID without outgoing edges (most
    /// lookups) skips the edge query. Rebuilt when another connection has
    /// written (SQLite's data_version moved); a false positive only costs a
    /// query.
    private var aliasKeys = Set<UInt64>()
    private var keysVersion: Int64 = -1
    private var keysChanges: Int = -1
    private let dataVersion: Statement
    private let aliasIDs: Statement

    package static func key(_ id: String) -> UInt64 {
        var h = FNV1a()
        h.add(utf8: id)
        return h.value
    }

    /// Whether `id` may be an alias (its hash is among the alias IDs'):
    /// when not, `resolve` answers from the place row alone. Call
    /// `refreshAliasKeys` first.
    package func mayBeAlias(_ id: String) -> Bool {
        aliasKeys.contains(Self.key(id))
    }

    /// Brings the alias-ID hashes up to date with the database.
    package func refreshAliasKeys() throws {
        dataVersion.reset()
        let version = try dataVersion.step()?.int64(0) ?? 0
        dataVersion.reset()
        // data_version tracks other connections; total_changes this one's.
        let changes = db.totalChanges
        guard version != keysVersion || changes != keysChanges else { return }
        var keys = Set<UInt64>()
        aliasIDs.reset()
        while let row = try aliasIDs.step() {
            keys.insert(
                row.withBytes(0) { bytes in
                    var h = FNV1a()
                    h.add(bytes)
                    return h.value
                })
        }
        aliasIDs.reset()
        aliasKeys = keys
        keysVersion = version
        keysChanges = changes
    }

    /// `view`: in the unmerged view a member of a group is a place of its
    /// own (no `same-place` hop).
    package init(db: Database, view: RecordView = .merged) throws {
        self.db = db
        // The group's canonical member is read only for a member of a group
        // (`canonicalID`): the common lookup stays one row, no join.
        findPlace = try db.prepare(
            "SELECT removed_run, name, geom, \(view == .merged ? "group_id" : "NULL"), id FROM place WHERE place_id = ?"
        )
        canonicalID = try db.prepare("SELECT place_id FROM place WHERE id = ?")
        groupLink = try db.prepare(
            """
            SELECT l.probability, l.evidence, m.id FROM place_link l JOIN place m ON m.id = CASE WHEN l.a = ?1 THEN l.b ELSE l.a END
            WHERE (l.a = ?1 OR l.b = ?1) AND m.group_id = ?2 ORDER BY l.probability DESC LIMIT 1
            """)
        edges = try db.prepare(
            "SELECT place_id, reason, source, confidence, run, evidence FROM place_alias WHERE alias_id = ?")
        // A run's removals and edges happened at the date of its data, when known.
        runTime = try db.prepare("SELECT coalesce(data_time, started_at) FROM import_run WHERE id = ?")
        dataVersion = try db.prepare("PRAGMA data_version")
        aliasIDs = try db.prepare("SELECT alias_id FROM place_alias")
    }

    private struct PlaceRow {
        let removedRun: Int64?; let name: String?; let location: Coordinate?
        /// The canonical member's ID when this place is another member of a group.
        let canonical: String?
        let rowid: Int64
        /// `group_id` of the row (nil for a place alone).
        let group: Int64?
    }

    /// The time of an import run (few, so kept once read).
    private func time(of run: Int64?) throws -> String? {
        guard let run else { return nil }
        if let t = runTimes[run] { return t }
        runTime.reset()
        try runTime.bind(.integer(run), at: 1)
        defer { runTime.reset() }
        let t = try runTime.step()?.string(0)
        if let t { runTimes[run] = t }
        return t
    }

    private func place(_ id: String) throws -> PlaceRow? {
        findPlace.reset()
        try findPlace.bind(.text(id), at: 1)
        defer { findPlace.reset() }
        guard let row = try findPlace.step() else { return nil }
        let rowid = try row.int64(4)
        var canonical: String?
        if let group = row.optionalInt64(3), group != rowid {
            canonicalID.reset()
            try canonicalID.bind(.integer(group), at: 1)
            canonical = try canonicalID.step()?.string(0)
            canonicalID.reset()
        }
        return PlaceRow(
            removedRun: row.optionalInt64(0), name: row.optionalString(1),
            location: row.withBytes(2) { SpatiaLiteBlob.coordinate($0) }, canonical: canonical, rowid: rowid,
            group: row.optionalInt64(3))
    }

    /// The hop from a group member to its canonical member: the strongest
    /// link from the member into the group (1 for a `same` rule alone).
    private func groupHop(from id: String, _ row: PlaceRow) throws -> AliasHop? {
        guard let canonical = row.canonical, let groupID = row.group, row.removedRun == nil else { return nil }
        groupLink.reset()
        try groupLink.bind([.integer(row.rowid), .integer(groupID)])
        defer { groupLink.reset() }
        var confidence = 1.0
        var evidence: JSONValue = ["rule": "same"]
        if let r = try groupLink.step() {
            confidence = max(0.001, (try r.double(0) * 1000).rounded() / 1000)
            let other = try r.int64(2)
            if !r.isNull(1) {
                evidence = (try? r.withBytes(1) { try JSONParser.parse($0) }) ?? .null
            } else {
                // Not stored by the bulk pass: computed now, as the linker scores.
                groupLink.reset()
                evidence =
                    (try? PlaceLinker(db: db, run: nil).score(row.rowid, other, evidence: true)?.evidence) ?? .null
            }
        }
        return AliasHop(
            from: id, to: canonical, reason: .samePlace, source: nil, confidence: confidence, recordedAt: nil,
            evidence: evidence)
    }

    /// Edges out of `id`, best first: confidence, then the latest run, then ID.
    private func outgoing(_ id: String) throws -> [AliasHop] {
        if !aliasKeys.contains(Self.key(id)) { return [] }
        edges.reset()
        try edges.bind(.text(id), at: 1)
        defer { edges.reset() }
        var rows: [(hop: AliasHop, run: Int64)] = []
        while let row = try edges.step() {
            let evidence = row.isNull(5) ? nil : try? row.withBytes(5) { try JSONParser.parse($0) }
            let run = try row.int64(4)
            rows.append(
                (
                    AliasHop(
                        from: id, to: try row.string(0), reason: AliasReason(rawValue: try row.string(1)) ?? .explicit,
                        source: row.optionalString(2), confidence: try row.double(3), recordedAt: try time(of: run),
                        evidence: evidence), run
                ))
        }
        if rows.count > 1 {
            rows.sort { ($0.hop.confidence, $0.run, $1.hop.to) > ($1.hop.confidence, $1.run, $0.hop.to) }
        }
        return rows.map(\.hop)
    }

    /// Resolves one ID (call `refreshAliasKeys` first, once per batch), in
    /// any spelling placedb reads (`osm:node/1` is `osm:n1`:
    /// `PlaceIDSpelling`); `requestedID` is the ID as given. A bare decimal
    /// that no place or alias has is read as a Maps CID, `cid:{digits}`.
    package func resolve(_ requested: String) throws -> PlaceIDResolution {
        var resolution = try resolveSpelt(PlaceIDSpelling.canonical(requested))
        if resolution.status == .notFound, PlaceIDSpelling.isBareCID(requested) {
            let byCID = try resolveSpelt(PlaceIDSpelling.cidAlias(requested))
            if byCID.status != .notFound { resolution = byCID }
        }
        resolution.requestedID = requested
        return resolution
    }

    /// `resolve` of an ID in placedb's spelling.
    private func resolveSpelt(_ requested: String) throws -> PlaceIDResolution {
        // Most IDs are no alias of anything: one lookup answers them.
        if !aliasKeys.contains(Self.key(requested)) {
            let row = try place(requested)
            if let row, let hop = try groupHop(from: requested, row), let target = try place(hop.to) {
                return PlaceIDResolution(
                    requestedID: requested, status: .moved, placeID: hop.to, chain: [hop],
                    displayName: target.name, location: target.location, removedAt: nil, alternatives: [], cycle: [])
            }
            let status: ResolutionStatus = row == nil ? .notFound : row!.removedRun == nil ? .current : .removed
            return PlaceIDResolution(
                requestedID: requested, status: status, placeID: row == nil ? nil : requested, chain: [],
                displayName: row?.name, location: row?.location,
                removedAt: status == .removed ? try time(of: row?.removedRun) : nil,
                alternatives: [], cycle: [])
        }
        var current = requested
        var visited: [String] = [requested]
        var seen: Set<String> = [requested]
        var chain: [AliasHop] = []
        var alternatives: [String] = []
        var cycle: [String] = []
        var row = try place(current)
        while true {
            var out = try outgoing(current)
            // A current place is where the walk ends, unless it moved.
            if let r = row, r.removedRun == nil { out = out.filter { $0.reason == .moved } }
            if out.isEmpty { break }
            let fresh = out.filter { !seen.contains($0.to) }
            guard let next = fresh.first else {
                // Every way on leads back: report the loop, do not follow it.
                let loopStart = visited.firstIndex(of: out[0].to) ?? 0
                cycle = Array(visited[loopStart...]) + [out[0].to]
                break
            }
            if chain.isEmpty || alternatives.isEmpty {
                alternatives = fresh.dropFirst().map(\.to)
            }
            chain.append(next)
            visited.append(next.to)
            seen.insert(next.to)
            current = next.to
            row = try place(current)
        }
        // A member of a group stands for its canonical member.
        if let r = row, cycle.isEmpty, let hop = try groupHop(from: current, r), !seen.contains(hop.to) {
            chain.append(hop)
            current = hop.to
            row = try place(current)
        }
        let status: ResolutionStatus
        switch row {
        // A Maps CID is a second ID of the place, not a move.
        case let r? where r.removedRun == nil: status = chain.allSatisfy { $0.reason == .cid } ? .current : .moved
        case .some: status = .removed
        case nil: status = .notFound
        }
        return PlaceIDResolution(
            requestedID: requested, status: status,
            placeID: row == nil ? nil : current, chain: chain,
            displayName: row?.name, location: row?.location,
            removedAt: status == .removed ? try time(of: row?.removedRun) : nil,
            alternatives: status == .moved ? alternatives : [], cycle: cycle)
    }
}
