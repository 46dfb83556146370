public import PlaceModel
import PlaceStorage

/// Where a stored place's data came from and when each member was captured.
public struct PlaceProvenance: Sendable, Equatable {
    /// One record of a group of linked records (docs/linking.md).
    public struct Record: Sendable, Equatable {
        public var placeID: PlaceID
        public var source: String
        /// The latest capture of any of its members (Unix seconds).
        public var capturedAt: Int64?
    }

    public var placeID: PlaceID
    /// The source the place is filed under (`google-places`, `osm`, ...);
    /// for a group, its canonical record's.
    public var source: String
    /// The latest capture of any member (Unix seconds); nil when nothing
    /// dates it (docs/merging.md) or for a place imported before capture
    /// times were kept.
    public var capturedAt: Int64?
    /// Each member of the document with its capture time, in document order
    /// (nil: nothing dates its capture).
    public var members: [(name: String, capturedAt: Int64?)]
    /// For a group of linked records served merged: which record gave each
    /// member (empty for a place alone).
    public var memberRecords: [String: PlaceID] = [:]
    /// For a group: its records, the canonical one first (empty for a
    /// place alone).
    public var records: [Record] = []

    public static func == (a: PlaceProvenance, b: PlaceProvenance) -> Bool {
        a.placeID == b.placeID && a.source == b.source && a.capturedAt == b.capturedAt
            && a.members.map(\.name) == b.members.map(\.name)
            && a.members.map(\.capturedAt) == b.members.map(\.capturedAt)
            && a.memberRecords == b.memberRecords && a.records == b.records
    }

    /// `{"source": ..., "capturedAt": RFC 3339, "members": {member: RFC 3339}}`;
    /// a group adds `"memberRecords": {member: place ID}` and `"records":
    /// [{"placeId", "source", "capturedAt"}]`.
    public var json: JSONObject {
        var o = JSONObject()
        o["source"] = .string(source)
        o["capturedAt"] = Self.time(capturedAt)
        o["members"] = .object(
            JSONObject(uniqueMembers: members.map { (key: $0.name, value: Self.time($0.capturedAt)) }))
        if !records.isEmpty {
            o["memberRecords"] = .object(
                JSONObject(
                    uniqueMembers: members.compactMap { m in
                        memberRecords[m.name].map { (key: m.name, value: JSONValue.string($0.rawValue)) }
                    }))
            o["records"] = .array(
                records.map { r in
                    var record = JSONObject()
                    record["placeId"] = .string(r.placeID.rawValue)
                    record["source"] = .string(r.source)
                    record["capturedAt"] = Self.time(r.capturedAt)
                    return .object(record)
                })
        }
        return o
    }

    private static func time(_ t: Int64?) -> JSONValue {
        t.map { .string(CaptureTime.string($0)) } ?? .null
    }
}

extension PlaceReader {
    /// When each member of the stored place `id` was captured (the ID as
    /// stored: resolve an old one first). For a group's canonical ID in
    /// the merged view: which record gave each member of the merged
    /// document, and when that record captured it. Throws
    /// `PlaceDBError.notFound`.
    package func provenance(of id: PlaceID) throws -> PlaceProvenance {
        guard let place = try store.place(id: id) else { throw PlaceDBError.notFound(id) }
        guard let (source, capturedAt, times) = try store.captureTimes(of: id) else { throw PlaceDBError.notFound(id) }
        if store.recordView == .merged, let group = try store.group(of: id.rawValue), group.members.first == id.rawValue
        {
            var records: [PlaceProvenance.Record] = []
            var timesOf: [String: (capturedAt: Int64?, members: [String: Int64])] = [:]
            for member in group.members {
                guard let (s, at, t) = try store.captureTimes(of: PlaceID(member)) else { continue }
                let known = CaptureTime.known(at)
                records.append(.init(placeID: PlaceID(member), source: s, capturedAt: known))
                timesOf[member] = (known, t)
            }
            var memberRecords: [String: PlaceID] = [:]
            let members = place.document.keys.map { name -> (name: String, capturedAt: Int64?) in
                let record = group.provenance[name]?.stringValue ?? id.rawValue
                memberRecords[name] = PlaceID(record)
                let t = timesOf[record].flatMap { $0.members[name] ?? $0.capturedAt }
                return (name, CaptureTime.known(t))
            }
            return PlaceProvenance(
                placeID: id, source: source, capturedAt: records.compactMap(\.capturedAt).max(),
                members: members, memberRecords: memberRecords, records: records)
        }
        let members = place.document.keys.map { (name: $0, capturedAt: times[$0] ?? capturedAt) }
        return PlaceProvenance(
            placeID: id, source: source, capturedAt: CaptureTime.known(capturedAt),
            members: members.map { ($0.name, CaptureTime.known($0.capturedAt)) })
    }
}
