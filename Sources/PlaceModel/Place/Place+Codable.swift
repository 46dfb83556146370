/// A place encodes as a Places API (New) `Place` object (`name`
/// `places/{id}`, `id`, then the document's fields, `location` among them)
/// and decodes from one, so `JSONEncoder` and `JSONDecoder` speak the API's
/// JSON. Decoding keeps every member (fields placedb does not know
/// included); `id` (or `name`) and `location` are required. Decoders do not
/// keep member order: a decoded place lists the API's fields in the order
/// of `FieldMask.placeFields`, then any others by name.
/// (`timeZoneSource`, not part of the API's shape, is not encoded.)
extension Place: Codable {
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(apiJSON).encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        func fail(_ message: String) -> DecodingError {
            DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: message))
        }
        guard case .object(let object) = try JSONValue(from: decoder) else { throw fail("a place is a JSON object") }
        var idText = object["id"]?.stringValue
        if idText == nil, let name = object["name"]?.stringValue, name.hasPrefix("places/"),
            !name.dropFirst(7).contains("/")
        {
            idText = String(name.dropFirst(7))
        }
        guard let idText, !idText.isEmpty else { throw fail("no place ID (id or name \"places/{id}\")") }
        guard let lat = object["location"]?["latitude"]?.doubleValue,
            let lng = object["location"]?["longitude"]?.doubleValue
        else {
            throw fail("place '\(idText)' has no location with a latitude and a longitude")
        }
        let coordinate = Coordinate(latitude: lat, longitude: lng)
        guard coordinate.isValid else { throw fail("place '\(idText)': location \(lat),\(lng) is out of range") }
        let order = Dictionary(FieldMask.placeFields.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let members = object.members.filter { $0.key != "id" && $0.key != "name" }.sorted { a, b in
            switch (order[a.key], order[b.key]) {
            case let (x?, y?): x < y
            case (_?, nil): true
            case (nil, _?): false
            case (nil, nil): a.key < b.key
            }
        }
        self.init(id: PlaceID(idText), coordinate: coordinate, document: JSONObject(uniqueMembers: members))
    }
}
