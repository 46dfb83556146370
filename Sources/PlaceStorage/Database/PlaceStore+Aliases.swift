package import PlaceModel
import SQLiteDB

extension PlaceStore {
    /// A resolver of place IDs over this store's aliases.
    package func makeResolver() throws -> PlaceIDResolver {
        try PlaceIDResolver(db: db, view: recordView)
    }

    /// Every alias edge recorded, oldest first.
    package func aliasEdges() throws -> [AliasEdge] {
        var out: [AliasEdge] = []
        try db.forEachRow("SELECT alias_id, place_id, reason, confidence, evidence FROM place_alias ORDER BY id") {
            row in
            let evidence = row.isNull(4) ? nil : try? row.withBytes(4) { try JSONParser.parse($0) }
            out.append(
                AliasEdge(
                    aliasID: try row.string(0), placeID: try row.string(1),
                    reason: AliasReason(rawValue: try row.string(2)) ?? .explicit,
                    confidence: try row.double(3), evidence: evidence))
        }
        return out
    }

    /// The stored place `id`'s source, capture time and the capture time
    /// of each member that has its own; nil when no row has the ID.
    package func captureTimes(of id: PlaceID) throws -> (source: String, capturedAt: Int64?, members: [String: Int64])?
    {
        let statement = try db.cachedStatement(
            "SELECT source, captured_at, member_captured FROM place WHERE place_id = ?")
        try statement.bind([.text(id.rawValue)])
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        let capturedAt = row.optionalInt64(1)
        var times: [String: Int64] = [:]
        if let json = row.optionalString(2) {
            do {
                times = MemberMerge.times(try JSONParser.parse(json))
            } catch {
                throw PlaceDBError.corrupt(
                    path: path, reason: "place '\(id)' has corrupt capture times (member_captured): \(error)")
            }
        }
        return (try row.string(0), capturedAt, times)
    }
}
