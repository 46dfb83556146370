import PlaceModel
import PlaceStorage

/// What an export wrote.
public struct ExportSummary: Sendable, Equatable {
    public var places = 0
    public var aliases = 0
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

    /// Writes every live place matching `filter` (an SQL expression over
    /// the `place` table's columns, as `ogr2ogr -where` takes; nil: all),
    /// in `format`, through `write`. One read transaction: the export is a
    /// consistent snapshot while imports go on.
    public func exportPlaces(format: ExportFormat, filter: String? = nil, write: (UnsafeRawBufferPointer) throws -> Void) throws -> ExportSummary {
        var summary = ExportSummary()
        var buffer = ExportRecord.header(format)
        buffer.reserveCapacity(Self.chunkSize + (64 << 10))
        func flush() throws {
            guard !buffer.isEmpty else { return }
            try buffer.withUnsafeBytes { try write($0) }
            summary.bytes += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        try store.read {
            summary.places = try store.forEachExportedPlace(filter: filter) { place in
                do {
                    try ExportRecord.write(id: place.id.rawValue, latitude: place.coordinate.latitude, longitude: place.coordinate.longitude,
                                           document: place.document, extra: place.extra, format: format, index: summary.places, into: &buffer)
                } catch {
                    throw PlaceDBError.database(path: store.path, reason: "place '\(place.id)' has a corrupt stored document or extras: \(error)")
                }
                summary.places += 1
                if buffer.count >= Self.chunkSize { try flush() }
            }
        }
        buffer += ExportRecord.footer(format)
        try flush()
        return summary
    }

    /// Writes every alias edge, oldest first, as the NDJSON lines
    /// `placedb alias import` reads (`oldId`, `newId`, `reason`,
    /// `confidence`, and the edge's `source` and `evidence`).
    public func exportAliases(write: (UnsafeRawBufferPointer) throws -> Void) throws -> ExportSummary {
        var summary = ExportSummary()
        var buffer: [UInt8] = []
        func flush() throws {
            guard !buffer.isEmpty else { return }
            try buffer.withUnsafeBytes { try write($0) }
            summary.bytes += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        try store.read {
            summary.aliases = try store.forEachAliasEdge { edge in
                ExportRecord.writeAlias(old: edge.aliasID, new: edge.placeID, reason: edge.reason, confidence: edge.confidence,
                                        source: edge.source, evidence: edge.evidence, into: &buffer)
                if buffer.count >= Self.chunkSize { try flush() }
            }
        }
        try flush()
        return summary
    }
}
