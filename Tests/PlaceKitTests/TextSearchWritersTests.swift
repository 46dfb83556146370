import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel
import PlaceKitTestSupport

/// `searchTextJSON` (the bytes the CLI and the server write, copied from the
/// stored documents) is the typed `searchText` answer written as the API
/// writes it: the same places in the same order with the same members, for
/// the unfiltered fast path and for the filtered, ranked-by-distance and
/// biased requests that take the general path.
@Suite("searchText: the stored-bytes writer against the typed answer")
struct TextSearchWritersTests {
    static let masks = [
        "*", "id", "id,displayName,rating", "displayName.text,location,types", "regularOpeningHours,priceLevel",
    ]

    /// 48 places in Lausanne: cafés, pizzerias and a bakery, rated and
    /// priced, some with hours, one closed for good, one a service-area
    /// business, names with escapes.
    static func database() throws -> (TempDirectory, String) {
        var records: [String] = []
        let kinds = [("Café", "cafe"), ("Pizzeria", "pizza_restaurant"), ("Boulangerie", "bakery")]
        let prices = ["PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE", "PRICE_LEVEL_EXPENSIVE"]
        for i in 0..<48 {
            let (word, type) = kinds[i % 3]
            let lat = 46.515 + Double(i / 8) * 0.002, lng = 6.625 + Double(i % 8) * 0.002
            var r = #"{"id":"t\#(i)","displayName":{"text":"\#(word) \"\#(i)\" du Lac"},"#
            r +=
                #""location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["\#(type)","food"],"primaryType":"\#(type)","#
            r +=
                #""rating":\#(3 + Double(i % 20) / 10),"userRatingCount":\#(10 * i + 1),"priceLevel":"\#(prices[i % 3])""#
            r += #","formattedAddress":"Rue \#(i), 1003 Lausanne","utcOffsetMinutes":60"#
            if i % 4 == 0 {
                r +=
                    #","regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":18,"minute":0}}]}"#
            }
            if i == 7 { r += #","businessStatus":"CLOSED_PERMANENTLY""# }
            if i == 11 { r += #","pureServiceAreaBusiness":true"# }
            records.append(r + "}")
        }
        let dir = try TempDirectory("text-search-writers")
        let path = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: path).importInput(
            .file(try dir.write("in.ndjson", records.joined(separator: "\n") + "\n")))
        return (dir, path)
    }

    static func requests() -> [(String, TextSearchRequest)] {
        let centre = Coordinate(latitude: 46.52, longitude: 6.63)
        var list: [(String, TextSearchRequest)] = []
        list.append(("plain", TextSearchRequest(textQuery: "cafe du lac", maxResultCount: 10)))
        list.append(("type words", TextSearchRequest(textQuery: "pizza", maxResultCount: 20)))
        var biased = TextSearchRequest(textQuery: "du lac", maxResultCount: 15)
        biased.locationBias = .circle(center: centre, radiusMeters: 300)
        list.append(("biased", biased))
        var restricted = TextSearchRequest(textQuery: "boulangerie", maxResultCount: 20)
        restricted.locationRestriction = .circle(center: centre, radiusMeters: 500)
        list.append(("restricted", restricted))
        var byDistance = TextSearchRequest(textQuery: "lac", maxResultCount: 12)
        byDistance.locationBias = .circle(center: centre, radiusMeters: nil)
        byDistance.rankByDistance = true
        list.append(("distance", byDistance))
        var rated = TextSearchRequest(textQuery: "du lac", maxResultCount: 20)
        rated.minRating = 4
        list.append(("minRating", rated))
        var priced = TextSearchRequest(textQuery: "lac", maxResultCount: 20)
        priced.priceLevels = ["PRICE_LEVEL_MODERATE"]
        list.append(("priceLevels", priced))
        var strict = TextSearchRequest(textQuery: "lac", includedTypes: ["bakery"], maxResultCount: 20)
        strict.strictTypeFiltering = true
        list.append(("strict type", strict))
        var service = TextSearchRequest(textQuery: "pizzeria", maxResultCount: 20)
        service.includePureServiceAreaBusinesses = true
        list.append(("service areas", service))
        var open = TextSearchRequest(textQuery: "lac", maxResultCount: 20)
        open.openNow = true
        list.append(("openNow", open))
        list.append(("nothing", TextSearchRequest(textQuery: "zzzz qqqq", maxResultCount: 5)))
        return list
    }

    /// The typed answer as the API writes it: `{"places":[...]}` with each
    /// place's masked members and its distance to 1 cm, or `{}`.
    static func written(_ results: [TextSearchResult], fields: FieldMask) -> String {
        guard !results.isEmpty else { return "{}" }
        let places: [JSONValue] = results.map { r in
            var o = r.place.apiJSON(fields: fields)
            if let d = r.distanceMeters { o["distanceMeters"] = .double((d * 100).rounded() / 100) }
            return .object(o)
        }
        return JSONWriter().string(["places": .array(places)])
    }

    @Test("every request and mask: the same places, members and order", arguments: masks)
    func sameAnswer(mask: String) throws {
        let (dir, path) = try Self.database()
        _ = dir
        let reader = try PlaceReader(databasePath: path)
        let fields = try FieldMask(parsing: mask)
        let time = HoursQueryTime.instant(try #require(RFC3339.parse("2026-03-02T10:00:00Z")?.date))
        var nonEmpty = 0
        for (name, request) in Self.requests() {
            let typed = try reader.searchText(request, fields: fields, at: time)
            let bytes = try reader.searchTextJSON(request, fields: fields, at: time)
            let parsed = try JSONValue(parsing: bytes)
            #expect(JSONWriter().string(parsed) == Self.written(typed, fields: fields), "\(name), mask \(mask)")
            if !typed.isEmpty { nonEmpty += 1 }
        }
        // The comparison is not of empty answers only.
        #expect(nonEmpty >= Self.requests().count - 2)
    }

    @Test("merged view: a group matched by a member's name is answered where the canonical place is, in both writers")
    func mergedGroupLocation() throws {
        let (dir, path) = try LinkingTests.database()
        _ = dir
        let reader = try PlaceReader(databasePath: path)
        let centre = LinkingTests.at(300, 200)
        let canonical = try reader.fetchPlace(id: "ChIJcafeCentral")
        let time = HoursQueryTime.instant(Date())
        for query in ["cafe central", "Café Central", "Cafe Central"] {
            for fields in [FieldMask.all, try FieldMask(parsing: "id,location")] {
                let request = TextSearchRequest(
                    textQuery: query, locationBias: .circle(center: centre, radiusMeters: 1000))
                let typed = try reader.searchText(request, fields: fields, at: time)
                let hit = try #require(typed.first { $0.place.id == "ChIJcafeCentral" }, "\(query)")
                #expect(
                    hit.place.coordinate == canonical.coordinate, "\(query): the place's own location, not a member's")
                #expect(abs((hit.distanceMeters ?? -1) - centre.distance(to: canonical.coordinate)) < 0.01, "\(query)")
                let bytes = try reader.searchTextJSON(request, fields: fields, at: time)
                #expect(
                    JSONWriter().string(try JSONValue(parsing: bytes)) == Self.written(typed, fields: fields),
                    "\(query)")
            }
        }
    }
}
