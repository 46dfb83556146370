package import PlaceModel

extension LinkRecord {
    /// The LinkRecord of one input record, decoded exactly as the import
    /// decodes it (`decodeRecord`; `format` nil: detected): the document
    /// and extras the database would store, the extent from the viewport
    /// the decoder gives. For evaluation (`placedb-bench eval-link-pairs`)
    /// and tests.
    package static func decoding(_ value: JSONValue, format: InputFormat?, source: String) throws(DecodeError)
        -> LinkRecord
    {
        let parts = try decodedParts(value, format: format)
        return LinkRecord(
            placeID: parts.placeID, source: source, coordinate: parts.coordinate, extentMeters: parts.extentMeters,
            document: parts.document, extra: parts.extra)
    }

    /// What `LinkRecord.init` is given for one input record, as the import
    /// would store it; `skipped` when the import would not keep it (no name
    /// and no type).
    package static func decodedParts(_ value: JSONValue, format: InputFormat?) throws(DecodeError)
        -> (
            placeID: String, coordinate: Coordinate, extentMeters: Double, document: JSONValue, extra: JSONValue?,
            skipped: Bool
        )
    {
        let decoded = try decodeRecord(SourceRecord(value: value, line: 1, index: 1, container: nil), format: format)
        let document = JSONValue.object(decoded.place.document)
        return (
            decoded.place.id.rawValue, decoded.place.coordinate,
            LinkRecord.extentMeters(viewport: document["viewport"]),
            document, decoded.extra.isEmpty ? nil : .object(decoded.extra), decoded.skipReason != nil
        )
    }
}
