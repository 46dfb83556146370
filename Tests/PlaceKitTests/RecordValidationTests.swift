import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Values an adversarial probe found accepted, dropped or trapping on
/// import (docs/reliability.md, "Values a record may not hold"): each is
/// now refused with a reason naming the member and the place.
@Suite("Record validation")
struct RecordValidationTests {
    static func decode(_ json: String, format: InputFormat? = nil) throws -> DecodedPlace {
        try decodeRecord(
            SourceRecord(value: try JSONValue(parsing: json), line: 1, index: 1, container: nil), format: format)
    }

    /// Expects `json` to be refused with a message starting `message` and
    /// naming `placeID`.
    static func expectRefused(
        _ json: String, format: InputFormat? = nil, _ message: String, placeID: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let decoded = try decode(json, format: format)
            Issue.record(
                "accepted as \(decoded.place.id.rawValue) at \(decoded.place.coordinate): \(json)",
                sourceLocation: sourceLocation)
        } catch let e as DecodeError {
            #expect(e.message.hasPrefix(message), "\(e.message)", sourceLocation: sourceLocation)
            #expect(e.placeID == placeID, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Geometries (items 1 and 2)

    /// Empty and degenerate geometries of every type, with the reason given.
    static let badGeometries: [(geometry: String, message: String)] = [
        (#"{"type":"MultiLineString","coordinates":[]}"#, "MultiLineString has no lines"),
        (#"{"type":"GeometryCollection","geometries":[]}"#, "GeometryCollection has no geometries"),
        (#"{"type":"Point","coordinates":[]}"#, "Point has a position that is not [longitude, latitude]"),
        (#"{"type":"Point"}"#, "Point geometry has no coordinates"),
        (#"{"type":"LineString","coordinates":[]}"#, "LineString has an empty list of positions"),
        (#"{"type":"LineString","coordinates":[[1,2]]}"#, "LineString needs at least 2 positions, has 1"),
        (#"{"type":"MultiPoint","coordinates":[]}"#, "MultiPoint has an empty list of positions"),
        (#"{"type":"MultiLineString","coordinates":[[]]}"#, "MultiLineString has an empty list of positions"),
        (#"{"type":"MultiLineString","coordinates":[[[1,2]]]}"#, "MultiLineString needs at least 2 positions, has 1"),
        (#"{"type":"Polygon","coordinates":[]}"#, "Polygon has no rings"),
        (#"{"type":"Polygon","coordinates":[[]]}"#, "Polygon has an empty list of positions"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0]]]}"#, "Polygon needs at least 4 positions in a ring, has 3"),
        (#"{"type":"MultiPolygon","coordinates":[]}"#, "MultiPolygon has no polygons"),
        (#"{"type":"MultiPolygon","coordinates":[[]]}"#, "MultiPolygon polygon 1 of 1 has no rings"),
        (
            #"{"type":"MultiPolygon","coordinates":[[],[[[0,0],[1,0],[1,1],[0,0]]]]}"#,
            "MultiPolygon polygon 1 of 2 has no rings"
        ),
        (
            #"{"type":"GeometryCollection","geometries":[{"type":"MultiLineString","coordinates":[]}]}"#,
            "MultiLineString has no lines"
        ),
        (
            #"{"type":"GeometryCollection","geometries":[{"type":"GeometryCollection","geometries":[]}]}"#,
            "GeometryCollection has no geometries"
        ),
        (
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"MultiPoint","coordinates":[]}]}"#,
            "MultiPoint has an empty list of positions"
        ),
    ]

    /// A feature of `format` carrying `geometry`, and the ID it has.
    static func feature(_ format: InputFormat, _ geometry: String) -> (json: String, id: String) {
        switch format {
        case .osm:
            (
                #"{"type":"Feature","geometry":\#(geometry),"properties":{"@type":"way","@id":7,"amenity":"cafe","name":"C"}}"#,
                "osm:w7"
            )
        case .overture:
            (
                #"{"type":"Feature","id":"ov-1","geometry":\#(geometry),"properties":{"names":{"primary":"C"},"categories":{"primary":"cafe"}}}"#,
                "ov-1"
            )
        default: (#"{"type":"Feature","geometry":\#(geometry),"properties":{"id":"g-1","name":"C"}}"#, "g-1")
        }
    }

    @Test(
        "an empty or degenerate geometry is refused with its reason, for generic GeoJSON, OSM and Overture features",
        arguments: [InputFormat.geojson, .osm, .overture], badGeometries)
    func emptyGeometryRefused(format: InputFormat, bad: (geometry: String, message: String)) {
        let f = Self.feature(format, bad.geometry)
        Self.expectRefused(f.json, format: format, bad.message, placeID: f.id)
    }

    @Test("a coordinate that is not a finite number is refused as such")
    func nonFiniteCoordinate() throws {
        for bad in [Double.nan, .infinity, -.infinity] {
            let value = JSONValue.object(
                JSONObject([("type", .string("Point")), ("coordinates", .array([.double(bad), .double(1)]))]))
            #expect {
                _ = try GeoJSONGeometry.parse(value, placeID: "p")
            } throws: { error in
                (error as? DecodeError)?.message == "Point has a position that is not a finite number"
            }
        }
    }

    @Test("every geometry type with positions still imports, at a point inside its box")
    func validGeometries() throws {
        let good = [
            #"{"type":"Point","coordinates":[1,2]}"#,
            #"{"type":"MultiPoint","coordinates":[[1,2]]}"#,
            #"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#,
            #"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]]]}"#,
            #"{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,0]]]}"#,
            #"{"type":"MultiPolygon","coordinates":[[[[0,0],[2,0],[2,2],[0,0]]]]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]}]}"#,
        ]
        for g in good {
            let place = try Self.decode(Self.feature(.geojson, g).json, format: .geojson).place
            #expect(place.coordinate.latitude >= 0 && place.coordinate.latitude <= 4, "\(g)")
            #expect(place.coordinate.longitude >= 0 && place.coordinate.longitude <= 3, "\(g)")
        }
    }

    @Test(
        "an empty MultiLineString and an empty GeometryCollection are rejected by the importer with --on-error skip; the good feature is kept"
    )
    func importSkipsEmptyGeometries() throws {
        let dir = try TempDirectory()
        let lines = [
            Self.feature(.geojson, #"{"type":"Point","coordinates":[1,2]}"#).json,
            #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[]},"properties":{"id":"mls","name":"M"}}"#,
            #"{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[]},"properties":{"id":"gc","name":"G"}}"#,
        ]
        let file = try dir.write("in.ndjson", lines.joined(separator: "\n") + "\n")
        var rejections: [ImportRejection] = []
        let summary = try PlaceImporter(databasePath: dir.file("p.sqlite"), options: ImportOptions(onError: .skip))
            .importInput(.file(file), reject: { rejections.append($0) })
        #expect(summary.inserted == 1)
        #expect(summary.rejected == 2)
        #expect(rejections.map(\.reason).contains { $0.contains("MultiLineString has no lines") })
        #expect(rejections.map(\.reason).contains { $0.contains("GeometryCollection has no geometries") })
        #expect(try PlaceReader(databasePath: dir.file("p.sqlite")).placeCount() == 1)
    }

    // MARK: NUL in strings (item 3)

    static let nulRecords: [(record: String, message: String, placeID: String?)] = [
        (#"{"id":"a\u0000b","location":{"latitude":1,"longitude":2}}"#, "the place ID 'a", nil),
        (
            #"{"id":"a","displayName":{"text":"x\u0000y"},"location":{"latitude":1,"longitude":2}}"#,
            "displayName.text contains U+0000 (NUL)", "a"
        ),
        (
            #"{"id":"a","location":{"latitude":1,"longitude":2},"reviews":[{"text":{"text":"ok"}},{"text":{"text":"\u0000"}}]}"#,
            "reviews[1].text.text contains U+0000 (NUL)", "a"
        ),
        (
            #"{"id":"a","location":{"latitude":1,"longitude":2},"scraper":{"note":"n\u0000"}}"#,
            "scraper.note contains U+0000 (NUL)", "a"
        ),
        (
            #"{"id":"a","location":{"latitude":1,"longitude":2},"types":["ca\u0000fe"]}"#,
            "types[0] contains U+0000 (NUL)", "a"
        ),
        (#"{"place_id":"L\u0000","geometry":{"location":{"lat":1,"lng":2}}}"#, "the place ID 'L", nil),
        (
            #"{"place_id":"L","name":"N\u0000","geometry":{"location":{"lat":1,"lng":2}}}"#,
            "displayName.text contains U+0000 (NUL)", "L"
        ),
        (#"{"place_id":"L","id":"old\u0000","geometry":{"location":{"lat":1,"lng":2}}}"#, "the alias ID 'old", "L"),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"g\u0000","name":"G"}}"#,
            "the place ID 'g", nil
        ),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"@type":"node","@id":3,"amenity":"cafe","name":"C\u0000"}}"#,
            "displayName.text contains U+0000 (NUL)", "osm:n3"
        ),
        (#"{"id":"a","location":{"latitude":1,"longitude":2},"k\u0000":1}"#, "the member name 'k", "a"),
    ]

    @Test(
        "a string holding U+0000 in the place ID or a stored member is refused, naming the member",
        arguments: nulRecords)
    func nulRefused(bad: (record: String, message: String, placeID: String?)) {
        Self.expectRefused(bad.record, bad.message, placeID: bad.placeID)
    }

    // MARK: Values accepted or dropped without a word (item 5)

    static let badValues: [(record: String, message: String, placeID: String?)] = [
        (
            #"{"id":"h","location":{"latitude":1,"longitude":2},"regularOpeningHours":{"periods":[{"open":{"day":7,"hour":8,"minute":0}}]}}"#,
            "regularOpeningHours.periods[0].open.day 7 is not a weekday 0-6", "h"
        ),
        (
            #"{"id":"h","location":{"latitude":1,"longitude":2},"currentOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":25,"minute":0}}]}}"#,
            "currentOpeningHours.periods[0].close.hour 25 is not an hour 0-24", "h"
        ),
        (
            #"{"id":"h","location":{"latitude":1,"longitude":2},"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":60}}]}}"#,
            "regularOpeningHours.periods[0].open.minute 60 is not a minute 0-59", "h"
        ),
        (
            #"{"id":"h","location":{"latitude":1,"longitude":2},"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":24,"minute":30}}]}}"#,
            "regularOpeningHours.periods[0].open 24:30 is past the end of the day", "h"
        ),
        (
            #"{"id":"h","location":{"latitude":1,"longitude":2},"regularSecondaryOpeningHours":[{"periods":[{"open":{"day":"1","hour":8}}]}]}"#,
            "regularSecondaryOpeningHours[0].periods[0].open.day \"1\" is not a weekday 0-6", "h"
        ),
        (
            #"{"name":"places/A","id":"B","location":{"latitude":1,"longitude":2}}"#,
            "name 'places/A' and id 'B' name different places", "B"
        ),
        (
            #"{"place_id":"p","geometry":{"location":{"lat":1,"lng":2}},"price_level":7}"#,
            "price_level 7 is out of range [0, 4]", "p"
        ),
        (
            #"{"place_id":"p","geometry":{"location":{"lat":1,"lng":2}},"price_level":-1}"#,
            "price_level -1 is out of range [0, 4]", "p"
        ),
        (
            #"{"type":"Feature","id":"ov","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":{"primary":5},"categories":{"primary":"cafe"}}}"#,
            "names.primary is a number, expected a string", "ov"
        ),
        (
            #"{"type":"Feature","id":"ov","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":{"primary":"P","common":{"fr":7}},"categories":{"primary":"cafe"}}}"#,
            "names.common.fr is a number, expected a string", "ov"
        ),
        (
            #"{"type":"Feature","id":"ov","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":"P","categories":{"primary":"cafe"}}}"#,
            "names is a string, expected an object", "ov"
        ),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"g","name":5}}"#,
            "name is a number, expected a string", "g"
        ),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"g","displayName":true}}"#,
            "displayName is a boolean, expected a string or an object", "g"
        ),
    ]

    @Test(
        "v1 hours out of range, a name and id that disagree, a legacy price level out of range and a numeric Overture name are refused",
        arguments: badValues)
    func badValuesRefused(bad: (record: String, message: String, placeID: String?)) {
        let format: InputFormat? = bad.record.contains("names") ? .overture : nil
        Self.expectRefused(bad.record, format: format, bad.message, placeID: bad.placeID)
    }

    @Test("the values at the edges are kept: day 6 hour 24:00, a matching name and id, price levels 0 and 4")
    func edgeValuesKept() throws {
        let v1 = try Self.decode(
            #"{"name":"places/A","id":"A","location":{"latitude":1,"longitude":2},"regularOpeningHours":{"periods":[{"open":{"day":0,"hour":0,"minute":0},"close":{"day":6,"hour":24,"minute":0}}]}}"#
        )
        #expect(v1.place.id.rawValue == "A")
        for level in [0, 4] {
            let legacy = try Self.decode(
                #"{"place_id":"p","geometry":{"location":{"lat":1,"lng":2}},"price_level":\#(level)}"#)
            #expect(legacy.place.document["priceLevel"]?.stringValue == LegacyPlacesDecoder.priceLevels[level])
        }
    }

    @Test(
        "a tombstone whose replacement confidence is not a number is refused, not read as 1",
        arguments: [#""NaN""#, #""0.5""#, "true", "null"])
    func tombstoneConfidence(confidence: String) {
        let extra =
            #"{"placedbTombstone":{"removedAt":"2026-01-01T00:00:00Z","replacedBy":[{"id":"n","confidence":\#(confidence)}]}}"#
        #expect {
            _ = try Tombstone.read(placeID: "old", extra: Array(extra.utf8))
        } throws: { error in
            (error as? DecodeError)?.message == "placedbTombstone.replacedBy[0].confidence must be a number in (0, 1]"
        }
    }

    // MARK: URIs (item 6)

    static let badURIs: [(record: String, message: String, placeID: String?)] = [
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"websiteUri":"javascript:alert(1)"}"#,
            "websiteUri 'javascript:alert(1)' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/u/photos/p","authorAttributions":[{"displayName":"A","uri":"JavaScript:alert(1)"}]}]}"#,
            "photos[0].authorAttributions[0].uri 'JavaScript:alert(1)' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/u/photos/p","authorAttributions":[{"displayName":"A","photoUri":"data:text/html,x"}]}]}"#,
            "photos[0].authorAttributions[0].photoUri 'data:text/html,x' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"googleMapsUri":"mailto:a@example.org"}"#,
            "googleMapsUri 'mailto:a@example.org' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"websiteUri":" javascript:alert(1)"}"#,
            "websiteUri ' javascript:alert(1)' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"websiteUri":"java\tscript:alert(1)"}"#,
            "websiteUri 'java\tscript:alert(1)' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"websiteUri":""}"#,
            "websiteUri '' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"googleMapsLinks":{"directionsUri":"http:/x"}}"#,
            "googleMapsLinks.directionsUri 'http:/x' is not an http(s) URI", "u"
        ),
        (
            #"{"id":"u","location":{"latitude":1,"longitude":2},"websiteUri":7}"#,
            "websiteUri is a number, expected a string (an http(s) URI)", "u"
        ),
        (
            #"{"place_id":"l","geometry":{"location":{"lat":1,"lng":2}},"photos":[{"photo_reference":"r","html_attributions":["<a href=\"javascript:alert(1)\">A</a>"]}]}"#,
            "photos[0].authorAttributions[0].uri 'javascript:alert(1)' is not an http(s) URI", "l"
        ),
        (
            #"{"place_id":"l","geometry":{"location":{"lat":1,"lng":2}},"website":"vbscript:x"}"#,
            "websiteUri 'vbscript:x' is not an http(s) URI", "l"
        ),
        (
            #"{"place_id":"l","geometry":{"location":{"lat":1,"lng":2}},"reviews":[{"author_url":"javascript:x"}]}"#,
            "reviews[0].authorAttribution.uri 'javascript:x' is not an http(s) URI", "l"
        ),
        (
            #"{"requestedId":"l","result":{"place_id":"l","geometry":{"location":{"lat":1,"lng":2}}},"html_attributions":["<a href='javascript:alert(1)'>A</a>"]}"#,
            "attributions[0].providerUri 'javascript:alert(1)' is not an http(s) URI", "l"
        ),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"@type":"node","@id":3,"amenity":"cafe","website":"javascript:alert(1)"}}"#,
            "websiteUri 'javascript:alert(1)' is not an http(s) URI", "osm:n3"
        ),
        (
            #"{"type":"Feature","id":"ov","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":{"primary":"P"},"websites":["javascript:alert(1)"]}}"#,
            "websiteUri 'javascript:alert(1)' is not an http(s) URI", "ov"
        ),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"g","name":"G","websiteUri":"javascript:alert(1)"}}"#,
            "websiteUri 'javascript:alert(1)' is not an http(s) URI", "g"
        ),
    ]

    @Test(
        "a URI member with a scheme other than http(s), or not absolute, is refused naming the member",
        arguments: badURIs)
    func badURIRefused(bad: (record: String, message: String, placeID: String?)) {
        let format: InputFormat? = bad.record.contains("names") ? .overture : nil
        Self.expectRefused(bad.record, format: format, bad.message, placeID: bad.placeID)
    }

    @Test(
        "http and https URIs in any case, and references without a scheme (a legacy capture's 'redacted'), are kept as given"
    )
    func goodURIsKept() throws {
        let redacted = try Self.decode(
            #"{"place_id":"l","geometry":{"location":{"lat":1,"lng":2}},"reviews":[{"author_url":"/maps/contrib/1","profile_photo_url":"redacted"}]}"#
        )
        #expect(
            redacted.place.document["reviews"]?.arrayValue?.first?["authorAttribution"]?["photoUri"]?.stringValue
                == "redacted")
        // OSM and Overture websites: a host name without a scheme is read as
        // http (332 OSM tags of the real data); an empty one is no website.
        let osm = try Self.decode(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"@type":"node","@id":3,"amenity":"cafe","website":"www.example.fi"}}"#,
            format: .osm)
        #expect(osm.place.document["websiteUri"]?.stringValue == "http://www.example.fi")
        let overture = try Self.decode(
            #"{"type":"Feature","id":"ov","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":{"primary":"P"},"websites":[""]}}"#,
            format: .overture)
        #expect(overture.place.document["websiteUri"] == nil)
        #expect(overture.extra["overture"]?["websites"] == .array([.string("")]))
        let d = try Self.decode(
            #"{"id":"u","location":{"latitude":1,"longitude":2},"websiteUri":"HTTPS://Example.org/a","googleMapsUri":"http://maps.example.org/?q=1","photos":[{"name":"places/u/photos/p","authorAttributions":[{"displayName":"A","uri":"https://a.example","photoUri":"https://lh3.example/x"}]}]}"#
        )
        #expect(d.place.document["websiteUri"]?.stringValue == "HTTPS://Example.org/a")
        let legacy = try Self.decode(
            #"{"place_id":"l","geometry":{"location":{"lat":1,"lng":2}},"photos":[{"photo_reference":"r","html_attributions":["<a href=\"https://maps.google.com/maps/contrib/1\">A</a>"]}]}"#
        )
        #expect(
            legacy.place.document["photos"]?.arrayValue?.first?["authorAttributions"]?.arrayValue?.first?["uri"]?
                .stringValue == "https://maps.google.com/maps/contrib/1")
    }
}
