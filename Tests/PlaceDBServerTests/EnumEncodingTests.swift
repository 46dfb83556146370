import Foundation
import Testing
@testable import PlaceDBServer
import PlaceKit
import PlaceModel
import PlaceKitTestSupport
import SQLiteDB

/// `$alt=json;enum-encoding=int` written while the library's bytes are
/// copied (`EnumEncoding.integers(compact:)`) next to the plain way it
/// replaces (parse, `EnumEncoding.integers(_:)`, write): the same bytes.
@Suite("Numbered enums written while copying")
struct EnumEncodingTests {
    /// The plain way's bytes for compact `text`, as the router wrote them.
    static func plain(_ text: [UInt8], pretty: Bool) throws -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter(pretty: pretty).write(EnumEncoding.integers(try JSONValue(parsing: text)), into: &out)
        out.append(0x0A)
        return out
    }

    /// The router's answer for `text` with enum-encoding=int.
    static func served(_ text: [UInt8], pretty: Bool) throws -> [UInt8] {
        let query = [
            (name: "$alt", value: "json;enum-encoding=int"), (name: "prettyPrint", value: pretty ? "true" : "false"),
        ]
        return try ResponseFormat(HTTPRequest(method: "GET", path: "/", query: query, headers: [String: String]()))
            .json(bytes: text).body
    }

    static func expectSame(_ text: [UInt8], _ note: String = "") throws {
        for pretty in [true, false] {
            let expected = try plain(text, pretty: pretty)
            let got = try served(text, pretty: pretty)
            #expect(
                String(decoding: got, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                "\(note) pretty \(pretty)")
        }
    }

    @Test(
        "enum members anywhere become numbers; type only under fuelPrices and connectorAggregation; strings in arrays stay"
    )
    func members() throws {
        let text = #"""
            {"id":"x","businessStatus":"OPERATIONAL","priceLevel":"PRICE_LEVEL_VERY_EXPENSIVE","types":["OPERATIONAL","cafe"],\#
            "type":"DIESEL","displayName":{"text":"a \"businessStatus\":\"OPERATIONAL\" \\","languageCode":"en"},\#
            "fuelOptions":{"fuelPrices":[{"type":"DIESEL","price":{"units":"1"}},{"type":"E100"},{"type":"UNKNOWN_FUEL"}]},\#
            "evChargeOptions":{"connectorCount":2,"connectorAggregation":[{"type":"EV_CONNECTOR_TYPE_TESLA","count":2}]},\#
            "addressDescriptor":{"landmarks":[{"spatialRelationship":"AROUND_THE_CORNER","types":["store"]}],\#
            "areas":[{"containment":"WITHIN","name":"p"}]},"regularSecondaryOpeningHours":[{"secondaryHoursType":"HAPPY_HOUR",\#
            "periods":[]}],"nested":{"deeper":[[{"businessStatus":"CLOSED_PERMANENTLY"}]]},"priceLevel2":"PRICE_LEVEL_FREE",\#
            "vehicleType":"BUS","empty":{},"list":[],"n":-1.5e3,"t":true,"z":null,"containment":7,"businessStatus2":{"type":"BUS"}}
            """#
        // As the library writes it (canonical compact JSON).
        let bytes = Array(JSONWriter().string(try JSONValue(parsing: Array(text.utf8))).utf8)
        try Self.expectSame(bytes)
        let out = String(decoding: try Self.served(bytes, pretty: false), as: UTF8.self)
        // The numbers themselves (of google/maps/places/v1/*.proto).
        for part in [
            #""businessStatus":1"#, #""priceLevel":5"#, #"{"type":1,"#, #"{"type":20}"#, #"{"type":"UNKNOWN_FUEL"}"#,
            #"{"type":7,"#, #""spatialRelationship":5"#, #""containment":1"#, #""secondaryHoursType":2"#,
            #""businessStatus":3"#, #""type":"DIESEL","displayName""#, #"["OPERATIONAL","cafe"]"#, #""vehicleType":10"#,
            #""a \"businessStatus\":\"OPERATIONAL\" \\""#, #""priceLevel2":"PRICE_LEVEL_FREE""#,
        ] {
            #expect(out.contains(part), "\(part) in \(out)")
        }
    }

    /// Names with escapes (which the library's writer does not write for
    /// these names) are left to the plain way.
    @Test("an escape in a member name or an enum value: the plain way, the same bytes")
    func escapes() throws {
        for text in [
            #"{"business\u0053tatus":"OPERATIONAL","a":"b"}"#, #"{"businessStatus":"OPERATION\u0041L"}"#,
            #"{"x\"y":"OPERATIONAL","businessStatus":"FUTURE_OPENING"}"#, #"{"name":"é\n\"\\"}"#, "{}", "[]",
            #""OPERATIONAL""#,
            #"[{"businessStatus":"OPERATIONAL"},"OPERATIONAL",[{"fuelPrices":[{"type":"LPG"}]}]]"#,
        ] {
            try Self.expectSame(Array(text.utf8), text)
        }
        var out: [UInt8] = []
        #expect(
            !Array(#"{"business\u0053tatus":"OPERATIONAL"}"#.utf8).withUnsafeBytes {
                EnumEncoding.integers(compact: $0, into: &out)
            })
        #expect(
            Array(#"{"businessStatus":"OPERATIONAL"}"#.utf8).withUnsafeBytes {
                EnumEncoding.integers(compact: $0, into: &out)
            })
        #expect(String(decoding: out, as: UTF8.self) == #"{"businessStatus":1}"#)
    }

    /// Real answers: Place Details of every place of two OSM snapshots of
    /// Andorra and the Google v1 captures (landmarks, areas, business
    /// status, price level) with several masks, and searchNearby around them.
    @Test(
        "real data: Place Details and searchNearby of the OSM snapshots and Google captures",
        .enabled(
            if: CorpusData.has("osm/poi") && CorpusData.has("google/v1"), "needs ../shared/data/osm/poi and google/v1"))
    func corpus() throws {
        let dir = try TempDirectory("placedb-enums")
        let path = dir.file("places.sqlite")
        for name in ["andorra-2013-05-28", "andorra-2021-10-28"] {
            let url = try #require(CorpusData.url("osm/poi/\(name).poi.geojsonseq"))
            let importer = try PlaceImporter(databasePath: path, options: ImportOptions(snapshot: "osm-andorra"))
            _ = try importer.importInput(.file(url.path))
            _ = try importer.finishSnapshot()
        }
        for url in CorpusData.files(under: "google/v1/third-party-captures", extension: "json")
        where !url.lastPathComponent.contains("photo") {
            _ = try? PlaceImporter(databasePath: path).importInput(.file(url.path))
        }
        let client = try PlaceReader(databasePath: path)
        // Every place, and where it is (for nearby).
        var places: [(id: String, at: Coordinate)] = []
        try Database(path: path, mode: .readOnly).forEachRow(
            "SELECT place_id FROM place WHERE removed_run IS NULL ORDER BY id"
        ) {
            let id = try $0.string(0)
            let location = try JSONValue(
                parsing: client.placeDetailsJSON(
                    id: PlaceID(id), fields: FieldMask(parsing: "location"), openNow: false, at: .instant(Date())))[
                    "location"]
            let lat = try #require(location?["latitude"]?.doubleValue),
                lng = try #require(location?["longitude"]?.doubleValue)
            places.append((id, Coordinate(latitude: lat, longitude: lng)))
        }
        #expect(places.count > 1000)
        for mask in [
            "*", "id,businessStatus,priceLevel,addressDescriptor", "displayName,regularOpeningHours,location", "types",
        ] {
            let fields = try FieldMask(parsing: mask)
            for place in places {
                try Self.expectSame(
                    try client.placeDetailsJSON(
                        id: PlaceID(place.id), fields: fields, openNow: false, at: .instant(Date())),
                    "\(place.id) \(mask)")
            }
        }
        // The Google captures' enums (business status, price level,
        // landmarks, areas) are numbered.
        var numbered = 0
        for place in places where !place.id.hasPrefix("osm:") {
            let text = try client.placeDetailsJSON(
                id: PlaceID(place.id), fields: .all, openNow: false, at: .instant(Date()))
            let served = String(decoding: try Self.served(text, pretty: false), as: UTF8.self)
            if String(decoding: text, as: UTF8.self).contains("\"businessStatus\":\"") {
                numbered += 1
                #expect(!served.contains("\"businessStatus\":\""), "\(place.id)")
            }
        }
        #expect(numbered > 10)
        // searchNearby, k=20, around every 40th place.
        for (i, place) in places.enumerated() where i % 40 == 0 {
            let answer = try client.searchNearbyJSON(
                NearbySearchRequest(center: place.at, radiusMeters: 5_000, maxResultCount: 20), fields: .all)
            try Self.expectSame(answer, "nearby \(place.id)")
        }
    }
}
