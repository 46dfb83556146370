public import PlaceModel
import PlaceStorage

/// What an export wrote.
public struct ExportSummary: Sendable, Equatable {
    public var places = 0
    public var aliases = 0
    /// Of `places`, the removed ones (`tombstones: true`).
    public var tombstones = 0
    public var bytes = 0
    public init() {}
}

/// Writes a database's places out (`placedb export`): Places API (New)
/// objects as NDJSON, or GeoJSON features, streamed through `write` in
/// chunks of about 1 MiB, so memory stays bounded whatever the database's
/// size; and its alias edges as the NDJSON file `alias import` reads.
/// Importing the NDJSON and the alias file into a new database gives the
/// same `place` answer for every exported place (docs/export.md).
///
/// Opens the file read-only; needs no SpatiaLite. Not `Sendable`.
public final class PlaceExporter {
    let store: PlaceStore

    /// The size at which buffered records are handed to `write`.
    static let chunkSize = 1 << 20

    public init(databasePath: String? = nil) throws {
        store = try PlaceStore(path: try PlaceStore.resolvePath(databasePath), writable: false)
        // One pass over every row: the readers' memory map would leave the
        // whole file resident (RSS the size of the database); SQLite's page
        // cache (32 MiB) is enough.
        try store.disableMemoryMap()
    }

    public var databasePath: String { store.path }

    /// Hands what `buffer` holds to `write` and empties it (keeping its
    /// capacity); returns how many bytes were written.
    private static func flush(_ buffer: inout [UInt8], _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Int {
        guard !buffer.isEmpty else { return 0 }
        try buffer.withUnsafeBytes { try write($0) }
        let written = buffer.count
        buffer.removeAll(keepingCapacity: true)
        return written
    }

    /// Writes every live place matching `filter` (an SQL expression over
    /// the `place` table's columns, as `ogr2ogr -where` takes; nil: all),
    /// in `format`, through `write`. One read transaction: the export is a
    /// consistent snapshot while imports go on.
    ///
    /// With `tombstones`, removed places too, each with a `placedbTombstone`
    /// member: `removedAt` (when the run that removed it started),
    /// `snapshot` (that run's), and `replacedBy` (the alias edges out of
    /// its ID: `id`, `reason`, `confidence`, `source`, `evidence`,
    /// `recordedAt`), which `import` reads back as the same removal.
    public func exportPlaces(
        format: ExportFormat, filter: String? = nil, tombstones: Bool = false,
        write: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> ExportSummary {
        var summary = ExportSummary()
        var buffer = ExportRecord.header(format)
        buffer.reserveCapacity(Self.chunkSize + (64 << 10))
        func flush() throws { summary.bytes += try Self.flush(&buffer, write) }
        try store.read {
            let edgesOut = tombstones ? try store.edgesOutQuery() : nil
            summary.places = try store.forEachExportedPlace(filter: filter, tombstones: tombstones) { place in
                do {
                    if let removedAt = place.removedAt, let edgesOut {
                        let extra = ExportRecord.adding(
                            ExportRecord.tombstoneMember, try tombstone(place, removedAt: removedAt, edgesOut),
                            to: place.extra)
                        try extra.withUnsafeBytes { extra in
                            try ExportRecord.write(
                                id: place.id.rawValue, latitude: place.coordinate.latitude,
                                longitude: place.coordinate.longitude,
                                document: place.document, extra: extra, format: format, index: summary.places,
                                into: &buffer)
                        }
                        summary.tombstones += 1
                    } else {
                        try ExportRecord.write(
                            id: place.id.rawValue, latitude: place.coordinate.latitude,
                            longitude: place.coordinate.longitude,
                            document: place.document, extra: place.extra, format: format, index: summary.places,
                            into: &buffer)
                    }
                } catch let error as PlaceDBError {
                    throw error
                } catch {
                    throw PlaceDBError.database(
                        path: store.path,
                        reason: "place '\(place.id)' has a corrupt stored document or extras: \(error)")
                }
                summary.places += 1
                if buffer.count >= Self.chunkSize { try flush() }
            }
        }
        buffer += ExportRecord.footer(format)
        try flush()
        return summary
    }

    /// The `placedbTombstone` member of a removed place's record.
    private func tombstone(_ place: PlaceStore.ExportedPlace, removedAt: String, _ edgesOut: PlaceStore.EdgesOutQuery)
        throws -> [UInt8]
    {
        var o = JSONObject()
        o["removedAt"] = .string(removedAt)
        if let s = place.removedBySnapshot { o["snapshot"] = .string(s) }
        let edges = try edgesOut.edges(of: place.id.rawValue)
        if !edges.isEmpty {
            o["replacedBy"] = .array(
                edges.map { e in
                    var j = JSONObject()
                    j["id"] = .string(e.placeID)
                    j["reason"] = .string(e.reason)
                    j["confidence"] = .double(e.confidence)
                    if let s = e.source { j["source"] = .string(s) }
                    if let text = e.evidence, let v = try? JSONValue(parsing: text) { j["evidence"] = v }
                    if let t = e.recordedAt { j["recordedAt"] = .string(t) }
                    return .object(j)
                })
        }
        return Array(JSONWriter().string(.object(o)).utf8)
    }

    /// Writes every alias edge, oldest first, as the NDJSON lines
    /// `placedb alias import` reads (`oldId`, `newId`, `reason`,
    /// `confidence`, and the edge's `source`, `evidence` and `recordedAt`).
    public func exportAliases(write: (UnsafeRawBufferPointer) throws -> Void) throws -> ExportSummary {
        var summary = ExportSummary()
        var buffer: [UInt8] = []
        func flush() throws { summary.bytes += try Self.flush(&buffer, write) }
        try store.read {
            summary.aliases = try store.forEachAliasEdge { edge in
                ExportRecord.writeAlias(
                    old: edge.aliasID, new: edge.placeID, reason: edge.reason, confidence: edge.confidence,
                    source: edge.source, evidence: edge.evidence, recordedAt: edge.recordedAt, into: &buffer)
                if buffer.count >= Self.chunkSize { try flush() }
            }
        }
        try flush()
        return summary
    }
}
