/// The records `placedb export` writes, built from a place's stored bytes
/// without decoding the document: one Places API (New) object per place
/// (`name`, `id`, the document's members as stored, `location`, then the
/// source fields beyond the Places API's, which `import` files as extras
/// again), bare (NDJSON) or as a GeoJSON Feature whose properties are that
/// object and whose geometry is the point.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// One place object per line: what `placedb import` reads back whole.
    case ndjson
    /// GeoJSON text sequence (RFC 8142): one Feature per line, each after
    /// a record separator (0x1E).
    case geojsonseq
    /// One GeoJSON FeatureCollection, written feature by feature.
    case geojson

    /// The format a file name's extension says, or nil.
    public init?(fileName: String) {
        var name = fileName.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        if name.hasSuffix(".geojson") || name.hasSuffix(".json") {
            self = .geojson
        } else if name.hasSuffix(".geojsonseq") || name.hasSuffix(".geojsons") || name.hasSuffix(".geojsonl") {
            self = .geojsonseq
        } else if name.hasSuffix(".ndjson") || name.hasSuffix(".jsonl") || name.hasSuffix(".jsonseq") {
            self = .ndjson
        } else {
            return nil
        }
    }
}
