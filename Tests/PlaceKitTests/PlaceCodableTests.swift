import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage

/// `Place: Codable` speaks the Places API (New) JSON.
@Suite struct PlaceCodableTests {
    static let text = #"""
        {"name":"places/ChIJ1","id":"ChIJ1","displayName":{"text":"Café du Lac","languageCode":"fr"},
         "location":{"latitude":46.5,"longitude":6.6},"types":["cafe","food"],"primaryType":"cafe","rating":4.5,
         "userRatingCount":120,"businessStatus":"OPERATIONAL","utcOffsetMinutes":60,
         "regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":18,"minute":0}}]},
         "viewport":{"low":{"latitude":46.49,"longitude":6.59},"high":{"latitude":46.51,"longitude":6.61}},
         "somethingNew":[1,null,true,"x",{"b":2.25,"a":-3}]}
        """#

    @Test func aPlaceDecodesFromTheAPIsJSON() throws {
        let place = try JSONDecoder().decode(Place.self, from: Data(Self.text.utf8))
        #expect(place.id == "ChIJ1")
        #expect(place.coordinate == Coordinate(latitude: 46.5, longitude: 6.6))
        #expect(place.displayName == LocalizedText(text: "Café du Lac", languageCode: "fr"))
        #expect(place.types == ["cafe", "food"] && place.primaryType == "cafe")
        #expect(place.rating == 4.5 && place.userRatingCount == 120 && place.businessStatus == .operational)
        #expect(place.document["somethingNew"]?.arrayValue?.count == 5, "a field placedb does not know is kept")
        #expect(place.document["name"] == nil && place.document["id"] == nil)
        // The API's fields come in FieldMask.placeFields order.
        let keys = place.document.members.map(\.key)
        let known = keys.filter { FieldMask.placeFields.contains($0) }
        #expect(known == FieldMask.placeFields.filter { known.contains($0) })
        #expect(keys.last == "somethingNew")
        // The same place as the importer reads it (member order aside).
        let imported = try decodeRecord(
            SourceRecord(value: try JSONValue(parsing: Self.text), line: 1, index: 1, container: nil), format: .placesV1
        ).place
        var importedFields = imported.document.members.map(\.key)
        importedFields.append("somethingNew")
        #expect(Set(importedFields) == Set(keys))
    }

    @Test func encodingGivesTheAPIsShapeAndRoundTrips() throws {
        let place = try JSONDecoder().decode(Place.self, from: Data(Self.text.utf8))
        let data = try JSONEncoder().encode(place)
        let object = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        #expect(object["name"] == "places/ChIJ1" && object["id"] == "ChIJ1")
        #expect(object["location"]?["latitude"]?.doubleValue == 46.5)
        #expect(object["displayName"]?["text"] == "Café du Lac")
        let again = try JSONDecoder().decode(Place.self, from: data)
        #expect(again == place)
        #expect(try Self.sortedJSON(again) == Self.sortedJSON(place))
        // A place made in code, in any member order, survives too (as the
        // same JSON: a decoder does not keep member order).
        let made = Place(
            id: "osm:n42", coordinate: Coordinate(latitude: -33.86, longitude: 151.2),
            document: JSONObject([("types", ["bench"]), ("displayName", ["text": "Bench", "languageCode": "en"])]))
        let back = try JSONDecoder().decode(Place.self, from: JSONEncoder().encode(made))
        #expect(back.id == made.id && back.coordinate == made.coordinate)
        #expect(try Self.sortedJSON(back) == Self.sortedJSON(made))
    }

    @Test func aPlaceWithoutIDOrLocationDoesNotDecode() {
        for bad in [
            #"{"location":{"latitude":1,"longitude":2}}"#, #"{"id":"x"}"#,
            #"{"id":"x","location":{"latitude":91,"longitude":0}}"#, "[1]",
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONDecoder().decode(Place.self, from: Data(bad.utf8)) }
        }
        // `name` alone names the place.
        #expect(
            (try? JSONDecoder().decode(
                Place.self, from: Data(#"{"name":"places/x","location":{"latitude":1,"longitude":2}}"#.utf8)))?.id
                == "x")
    }

    static func sortedJSON(_ place: Place) throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return try e.encode(place)
    }
}
