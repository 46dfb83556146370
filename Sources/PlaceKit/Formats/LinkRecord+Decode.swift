import PlaceModel

extension LinkRecord {
    /// The LinkRecord of one input record, decoded exactly as the import
    /// decodes it (`decodeRecord`; `format` nil: detected): the document
    /// and extras the database would store, the extent from the viewport
    /// the decoder gives. For evaluation (`placedb-bench eval-link-pairs`)
    /// and tests.
    package static func decoding(_ value: JSONValue, format: InputFormat?, source: String) throws(DecodeError) -> LinkRecord {
        let decoded = try decodeRecord(SourceRecord(value: value, line: 1, index: 1, container: nil), format: format)
        let document = JSONValue.object(decoded.place.document)
        return LinkRecord(placeID: decoded.place.id.rawValue, source: source, coordinate: decoded.place.coordinate,
                          extentMeters: LinkRecord.extentMeters(viewport: document["viewport"]),
                          document: document, extra: decoded.extra.isEmpty ? nil : .object(decoded.extra))
    }
}
