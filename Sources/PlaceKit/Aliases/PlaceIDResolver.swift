import SQLiteDB

/// What became of a place ID.
public enum ResolutionStatus: String, Sendable {
    /// The ID is a current place.
    case current = "CURRENT"
    /// The ID stands for another, current place (chain says how).
    case moved = "MOVED"
    /// The ID (or where its chain ends) is a place that was removed.
    case removed = "REMOVED"
    /// Nothing is known of the ID (or its chain leads nowhere).
    case notFound = "NOT_FOUND"
}

/// One hop of a resolution: `from` stands for `to`.
public struct AliasHop: Sendable, Equatable {
    public let from: String
    public let to: String
    public let reason: AliasReason
    public let source: String?
    public let confidence: Double
    /// When the edge was recorded (its import run's time).
    public let recordedAt: String?
    public let evidence: JSONValue?
}

/// The answer for one ID: its status, the current ID, and the chain of hops.
public struct PlaceIDResolution: Sendable, Equatable {
    public let requestedID: String
    public let status: ResolutionStatus
    /// The current place's ID (CURRENT, MOVED), the removed place's (REMOVED).
    public let placeID: String?
    public let chain: [AliasHop]
    public let displayName: String?
    public let location: Coordinate?
    /// When the place the chain ends at was removed (REMOVED).
    public let removedAt: String?
    /// Other places a split alias also leads to, best first.
    public let alternatives: [String]
    /// The IDs of a cycle met on the way (the walk stopped there), else empty.
    public let cycle: [String]

    /// The Places-API-style JSON of this answer.
    public var json: JSONValue {
        var o = JSONObject()
        o["requestedId"] = .string(requestedID)
        o["status"] = .string(status.rawValue)
        if let placeID { o["placeId"] = .string(placeID) }
        o["chain"] = .array(chain.map { hop in
            var h = JSONObject()
            h["from"] = .string(hop.from)
            h["to"] = .string(hop.to)
            h["reason"] = .string(hop.reason.rawValue)
            if let s = hop.source { h["source"] = .string(s) }
            h["confidence"] = .double(hop.confidence)
            if let r = hop.recordedAt { h["recordedAt"] = .string(r) }
            if let e = hop.evidence { h["evidence"] = e }
            return .object(h)
        })
        if let displayName { o["displayName"] = ["text": .string(displayName)] }
        if let location { o["location"] = ["latitude": .double(location.latitude), "longitude": .double(location.longitude)] }
        if let removedAt { o["removedAt"] = .string(removedAt) }
        if !alternatives.isEmpty { o["alternatives"] = .array(alternatives.map(JSONValue.string)) }
        if !cycle.isEmpty { o["cycle"] = .array(cycle.map(JSONValue.string)) }
        return .object(o)
    }
}

/// Follows alias edges to a live place with prepared statements; detects
/// cycles; never loops.
final class PlaceIDResolver {
    private let db: Database
    private let findPlace: Statement
    private let edges: Statement
    static let maxHops = 64

    init(db: Database) throws {
        self.db = db
        findPlace = try db.prepare("""
            SELECT p.removed_run IS NOT NULL, p.name, p.geom, r.started_at FROM place p
            LEFT JOIN import_run r ON r.id = p.removed_run WHERE p.place_id = ?
            """)
        edges = try db.prepare("""
            SELECT a.place_id, a.reason, a.source, a.confidence, r.started_at, a.evidence FROM place_alias a
            LEFT JOIN import_run r ON r.id = a.run WHERE a.alias_id = ?
            ORDER BY a.confidence DESC, a.run DESC, a.place_id
            """)
    }

    private struct PlaceRow { let removed: Bool; let name: String?; let location: Coordinate?; let removedAt: String? }

    private func place(_ id: String) throws -> PlaceRow? {
        try findPlace.reset()
        try findPlace.bind(.text(id), at: 1)
        defer { try? findPlace.reset() }
        guard let row = try findPlace.step() else { return nil }
        return PlaceRow(removed: row.int64(0) != 0, name: row.string(1),
                        location: row.withBytes(2) { SpatiaLiteBlob.coordinate($0) }, removedAt: row.string(3))
    }

    private func outgoing(_ id: String) throws -> [AliasHop] {
        try edges.reset()
        try edges.bind(.text(id), at: 1)
        defer { try? edges.reset() }
        var out: [AliasHop] = []
        while let row = try edges.step() {
            let evidence = row.isNull(5) ? nil : try? row.withBytes(5) { try JSONParser.parse($0) }
            out.append(AliasHop(from: id, to: row.string(0) ?? "", reason: AliasReason(rawValue: row.string(1) ?? "") ?? .explicit,
                                source: row.string(2), confidence: row.double(3), recordedAt: row.string(4), evidence: evidence))
        }
        return out
    }

    func resolve(_ requested: String) throws -> PlaceIDResolution {
        var current = requested
        var visited: [String] = [requested]
        var chain: [AliasHop] = []
        var alternatives: [String] = []
        var cycle: [String] = []
        var row = try place(current)
        while chain.count < Self.maxHops {
            var out = try outgoing(current)
            // A current place is where the walk ends, unless it moved.
            if let r = row, !r.removed { out = out.filter { $0.reason == .moved } }
            if out.isEmpty { break }
            let fresh = out.filter { !visited.contains($0.to) }
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
            current = next.to
            row = try place(current)
        }
        let status: ResolutionStatus
        switch row {
        case let r? where !r.removed: status = chain.isEmpty ? .current : .moved
        case .some: status = .removed
        case nil: status = .notFound
        }
        return PlaceIDResolution(requestedID: requested, status: status,
                                 placeID: row == nil ? nil : current, chain: chain,
                                 displayName: row?.name, location: row?.location,
                                 removedAt: status == .removed ? row?.removedAt : nil,
                                 alternatives: status == .moved ? alternatives : [], cycle: cycle)
    }
}
