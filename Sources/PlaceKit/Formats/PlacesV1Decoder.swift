import PlaceModel
/// Places API (New) `Place` objects: already in placedb's shape, so decoding
/// is validation plus separating fields v1 does not define.
enum PlacesV1Decoder {
    static let knownFields = Set(FieldMask.placeFields)

    /// What the decoder does with a member, by name: every v1 field, the
    /// members it reads (`id`, `name`, `location`, `movedPlace`,
    /// `movedPlaceId`, a scraper's `timestamp`) and the type it checks.
    /// One dictionary lookup a member replaces a search of the object per
    /// field, which would scan every member again for each field read.
    private struct Member {
        enum Role { case field, id, name, location, displayName, movedPlace, movedPlaceId, timestamp }
        var role: Role
        /// The type the member must have when present and not null, and
        /// the check's place in the order errors are reported.
        var check: (rank: Int, kind: FieldCheck.Kind)?
    }

    /// The checked members, in the order their errors are reported.
    private static let checked: [(String, FieldCheck.Kind)] = [
        ("displayName", .object), ("types", .stringArray), ("primaryType", .string), ("formattedAddress", .string),
        ("rating", .number), ("userRatingCount", .integer), ("utcOffsetMinutes", .integer), ("businessStatus", .string),
        ("photos", .array), ("addressComponents", .array), ("regularOpeningHours", .object), ("timeZone", .object),
    ]

    private static let members: [String: Member] = {
        var table: [String: Member] = [:]
        for name in FieldMask.placeFields { table[name] = Member(role: .field) }
        for (rank, (name, kind)) in checked.enumerated() {
            table[name, default: Member(role: .field)].check = (rank, kind)
        }
        table["id"]?.role = .id
        table["name"]?.role = .name
        table["location"]?.role = .location
        table["displayName"]?.role = .displayName
        table["movedPlace"]?.role = .movedPlace
        table["movedPlaceId"]?.role = .movedPlaceId
        // Not a v1 field: it stays in the extras.
        table["timestamp"] = Member(role: .timestamp)
        return table
    }()

    static func decode(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        // One pass over the members: sort them into the document and the
        // extras, and note what the checks below need.
        var id: JSONValue?, name: JSONValue?, location: JSONValue?, locationIndex: Int?, displayName: JSONValue?
        var movedPlace: JSONValue?, movedPlaceId: JSONValue?, timestamp: JSONValue?
        var failed: (rank: Int, name: String, value: JSONValue, kind: FieldCheck.Kind)?
        // The members of a parsed object have unique names already.
        var document: [(key: String, value: JSONValue)] = []
        var extra: [(key: String, value: JSONValue)] = []
        document.reserveCapacity(object.count)
        for (key, value) in object {
            guard let member = members[key] else {
                extra.append((key, value))
                continue
            }
            switch member.role {
            case .id: id = value; continue
            case .name: name = value; continue
            case .location: location = value; locationIndex = document.count
            case .displayName: displayName = value
            case .movedPlace: movedPlace = value
            case .movedPlaceId: movedPlaceId = value
            case .timestamp: timestamp = value
            case .field: break
            }
            if let check = member.check, value != .null, !FieldCheck.has(value, check.kind),
                check.rank < failed?.rank ?? .max
            {
                failed = (check.rank, key, value, check.kind)
            }
            if member.role == .timestamp { extra.append((key, value)) } else { document.append((key, value)) }
        }

        // `id`, or the ID inside the resource name `places/{id}`.
        var idText = id?.stringValue
        if idText == nil, let name = name?.stringValue, name.hasPrefix("places/"), !name.dropFirst(7).contains("/") {
            idText = String(name.dropFirst(7))
        }
        if let id, id.stringValue == nil, id != .null {
            throw DecodeError("id is \(id.kindDescription), expected a string")
        }
        // Both given: they must name the same place (stored under `id`,
        // a record whose `name` says otherwise was refused by nothing).
        if let idValue = id?.stringValue, let nameValue = name?.stringValue, nameValue.hasPrefix("places/"),
            !nameValue.dropFirst(7).contains("/"), nameValue.dropFirst(7) != Substring(idValue)
        {
            throw DecodeError(
                "name '\(nameValue.prefix(80))' and id '\(idValue.prefix(80))' name different places", placeID: idValue)
        }
        guard let idText, !idText.isEmpty else {
            throw DecodeError("no place ID (id or name \"places/{id}\")")
        }
        let pid = idText
        if let location, location != .null, location.objectValue == nil {
            throw DecodeError("location is \(location.kindDescription), expected an object", placeID: pid)
        }
        let coordinate = try FieldCheck.coordinate(
            latitude: location?["latitude"], longitude: location?["longitude"], path: "location", placeID: pid)
        // displayName.text is checked right after displayName (rank 0).
        if failed == nil || failed!.rank > 0, case .object(let dn)? = displayName {
            try FieldCheck.expect(dn, "text", .string, path: "displayName.text", placeID: pid)
        }
        if let failed {
            throw FieldCheck.typeError(failed.name, failed.value, failed.kind, placeID: pid)
        }
        // The location as the coordinate gives it, where the record had it.
        if let locationIndex { document[locationIndex].value = Place.locationValue(coordinate) }

        var aliases: [AliasEdge] = []
        // A permanently closed place that moved points at where it went.
        let movedTo = movedPlaceId?.stringValue ?? movedPlace?.stringValue.map { PlaceID(parsing: $0).rawValue }
        if let movedTo, !movedTo.isEmpty, movedTo != pid {
            aliases.append(AliasEdge(aliasID: pid, placeID: movedTo, reason: .moved))
        }
        // The document holds no `id` or `name`, and its location is the coordinate.
        var decoded = DecodedPlace(
            place: Place(id: PlaceID(pid), coordinate: coordinate, maskedDocument: JSONObject(uniqueMembers: document)),
            extra: JSONObject(uniqueMembers: extra), format: .placesV1, aliases: aliases)
        // A scraper's capture time beside the API's fields (not a v1 field:
        // it stays in the extras too).
        decoded.capturedAt = CaptureTime.value(timestamp)
        return decoded
    }
}
