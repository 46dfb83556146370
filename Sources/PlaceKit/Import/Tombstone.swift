import PlaceModel
import PlaceStorage

/// A removed place as `export --tombstones` writes it: its record carries a
/// `placedbTombstone` member (`removedAt`, `snapshot`, `replacedBy`), which
/// import reads back as the same removal (docs/export.md#tombstones).
struct Tombstone {
    struct Replacement {
        var edge: AliasEdge
        var source: String?
        var recordedAt: String?
    }

    let placeID: String
    let removedAt: String
    let replacedBy: [Replacement]

    private static let needle = Array("\"\(ExportRecord.tombstoneMember)\"".utf8)

    /// Whether a record's extras (a JSON object) may hold the member: a
    /// byte search, so records without it cost next to nothing.
    static func marked(_ extra: [UInt8]) -> Bool {
        let n = needle.count
        guard extra.count >= n else { return false }
        var i = 0
        let first = needle[0]
        while i <= extra.count - n {
            if extra[i] == first && extra[i..<i + n].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// The tombstone in a record's extras; nil when they hold none. Throws
    /// the reason a member is unusable.
    static func read(placeID: String, extra: [UInt8]) throws(DecodeError) -> Tombstone? {
        guard let object = (try? JSONParser.parse(extra))?.objectValue,
            let member = object[ExportRecord.tombstoneMember]
        else { return nil }
        let name = ExportRecord.tombstoneMember
        guard let removedAt = member["removedAt"]?.stringValue, CaptureTime.parse(removedAt) != nil else {
            throw DecodeError("\(name).removedAt must be an RFC 3339 time")
        }
        var replacedBy: [Replacement] = []
        for (i, r) in (member["replacedBy"]?.arrayValue ?? []).enumerated() {
            guard let id = r["id"]?.stringValue, !id.isEmpty else {
                throw DecodeError("\(name).replacedBy[\(i)].id must be a place ID")
            }
            let reason =
                try r["reason"].map { (v: JSONValue) throws(DecodeError) -> AliasReason in
                    guard let s = v.stringValue, let reason = AliasReason(rawValue: s), reason != .samePlace else {
                        throw DecodeError(
                            "\(name).replacedBy[\(i)].reason must be one of \(AliasReason.edgeReasons.map(\.rawValue).joined(separator: ", "))"
                        )
                    }
                    return reason
                } ?? .explicit
            // Absent: 1 (as an alias file's). Present, it must be a number
            // in range: "NaN" or null read as 1 before.
            let confidence = r["confidence"].map { $0.doubleValue ?? .nan } ?? 1
            guard confidence > 0 && confidence <= 1 else {
                throw DecodeError("\(name).replacedBy[\(i)].confidence must be a number in (0, 1]")
            }
            let recordedAt = r["recordedAt"]?.stringValue
            if let t = recordedAt, CaptureTime.parse(t) == nil {
                throw DecodeError("\(name).replacedBy[\(i)].recordedAt must be an RFC 3339 time")
            }
            replacedBy.append(
                Replacement(
                    edge: AliasEdge(
                        aliasID: placeID, placeID: PlaceIDSpelling.canonical(id), reason: reason,
                        confidence: confidence, evidence: r["evidence"]),
                    source: r["source"]?.stringValue, recordedAt: recordedAt))
        }
        return Tombstone(placeID: placeID, removedAt: removedAt, replacedBy: replacedBy)
    }
}
