import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Keeps Schemas/input/*.schema.json true to the decoders: for a set of
/// records, the schema accepts exactly what the importer accepts. The test
/// carries a small validator for the JSON Schema keywords those files use
/// (type, required, properties, items, minItems, minimum, maximum, minLength, pattern
/// (the places/ one as a prefix check), enum, $ref, oneOf, anyOf).
@Suite("Input JSON Schemas")
struct InputSchemaTests {
    static let schemaDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../Schemas/input"
    ).standardizedFileURL

    struct Validator {
        let root: JSONValue

        func valid(_ value: JSONValue, _ schema: JSONValue) -> Bool {
            if let ref = schema["$ref"]?.stringValue {
                let name = String(ref.dropFirst("#/$defs/".count))
                guard let target = root["$defs"]?[name] else { return false }
                return valid(value, target)
            }
            if let type = schema["type"] {
                let names = type.arrayValue?.compactMap(\.stringValue) ?? [type.stringValue ?? ""]
                let ok = names.contains { name in
                    switch name {
                    case "object": value.objectValue != nil
                    case "array": value.arrayValue != nil
                    case "string": value.stringValue != nil
                    case "number": value.doubleValue != nil
                    case "integer": value.intValue != nil
                    case "null": value == .null
                    default: true
                    }
                }
                if !ok { return false }
            }
            if let e = schema["enum"]?.arrayValue, !e.contains(value) { return false }
            if let required = schema["required"]?.arrayValue {
                for key in required.compactMap(\.stringValue) where value[key] == nil { return false }
            }
            if let properties = schema["properties"]?.objectValue, let object = value.objectValue {
                for (key, sub) in properties { if let v = object[key], !valid(v, sub) { return false } }
            }
            if let n = schema["minItems"]?.intValue, let array = value.arrayValue, array.count < n { return false }
            if let items = schema["items"], let array = value.arrayValue {
                if !array.allSatisfy({ valid($0, items) }) { return false }
            }
            if let d = value.doubleValue {
                if let min = schema["minimum"]?.doubleValue, d < min { return false }
                if let max = schema["maximum"]?.doubleValue, d > max { return false }
            }
            if let s = value.stringValue {
                if let n = schema["minLength"]?.intValue, s.count < n { return false }
                if let p = schema["pattern"]?.stringValue {
                    if p.hasPrefix("^places/") {
                        if !(s.hasPrefix("places/") && !s.dropFirst(7).contains("/")) { return false }
                    } else if s.range(of: p, options: .regularExpression) == nil {
                        return false
                    }
                }
            }
            if let oneOf = schema["oneOf"]?.arrayValue, oneOf.filter({ valid(value, $0) }).count != 1 { return false }
            if let anyOf = schema["anyOf"]?.arrayValue, !anyOf.contains(where: { valid(value, $0) }) { return false }
            return true
        }
    }

    func validator(_ name: String) throws -> Validator {
        let text = try String(contentsOf: Self.schemaDir.appendingPathComponent(name), encoding: .utf8)
        let root = try JSONValue(parsing: text)
        #expect(root["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        return Validator(root: root)
    }

    func importerAccepts(_ record: String, format: InputFormat) -> Bool {
        guard let value = try? JSONValue(parsing: record) else { return false }
        return (try? decodeRecord(SourceRecord(value: value, line: 1, index: 1, container: nil), format: format)) != nil
    }

    static let v1Records = [
        #"{"id":"a","location":{"latitude":1,"longitude":2}}"#,
        #"{"name":"places/a","location":{"latitude":1,"longitude":2},"displayName":{"text":"A"}}"#,
        #"{"name":"places/a/photos/b","location":{"latitude":1,"longitude":2}}"#,
        #"{"id":"a"}"#,
        #"{"location":{"latitude":1,"longitude":2}}"#,
        #"{"id":"a","location":{"latitude":91,"longitude":2}}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":181}}"#,
        #"{"id":"a","location":{"latitude":"1","longitude":2}}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"types":["x",1]}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"userRatingCount":1.5}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"displayName":{"languageCode":"en"}}"#,
        #"{"id":"","location":{"latitude":1,"longitude":2}}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"regularOpeningHours":{"periods":[{"open":{"day":6,"hour":24,"minute":0}}]}}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"regularOpeningHours":{"periods":[{"open":{"day":7,"hour":8,"minute":0}}]}}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"currentOpeningHours":{"periods":[{"open":{"day":1,"hour":25,"minute":0}}]}}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"websiteUri":"HTTPS://example.org/","googleMapsUri":"https://maps.example.org/?cid=1"}"#,
        #"{"id":"a","location":{"latitude":1,"longitude":2},"websiteUri":"javascript:alert(1)"}"#,
    ]

    static let legacyRecords = [
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"price_level":4,"utc_offset":60}"#,
        #"{"place_id":"a"}"#,
        #"{"geometry":{"location":{"lat":1,"lng":2}}}"#,
        #"{"place_id":"a","geometry":{}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":-91,"lng":2}}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"types":"cafe"}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"user_ratings_total":"12"}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"opening_hours":{"periods":[{"open":{"day":1,"time":"0830"},"close":{"day":2,"time":"0100"}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"opening_hours":{"periods":[{"open":{"day":0,"time":"0000"}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"current_opening_hours":{"periods":[{"open":{"day":1,"time":"0830","date":"2023-04-03"},"close":{"day":1,"time":"1730","date":"2023-04-03"}}],"special_days":[{"date":"2023-04-03","exceptional_hours":true}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"secondary_opening_hours":[{"type":"DELIVERY","periods":[{"open":{"day":1,"time":"1100"},"close":{"day":1,"time":"2200"}}]}]}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"opening_hours":{"periods":[{"open":{"day":1,"time":"8:30"}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"opening_hours":{"periods":[{"open":{"day":7,"time":"0830"}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"opening_hours":{"periods":[{"open":{"day":1}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"opening_hours":{"periods":[{"close":{"day":1,"time":"0830"}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"current_opening_hours":{"periods":[{"open":{"day":1,"time":"0830","date":"3 April"}}]}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"current_opening_hours":[]}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"secondary_opening_hours":{}}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"price_level":7}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"website":"http://example.org","url":"redacted"}"#,
        #"{"place_id":"a","geometry":{"location":{"lat":1,"lng":2}},"website":"javascript:alert(1)"}"#,
    ]

    @Test("the v1 schema accepts exactly the records the importer accepts", arguments: v1Records)
    func v1(record: String) throws {
        let v = try validator("places-v1.schema.json")
        let value = try JSONValue(parsing: record)
        #expect(v.valid(value, v.root) == importerAccepts(record, format: .placesV1), "\(record)")
    }

    @Test("the legacy schema accepts exactly the records the importer accepts", arguments: legacyRecords)
    func legacy(record: String) throws {
        let v = try validator("places-legacy.schema.json")
        let value = try JSONValue(parsing: record)
        #expect(v.valid(value, v.root) == importerAccepts(record, format: .placesLegacy), "\(record)")
    }

    static let featureRecords: [(schema: String, format: InputFormat, record: String)] = [
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","id":"g1","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"G","category":"cafe"}}"#
        ),
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":7,"types":["a","b"],"rating":4}}"#
        ),
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"no id"}}"#
        ),
        ("geojson-place.schema.json", .geojson, #"{"type":"Feature","id":"g2","properties":{"name":"no geometry"}}"#),
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","id":"g3","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"types":"cafe"}}"#
        ),
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","id":"g4","geometry":{"type":"MultiLineString","coordinates":[]},"properties":{"name":"G"}}"#
        ),
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","id":"g5","geometry":{"type":"GeometryCollection","geometries":[]},"properties":{"name":"G"}}"#
        ),
        (
            "geojson-place.schema.json", .geojson,
            #"{"type":"Feature","id":"g6","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]}]},"properties":{"name":"G"}}"#
        ),
        (
            "overture.schema.json", .overture,
            #"{"type":"Feature","id":"o2","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":{"primary":5}}}"#
        ),
        ("osm.schema.json", .osm, GeoFixtures.osmNode(1, "N")),
        ("osm.schema.json", .osm, GeoFixtures.osmWay(2, "W")),
        (
            "osm.schema.json", .osm,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"@type":"node","name":"no id"}}"#
        ),
        (
            "osm.schema.json", .osm,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"@type":"changeset","@id":1}}"#
        ),
        ("overture.schema.json", .overture, GeoFixtures.overture),
        (
            "overture.schema.json", .overture,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"names":{"primary":"no id"}}}"#
        ),
    ]

    @Test(
        "the GeoJSON schemas accept the features the importer accepts and refuse the ones without ID or geometry",
        arguments: featureRecords.indices)
    func features(index: Int) throws {
        let (name, format, record) = Self.featureRecords[index]
        let v = try validator(name)
        let value = try JSONValue(parsing: record)
        #expect(v.valid(value, v.root) == importerAccepts(record, format: format), "\(name): \(record)")
    }

    @Test("the bundled demo sample conforms to the schemas")
    func sample() throws {
        let sampleDir = Self.schemaDir.appendingPathComponent("../../Scripts/sample").standardizedFileURL
        let v1 = try validator("places-v1.schema.json")
        let lines = try String(contentsOf: sampleDir.appendingPathComponent("lausanne-v1.ndjson"), encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count >= 20)
        for line in lines { #expect(v1.valid(try JSONValue(parsing: String(line)), v1.root)) }
        let legacy = try validator("places-legacy.schema.json")
        let nearby = try JSONValue(
            parsing: String(
                contentsOf: sampleDir.appendingPathComponent("lausanne-legacy-nearby.json"), encoding: .utf8))
        #expect(legacy.valid(nearby, legacy.root))
    }
}
