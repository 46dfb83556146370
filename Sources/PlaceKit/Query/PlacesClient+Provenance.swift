import SQLiteDB
import PlaceModel
import PlaceStorage

/// Where a stored place's data came from and when each member was captured.
public struct PlaceProvenance: Sendable, Equatable {
    public var placeID: PlaceID
    /// The source the place is filed under (`google-places`, `osm`, ...).
    public var source: String
    /// The latest capture of any member (Unix seconds); nil for a place
    /// imported before capture times were kept.
    public var capturedAt: Int64?
    /// Each member of the document with its capture time, in document order
    /// (nil: unknown).
    public var members: [(name: String, capturedAt: Int64?)]

    public static func == (a: PlaceProvenance, b: PlaceProvenance) -> Bool {
        a.placeID == b.placeID && a.source == b.source && a.capturedAt == b.capturedAt
            && a.members.map(\.name) == b.members.map(\.name) && a.members.map(\.capturedAt) == b.members.map(\.capturedAt)
    }

    /// `{"source": ..., "capturedAt": RFC 3339, "members": {member: RFC 3339}}`.
    public var json: JSONObject {
        var o = JSONObject()
        o["source"] = .string(source)
        o["capturedAt"] = capturedAt.map { .string(CaptureTime.string($0)) } ?? .null
        o["members"] = .object(JSONObject(uniqueMembers: members.map { (key: $0.name, value: $0.capturedAt.map { .string(CaptureTime.string($0)) } ?? .null) }))
        return o
    }
}

extension PlaceReader {
    /// When each member of the stored place `id` was captured (the ID as
    /// stored: resolve an old one first). Throws `PlaceDBError.notFound`.
    public func provenance(of id: PlaceID) throws -> PlaceProvenance {
        guard let place = try store.place(id: id) else { throw PlaceDBError.notFound(id) }
        let statement = try store.db.cachedStatement("SELECT source, captured_at, member_captured FROM place WHERE place_id = ?")
        try statement.bind([.text(id.rawValue)])
        defer { statement.reset() }
        guard let row = try statement.step() else { throw PlaceDBError.notFound(id) }
        let capturedAt = row.optionalInt64(1)
        var times: [String: Int64] = [:]
        if let json = row.optionalString(2) {
            do {
                times = MemberMerge.times(try JSONParser.parse(json))
            } catch {
                throw PlaceDBError.database(path: store.path, reason: "place '\(id)' has corrupt capture times (member_captured): \(error)")
            }
        }
        let members = place.document.keys.map { (name: $0, capturedAt: times[$0] ?? capturedAt) }
        return PlaceProvenance(placeID: id, source: try row.string(0), capturedAt: capturedAt,
                               members: members.map { ($0.name, $0.capturedAt == 0 ? nil : $0.capturedAt) })
    }
}
