import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("searchText pages: a later page continues the reader's ranking")
struct TextSearchPageMemoTests {
    /// 70 kiosks near one point, rated 1 to 5 in turn: 42 rated 3 or more.
    func database() throws -> (TempDirectory, String) {
        let dir = try TempDirectory("text-page-memo")
        let db = dir.file("places.sqlite")
        var lines = ""
        for i in 0..<70 {
            let lat = 46.5 + Double(i % 10) * 0.001, lng = 6.6 + Double(i / 10) * 0.001
            lines +=
                #"{"id":"k\#(i)","displayName":{"text":"Kiosk \#(i)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["store"],"rating":\#(i % 5 + 1)}"#
                + "\n"
        }
        let importer = try PlaceImporter(databasePath: db)
        _ = try importer.importInput(.file(try dir.write("kiosks.ndjson", lines)))
        return (dir, db)
    }

    func page(_ reader: PlaceReader, _ token: String?) throws -> (ids: [String], next: String?) {
        var request = TextSearchRequest(textQuery: "kiosk", maxResultCount: 10)
        request.minRating = 3
        request.locationBias = .circle(center: Coordinate(latitude: 46.5, longitude: 6.6), radiusMeters: 2000)
        request.pageToken = token
        let json = try JSONValue(
            parsing: reader.searchTextJSON(request, fields: try FieldMask(parsing: "id"), nextPageToken: true))
        return (
            (json["places"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }, json["nextPageToken"]?.stringValue
        )
    }

    @Test(
        "pages from the reader that ranked the first (its pageMemo) equal a fresh reader's, and together list every place the filter keeps once"
    )
    func sameAsFresh() throws {
        let (dir, db) = try database()
        _ = dir
        let reader = try PlaceReader(databasePath: db)
        var first = try page(reader, nil)
        #expect(first.ids.count == 10)
        #expect(reader.pageMemo.count == 1)
        var all = first.ids
        var pages = 1
        while let token = first.next {
            let continued = try page(reader, token)
            let fresh = try page(try PlaceReader(databasePath: db), token)
            #expect(continued.ids == fresh.ids)
            #expect(continued.next == fresh.next)
            all += continued.ids
            first = continued
            pages += 1
        }
        #expect(pages == 5)
        #expect(all.count == 42)
        #expect(Set(all) == Set((0..<70).filter { $0 % 5 + 1 >= 3 }.map { "k\($0)" }))
        // One ranking for the request, whatever the pages.
        #expect(reader.pageMemo.count == 1)
    }

    @Test(
        "a page token's request hash changes with every field but maxResultCount and pageToken, and writes each field apart from the next"
    )
    func pageKeyFields() throws {
        let base = TextSearchRequest(textQuery: "kiosk")
        #expect(Mirror(reflecting: base).children.count == TextSearchRequest.pageKeyFields + 2)
        let here = Coordinate(latitude: 46.5, longitude: 6.6)
        let changes: [(String, (inout TextSearchRequest) -> Void)] = [
            ("textQuery", { $0.textQuery = "kiosks" }),
            ("locationBias", { $0.locationBias = .circle(center: here, radiusMeters: nil) }),
            ("locationBias radius", { $0.locationBias = .circle(center: here, radiusMeters: 0) }),
            ("locationRestriction", { $0.locationRestriction = .rectangle(low: here, high: here) }),
            ("includedTypes", { $0.includedTypes = ["store"] }),
            ("rankByDistance", { $0.rankByDistance = true }),
            ("languageCode", { $0.languageCode = "" }),
            ("regionCode", { $0.regionCode = "CH" }),
            ("openNow", { $0.openNow = true }),
            ("minRating", { $0.minRating = 0 }),
            ("priceLevels", { $0.priceLevels = ["PRICE_LEVEL_FREE"] }),
            ("strictTypeFiltering", { $0.strictTypeFiltering = true }),
            ("includePureServiceAreaBusinesses", { $0.includePureServiceAreaBusinesses = true }),
            ("includeFutureOpenings", { $0.includeFutureOpenings = true }),
            ("evConnectorTypes", { $0.evConnectorTypes = ["EV_CONNECTOR_TYPE_J1772"] }),
            ("evMinimumChargingRateKw", { $0.evMinimumChargingRateKw = 0 }),
            ("evOptions", { $0.evOptions = true }),
        ]
        var keys: Set<UInt64> = [base.pageKey]
        for (field, change) in changes {
            var r = base
            change(&r)
            #expect(keys.insert(r.pageKey).inserted, "\(field) leaves the hash as another request's")
        }
        var sized = base
        sized.maxResultCount = 5
        sized.pageToken = "anything"
        #expect(sized.pageKey == base.pageKey)
        // Lists and strings with their lengths: ["ab", "c"] is not ["a", "bc"].
        var a = base, b = base
        a.includedTypes = ["ab", "c"]
        b.includedTypes = ["a", "bc"]
        #expect(a.pageKey != b.pageKey)
        a = base
        b = base
        a.languageCode = "de"
        b.regionCode = "de"
        #expect(a.pageKey != b.pageKey)
    }
}
