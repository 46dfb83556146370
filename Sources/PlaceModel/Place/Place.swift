/// Text with its language, as in `displayName`.
public struct LocalizedText: Sendable, Hashable {
    public var text: String
    public var languageCode: String?
    public init(text: String, languageCode: String? = nil) {
        self.text = text
        self.languageCode = languageCode
    }
}

/// Whether a place operates.
public enum BusinessStatus: String, Sendable, CaseIterable {
    case operational = "OPERATIONAL"
    case closedTemporarily = "CLOSED_TEMPORARILY"
    case closedPermanently = "CLOSED_PERMANENTLY"
    case futureOpening = "FUTURE_OPENING"
}

/// A photo's metadata and the attributions that must be shown with it.
public struct PhotoMetadata: Sendable, Hashable {
    /// `places/{id}/photos/{reference}`.
    public var name: String
    public var widthPx: Int?
    public var heightPx: Int?
    public var authorAttributions: [AuthorAttribution]
}

/// Who made a photo or a review.
public struct AuthorAttribution: Sendable, Hashable {
    public var displayName: String?
    public var uri: String?
    public var photoUri: String?
}

/// One part of a structured address.
public struct AddressComponent: Sendable, Hashable {
    public var longText: String
    public var shortText: String?
    public var types: [String]
    public var languageCode: String?
}

/// A place: its ID, its coordinate and every field the source gave, in the
/// Places API (New) shape (`document`). Typed properties read the document,
/// so nothing a source said is lost in a narrower model.
public struct Place: Sendable, Equatable {
    public var id: PlaceID
    public var coordinate: Coordinate
    /// The place's fields by their Places API (New) names, without `name`
    /// and `id` (derived from `id`).
    public var document: JSONObject
    /// Where `timeZone` came from, for a place read from a database: the
    /// source's data, or `placedb import --time-zone`. Not part of the document.
    package var timeZoneSource: TimeZoneSource?

    public init(id: PlaceID, coordinate: Coordinate, document: JSONObject = JSONObject()) {
        self.id = id
        self.coordinate = coordinate
        var document = document
        document["name"] = nil
        document["id"] = nil
        document["location"] = Place.locationValue(coordinate)
        self.document = document
    }

    /// `{"latitude": .., "longitude": ..}`.
    package static func locationValue(_ c: Coordinate) -> JSONValue {
        .object(JSONObject(uniqueMembers: [("latitude", .double(c.latitude)), ("longitude", .double(c.longitude))]))
    }

    /// A place from a document read back from the database: the same as
    /// `init(id:coordinate:document:)`, in one pass over the members when
    /// (as placedb writes them) they hold no `name` or `id` and their
    /// location is the coordinate.
    package init(id: PlaceID, coordinate: Coordinate, storedDocument document: JSONObject) {
        var clean = true
        var locationMatches = false
        for (key, value) in document {
            switch key {
            case "name", "id": clean = false
            case "location":
                locationMatches =
                    value["latitude"]?.doubleValue == coordinate.latitude
                    && value["longitude"]?.doubleValue == coordinate.longitude
            default: break
            }
        }
        self.id = id
        self.coordinate = coordinate
        self.document =
            clean && locationMatches ? document : Place(id: id, coordinate: coordinate, document: document).document
    }

    /// A place whose document was already cut to a field mask (it may
    /// lack `location`; it holds no `name` or `id`).
    package init(id: PlaceID, coordinate: Coordinate, maskedDocument document: JSONObject) {
        self.id = id
        self.coordinate = coordinate
        self.document = document
    }

    public var displayName: LocalizedText? {
        guard let o = document["displayName"]?.objectValue, let text = o["text"]?.stringValue else { return nil }
        return LocalizedText(text: text, languageCode: o["languageCode"]?.stringValue)
    }
    public var types: [String] { document["types"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    public var primaryType: String? { document["primaryType"]?.stringValue }
    public var formattedAddress: String? { document["formattedAddress"]?.stringValue }
    public var rating: Double? { document["rating"]?.doubleValue }
    public var userRatingCount: Int? { document["userRatingCount"]?.intValue }
    public var businessStatus: BusinessStatus? {
        document["businessStatus"]?.stringValue.flatMap(BusinessStatus.init(rawValue:))
    }
    public var utcOffsetMinutes: Int? { document["utcOffsetMinutes"]?.intValue }
    /// IANA time zone name (`timeZone.id`).
    public var timeZone: String? { document["timeZone"]?["id"]?.stringValue }
    public var websiteUri: String? { document["websiteUri"]?.stringValue }
    public var nationalPhoneNumber: String? { document["nationalPhoneNumber"]?.stringValue }
    public var internationalPhoneNumber: String? { document["internationalPhoneNumber"]?.stringValue }
    public var editorialSummary: LocalizedText? {
        guard let o = document["editorialSummary"]?.objectValue, let text = o["text"]?.stringValue else { return nil }
        return LocalizedText(text: text, languageCode: o["languageCode"]?.stringValue)
    }
    /// The raw `regularOpeningHours` object.
    public var regularOpeningHours: JSONObject? { document["regularOpeningHours"]?.objectValue }
    public var addressComponents: [AddressComponent] {
        (document["addressComponents"]?.arrayValue ?? []).compactMap { c in
            guard let long = c["longText"]?.stringValue else { return nil }
            return AddressComponent(
                longText: long, shortText: c["shortText"]?.stringValue,
                types: c["types"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                languageCode: c["languageCode"]?.stringValue)
        }
    }
    public var photos: [PhotoMetadata] {
        (document["photos"]?.arrayValue ?? []).compactMap { p in
            guard let name = p["name"]?.stringValue else { return nil }
            let authors = (p["authorAttributions"]?.arrayValue ?? []).map {
                AuthorAttribution(
                    displayName: $0["displayName"]?.stringValue, uri: $0["uri"]?.stringValue,
                    photoUri: $0["photoUri"]?.stringValue)
            }
            return PhotoMetadata(
                name: name, widthPx: p["widthPx"]?.intValue, heightPx: p["heightPx"]?.intValue,
                authorAttributions: authors)
        }
    }

    /// The Places API (New) JSON of this place: `name`, `id`, then the
    /// document's fields.
    public var apiJSON: JSONObject {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(id.resourceName)), ("id", .string(id.rawValue)),
        ]
        members.append(contentsOf: document.members)
        return JSONObject(uniqueMembers: members)
    }
}

extension Substring {
    package var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
