import PlaceModel
import PlaceStorage
/// Places API (New) `Place` objects: already in placedb's shape, so decoding
/// is validation plus separating fields v1 does not define.
enum PlacesV1Decoder {
    static let knownFields = Set(FieldMask.placeFields)

    static func decode(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        // `id`, or the ID inside the resource name `places/{id}`.
        var idText = object["id"]?.stringValue
        if idText == nil, let name = object["name"]?.stringValue, name.hasPrefix("places/"), !name.dropFirst(7).contains("/") {
            idText = String(name.dropFirst(7))
        }
        if let id = object["id"], id.stringValue == nil, id != .null {
            throw DecodeError("id is \(id.kindDescription), expected a string")
        }
        guard let idText, !idText.isEmpty else {
            throw DecodeError("no place ID (id or name \"places/{id}\")")
        }
        let pid = idText
        let location = object["location"]
        if let location, location != .null, location.objectValue == nil {
            throw DecodeError("location is \(location.kindDescription), expected an object", placeID: pid)
        }
        let coordinate = try FieldCheck.coordinate(latitude: location?["latitude"], longitude: location?["longitude"], path: "location", placeID: pid)
        try FieldCheck.expect(object, "displayName", .object, placeID: pid)
        if let dn = object["displayName"]?.objectValue {
            try FieldCheck.expect(dn, "text", .string, path: "displayName.text", placeID: pid)
        }
        try FieldCheck.expect(object, "types", .stringArray, placeID: pid)
        try FieldCheck.expect(object, "primaryType", .string, placeID: pid)
        try FieldCheck.expect(object, "formattedAddress", .string, placeID: pid)
        try FieldCheck.expect(object, "rating", .number, placeID: pid)
        try FieldCheck.expect(object, "userRatingCount", .integer, placeID: pid)
        try FieldCheck.expect(object, "utcOffsetMinutes", .integer, placeID: pid)
        try FieldCheck.expect(object, "businessStatus", .string, placeID: pid)
        try FieldCheck.expect(object, "photos", .array, placeID: pid)
        try FieldCheck.expect(object, "addressComponents", .array, placeID: pid)
        try FieldCheck.expect(object, "regularOpeningHours", .object, placeID: pid)
        try FieldCheck.expect(object, "timeZone", .object, placeID: pid)

        // The members of a parsed object have unique names already.
        var document: [(key: String, value: JSONValue)] = []
        var extra: [(key: String, value: JSONValue)] = []
        document.reserveCapacity(object.count)
        for (key, value) in object where key != "id" && key != "name" {
            if knownFields.contains(key) { document.append((key, value)) } else { extra.append((key, value)) }
        }
        var aliases: [AliasEdge] = []
        // A permanently closed place that moved points at where it went.
        let movedTo = object["movedPlaceId"]?.stringValue
            ?? object["movedPlace"]?.stringValue.map { PlaceID(parsing: $0).rawValue }
        if let movedTo, !movedTo.isEmpty, movedTo != pid {
            aliases.append(AliasEdge(aliasID: pid, placeID: movedTo, reason: .moved))
        }
        var decoded = DecodedPlace(place: Place(id: PlaceID(pid), coordinate: coordinate, document: JSONObject(uniqueMembers: document)),
                                   extra: JSONObject(uniqueMembers: extra), format: .placesV1, aliases: aliases)
        // A scraper's capture time beside the API's fields (not a v1 field:
        // it stays in the extras too).
        decoded.capturedAt = CaptureTime.value(object["timestamp"])
        return decoded
    }
}
