import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

/// The same-place scorer on small hand-written records; on records the
/// import's decoders build: Tests/PlaceKitTests/SamePlaceTests.swift.
@Suite("Same-place scorer")
struct SamePlaceTests {
    static let origin = Coordinate(latitude: 47.0, longitude: 8.0)

    /// `meters` east of `origin`.
    static func east(_ meters: Double) -> Coordinate { PlaceKitTestSupport.east(of: origin, meters) }

    /// A Places API (New)-like record built straight from a document.
    static func record(
        _ id: String, _ name: String, at meters: Double = 0, types: [String] = [], phone: String? = nil,
        website: String? = nil, house: String? = nil, street: String? = nil, source: String = "google",
        extent: Double = 0
    ) -> LinkRecord {
        var doc: [(String, JSONValue)] = [("displayName", .object(JSONObject([("text", .string(name))])))]
        if !types.isEmpty {
            doc.append(("types", .array(types.map(JSONValue.string)))); doc.append(("primaryType", .string(types[0])))
        }
        if let phone { doc.append(("internationalPhoneNumber", .string(phone))) }
        if let website { doc.append(("websiteUri", .string(website))) }
        var components: [JSONValue] = []
        if let house {
            components.append(
                .object(JSONObject([("longText", .string(house)), ("types", .array(["street_number"]))])))
        }
        if let street {
            components.append(.object(JSONObject([("longText", .string(street)), ("types", .array(["route"]))])))
        }
        if !components.isEmpty { doc.append(("addressComponents", .array(components))) }
        return LinkRecord(
            placeID: id, source: source, coordinate: east(meters), extentMeters: extent,
            document: .object(JSONObject(doc)), extra: nil)
    }

    static func p(_ a: LinkRecord, _ b: LinkRecord) -> Double { SamePlace.score(a, b).probability }
    static func linked(_ a: LinkRecord, _ b: LinkRecord) -> Bool { p(a, b) >= SamePlace.threshold }

    static func featureValue(_ a: LinkRecord, _ b: LinkRecord, _ name: String) -> Double? {
        SamePlace.score(a, b).evidence[name]?["value"]?.doubleValue
    }

    @Test(
        "a sign named after a place is never that place: a castle and the information board about it 81 m away stay two; two boards may be one"
    )
    func signs() {
        let castle = Self.record(
            "osm:w100", "Castell de Sant Vicenç", types: ["historical_landmark", "tourist_attraction"], source: "osm-a",
            extent: 60)
        let board = Self.record(
            "osm:n200", "Castell de Sant Vicenç", at: 81, types: ["information_board"], source: "osm-b")
        #expect(Self.p(castle, board) == 0)
        #expect(!Self.linked(castle, board))
        // As a visitor centre (the mapping before) it was linked.
        #expect(
            Self.linked(
                castle,
                Self.record("osm:n200", "Castell de Sant Vicenç", at: 81, types: ["visitor_center"], source: "osm-b")))
        let again = Self.record(
            "osm:n300", "Castell de Sant Vicenç", at: 82, types: ["information_board"], source: "osm-c")
        #expect(Self.p(board, again) > 0)
    }

    // MARK: Folding

    @Test("names fold alike in every script, and never to nothing")
    func folding() {
        #expect(LinkText.foldedWords("Café Müller-Straße") == ["cafe", "muller", "strasse"])
        // Cyrillic: case and й/ё folded.
        #expect(LinkText.foldedWords("Кафе «Ёлка» Йога") == LinkText.foldedWords("кафе елка иога"))
        // Greek: accents and final sigma.
        #expect(LinkText.foldedWords("Καφέ Άλφας") == ["καφε", "αλφασ"])
        // Arabic/Persian letter variants: Arabic yeh and kaf against Persian ones, harakat dropped.
        #expect(LinkText.foldedWords("كافه علي") == LinkText.foldedWords("کافه علی"))
        #expect(LinkText.foldedWords("مَدْرَسَة") == LinkText.foldedWords("مدرسه"))
        // Persian digits.
        #expect(LinkText.foldedWords("پلاک ۱۲") == ["پلاک", "12"])
        // CJK kept; full-width forms folded.
        #expect(LinkText.foldedWords("東京タワー") == ["東京タワー"])
        #expect(LinkText.foldedWords("ＡＢＣ１２") == ["abc12"])
        // Thai: two sara e for one sara ae.
        #expect(LinkText.foldedWords("หมู่บ้านพานทองเเท้") == LinkText.foldedWords("หมู่บ้านพานทองแท้"))
        // Nothing foldable: the scalars themselves.
        #expect(LinkText.foldedWords("★ ★") == ["★★"])
        #expect(!LinkText.nameTokens(LinkText.foldedWords("The")).isEmpty)
    }

    @Test("abbreviations and legal forms")
    func tokens() {
        #expect(
            LinkText.nameTokens(LinkText.foldedWords("St. Mary's Church"))
                == LinkText.nameTokens(LinkText.foldedWords("Saint Marys Church")))
        #expect(
            LinkText.nameTokens(LinkText.foldedWords("Smith & Sons Co."))
                == LinkText.nameTokens(LinkText.foldedWords("Smith and Sons Company")))
        #expect(LinkText.nameTokens(LinkText.foldedWords("Acme Inc")) == ["acme"])
    }

    @Test("a Cyrillic, Greek or Persian name matches itself written another way")
    func scriptsScore() {
        let a = Self.record("a", "Кафе Ёлка", types: ["cafe"])
        let b = Self.record("b", "КАФЕ ЕЛКА", at: 10, types: ["cafe"])
        #expect(Self.featureValue(a, b, "nameExact") == 1)
        let c = Self.record("c", "كافه علي", types: ["cafe"])
        let d = Self.record("d", "کافه علی", at: 10, types: ["cafe"])
        #expect(Self.featureValue(c, d, "nameExact") == 1)
        let e = Self.record("e", "東京タワー")
        let f = Self.record("f", "大阪城")
        #expect(Self.featureValue(e, f, "nameExact") == 0)
        #expect(Self.featureValue(e, Self.record("g", "東京タワー"), "nameExact") == 1)
    }

    // MARK: Phones, domains

    @Test("phones in E.164 and national forms")
    func phones() {
        #expect(LinkText.phoneKey("+1 801-420-5260") == LinkText.phoneKey("(801) 420-5260"))
        #expect(LinkText.phoneKey("+44 1252 625464") == LinkText.phoneKey("01252 625464"))
        #expect(LinkText.phoneKey("0049 30 22005500") == LinkText.phoneKey("030 22005500"))
        #expect(LinkText.phoneKey("+98 21 ۸۸۷۷۶۶۵۵") == LinkText.phoneKey("021 88776655"))
        #expect(LinkText.phoneKey("+1 801-420-5261") != LinkText.phoneKey("(801) 420-5260"))
        #expect(LinkText.phoneKey("112") == nil)
        let a = Self.record("a", "Robinson Realtors", phone: "+18014205260")
        let b = Self.record("b", "Robinson Realtors BHHS", phone: "801.420.5260")
        #expect(Self.featureValue(a, b, "phoneMatch") == 1)
        #expect(
            Self.featureValue(a, Self.record("c", "Robinson Realtors", phone: "801 420 9999"), "phoneConflict") == 1)
    }

    @Test("registrable domains, social and aggregator hosts ignored")
    func domains() {
        #expect(LinkText.registrableDomain("https://www.shop.example.co.uk/menu?x=1") == "example.co.uk")
        #expect(LinkText.registrableDomain("http://alliancehospital.in/") == "alliancehospital.in")
        #expect(LinkText.registrableDomain("https://www.facebook.com/cafe123") == nil)
        #expect(LinkText.registrableDomain("https://linktr.ee/cafe") == nil)
        #expect(LinkText.registrableDomain("https://cafe.wixsite.com/home") == nil)
        #expect(LinkText.registrableDomain("https://www.yelp.de/biz/cafe") == nil)
        #expect(LinkText.registrableDomain("https://www.amazon.com/dp/B0DF25FXDK") == nil)
        let a = Self.record("a", "Cafe Blue", website: "https://www.facebook.com/cafeblue")
        let b = Self.record("b", "Blue Cafe Bar", website: "https://facebook.com/otherpage")
        #expect(Self.featureValue(a, b, "domainMatch") == 0)
        #expect(Self.featureValue(a, b, "domainConflict") == 0)
        let c = Self.record("c", "Cafe Blue", website: "https://cafeblue.ch/")
        let d = Self.record("d", "Café Blue", website: "http://www.cafeblue.ch/kontakt")
        #expect(Self.featureValue(c, d, "domainMatch") == 1)
    }

    @Test("house numbers from components, OSM tags and free-form addresses")
    func houseNumbers() {
        #expect(LinkText.houseNumber(freeform: "825 E 1180 S Ste 300") == "825")
        #expect(LinkText.houseNumber(freeform: "Calle Milicias, 4") == "4")
        #expect(LinkText.houseNumber(freeform: "Miskolctapolcai út 25-27") == "25")
        #expect(LinkText.houseNumber(freeform: "Office 12, 1st Floor") == nil)
        #expect(LinkText.houseNumber(freeform: "東京都足立区千住３丁目９２") == nil)
        #expect(LinkText.houseNumber(component: "12a") == "12")
    }

    // MARK: Decisions

    @Test("a chain's two branches 30 m apart, same name, other house numbers, do not link")
    func chainBranches() {
        let a = Self.record(
            "a", "Starbucks", types: ["coffee_shop", "cafe"], phone: "+1 206 494 3250", house: "1401", street: "2nd Ave"
        )
        let b = Self.record(
            "b", "Starbucks", at: 30, types: ["cafe"], phone: "+1 206 903 8010", house: "1420", street: "2nd Ave")
        #expect(!Self.linked(a, b), "p = \(Self.p(a, b))")
        // The same branch captured twice (its phone written another way) links.
        let c = Self.record(
            "c", "Starbucks Coffee", at: 30, types: ["cafe"], phone: "(206) 494-3250", house: "1401",
            street: "Second Avenue")
        #expect(Self.linked(a, c), "p = \(Self.p(a, c))")
    }

    @Test("house numbers that disagree pull a same-named pair below the threshold")
    func houseNumberVeto() {
        let a = Self.record("a", "Bäckerei Keller", types: ["bakery"], house: "12", street: "Hauptstrasse")
        let same = Self.record("b", "Baeckerei Keller", at: 30, types: ["bakery"], house: "12", street: "Hauptstraße")
        let other = Self.record("c", "Bäckerei Keller", at: 30, types: ["bakery"], house: "48", street: "Hauptstrasse")
        #expect(Self.featureValue(a, other, "houseNumberConflict") == 1)
        #expect(
            Self.p(a, other)
                < Self.p(a, Self.record("d", "Bäckerei Keller", at: 30, types: ["bakery"], street: "Hauptstrasse")))
        #expect(Self.p(a, other) < Self.p(a, same))
    }

    @Test("a brand and its fuel station are two places; the brand and its supercenter one")
    func brandAndBranch() {
        let store = Self.record(
            "s", "Walmart Supercenter", types: ["supermarket", "department_store"], phone: "+1 479 273 0060",
            website: "https://www.walmart.com/store/100", house: "406", street: "S Walton Blvd")
        let fuel = Self.record(
            "f", "Walmart Fuel Station", at: 30, types: ["gas_station"], phone: "+1 479 273 0060",
            website: "https://www.walmart.com/store/100", house: "406", street: "S Walton Blvd")
        #expect(Self.featureValue(store, fuel, "branchFacility") == 1)
        #expect(!Self.linked(store, fuel), "p = \(Self.p(store, fuel))")
        let plain = Self.record(
            "w", "Walmart", at: 30, types: ["supermarket"], phone: "(479) 273-0060", house: "406",
            street: "South Walton Boulevard")
        #expect(Self.linked(store, plain), "p = \(Self.p(store, plain))")
    }

    @Test("a type word the other record's category says is not another facility; an ATM beside its bank is")
    func typeWords() {
        let a = Self.record("a", "Cesare", types: ["restaurant"], street: "Landstrasse")
        let b = Self.record(
            "b", "Restaurant Cesare", at: 5, types: ["italian_restaurant", "restaurant"], street: "Landstrasse")
        #expect(Self.featureValue(a, b, "branchFacility") == 0)
        #expect(Self.linked(a, b), "p = \(Self.p(a, b))")
        let bank = Self.record(
            "k", "Valley Bank", types: ["bank"], phone: "+1 973 555 0100", house: "12", street: "Main St")
        let atm = Self.record(
            "m", "Valley Bank ATM", at: 5, types: ["atm"], phone: "+1 973 555 0100", house: "12", street: "Main St")
        #expect(Self.featureValue(bank, atm, "branchFacility") == 1)
        #expect(
            Self.p(bank, atm)
                < Self.p(
                    bank,
                    Self.record(
                        "n", "Valley Bank", at: 5, types: ["bank"], phone: "+1 973 555 0100", house: "12",
                        street: "Main St")))
    }

    @Test("a shopping centre and the store named after it are two places")
    func mall() {
        let mall = Self.record("c", "Centre Comercial Pyrénées", types: ["shopping_mall"], street: "Avinguda Meritxell")
        let store = Self.record("s", "Pyrénées", at: 20, types: ["department_store"], street: "Avinguda Meritxell")
        #expect(Self.featureValue(mall, store, "branchFacility") == 1)
        #expect(!Self.linked(mall, store), "p = \(Self.p(mall, store))")
    }

    @Test("two different shops next door do not link")
    func neighbours() {
        let a = Self.record(
            "a", "Blumen Huber", types: ["florist"], phone: "+41 44 111 22 33", house: "5", street: "Bahnhofstrasse")
        let b = Self.record(
            "b", "Optik Meier", at: 8, types: ["store"], phone: "+41 44 444 55 66", house: "7", street: "Bahnhofstrasse"
        )
        #expect(Self.p(a, b) < 0.2, "p = \(Self.p(a, b))")
    }

    @Test("distance: vetoed beyond the search radius plus extents, neutral at 30 m")
    func distance() {
        let a = Self.record("a", "Hotel Adler", types: ["hotel"], phone: "+41 44 123 45 67")
        let far = Self.record("b", "Hotel Adler", at: 400, types: ["hotel"], phone: "+41 44 123 45 67")
        #expect(Self.p(a, far) == 0)
        #expect(SamePlace.probability(a, far) == 0)
        // The same two records with footprints that reach each other.
        let big = Self.record("c", "Hotel Adler", at: 400, types: ["hotel"], phone: "+41 44 123 45 67", extent: 200)
        let bigA = Self.record("d", "Hotel Adler", types: ["hotel"], phone: "+41 44 123 45 67", extent: 150)
        #expect(Self.linked(bigA, big))
        #expect(SamePlace.distanceContribution(gapMeters: 30) == 0)
        #expect(SamePlace.distanceContribution(gapMeters: 45) == 0)
        #expect(SamePlace.distanceContribution(gapMeters: SamePlace.searchRadiusMeters + 1) == nil)
        #expect(SamePlace.distanceContribution(gapMeters: 100)! < 0)
        #expect(SamePlace.distanceContribution(gapMeters: 5)! > 0)
    }

    @Test("a Google default map view is no extent; a geometry's box is")
    func viewportExtent() {
        func box(_ south: Double, _ west: Double, _ north: Double, _ east: Double) -> JSONValue {
            .object(
                JSONObject([
                    ("low", .object(JSONObject([("latitude", .double(south)), ("longitude", .double(west))]))),
                    ("high", .object(JSONObject([("latitude", .double(north)), ("longitude", .double(east))]))),
                ]))
        }
        // Google's default view: 0.0027° a side.
        #expect(LinkRecord.extentMeters(viewport: box(47.0, 8.0, 47.0027, 8.0027)) == 0)
        // A 100 m x 60 m building.
        let e = LinkRecord.extentMeters(viewport: box(47.0, 8.0, 47.0009, 8.0008))
        #expect(e > 50 && e < 70, "\(e)")
        #expect(LinkRecord.extentMeters(viewport: nil) == 0)
    }

    @Test("score is symmetric and matches probability")
    func symmetry() {
        let records = [
            Self.record("a", "Walmart Supercenter", types: ["supermarket"], phone: "+1 479 273 0060", house: "406"),
            Self.record(
                "b", "Walmart Fuel Station", at: 20, types: ["gas_station"], phone: "479 273 0060", house: "406"),
            Self.record("c", "Кафе Ёлка", at: 60, types: ["cafe"], website: "https://elka.ru"),
            Self.record(
                "d", "KAFE ELKA", at: 90, types: ["restaurant"], website: "http://www.elka.ru/menu", extent: 40),
        ]
        for a in records {
            for b in records {
                let ab = SamePlace.score(a, b), ba = SamePlace.score(b, a)
                #expect(ab.probability == ba.probability)
                #expect(SamePlace.probability(a, b) == ab.probability)
                for name in SamePlace.featureNames {
                    #expect(ab.evidence[name]?["value"] == ba.evidence[name]?["value"], "\(name)")
                }
            }
        }
    }
}
