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
    package func provenance(of id: PlaceID) throws -> PlaceProvenance {
        guard let place = try store.place(id: id) else { throw PlaceDBError.notFound(id) }
        guard let (source, capturedAt, times) = try store.captureTimes(of: id) else { throw PlaceDBError.notFound(id) }
        let members = place.document.keys.map { (name: $0, capturedAt: times[$0] ?? capturedAt) }
        return PlaceProvenance(placeID: id, source: source, capturedAt: capturedAt,
                               members: members.map { ($0.name, $0.capturedAt == 0 ? nil : $0.capturedAt) })
    }
}
