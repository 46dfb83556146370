import Testing
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage

private func record(_ json: String, container: String? = nil) throws -> SourceRecord {
    SourceRecord(value: try JSONParser.parse(json), line: 1, index: 1, container: container)
}

private func decode(_ json: String, format: InputFormat? = nil, container: String? = nil) throws -> DecodedPlace {
    try decodeRecord(try record(json, container: container), format: format)
}

/// The error decoding `json` throws, or nil when it decodes.
private func decodeError(_ json: String, format: InputFormat? = nil, container: String? = nil) throws -> DecodeError? {
    let r = try record(json, container: container)
    do {
        _ = try decodeRecord(r, format: format)
        return nil
    } catch {
        return error
    }
}

@Suite("Places API (New) decoder")
struct PlacesV1DecoderTests {
    static let cafe = """
        {
          "id": "ChIJ1",
          "displayName": {"text": "Blue Bottle", "languageCode": "en"},
          "location": {"latitude": 37.4220541, "longitude": -122.08532419999999},
          "types": ["cafe", "food"],
          "timestamp": "2024-05-01T12:00:00Z",
          "rating": 4.5,
          "userRatingCount": 120
        }
        """

    @Test("decodes a v1 place's id, display name, location and types")
    func decodesPlace() throws {
        let decoded = try decode(Self.cafe)
        #expect(decoded.format == .placesV1)
        #expect(decoded.place.id == PlaceID("ChIJ1"))
        #expect(decoded.place.coordinate == Coordinate(latitude: 37.4220541, longitude: -122.08532419999999))
        #expect(decoded.place.displayName == LocalizedText(text: "Blue Bottle", languageCode: "en"))
        #expect(decoded.place.types == ["cafe", "food"])
        #expect(decoded.place.rating == 4.5)
        #expect(decoded.place.userRatingCount == 120)
        #expect(decoded.place.document["location"] == ["latitude": 37.4220541, "longitude": -122.08532419999999])
    }

    @Test("keeps the document in source order, without id and name")
    func documentOrder() throws {
        let decoded = try decode(Self.cafe)
        #expect(decoded.place.document.keys == ["displayName", "location", "types", "rating", "userRatingCount"])
        #expect(decoded.place.document["id"] == nil)
        #expect(decoded.place.document["name"] == nil)
        #expect(decoded.place.apiJSON.keys.prefix(2) == ["name", "id"])
        #expect(decoded.place.apiJSON["name"] == "places/ChIJ1")
    }

    @Test("puts an unknown field in extra, not in the place document")
    func unknownFieldToExtra() throws {
        let decoded = try decode(Self.cafe)
        #expect(decoded.extra.keys == ["timestamp"])
        #expect(decoded.extra["timestamp"] == "2024-05-01T12:00:00Z")
        #expect(decoded.place.document["timestamp"] == nil)
    }

    @Test("derives the id from the resource name places/{id} when id is absent")
    func idFromName() throws {
        let decoded = try decode(#"{"name":"places/ChIJ2","location":{"latitude":1,"longitude":2}}"#)
        #expect(decoded.place.id == PlaceID("ChIJ2"))
        #expect(decoded.place.coordinate == Coordinate(latitude: 1, longitude: 2))
        #expect(decoded.place.document["name"] == nil)
        #expect(decoded.extra.isEmpty)
    }

    @Test("refuses an id and a resource name that name different places; takes the id when they agree")
    func idAndNameAgree() throws {
        let error = try #require(
            try decodeError(#"{"id":"A","name":"places/B","location":{"latitude":1,"longitude":2}}"#))
        #expect(error.message == "name 'places/B' and id 'A' name different places")
        #expect(error.placeID == "A")
        #expect(
            try decode(#"{"id":"A","name":"places/A","location":{"latitude":1,"longitude":2}}"#).place.id
                == PlaceID("A"))
    }

    @Test("refuses a v1 place without an id")
    func missingID() throws {
        let error = try #require(
            try decodeError(#"{"displayName":{"text":"x"},"location":{"latitude":1,"longitude":2}}"#))
        #expect(error.message == #"no place ID (id or name "places/{id}")"#)
        #expect(error.placeID == nil)
        let notAResourceName = try #require(
            try decodeError(#"{"name":"Cafe","location":{"latitude":1,"longitude":2}}"#))
        #expect(notAResourceName.message == #"no place ID (id or name "places/{id}")"#)
        let empty = try #require(try decodeError(#"{"id":"","location":{"latitude":1,"longitude":2}}"#))
        #expect(empty.message == #"no place ID (id or name "places/{id}")"#)
        let photoName = try #require(
            try decodeError(#"{"name":"places/ChIJ1/photos/ABC","location":{"latitude":1,"longitude":2}}"#))
        #expect(photoName.message == #"no place ID (id or name "places/{id}")"#)
    }

    @Test("refuses an id that is not a string")
    func numericID() throws {
        let error = try #require(try decodeError(#"{"id":12,"location":{"latitude":1,"longitude":2}}"#))
        #expect(error.message == "id is a number, expected a string")
    }

    @Test("refuses a v1 place without a location, naming the place")
    func missingLocation() throws {
        let error = try #require(try decodeError(#"{"id":"X","displayName":{"text":"x"}}"#))
        #expect(error.message == "no location (location): a place needs a coordinate")
        #expect(error.placeID == "X")
        let noLongitude = try #require(try decodeError(#"{"id":"X","location":{"latitude":1}}"#))
        #expect(noLongitude.message == "no location (location): a place needs a coordinate")
        let notObject = try #require(try decodeError(#"{"id":"X","location":[1,2]}"#))
        #expect(notObject.message == "location is an array, expected an object")
        #expect(notObject.placeID == "X")
    }

    @Test("refuses a latitude or longitude out of range")
    func outOfRange() throws {
        let lat = try #require(try decodeError(#"{"id":"X","location":{"latitude":91,"longitude":0}}"#))
        #expect(lat.message == "latitude 91 is out of range [-90, 90]")
        #expect(lat.placeID == "X")
        let fractional = try #require(try decodeError(#"{"id":"X","location":{"latitude":-90.5,"longitude":0}}"#))
        #expect(fractional.message == "latitude -90.5 is out of range [-90, 90]")
        let lng = try #require(try decodeError(#"{"id":"X","location":{"latitude":0,"longitude":-181}}"#))
        #expect(lng.message == "longitude -181 is out of range [-180, 180]")
        #expect(lng.placeID == "X")
        // The bounds themselves are valid.
        let corner = try decode(#"{"id":"X","location":{"latitude":-90,"longitude":180}}"#)
        #expect(corner.place.coordinate == Coordinate(latitude: -90, longitude: 180))
    }

    @Test("refuses a latitude given as a string")
    func stringLatitude() throws {
        let error = try #require(try decodeError(#"{"id":"X","location":{"latitude":"37.4","longitude":-122}}"#))
        #expect(error.message == "location latitude is a string, expected a number")
        #expect(error.placeID == "X")
        let lng = try #require(try decodeError(#"{"id":"X","location":{"latitude":37.4,"longitude":null}}"#))
        #expect(lng.message == "location longitude is null, expected a number")
    }

    @Test("refuses types that are not an array of strings")
    func badTypes() throws {
        let mixed = try #require(
            try decodeError(#"{"id":"X","location":{"latitude":1,"longitude":2},"types":["cafe",3]}"#))
        #expect(mixed.message == "types is an array, expected an array of strings")
        #expect(mixed.placeID == "X")
        let string = try #require(
            try decodeError(#"{"id":"X","location":{"latitude":1,"longitude":2},"types":"cafe"}"#))
        #expect(string.message == "types is a string, expected an array of strings")
        // null is allowed as "not given".
        #expect(try decodeError(#"{"id":"X","location":{"latitude":1,"longitude":2},"types":null}"#) == nil)
    }

    @Test("refuses a display name whose text is not a string")
    func badDisplayName() throws {
        let error = try #require(
            try decodeError(#"{"id":"X","location":{"latitude":1,"longitude":2},"displayName":{"text":5}}"#))
        #expect(error.message == "displayName.text is a number, expected a string")
        let notObject = try #require(
            try decodeError(#"{"id":"X","location":{"latitude":1,"longitude":2},"displayName":"Cafe"}"#))
        #expect(notObject.message == "displayName is a string, expected an object")
    }

    @Test("with several bad members, reports the first in the fixed order, wherever they stand in the record")
    func errorOrder() throws {
        // The order: id, location, displayName, displayName.text, types,
        // primaryType, formattedAddress, rating, userRatingCount, ... timeZone.
        let cases: [(String, String)] = [
            (
                #"{"rating":"x","types":"a","id":"X","location":{"latitude":1,"longitude":2}}"#,
                "types is a string, expected an array of strings"
            ),
            (
                #"{"timeZone":1,"displayName":{"text":5},"id":"X","location":{"latitude":1,"longitude":2}}"#,
                "displayName.text is a number, expected a string"
            ),
            (
                #"{"types":1,"displayName":"D","id":"X","location":{"latitude":1,"longitude":2}}"#,
                "displayName is a string, expected an object"
            ),
            (
                #"{"timeZone":1,"businessStatus":2,"id":"X","location":{"latitude":1,"longitude":2}}"#,
                "businessStatus is a number, expected a string"
            ),
            (#"{"types":1,"location":"here","id":"X"}"#, "location is a string, expected an object"),
            (#"{"types":1,"location":{"latitude":1,"longitude":2},"id":5}"#, "id is a number, expected a string"),
        ]
        for (json, message) in cases {
            let error = try #require(try decodeError(json), "\(json)")
            #expect(error.message == message, "\(json)")
        }
    }

    @Test("reads movedPlaceId, movedPlace and a scraper timestamp wherever they stand")
    func movedAndTimestamp() throws {
        let a = try decode(
            #"{"movedPlaceId":"NEW","timestamp":1700000000,"id":"OLD","location":{"latitude":1,"longitude":2}}"#)
        #expect(a.aliases.map(\.placeID) == ["NEW"])
        #expect(a.capturedAt == 1_700_000_000)
        #expect(a.extra["timestamp"] == 1_700_000_000)
        let b = try decode(#"{"id":"OLD","location":{"latitude":1,"longitude":2},"movedPlace":"places/NEWER"}"#)
        #expect(b.aliases.map(\.placeID) == ["NEWER"])
        #expect(b.capturedAt == nil)
    }
}

@Suite("Prepared places")
struct PreparedPlaceTests {
    /// Documents with the members a prepared place reads present, absent,
    /// null, of the wrong type, and beside others of the same name length.
    static let documents = [
        #"{"id":"A","location":{"latitude":1,"longitude":2}}"#,
        #"{"id":"A","displayName":{"text":"Cafe","languageCode":"fr"},"primaryType":"cafe","types":["cafe","food"],"rating":4.5,"userRatingCount":12,"businessStatus":"OPERATIONAL","utcOffsetMinutes":60,"timeZone":{"id":"Europe/Paris"},"location":{"latitude":1,"longitude":2},"viewport":{"low":{"latitude":0.9,"longitude":1.9},"high":{"latitude":1.1,"longitude":2.1}},"photos":[{"name":"places/A/photos/P1"},{"x":1},{"name":"places/A/photos/P2"}]}"#,
        #"{"id":"A","location":{"latitude":1,"longitude":2},"types":["bar",3,"pub"],"displayName":{"languageCode":"en"},"rating":null,"userRatingCount":null,"utcOffsetMinutes":null}"#,
        #"{"id":"A","location":{"latitude":1,"longitude":2},"types":[],"primaryType":null,"displayName":null,"timeZone":null,"photos":null}"#,
    ]

    @Test("reads every member in one pass as the place's accessors do", arguments: documents)
    func membersAsAccessors(_ json: String) throws {
        // Built directly: a decoder would refuse some of these documents,
        // and a merge or another format can hand the writer any of them.
        let object = try #require(try JSONParser.parse(json).objectValue)
        let place = Place(id: PlaceID("A"), coordinate: Coordinate(latitude: 1, longitude: 2), document: object)
        let prepared = PreparedPlace(DecodedPlace(place: place, extra: JSONObject(), format: .placesV1), source: nil)
        #expect(prepared.name == place.displayName?.text)
        #expect(prepared.primaryType == (place.primaryType ?? place.types.first))
        #expect(prepared.types == place.types)
        #expect(prepared.rating == place.rating)
        #expect(prepared.ratingCount == place.userRatingCount)
        #expect(prepared.businessStatus == place.document["businessStatus"]?.stringValue)
        #expect(prepared.utcOffsetMinutes == place.utcOffsetMinutes)
        #expect(prepared.timeZone == place.timeZone)
        #expect((prepared.extent == nil) == (PlaceWriter.extent(place.document["viewport"]) == nil))
        let photoNames = (place.document["photos"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        #expect(prepared.photos.map(\.name) == photoNames)
    }
}

@Suite("Legacy Places decoder")
struct LegacyPlacesDecoderTests {
    static let joes = """
        {
          "place_id": "ChIJlegacy",
          "id": "21a0b251c9b8392186142c798263e289fe45b4aa",
          "reference": "CmRbAAAA-ref",
          "scope": "GOOGLE",
          "name": "Joe's Diner",
          "geometry": {
            "location": {"lat": 37.4219999, "lng": -122.0840575},
            "viewport": {
              "northeast": {"lat": 37.4233488, "lng": -122.0827085},
              "southwest": {"lat": 37.4206509, "lng": -122.0854065}
            }
          },
          "formatted_address": "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA",
          "types": ["restaurant", "food"],
          "rating": 4.2,
          "user_ratings_total": 1234,
          "utc_offset": -420,
          "price_level": 4,
          "opening_hours": {
            "open_now": true,
            "periods": [
              {"open": {"day": 1, "time": "0930"}, "close": {"day": 1, "time": "1700"}}
            ],
            "weekday_text": ["Monday: 9:30 AM – 5:00 PM"]
          },
          "photos": [
            {
              "photo_reference": "REF123",
              "width": 4032,
              "height": 3024,
              "html_attributions": ["<a href=\\"https://maps.google.com/maps/contrib/101\\">Jane Doe</a>"]
            }
          ],
          "reviews": [
            {
              "author_name": "Sam",
              "author_url": "https://www.google.com/maps/contrib/202/reviews",
              "rating": 5,
              "text": "Great pie.",
              "language": "en",
              "time": 951782400
            }
          ]
        }
        """

    @Test("maps a legacy place's id, name and location to v1")
    func basics() throws {
        let decoded = try decode(Self.joes)
        #expect(decoded.format == .placesLegacy)
        #expect(decoded.place.id == PlaceID("ChIJlegacy"))
        #expect(decoded.place.coordinate == Coordinate(latitude: 37.4219999, longitude: -122.0840575))
        // The language the response was written in: its one review's (reviews are
        // translated into the request's language).
        #expect(decoded.place.displayName == LocalizedText(text: "Joe's Diner", languageCode: "en"))
        #expect(decoded.place.document["displayName"] == ["text": "Joe's Diner", "languageCode": "en"])
        #expect(decoded.place.document["location"] == ["latitude": 37.4219999, "longitude": -122.0840575])
        #expect(decoded.place.document["place_id"] == nil)
        #expect(decoded.place.document["geometry"] == nil)
    }

    @Test("maps the viewport's northeast and southwest to high and low")
    func viewport() throws {
        let decoded = try decode(Self.joes)
        let expected: JSONValue = [
            "low": ["latitude": 37.4206509, "longitude": -122.0854065],
            "high": ["latitude": 37.4233488, "longitude": -122.0827085],
        ]
        #expect(decoded.place.document["viewport"] == expected)
    }

    @Test("maps address, rating count, UTC offset and types")
    func simpleFields() throws {
        let decoded = try decode(Self.joes)
        #expect(decoded.place.formattedAddress == "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA")
        #expect(decoded.place.document["userRatingCount"] == .int(1234))
        #expect(decoded.place.userRatingCount == 1234)
        #expect(decoded.place.document["utcOffsetMinutes"] == .int(-420))
        #expect(decoded.place.utcOffsetMinutes == -420)
        #expect(decoded.place.rating == 4.2)
        #expect(decoded.place.types == ["restaurant", "food"])
        for legacy in ["formatted_address", "user_ratings_total", "utc_offset", "price_level", "opening_hours"] {
            #expect(decoded.place.document[legacy] == nil, "\(legacy) was copied as is")
        }
    }

    @Test(
        "maps price levels 0 to 4 to the v1 enum names",
        arguments: zip(
            0...4,
            [
                "PRICE_LEVEL_FREE", "PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE", "PRICE_LEVEL_EXPENSIVE",
                "PRICE_LEVEL_VERY_EXPENSIVE",
            ]))
    func priceLevel(level: Int, name: String) throws {
        let decoded = try decode(#"{"place_id":"P","geometry":{"location":{"lat":1,"lng":2}},"price_level":\#(level)}"#)
        #expect(decoded.place.document["priceLevel"] == .string(name))
        #expect(decoded.extra["price_level"] == nil)
    }

    @Test("refuses a price level outside 0 to 4 (it was kept in extra, and the place had none)")
    func oddPriceLevel() throws {
        let error = try #require(
            try decodeError(#"{"place_id":"P","geometry":{"location":{"lat":1,"lng":2}},"price_level":7}"#))
        #expect(error.message == "price_level 7 is out of range [0, 4]")
        #expect(error.placeID == "P")
    }

    @Test("maps opening hours periods and weekday text to v1 points and descriptions")
    func openingHours() throws {
        let decoded = try decode(Self.joes)
        let expected: JSONValue = [
            "openNow": true,
            "periods": [
                ["open": ["day": 1, "hour": 9, "minute": 30], "close": ["day": 1, "hour": 17, "minute": 0]]
            ],
            "weekdayDescriptions": ["Monday: 9:30 AM – 5:00 PM"],
        ]
        #expect(decoded.place.document["regularOpeningHours"] == expected)
    }

    @Test("maps photos to resource names with sizes and parsed attributions")
    func photos() throws {
        let decoded = try decode(Self.joes)
        let expected: JSONValue = [
            [
                "name": "places/ChIJlegacy/photos/REF123",
                "widthPx": 4032,
                "heightPx": 3024,
                "authorAttributions": [["displayName": "Jane Doe", "uri": "https://maps.google.com/maps/contrib/101"]],
            ]
        ]
        #expect(decoded.place.document["photos"] == expected)
        let photo = try #require(decoded.place.photos.first)
        #expect(photo.name == "places/ChIJlegacy/photos/REF123")
        #expect(photo.widthPx == 4032)
        #expect(photo.heightPx == 3024)
        #expect(
            photo.authorAttributions == [
                AuthorAttribution(
                    displayName: "Jane Doe", uri: "https://maps.google.com/maps/contrib/101", photoUri: nil)
            ])
    }

    @Test("drops a photo without a reference and keeps plain-text attributions as names")
    func photoEdgeCases() throws {
        let decoded = try decode(
            #"{"place_id":"P","geometry":{"location":{"lat":1,"lng":2}},"photos":[{"width":1},{"photo_reference":"R","html_attributions":["Someone"]}]}"#
        )
        #expect(
            decoded.place.document["photos"] == [
                ["name": "places/P/photos/R", "authorAttributions": [["displayName": "Someone"]]]
            ])
    }

    @Test("decodes HTML entities in attributions and keeps the photo's maps link")
    func photoAttributionEntities() throws {
        let decoded = try decode(
            #"""
            {"place_id":"P","geometry":{"location":{"lat":1,"lng":2}},"photos":[{"photo_reference":"R","width":10,"height":20,
             "html_attributions":["<a href=\"https://maps.google.com/maps/contrib/7/photos\">Nick&#39;s Bar &amp; Grill &lt;3 &#x263A;</a>", "From a Google User", "<a href='https://x.example/a?b=1&amp;c=2'>Single</a>"],
             "view_in_maps_url":"https://www.google.com/maps/place//data=!3m4"}]}
            """#)
        let expected: JSONValue = [
            [
                "name": "places/P/photos/R",
                "widthPx": 10,
                "heightPx": 20,
                "authorAttributions": [
                    [
                        "displayName": "Nick's Bar & Grill <3 \u{263A}",
                        "uri": "https://maps.google.com/maps/contrib/7/photos",
                    ],
                    ["displayName": "From a Google User"],
                    ["displayName": "Single", "uri": "https://x.example/a?b=1&c=2"],
                ],
                "googleMapsUri": "https://www.google.com/maps/place//data=!3m4",
            ]
        ]
        #expect(decoded.place.document["photos"] == expected)
        #expect(decoded.extra["photos"] == nil)
    }

    @Test("an unknown or unterminated entity is kept as written")
    func entitiesLeftAlone() {
        #expect(LegacyPlacesDecoder.decodeEntities("Tom &nbsp; Jerry &amp") == "Tom &nbsp; Jerry &amp")
        #expect(LegacyPlacesDecoder.decodeEntities("&#xZZ; & ;") == "&#xZZ; & ;")
        #expect(LegacyPlacesDecoder.decodeEntities("a&#1114112;b") == "a&#1114112;b", "beyond Unicode")
    }

    @Test(
        "keeps at most 10 photos, in order, from any format",
        arguments: [InputFormat.placesV1, .placesLegacy, .geojson])
    func photoCap(format: InputFormat) throws {
        let refs = (1...12).map { "REF\($0)" }
        let v1Photos = "[" + refs.map { #"{"name":"places/P/photos/\#($0)","widthPx":1}"# }.joined(separator: ",") + "]"
        let json: String
        switch format {
        case .placesLegacy:
            json =
                #"{"place_id":"P","geometry":{"location":{"lat":1,"lng":2}},"photos":["#
                + refs.map { #"{"photo_reference":"\#($0)","width":1}"# }.joined(separator: ",") + "]}"
        case .geojson:
            json =
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"id":"P","photos":\#(v1Photos)}}"#
        default:
            json = #"{"id":"P","location":{"latitude":1,"longitude":2},"photos":\#(v1Photos)}"#
        }
        let decoded = try decode(json, format: format)
        #expect(decoded.place.photos.map(\.name) == refs.prefix(10).map { "places/P/photos/\($0)" })
    }

    @Test("maps reviews, with the Unix time as an RFC 3339 publish time")
    func reviews() throws {
        let decoded = try decode(Self.joes)
        let expected: JSONValue = [
            [
                "rating": 5,
                "text": ["text": "Great pie.", "languageCode": "en"],
                "authorAttribution": ["displayName": "Sam", "uri": "https://www.google.com/maps/contrib/202/reviews"],
                "publishTime": "2000-02-29T00:00:00Z",
            ]
        ]
        #expect(decoded.place.document["reviews"] == expected)
    }

    @Test("keeps the legacy id, reference and scope in extra")
    func legacyExtras() throws {
        let decoded = try decode(Self.joes)
        #expect(decoded.extra.keys == ["id", "reference", "scope"])
        #expect(decoded.extra["id"] == "21a0b251c9b8392186142c798263e289fe45b4aa")
        #expect(decoded.extra["reference"] == "CmRbAAAA-ref")
        #expect(decoded.extra["scope"] == "GOOGLE")
        #expect(decoded.place.id == PlaceID("ChIJlegacy"))
        for key in ["reference", "scope"] { #expect(decoded.place.document[key] == nil) }
    }

    @Test("takes the display name's language from the record's language")
    func displayNameLanguage() throws {
        let decoded = try decode(
            #"{"place_id":"P","name":"Café","language":"fr","geometry":{"location":{"lat":1,"lng":2}}}"#)
        #expect(decoded.place.displayName == LocalizedText(text: "Café", languageCode: "fr"))
    }

    @Test("refuses a legacy place without a place_id")
    func missingPlaceID() throws {
        let error = try #require(try decodeError(#"{"name":"X","geometry":{"location":{"lat":1,"lng":2}}}"#))
        #expect(error.message == "no place ID (place_id)")
        #expect(error.placeID == nil)
        let numeric = try #require(try decodeError(#"{"place_id":5,"geometry":{"location":{"lat":1,"lng":2}}}"#))
        #expect(numeric.message == "place_id is a number, expected a string")
    }

    @Test("refuses a legacy place without a location, naming the place")
    func missingLegacyLocation() throws {
        let error = try #require(try decodeError(#"{"place_id":"P","name":"X"}"#))
        #expect(error.message == "no location (geometry.location): a place needs a coordinate")
        #expect(error.placeID == "P")
        let range = try #require(try decodeError(#"{"place_id":"P","geometry":{"location":{"lat":12,"lng":-181}}}"#))
        #expect(range.message == "longitude -181 is out of range [-180, 180]")
        #expect(range.placeID == "P")
        let string = try #require(try decodeError(#"{"place_id":"P","geometry":{"location":{"lat":"12","lng":3}}}"#))
        #expect(string.message == "geometry.location latitude is a string, expected a number")
    }
}

@Suite("Record decoding")
struct DecodeRecordTests {
    @Test("refuses autocomplete predictions")
    func predictions() throws {
        let error = try #require(
            try decodeError(#"{"predictions":[{"description":"Paris","place_id":"P"}],"status":"OK"}"#))
        #expect(
            error.message
                == "autocomplete predictions are not places (no location); import Place Details or search responses")
        #expect(error.placeID == nil)
    }

    @Test("refuses a v1 API error object, quoting its status and message")
    func apiError() throws {
        let error = try #require(
            try decodeError(#"{"error":{"code":403,"message":"Permission denied.","status":"PERMISSION_DENIED"}}"#))
        #expect(error.message == "an API error response (PERMISSION_DENIED: Permission denied.), not a place")
        #expect(error.placeID == nil)
    }

    @Test(
        "refuses a record that is not an object",
        arguments: [
            ("[1,2]", "an array"), ("\"text\"", "a string"), ("42", "a number"), ("null", "null"),
            ("true", "a boolean"),
        ])
    func nonObject(json: String, kind: String) throws {
        let error = try #require(try decodeError(json))
        #expect(error.message == "expected a place object, found \(kind)")
        #expect(error.placeID == nil)
    }

    @Test("detects the format from the envelope member, then from the keys")
    func detection() throws {
        #expect(InputFormat.detect(try record(#"{"id":"a"}"#, container: "places")) == .placesV1)
        #expect(InputFormat.detect(try record(#"{"id":"a"}"#, container: "results")) == .placesLegacy)
        #expect(InputFormat.detect(try record(#"{"id":"a"}"#, container: "result")) == .placesLegacy)
        #expect(InputFormat.detect(try record(#"{"id":"a"}"#, container: "candidates")) == .placesLegacy)
        #expect(InputFormat.detect(try record(#"{"place_id":"a"}"#)) == .placesLegacy)
        #expect(InputFormat.detect(try record(#"{"geometry":{}}"#)) == .placesLegacy)
        #expect(InputFormat.detect(try record(#"{"id":"a"}"#)) == .placesV1)
    }

    @Test("decodes with the format it is told, not the detected one")
    func forcedFormat() throws {
        let legacy = #"{"place_id":"P","geometry":{"location":{"lat":1,"lng":2}}}"#
        #expect(try decode(legacy).format == .placesLegacy)
        let error = try #require(try decodeError(legacy, format: .placesV1))
        #expect(error.message == #"no place ID (id or name "places/{id}")"#)
        let v1 = #"{"id":"X","location":{"latitude":1,"longitude":2}}"#
        #expect(try decodeError(v1, container: "results")?.message == "no place ID (place_id)")
        #expect(try decode(v1, format: .placesV1, container: "results").place.id == PlaceID("X"))
    }
}

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test(
        "formats Unix seconds as UTC RFC 3339",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1_700_000_000, "2023-11-14T22:13:20Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (-86_400, "1969-12-31T00:00:00Z"),
            (-86_401, "1969-12-30T23:59:59Z"),
            (-2_208_988_800, "1900-01-01T00:00:00Z"),
        ])
    func format(seconds: Int64, expected: String) {
        #expect(RFC3339.string(fromUnixSeconds: seconds) == expected)
    }

    @Test("formats the current time in the same shape")
    func now() {
        let now = RFC3339.now()
        #expect(now.utf8.count == 20)
        #expect(now.hasSuffix("Z"))
        #expect(now.dropFirst(10).first == "T")
        #expect(now >= "2024-01-01T00:00:00Z")
    }
}
