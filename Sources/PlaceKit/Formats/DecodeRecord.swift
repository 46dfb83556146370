package import PlaceModel

/// Decodes one record in `format` (nil: detect it).
package func decodeRecord(_ record: SourceRecord, format: InputFormat?) throws(DecodeError) -> DecodedPlace {
    guard case .object(let object) = record.value else {
        throw DecodeError("expected a place object, found \(record.value.kindDescription)")
    }
    // One pass for the members that make a record something other than a
    // plain place (most records have none of them).
    var special = false
    for (key, _) in object {
        let n = key.utf8.count
        if (n == 5 && key == "error") || (n == 11 && (key == "predictions" || key == "requestedId")) {
            special = true
            break
        }
    }
    if special {
        return try decodeSpecialRecord(record, object, format: format)
    }
    return try decodePlace(record, object, format: format)
}

/// A record holding `predictions`, `error` or `requestedId`.
private func decodeSpecialRecord(_ record: SourceRecord, _ object: JSONObject, format: InputFormat?) throws(DecodeError)
    -> DecodedPlace
{
    if object["predictions"] != nil {
        throw DecodeError(
            "autocomplete predictions are not places (no location); import Place Details or search responses")
    }
    if let error = object["error"]?.objectValue {
        let status = error["status"]?.stringValue ?? error["code"]?.intValue.map(String.init) ?? "error"
        throw DecodeError(
            "an API error response (\(status): \(error["message"]?.stringValue ?? "no message")), not a place")
    }
    // A response filed under the ID that was requested:
    // {"requestedId": "...", "place": {...}} (v1) or {"requestedId": "...", "result": {...}} (legacy).
    if let requested = object["requestedId"] {
        guard let requestedID = requested.stringValue, !requestedID.isEmpty else {
            throw DecodeError("requestedId is \(requested.kindDescription), expected a non-empty string")
        }
        let inner: SourceRecord
        if let place = object["place"], place.objectValue != nil {
            inner = SourceRecord(value: place, line: record.line, index: record.index, container: "places")
        } else if let result = object["result"], result.objectValue != nil {
            inner = SourceRecord(value: result, line: record.line, index: record.index, container: "result")
        } else {
            throw DecodeError("a requestedId record needs a \"place\" (Places API (New)) or \"result\" (legacy) object")
        }
        var decoded = try decodeRecord(inner, format: format)
        if decoded.format == .placesLegacy, let list = object["html_attributions"]?.arrayValue,
            let attributions = LegacyPlacesDecoder.attributions(list)
        {
            decoded.place.document["attributions"] = attributions
        }
        let id = decoded.place.id.rawValue
        let requestedSpelt = PlaceIDSpelling.canonical(requestedID)
        if requestedSpelt != id {
            decoded.aliases.append(AliasEdge(aliasID: requestedSpelt, placeID: id, reason: .requestedReturned))
        }
        // Again, with the attributions and the requested ID added.
        try FieldCheck.strings(decoded)
        return decoded
    }
    return try decodePlace(record, object, format: format)
}

/// A place record in `format` (nil: detect it).
private func decodePlace(_ record: SourceRecord, _ object: JSONObject, format: InputFormat?) throws(DecodeError)
    -> DecodedPlace
{
    var decoded: DecodedPlace
    switch format ?? InputFormat.detect(record) {
    case .placesV1: decoded = try PlacesV1Decoder.decode(object)
    case .placesLegacy: decoded = try LegacyPlacesDecoder.decode(object)
    case .geojson: decoded = try GeoJSONDecoders.decodeGeneric(object)
    case .osm: decoded = try GeoJSONDecoders.decodeOSM(object)
    case .overture: decoded = try GeoJSONDecoders.decodeOverture(object)
    case .geonames: decoded = try GeoNamesDecoder.decode(object)
    }
    // Rules every format shares, applied once here.
    respell(&decoded)
    try FieldCheck.clockAndCounts(decoded)
    try FieldCheck.hours(decoded)
    try FieldCheck.strings(decoded)
    decoded.place.capPhotos()
    try decoded.place.checkPhotoNames()
    return decoded
}

/// Every ID of the record in placedb's one spelling (`osm:node/1` is
/// `osm:n1`, a `/` is `%2F`: docs/formats.md#place-ids), its photos'
/// names with it; and the Maps CID of its `googleMapsUri` (the legacy
/// `url`) as an alias, `cid:{digits}` (reason `cid`).
private func respell(_ decoded: inout DecodedPlace) {
    let given = decoded.place.id.rawValue
    let id = PlaceIDSpelling.canonical(given)
    if id != given {
        decoded.place.id = PlaceID(id)
        if case .array(var photos)? = decoded.place.document["photos"] {
            let old = "places/\(given)/photos/", new = "places/\(id)/photos/"
            for i in photos.indices {
                if case .object(var photo) = photos[i], let name = photo["name"]?.stringValue, name.hasPrefix(old) {
                    photo["name"] = .string(new + name.dropFirst(old.count))
                    photos[i] = .object(photo)
                }
            }
            decoded.place.document["photos"] = .array(photos)
        }
    }
    for i in decoded.aliases.indices {
        decoded.aliases[i].aliasID = PlaceIDSpelling.canonical(decoded.aliases[i].aliasID)
        decoded.aliases[i].placeID = PlaceIDSpelling.canonical(decoded.aliases[i].placeID)
    }
    if let uri = decoded.place.document["googleMapsUri"]?.stringValue, let cid = PlaceIDSpelling.cid(ofMapsURI: uri) {
        let alias = PlaceIDSpelling.cidAlias(cid)
        if alias != id { decoded.aliases.append(AliasEdge(aliasID: alias, placeID: id, reason: .cid)) }
    }
}

// MARK: Checks shared by the decoders
