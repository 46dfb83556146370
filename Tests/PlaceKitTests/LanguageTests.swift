import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// Places with names in several languages: an OpenStreetMap university
/// (name:xx, including languages the index did not read by name before:
/// nn, eo, zh-Hant, a dialect key with `_`), an Overture café
/// (names.common) and a Google place captured in French, then in English.
enum LanguageFixtures {
    static let osm = """
        \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9497,60.1695]},"properties":{"@type":"way","@id":10,"name":"Helsingin yliopisto","name:fi":"Helsingin yliopisto","name:sv":"Helsingfors universitet","name:en":"University of Helsinki","name:nn":"Universitetet i Helsingfors","name:eo":"Universitato de Helsinko","name:zh-Hant":"赫爾辛基大學","name:zh_pinyin":"Hèěrxīnjī Dàxué","amenity":"university"}}
        \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9500,60.1700]},"properties":{"@type":"node","@id":11,"name":"Kahvila Sininen","amenity":"cafe"}}
        \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9510,60.1710]},"properties":{"@type":"node","@id":12,"name":"Kauppatori","name:en-GB":"Market Square","amenity":"marketplace"}}

        """
    static let overture = """
        {"type":"Feature","id":"ov-1","geometry":{"type":"Point","coordinates":[24.9520,60.1720]},"properties":{"names":{"primary":"Café Ekberg","common":{"fi":"Kahvila Ekberg","ja":"カフェ・エクベリ"}},"categories":{"primary":"cafe"}}}

        """
    /// The same place from the legacy web service, in French (its weekday
    /// names say so), then in English.
    static let legacyFrench = """
        {"html_attributions":[],"status":"OK","result":{"place_id":"ChIJsacre","name":"Sacré-Cœur","geometry":{"location":{"lat":48.886705,"lng":2.3431043}},"types":["church","place_of_worship","point_of_interest","establishment"],"utc_offset":120,"address_components":[{"long_name":"France","short_name":"FR","types":["country","political"]}],"opening_hours":{"weekday_text":["lundi: 06:00 – 22:30","mardi: 06:00 – 22:30","mercredi: 06:00 – 22:30","jeudi: 06:00 – 22:30","vendredi: 06:00 – 22:30","samedi: 06:00 – 22:30","dimanche: 06:00 – 22:30"]}}}
        """
    static let legacyEnglish = """
        {"html_attributions":[],"status":"OK","result":{"place_id":"ChIJsacre","name":"Sacred Heart Basilica","geometry":{"location":{"lat":48.886705,"lng":2.3431043}},"types":["church","place_of_worship","point_of_interest","establishment"],"utc_offset":120,"opening_hours":{"weekday_text":["Monday: 6:00 AM – 10:30 PM","Tuesday: 6:00 AM – 10:30 PM"]}}}
        """

    /// A database of the fixtures (the legacy captures dated, French first).
    static func database(_ dir: TempDirectory) throws -> String {
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("osm.geojsonseq", osm)))
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("overture.geojson", overture)))
        var options = ImportOptions()
        options.capturedAt = 1_750_000_000 // June 2025: Paris is UTC+2
        _ = try PlaceImporter(databasePath: db, options: options).importInput(
            .file(try dir.write("fr.json", legacyFrench)))
        options.capturedAt = 1_760_000_000
        _ = try PlaceImporter(databasePath: db, options: options).importInput(
            .file(try dir.write("en.json", legacyEnglish)))
        return db
    }
}

@Suite("languages: displayName in the language asked for")
struct LanguageTests {
    @Test("BCP 47 lookup: a tag, then the tag cut subtag by subtag; Chinese regions stand for their scripts")
    func lookupOrder() {
        #expect(NameLanguage.lookupOrder("en-GB") == ["en-gb", "en"])
        #expect(NameLanguage.lookupOrder("en_US") == ["en-us", "en"])
        #expect(NameLanguage.lookupOrder("zh-TW") == ["zh-tw", "zh-hant-tw", "zh-hant", "zh"])
        #expect(NameLanguage.lookupOrder("zh-Hant") == ["zh-hant", "zh-tw", "zh-hk", "zh"])
        #expect(NameLanguage.lookupOrder("zh-CN") == ["zh-cn", "zh-hans-cn", "zh-hans", "zh"])
        #expect(
            NameLanguage.isValidTag("en") && NameLanguage.isValidTag("zh-Hant-TW")
                && NameLanguage.isValidTag("be-tarask"))
        #expect(
            !NameLanguage.isValidTag("") && !NameLanguage.isValidTag("1")
                && !NameLanguage.isValidTag("english-language-x")
                && !NameLanguage.isValidTag("e") && !NameLanguage.isValidTag("en--GB"))
    }

    @Test("the name of the language, else a more specific one, else the default with its known language")
    func choose() {
        let names: [(tag: String, text: String)] = [
            ("fi", "Helsingin yliopisto"), ("sv", "Helsingfors universitet"), ("en-GB", "University of Helsinki"),
            ("zh-Hant", "赫爾辛基大學"),
        ]
        let d = LocalizedText(text: "Helsingin yliopisto", languageCode: nil)
        func pick(_ l: String) -> LocalizedText? { NameLanguage.choose(requested: l, defaultName: d, names: names) }
        #expect(pick("sv") == .init(text: "Helsingfors universitet", languageCode: "sv"))
        #expect(pick("SV-fi") == .init(text: "Helsingfors universitet", languageCode: "sv"))
        #expect(pick("en") == .init(text: "University of Helsinki", languageCode: "en-GB"))
        #expect(pick("en-GB") == .init(text: "University of Helsinki", languageCode: "en-GB"))
        #expect(pick("zh-TW") == .init(text: "赫爾辛基大學", languageCode: "zh-Hant"))
        // No German name: the default, in the language of the localized name it equals.
        #expect(pick("de") == .init(text: "Helsingin yliopisto", languageCode: "fi"))
        // A default that says its language wins for that language; none known: none said.
        #expect(
            NameLanguage.choose(
                requested: "fr", defaultName: .init(text: "Sacré-Cœur", languageCode: "fr"),
                names: [("fr", "Basilique")])
                == .init(text: "Sacré-Cœur", languageCode: "fr"))
        #expect(
            NameLanguage.choose(requested: "de", defaultName: .init(text: "X", languageCode: nil), names: [("en", "Y")])
                == .init(text: "X", languageCode: nil))
        #expect(NameLanguage.choose(requested: "de", defaultName: nil, names: []) == nil)
    }

    @Test(
        "Place Details, nearby, text search and autocomplete serve the name of the language asked, JSON and Place alike"
    )
    func served() throws {
        let dir = try TempDirectory("languages")
        let db = try LanguageFixtures.database(dir)
        let reader = try PlaceReader(databasePath: db)
        let mask = try FieldMask(parsing: "displayName")
        func details(_ id: String, _ language: String?, _ fields: FieldMask? = nil) throws -> JSONValue? {
            try JSONValue(
                parsing: reader.placeDetailsJSON(
                    id: PlaceID(id), fields: fields ?? mask, language: language, openNow: false, at: .instant(Date())))[
                    "displayName"]
        }
        #expect(try details("osm:w10", nil) == ["text": "Helsingin yliopisto"])
        #expect(try details("osm:w10", "en") == ["text": "University of Helsinki", "languageCode": "en"])
        #expect(try details("osm:w10", "sv-FI") == ["text": "Helsingfors universitet", "languageCode": "sv"])
        #expect(try details("osm:w10", "nn") == ["text": "Universitetet i Helsingfors", "languageCode": "nn"])
        #expect(try details("osm:w10", "zh-TW") == ["text": "赫爾辛基大學", "languageCode": "zh-Hant"])
        #expect(try details("osm:w10", "de") == ["text": "Helsingin yliopisto", "languageCode": "fi"])
        #expect(try details("osm:w10", "en", .all)?["text"] == "University of Helsinki")
        #expect(
            try details("osm:w10", "en", try FieldMask(parsing: "displayName.languageCode")) == ["languageCode": "en"])
        #expect(try details("osm:n12", "en") == ["text": "Market Square", "languageCode": "en-GB"])
        // A place with no other name: the default, no language known.
        #expect(try details("osm:n11", "en") == ["text": "Kahvila Sininen"])
        #expect(try details("ov-1", "ja") == ["text": "カフェ・エクベリ", "languageCode": "ja"])
        #expect(try details("ov-1", "fr") == ["text": "Café Ekberg"])
        // The Google place captured in French, then in English: both names kept.
        #expect(try details("ChIJsacre", nil) == ["text": "Sacred Heart Basilica", "languageCode": "en"])
        #expect(try details("ChIJsacre", "fr") == ["text": "Sacré-Cœur", "languageCode": "fr"])
        #expect(try details("ChIJsacre", "en-US") == ["text": "Sacred Heart Basilica", "languageCode": "en"])

        // The Place (library, CLI text) agrees with the JSON.
        for (id, l) in [("osm:w10", "sv"), ("ov-1", "ja"), ("ChIJsacre", "fr"), ("osm:n11", "en")] {
            let place = try reader.fetchPlace(id: PlaceID(id), fields: mask, language: l)
            #expect(place.document["displayName"] == (try details(id, l)))
        }

        // Nearby: JSON and Place answers.
        var nearby = NearbySearchRequest(center: Coordinate(latitude: 60.1695, longitude: 24.9497), radiusMeters: 50)
        nearby.languageCode = "sv"
        let list = try JSONValue(
            parsing: reader.searchNearbyJSON(nearby, fields: try FieldMask(parsing: "id,displayName")))
        let first = list["places"]?.arrayValue?.first { $0["id"] == "osm:w10" }
        #expect(first?["displayName"] == ["text": "Helsingfors universitet", "languageCode": "sv"])
        #expect(
            try reader.searchNearby(nearby, fields: mask).contains {
                $0.place.displayName?.text == "Helsingfors universitet"
            })
        // A part of the name in a language: the JSON and the Place agree.
        let part = try FieldMask(parsing: "id,displayName.languageCode")
        #expect(try details("osm:w10", "de", part) == ["languageCode": "fi"])
        var close = NearbySearchRequest(center: Coordinate(latitude: 60.1695, longitude: 24.9497), radiusMeters: 5)
        close.languageCode = "de"
        #expect(
            try reader.searchNearby(close, fields: part).first { $0.place.id == PlaceID("osm:w10") }?.place.document[
                "displayName"] == ["languageCode": "fi"])

        // Text search finds names in every language, and serves the one asked.
        var search = TextSearchRequest(textQuery: "University of Helsinki")
        search.languageCode = "en"
        let found = try JSONValue(
            parsing: reader.searchTextJSON(search, fields: try FieldMask(parsing: "id,displayName")))
        #expect(found["places"]?.arrayValue?.first?["id"] == "osm:w10")
        #expect(
            found["places"]?.arrayValue?.first?["displayName"] == [
                "text": "University of Helsinki", "languageCode": "en",
            ])
        for q in [
            "Universitato de Helsinko", "Universitetet i Helsingfors", "赫爾辛基大學", "Market Square", "カフェ・エクベリ",
            "Sacré-Cœur",
        ] {
            let hits = try reader.searchText(TextSearchRequest(textQuery: q), fields: try FieldMask(parsing: "id"))
            #expect(!hits.isEmpty, "\(q) finds nothing")
        }
        #expect(try reader.searchText(search, fields: mask).first?.place.displayName?.text == "University of Helsinki")

        // Autocomplete: found by the English name, shown in the language asked.
        var ac = AutocompleteRequest(input: "University of Hel")
        #expect(try reader.autocomplete(ac).first?.placeID == PlaceID("osm:w10"))
        ac.languageCode = "en"
        #expect(try reader.autocomplete(ac).first?.mainText == "University of Helsinki")
        ac.languageCode = "sv"
        #expect(try reader.autocomplete(ac).first?.mainText == "Helsingfors universitet")
    }

    @Test("a fresh import indexes the names of every language as the view does; edits by trigger keep the index whole")
    func indexEqualsView() throws {
        let dir = try TempDirectory("languages-index")
        // Keys and values the view reads with care: an escaped key ends the reading, non-strings are skipped.
        let odd = """
            \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[24.95,60.17]},"properties":{"@type":"node","@id":20,"name":"Odd","name:xx":"Quote \\"here\\"","name:a.b":"Dotted key","name:":"Empty key","name:q\\"k":"After quote","name:zz":"Never read","amenity":"cafe"}}

            """
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("osm.geojsonseq", LanguageFixtures.osm + odd)))
        try TextSearchTests.integrity(db)
        let reader = try PlaceReader(databasePath: db)
        func found(_ q: String) throws -> [String] {
            try reader.searchText(TextSearchRequest(textQuery: q), fields: try FieldMask(parsing: "id")).map(
                \.place.id.rawValue)
        }
        #expect(try found("dotted key") == ["osm:n20"])
        #expect(try found("empty key") == ["osm:n20"])
        #expect(try found("quote here") == ["osm:n20"])
        #expect(try found("never read").isEmpty)
        #expect(
            TextIndexRow.localizedText(JSONObject([("localizedNames", ["en": "A", "x\"y": "B", "de": "C"])])) == " A")
        // An Overture record (names.common with a null) and the Google captures, then edits by trigger.
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(
                try dir.write(
                    "ov.geojson",
                    LanguageFixtures.overture.replacingOccurrences(of: #""ja":"#, with: #""de":null,"ja":"#))))
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("fr.json", LanguageFixtures.legacyFrench)))
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("en.json", LanguageFixtures.legacyEnglish)))
        try TextSearchTests.integrity(db)
        let database = try Database(path: db, mode: .readWrite)
        try database.loadExtension("mod_spatialite")
        try database.execute(
            """
            UPDATE place SET extra = json_set(extra, '$.localizedNames.ko', '헬싱키 대학교') WHERE place_id = 'osm:w10';
            UPDATE place SET extra = json_remove(extra, '$.localizedNames.eo') WHERE place_id = 'osm:w10'
            """)
        try TextSearchTests.integrity(db)
        let edited = try PlaceReader(databasePath: db)
        #expect(
            try edited.searchText(TextSearchRequest(textQuery: "헬싱키 대학교"), fields: try FieldMask(parsing: "id")).map(
                \.place.id.rawValue) == ["osm:w10"])
        // The removed name is out of the index (a search would correct the word to a near one).
        #expect(try database.scalar("SELECT count(*) FROM place_text WHERE place_text MATCH 'universitato'")?.int == 0)
        #expect(try database.scalar("SELECT count(*) FROM place_text WHERE place_text MATCH 'helsingfors'")?.int == 1)
    }

    @Test("a Google place captured in two languages keeps both names; a re-import changes nothing")
    func capturesInTwoLanguages() throws {
        let dir = try TempDirectory("languages-captures")
        let db = try LanguageFixtures.database(dir)
        let reader = try PlaceReader(databasePath: db)
        let stored = try reader.fetchStoredPlace(id: PlaceID("ChIJsacre"))
        #expect(stored.displayName == LocalizedText(text: "Sacred Heart Basilica", languageCode: "en"))
        let store = try PlaceStore(path: db, writable: false)
        let names = try store.localizedNames(placeID: "ChIJsacre")
        #expect(names.map(\.tag) == ["fr", "en"] && names.map(\.text) == ["Sacré-Cœur", "Sacred Heart Basilica"])
        var options = ImportOptions()
        options.capturedAt = 1_760_000_000
        let again = try PlaceImporter(databasePath: db, options: options).importInput(.file(dir.file("en.json")))
        #expect(again.updated == 0 && again.unchanged == 1)
    }

    @Test(
        "legacy records: primaryType from the first table-A type, timeZone from the UTC offset and location, the response's language"
    )
    func legacyShape() throws {
        let dir = try TempDirectory("languages-legacy")
        let db = try LanguageFixtures.database(dir)
        let place = try PlaceReader(databasePath: db).fetchStoredPlace(id: PlaceID("ChIJsacre"))
        #expect(place.primaryType == "church")
        #expect(place.timeZone == "Europe/Paris")
        #expect(LegacyPlacesDecoder.primaryType(["point_of_interest", "establishment"]) == nil)
        #expect(LegacyPlacesDecoder.primaryType(["food", "point_of_interest", "establishment"]) == nil)
        #expect(LegacyPlacesDecoder.primaryType(["grocery_or_supermarket", "food", "store"]) == "grocery_store")
        #expect(LegacyPlacesDecoder.primaryType(["health", "pharmacy"]) == "pharmacy")
        #expect(LegacyPlacesDecoder.weekdayLanguage(["Montag: 9–17 Uhr", "Dienstag: 9–17 Uhr"]) == "de")
        // sábado and domingo are Spanish and Portuguese alike: not told.
        #expect(LegacyPlacesDecoder.weekdayLanguage(["sábado: Cerrado", "domingo: Cerrado"]) == nil)
        #expect(
            LegacyPlacesDecoder.responseLanguage(JSONObject([("reviews", [["language": "ja"], ["language": "ja"]])]))
                == "ja")
        #expect(
            LegacyPlacesDecoder.responseLanguage(JSONObject([("reviews", [["language": "ja"], ["language": "en"]])]))
                == nil)
        #expect(
            LegacyPlacesDecoder.responseLanguage(
                JSONObject([("editorial_summary", ["overview": "x", "language": "it"])])) == "it")
    }

    @Test("the zone of a UTC offset: the nearest zone that had it at the capture time, the place's country first")
    func offsetZones() throws {
        try #require(!OffsetTimeZone.zones.isEmpty, "no /usr/share/zoneinfo/zone1970.tab")
        let sydney = Coordinate(latitude: -33.8670522, longitude: 151.1957362)
        let july = [Date(timeIntervalSince1970: 1_751_328_000)], january = [Date(timeIntervalSince1970: 1_736_899_200)]
        #expect(
            OffsetTimeZone.zone(offsetMinutes: 600, location: sydney, country: "AU", at: july) == "Australia/Sydney")
        #expect(
            OffsetTimeZone.zone(offsetMinutes: 660, location: sydney, country: "AU", at: january) == "Australia/Sydney")
        // In January Sydney is UTC+11: a +10:00 place near it is Brisbane's.
        #expect(
            OffsetTimeZone.zone(offsetMinutes: 600, location: sydney, country: "AU", at: january)
                == "Australia/Brisbane")
        // Nothing dates the record: either season's offset.
        #expect(
            OffsetTimeZone.zone(
                offsetMinutes: 600, location: sydney, country: nil,
                at: OffsetTimeZone.times(capturedAt: nil, now: Date())) == "Australia/Sydney")
        // An offset no zone near the place has: none.
        #expect(
            OffsetTimeZone.zone(
                offsetMinutes: 345, location: Coordinate(latitude: 48.85, longitude: 2.35), country: "FR", at: july)
                == nil)
        #expect(OffsetTimeZone.coordinate("+4230+00131") == Coordinate(latitude: 42.5, longitude: 1 + 31.0 / 60))
        #expect(OffsetTimeZone.coordinate("-3352+15113")?.latitude == -(33 + 52.0 / 60))
        #expect(OffsetTimeZone.coordinate("+433600+0073000")?.longitude == 7.5)
        #expect(OffsetTimeZone.coordinate("4230+00131") == nil)
    }
}

@Suite(
    "languages on the Helsinki extract (../shared/data/osm/poi-nwr)",
    .enabled(
        if: CorpusData.has("osm/poi-nwr/helsinki-2019-04-21.poi-nwr.geojsonseq"),
        "needs ../shared/data/osm/poi-nwr/helsinki-2019-04-21.poi-nwr.geojsonseq"))
struct LanguageCorpusTests {
    @Test(
        "every place with a Swedish or English name is served in it when asked; the Finnish-named university is found by its English name"
    )
    func helsinki() throws {
        let dir = try TempDirectory("languages-helsinki")
        let db = dir.file("places.sqlite")
        let input = try #require(CorpusData.url("osm/poi-nwr/helsinki-2019-04-21.poi-nwr.geojsonseq"))
        _ = try PlaceImporter(databasePath: db).importInput(.file(input.path))
        let reader = try PlaceReader(databasePath: db)
        let store = try PlaceStore(path: db, writable: false)
        let database = try Database(path: db, mode: .readOnly)
        var ids: [String] = []
        try database.forEachRow("SELECT place_id FROM place WHERE removed_run IS NULL") { ids.append(try $0.string(0)) }
        let mask = try FieldMask(parsing: "displayName")
        var counts: [String: (held: Int, served: Int)] = [:]
        for language in ["sv", "en"] {
            var held = 0, served = 0
            for id in ids {
                let names = try store.localizedNames(placeID: id)
                let own = names.first { $0.tag == language }
                let json = try JSONValue(
                    parsing: reader.placeDetailsJSON(
                        id: PlaceID(id), fields: mask, language: language, openNow: false, at: .instant(Date())))
                if let own {
                    held += 1
                    // Served in the language, under the name its tag holds.
                    if json["displayName"] == ["text": .string(own.text), "languageCode": .string(language)] {
                        served += 1
                    }
                } else {
                    #expect(
                        json["displayName"]?["languageCode"] != .string(language),
                        "\(id) served in \(language) without a name in it")
                }
            }
            counts[language] = (held, served)
            #expect(held > 100, "\(language): only \(held) places with a name in it")
            #expect(served == held, "\(language): \(served) of \(held) served in it")
        }
        print(
            "Helsinki: \(ids.count) places; sv: \(counts["sv"]!.served) of \(counts["sv"]!.held) served in Swedish, en: \(counts["en"]!.served) of \(counts["en"]!.held) in English"
        )
        let search = try reader.searchText(
            TextSearchRequest(textQuery: "University of Helsinki"), fields: try FieldMask(parsing: "id,displayName"))
        #expect(search.first?.place.displayName?.text == "Helsingin yliopisto")
        #expect(
            try reader.autocomplete(AutocompleteRequest(input: "Helsingfors univ")).contains {
                $0.mainText == "Helsingin yliopisto"
            })
    }
}

@Suite(
    "the v1 shape of the shared legacy responses (../shared/data/google/legacy)",
    .enabled(if: CorpusData.has("google/legacy"), "needs ../shared/data/google/legacy"))
struct LegacyShapeCorpusTests {
    @Test(
        "every place with a UTC offset gets its zone; primaryType is one of its types in table A; languageCode where the response says it"
    )
    func legacyShape() throws {
        let dir = try TempDirectory("legacy-shape")
        let db = dir.file("places.sqlite")
        var options = ImportOptions()
        options.onError = .skip
        let importer = try PlaceImporter(databasePath: db, options: options)
        for file in CorpusData.files(under: "google/legacy", extension: "json") {
            _ = try? importer.importInput(.file(file.path))
        }
        let reader = try PlaceReader(databasePath: db)
        let database = try Database(path: db, mode: .readOnly)
        var ids: [String] = []
        try database.forEachRow("SELECT place_id FROM place") { ids.append(try $0.string(0)) }
        var primary = 0, zones = 0, languages = 0
        for id in ids {
            let place = try reader.fetchStoredPlace(id: PlaceID(id))
            if let p = place.primaryType {
                primary += 1
                #expect(
                    PlaceTypes.tableA.contains(p) && (place.types.contains(p) || p == "grocery_store"), "\(id): \(p)")
            }
            if place.utcOffsetMinutes != nil {
                #expect(place.timeZone != nil, "\(id) has a UTC offset and no zone")
                if let zone = place.timeZone.flatMap(TimeZone.init(identifier:)) {
                    zones += 1
                    // The zone's offset is the record's in one season of the year at least.
                    let offsets = OffsetTimeZone.times(capturedAt: nil, now: Date()).map {
                        zone.secondsFromGMT(for: $0) / 60
                    }
                    #expect(offsets.contains(place.utcOffsetMinutes!), "\(id): \(zone.identifier) \(offsets)")
                }
            }
            if place.displayName?.languageCode != nil { languages += 1 }
        }
        print(
            "legacy places: \(ids.count); primaryType \(primary), timeZone \(zones), displayName.languageCode \(languages)"
        )
        #expect(ids.count > 100 && primary > ids.count / 2 && zones >= 3 && languages > 1)
        let paris = try reader.fetchStoredPlace(id: PlaceID("ChIJ442GNENu5kcRGYUrvgqHw88"))
        #expect(
            paris.timeZone == "Europe/Paris" && paris.displayName?.languageCode == "fr" && paris.primaryType == "church"
        )
    }
}
