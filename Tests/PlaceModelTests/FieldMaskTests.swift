import Testing
import PlaceModel

/// The members of a JSON object literal.
private func object(_ value: JSONValue) -> JSONObject {
    guard case .object(let o) = value else { preconditionFailure("not an object literal") }
    return o
}

/// A place in the Places API (New) shape, members in API order.
private let place = object([
    "name": "places/ChIJ1",
    "id": "ChIJ1",
    "displayName": ["text": "Blue Bottle", "languageCode": "en"],
    "location": ["latitude": 37.42, "longitude": -122.08],
    "rating": 4.5,
    "websiteUri": "https://example.com",
    "photos": [
        ["name": "places/ChIJ1/photos/A", "widthPx": 100],
        ["name": "places/ChIJ1/photos/B", "widthPx": 200],
    ],
])

/// The error parsing `text` throws, or nil when it parses.
private func maskError(_ text: String) -> FieldMaskError? {
    do {
        _ = try FieldMask(parsing: text)
        return nil
    } catch {
        return error
    }
}

@Suite("FieldMask")
struct FieldMaskTests {
    @Test("selects every field with *")
    func star() throws {
        let mask = try FieldMask(parsing: "*")
        #expect(mask.isAll)
        #expect(mask == .all)
        #expect(mask.includes("rating"))
        #expect(mask.includes("anything"))
        #expect(mask.apply(to: place) == place)
        #expect(mask.description == "*")
        #expect(try FieldMask(parsing: "displayName, *").isAll)
    }

    @Test("selects v1 fields by name")
    func v1Names() throws {
        let mask = try FieldMask(parsing: "displayName,rating, websiteUri ")
        #expect(!mask.isAll)
        #expect(mask.paths == ["displayName": [], "rating": [], "websiteUri": []])
        #expect(mask.includes("rating"))
        #expect(!mask.includes("location"))
        #expect(mask.description == "displayName,rating,websiteUri")
    }

    @Test("accepts every v1 Place field name")
    func everyPlaceField() throws {
        for field in FieldMask.placeFields {
            let mask = try FieldMask(parsing: field)
            #expect(mask.includes(field), "\(field)")
        }
    }

    @Test(
        "maps Places SDK names to v1 fields",
        arguments: [
            ("placeID", "id"), ("placeId", "id"),
            ("coordinate", "location"),
            ("phoneNumber", "internationalPhoneNumber"),
            ("website", "websiteUri"), ("websiteURL", "websiteUri"),
            ("openingHours", "regularOpeningHours"),
            ("userRatingsTotal", "userRatingCount"),
            ("iconImageURL", "iconMaskBaseUri"),
        ])
    func sdkSynonyms(sdk: String, v1: String) throws {
        let mask = try FieldMask(parsing: sdk)
        #expect(mask.paths == [v1: []])
        #expect(mask.includes(v1))
        #expect(!mask.includes(sdk))
    }

    @Test("selects both the resource name and the display name with name")
    func nameMeansBoth() throws {
        let mask = try FieldMask(parsing: "name")
        #expect(mask.paths == ["name": [], "displayName": []])
        let applied = mask.apply(to: place)
        #expect(applied.keys == ["name", "displayName"])
        #expect(applied["displayName"] == place["displayName"])
    }

    @Test("strips the places. prefix of search field masks")
    func placesPrefix() throws {
        let mask = try FieldMask(parsing: "places.displayName,places.location.latitude,places.placeID")
        #expect(mask.paths == ["displayName": [], "location": ["latitude"], "id": []])
    }

    @Test("keeps only the named sub-field of a sub-path")
    func subPath() throws {
        let mask = try FieldMask(parsing: "location.latitude")
        #expect(mask.paths == ["location": ["latitude"]])
        #expect(mask.includes("location"))
        let applied = mask.apply(to: place)
        #expect(applied == object(["location": ["latitude": 37.42]]))
        #expect(mask.description == "location.latitude")
    }

    @Test("applies a sub-path of an SDK synonym and a sub-path into an array")
    func subPathSynonymAndArray() throws {
        let mask = try FieldMask(parsing: "coordinate.longitude,photos.name")
        let applied = mask.apply(to: place)
        let expected: JSONValue = [
            "location": ["longitude": -122.08],
            "photos": [["name": "places/ChIJ1/photos/A"], ["name": "places/ChIJ1/photos/B"]],
        ]
        #expect(.object(applied) == expected)
    }

    @Test("lets a whole field win over a sub-path of it, in either order")
    func wholeFieldWins() throws {
        #expect(try FieldMask(parsing: "location.latitude,location").paths == ["location": []])
        #expect(try FieldMask(parsing: "location,location.latitude").paths == ["location": []])
        #expect(
            try FieldMask(parsing: "location.latitude,location.longitude").paths == [
                "location": ["latitude", "longitude"]
            ])
    }

    @Test("drops a field whose sub-path holds nothing in this place, and refuses one the API does not define")
    func subPathMatchingNothing() throws {
        let mask = try FieldMask(parsing: "rating,displayName.languageCode")
        var plain = place
        plain["displayName"] = ["text": "x"]
        #expect(mask.apply(to: plain) == object(["rating": 4.5]))
        #expect(throws: FieldMaskError.self) { try FieldMask(parsing: "rating,displayName.nothing") }
    }

    @Test("a name near a valid one (case, a typo) gets a did-you-mean instead of the list")
    func didYouMean() throws {
        for (typed, meant) in [
            ("displayname", "displayName"), ("DisplayName", "displayName"), ("ratng", "rating"),
            ("formatedAddress", "formattedAddress"),
        ] {
            let error = try #require(maskError(typed))
            #expect(error.unknown == typed)
            #expect(
                error.description == "unknown field '\(typed)' in the field mask; did you mean '\(meant)'?",
                "\(error.description)")
        }
    }

    @Test("refuses an unknown name, listing the valid ones")
    func unknownName() throws {
        let error = try #require(maskError("displayName,colour"))
        #expect(error.unknown == "colour")
        #expect(error.description.hasPrefix("unknown field 'colour' in the field mask; valid fields: *, "))
        for name in ["displayName", "location", "placeID", "coordinate", "userRatingsTotal", "websiteUri"] {
            #expect(error.description.contains(name), "\(name) is not listed")
        }
        #expect(FieldMask.validNames == FieldMask.validNames.sorted())
        #expect(Set(FieldMask.validNames).count == FieldMask.validNames.count)
    }

    @Test("names the item as written when it is unknown")
    func unknownWithPrefix() throws {
        #expect(maskError("places.colour.hue")?.unknown == "places.colour.hue")
        #expect(maskError("places")?.unknown == "places")
        #expect(maskError("DisplayName")?.unknown == "DisplayName")
    }

    @Test("refuses an empty mask")
    func emptyMask() {
        #expect(maskError("") != nil)
        #expect(maskError(" , ,") != nil)
    }

    @Test("keeps the place's member order, not the mask's")
    func applyKeepsOrder() throws {
        let mask = try FieldMask(parsing: "websiteUri,rating,id,displayName")
        #expect(mask.apply(to: place).keys == ["id", "displayName", "rating", "websiteUri"])
        #expect(mask.apply(to: place)["rating"] == 4.5)
    }

    @Test("builds a mask from a list of fields")
    func fromFields() throws {
        let mask = try FieldMask(fields: ["rating", "coordinate"])
        #expect(mask.paths == ["rating": [], "location": []])
        #expect(throws: FieldMaskError.self) { try FieldMask(fields: ["rating", "bogus"]) }
    }
}
