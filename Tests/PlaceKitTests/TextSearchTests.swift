import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// Places around Lausanne (46.52, 6.63) and one in Geneva, for text search.
let textPlaces = """
    {"id":"lac","displayName":{"text":"Café du Lac"},"location":{"latitude":46.5201,"longitude":6.6301},"types":["cafe","food"],"primaryType":"cafe","formattedAddress":"Quai d'Ouchy 1, 1006 Lausanne","userRatingCount":10}
    {"id":"lac-geneva","displayName":{"text":"Café du Lac"},"location":{"latitude":46.2044,"longitude":6.1432},"types":["cafe"],"primaryType":"cafe"}
    {"id":"pharma","displayName":{"text":"Pharmacie Centrale"},"location":{"latitude":46.5215,"longitude":6.6320},"types":["pharmacy","health"],"primaryType":"pharmacy"}
    {"id":"pharma-far","displayName":{"text":"Amavita"},"location":{"latitude":46.53,"longitude":6.65},"types":["pharmacy"],"primaryType":"pharmacy"}
    {"id":"boutique","displayName":{"text":"Müller Mode"},"location":{"latitude":46.5198,"longitude":6.6290},"types":["clothing_store"],"primaryType":"clothing_store"}
    {"id":"bakery","displayName":{"text":"Boulangerie Kaufmann"},"location":{"latitude":46.5230,"longitude":6.6350},"types":["bakery"],"primaryType":"bakery","userRatingCount":900}

    """

@Suite("text search and autocomplete")
struct TextSearchTests {
    func database(_ records: String = textPlaces) throws -> (TempDirectory, String) {
        let dir = try TempDirectory("text-search")
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", records)))
        return (dir, db)
    }

    func ids(
        _ client: PlaceReader, _ q: String, near: Coordinate? = Coordinate(latitude: 46.52, longitude: 6.63),
        limit: Int = 5
    ) throws -> [String] {
        var r = TextSearchRequest(textQuery: q, maxResultCount: limit)
        if let near { r.locationBias = .circle(center: near, radiusMeters: nil) }
        return try client.searchText(r, fields: try FieldMask(parsing: "id")).map(\.place.id.rawValue)
    }

    @Test("a phrase is quoted for FTS5 with any quote in it doubled")
    func quotedPhrases() {
        #expect(TextMatchExpression.quoted("cafe") == #""cafe""#)
        #expect(TextMatchExpression.quoted(#"o"brien""#) == #""o""brien""""#)
        #expect(TextMatchExpression.quoted("") == #""""#)
    }

    @Test("a name is found whatever its case and diacritics, the nearer of two namesakes first")
    func nameAndDiacritics() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "Café du Lac") == ["lac", "lac-geneva"])
        #expect(try ids(client, "cafe du lac") == ["lac", "lac-geneva"])
        #expect(
            try ids(client, "CAFE DU LAC", near: Coordinate(latitude: 46.2, longitude: 6.14)) == ["lac-geneva", "lac"])
        #expect(try ids(client, "muller") == ["boutique"])
        // The address and the type words are searched too.
        #expect(try ids(client, "ouchy") == ["lac"])
        #expect(try ids(client, "clothing store") == ["boutique"])
    }

    @Test(
        "without a text index (ImportOptions.textIndex false) search and autocomplete throw noTextIndex; built again, they answer as with it"
    )
    func withoutTextIndex() async throws {
        let (dir, indexed) = try database()
        let db = dir.file("plain.sqlite")
        var options = ImportOptions()
        options.textIndex = false
        do {
            // Closed before the build below (one writer at a time: ImportLock).
            let importer = try PlaceImporter(databasePath: db, options: options)
            _ = try importer.importInput(.file(dir.file("in.ndjson")))
            #expect(!importer.hasTextIndex)
            #expect(importer.droppedTextIndex == 0)
        }
        let reader = try PlaceReader(databasePath: db)
        #expect(throws: PlaceDBError.self) { try reader.searchText(TextSearchRequest(textQuery: "cafe")) }
        do {
            _ = try reader.autocomplete(AutocompleteRequest(input: "caf"))
            Issue.record("autocomplete answered without a text index")
        } catch let e as PlaceDBError {
            guard case .noTextIndex(let path) = e else { Issue.record("\(e)"); return }
            #expect(path == db)
        }
        let client = try PlacesClient(databasePath: db, maxReaders: 1)
        do {
            _ = try await client.searchText("cafe")
            Issue.record("searchText answered without a text index")
        } catch {
            #expect(error == .noTextIndex(path: db))
            #expect(!error.description.contains("placedb "))
        }
        #expect(try reader.databaseInfo().textIndex == false)
        #expect(try TextIndexMaintenance.build(databasePath: db))
        #expect(try !TextIndexMaintenance.build(databasePath: db))
        let a = try PlaceReader(databasePath: indexed), b = try PlaceReader(databasePath: db)
        for q in ["Café du Lac", "pharmacy", "muler mode", "ouchy", "boulangerie kaufman"] {
            #expect(try ids(a, q) == ids(b, q), "\(q)")
        }
        #expect(try ids(b, "cafe du lac") == ["lac", "lac-geneva"])
        #expect(try TextIndexMaintenance.drop(databasePath: db) == 6)
        #expect(try TextIndexMaintenance.drop(databasePath: db) == nil)
    }

    @Test("type words find the places of that type, nearest first")
    func typeWords() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "pharmacy") == ["pharma", "pharma-far"])
        #expect(
            try ids(client, "pharmacy", near: Coordinate(latitude: 46.531, longitude: 6.651)) == [
                "pharma-far", "pharma",
            ])
    }

    @Test("a one-letter typo is corrected against the index's words")
    func typo() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let results = try client.searchText(TextSearchRequest(textQuery: "Boulngerie Kaufmann"))
        #expect(results.map(\.place.id.rawValue) == ["bakery"])
        #expect(results.first?.ranking.corrected == true)
        #expect(try ids(client, "Pharmacie Cetrale") == ["pharma"])
        // A word too short to correct finds nothing rather than anything.
        #expect(try ids(client, "xq") == [])
    }

    @Test("FTS5 syntax in a query is text, never syntax or an SQLite error")
    func syntaxIsText() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        for q in [
            "", "   ", "\"", "*", "NEAR(", "AND", "OR NOT", "\"cafe", "lac*", "name:lac", "-lac", "^lac", "(lac",
            "{name}: lac", "lac AND",
        ] {
            _ = try ids(client, q)
        }
        #expect(try ids(client, "") == [])
        #expect(try ids(client, "*") == [])
        #expect(try ids(client, "\"lac\"") == ["lac", "lac-geneva"])
        #expect(try ids(client, "name:lac AND") == ["lac", "lac-geneva"])
        #expect(try ids(client, "lac*") == ["lac", "lac-geneva"])
    }

    @Test("a query over 1,000 characters is refused as an invalid argument")
    func tooLong() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        #expect(throws: PlaceDBError.self) {
            try client.searchText(TextSearchRequest(textQuery: String(repeating: "a", count: 1001)))
        }
        _ = try client.searchText(TextSearchRequest(textQuery: String(repeating: "a", count: 1000)))
    }

    @Test("a radius filters, a bias only ranks")
    func radius() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        var r = TextSearchRequest(textQuery: "cafe du lac")
        r.locationRestriction = .circle(center: Coordinate(latitude: 46.52, longitude: 6.63), radiusMeters: 1000)
        #expect(try client.searchText(r).map(\.place.id.rawValue) == ["lac"])
        r.locationRestriction = .rectangle(
            low: Coordinate(latitude: 46.1, longitude: 6.0), high: Coordinate(latitude: 46.3, longitude: 6.3))
        #expect(try client.searchText(r).map(\.place.id.rawValue) == ["lac-geneva"])
        r.locationRestriction = nil
        r.includedTypes = ["pharmacy"]
        #expect(try client.searchText(r).isEmpty)
    }

    @Test("autocomplete matches the last word as a prefix")
    func autocomplete() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let near = SearchArea.circle(center: Coordinate(latitude: 46.52, longitude: 6.63), radiusMeters: nil)
        let s = try client.autocomplete(AutocompleteRequest(input: "cafe du l", locationBias: near))
        #expect(s.map(\.placeID.rawValue) == ["lac", "lac-geneva"])
        #expect(s.first?.mainText == "Café du Lac")
        #expect(s.first?.secondaryText == "Quai d'Ouchy 1, 1006 Lausanne")
        #expect(s.first?.types == ["cafe", "food"])
        #expect(
            try client.autocomplete(AutocompleteRequest(input: "Boul", locationBias: near)).map(\.placeID.rawValue) == [
                "bakery"
            ])
        // Ending with a space, the last word is whole.
        #expect(try client.autocomplete(AutocompleteRequest(input: "Boul ", locationBias: near)).isEmpty)
        let json = try JSONValue(
            parsing: client.autocompleteJSON(AutocompleteRequest(input: "pharm", locationBias: near)))
        let first = try #require(json["suggestions"]?.arrayValue?.first?["placePrediction"])
        #expect(first["placeId"] == "pharma")
        #expect(first["place"] == "places/pharma")
        #expect(first["text"]?["text"] == "Pharmacie Centrale")
        #expect(first["structuredFormat"]?["mainText"]?["text"] == "Pharmacie Centrale")
    }

    @Test(
        "autocomplete's last word asked as the vocabulary's words with that prefix finds what FTS5's prefix query finds"
    )
    func prefixExpansion() throws {
        let dir = try TempDirectory("text-search-prefix")
        let db = dir.file("places.sqlite")
        var rng = TestRandom(seed: 9)
        let words = [
            "Museum", "Musée", "Music", "Mustard", "Lac", "Lake", "Café", "Cafeteria", "Coop", "Copper", "City", "Cité",
            "Pont", "Ponte",
        ]
        var lines = ""
        for i in 0..<150 {
            func name() -> String {
                (0..<(1 + rng.int(3))).map { _ in words[rng.int(words.count)] }.joined(separator: " ")
            }
            var tags = #""name":"\#(name())""#
            if rng.int(3) == 0 { tags += #","alt_name":"\#(name())""# }
            let lng = 6.6 + rng.unit() * 0.1, lat = 46.5 + rng.unit() * 0.05
            lines +=
                "\u{1E}"
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lng),\#(lat)]},"properties":{"@type":"node","@id":\#(i),\#(tags),"shop":"bakery"}}"#
                + "\n"
        }
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.geojsonseq", lines)))
        let expanded = try PlaceReader(databasePath: db)
        let plain = try PlaceReader(databasePath: db)
        plain.prefixExpansionLimit = 0
        let near = SearchArea.circle(center: Coordinate(latitude: 46.52, longitude: 6.63), radiusMeters: nil)
        var found = 0
        for input in [
            "mu", "mus", "muse", "c", "caf", "cafe", "lac po", "city c", "pont m", "co", "cop", "bak", "x", "cite",
        ] {
            let request = AutocompleteRequest(input: input, locationBias: near, maxResultCount: 1000)
            let a = Set(try expanded.autocomplete(request).map(\.placeID)),
                b = Set(try plain.autocomplete(request).map(\.placeID))
            #expect(a == b, "\(input)")
            found += a.count
        }
        #expect(found > 100)
        // The words asked: those of the vocabulary with the prefix, or none when too many.
        let store = try PlaceStore(path: db, writable: false)
        #expect(
            try store.read { try store.wordsStarting(with: "mus", limit: 32) }?.sorted() == [
                "musee", "museum", "music", "mustard",
            ])
        #expect(try store.read { try store.wordsStarting(with: "mus", limit: 3) } == nil)
        #expect(try store.read { try store.wordsStarting(with: "zz", limit: 4) } == [])
    }

    @Test("the index follows updates and removals: a removed place is never found")
    func maintenance() throws {
        let (dir, db) = try database()
        // Renamed by a later import, the old name no longer finds it.
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(
                try dir.write(
                    "rename.ndjson",
                    """
                    {"id":"bakery","displayName":{"text":"Panetteria Rossi"},"location":{"latitude":46.5230,"longitude":6.6350},"types":["bakery"]}

                    """)))
        var client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "Kaufmann") == [])
        #expect(try ids(client, "panetteria") == ["bakery"])
        // Its new word is in the typo vocabulary.
        #expect(try ids(client, "Panettria") == ["bakery"])
        // A snapshot without the pharmacies removes them.
        for (i, records) in [
            textPlaces,
            textPlaces.split(separator: "\n").filter { !$0.contains("pharma") }.joined(separator: "\n") + "\n",
        ].enumerated() {
            let importer = try PlaceImporter(databasePath: db, options: ImportOptions(snapshot: "google-places"))
            _ = try importer.importInput(.file(try dir.write("snapshot-\(i).ndjson", records)))
            _ = try importer.finishSnapshot()
        }
        client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "pharmacy") == [])
        #expect(try ids(client, "Pharmacie Centrale") == [])
        #expect(try ids(client, "cafe du lac") == ["lac", "lac-geneva"])
        // The index holds exactly the live places, consistent with their text.
        let database = try Database(path: db, mode: .readWrite)
        try database.loadExtension("mod_spatialite")
        try database.execute("INSERT INTO place_text (place_text) VALUES ('integrity-check')")
        let live = try database.scalar("SELECT count(*) FROM place WHERE removed_run IS NULL")?.int
        let indexed = try database.scalar("SELECT count(*) FROM place_text")?.int
        #expect(live == indexed)
    }

    @Test("a phrase's count is the places holding it in their text columns, the grid cells' words not counted")
    func phraseCountsAreTextColumns() throws {
        let (dir, db) = try database()
        _ = dir
        let store = try PlaceStore(path: db, writable: false)
        let raw = try Database(path: db, mode: .readOnly)
        let cell = TextGrid.cell(Coordinate(latitude: 46.52, longitude: 6.63), .fine)
        let phrases = [
            "cafe", "lausanne", "f", "k", "c", "l", "mu", "1006", "nothing", TextGrid.mark, cell,
        ].flatMap { [TextMatchExpression.quoted($0), TextMatchExpression.quoted($0) + " *"] }
        var nonzero = 0
        for phrase in phrases {
            let expected = try raw.scalar(
                TextIndexSQL.phraseCount, [.text(TextMatchExpression.textColumns + " : " + phrase)])?.int64
            #expect(try store.read { try store.phraseCount(phrase) } == expected, "\(phrase)")
            if expected ?? 0 > 0 { nonzero += 1 }
        }
        #expect(nonzero >= 8)
        // The cell's word is in the index, in the cell column alone.
        #expect(try raw.scalar(TextIndexSQL.phraseCount, [.text(TextMatchExpression.quoted(cell))])?.int64 ?? 0 > 0)
    }

    @Test("the phrase counts BM25 uses follow the file: another connection's import is counted on the next read")
    func phraseCountsFollowChanges() throws {
        let (dir, db) = try database()
        let store = try PlaceStore(path: db, writable: false)
        let cafe = TextMatchExpression.quoted("cafe")
        let before = try store.read { try store.phraseCount(cafe) }
        #expect(before == 2)
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(
                try dir.write(
                    "more.ndjson",
                    """
                    {"id":"cafe-2","displayName":{"text":"Café Central"},"location":{"latitude":46.5210,"longitude":6.6310},"types":["cafe"]}

                    """)))
        #expect(try store.read { try store.phraseCount(cafe) } == before + 1)
        // Scores as bm25() gives them on the changed file.
        let raw = try Database(path: db, mode: .readOnly)
        var scores: [Double] = []
        try raw.forEachRow(
            "SELECT \(TextIndexSQL.bm25) FROM place_text WHERE place_text MATCH ?1",
            [.text("\(TextMatchExpression.textColumns) : \(cafe)")]
        ) { scores.append(try $0.double(0)) }
        let expected = scores.min()
        let got = try store.read {
            try store.textMatches("\(TextMatchExpression.textColumns) : \(cafe)", phrases: [cafe], cells: 0)
        }.map(\.bm25).min()
        #expect(expected != nil && got != nil && abs(expected! - got!) < 1e-12)
    }

    @Test("a fresh import builds the index in one pass with the same rows the triggers write")
    func freshBuildEqualsTriggers() throws {
        let (dir, db) = try database()
        // The same places written one by one into a database that already has a place.
        let other = dir.file("other.sqlite")
        _ = try PlaceImporter(databasePath: other).importInput(
            .file(try dir.write("first.ndjson", textPlaces.split(separator: "\n")[0] + "\n")))
        _ = try PlaceImporter(databasePath: other).importInput(.file(dir.file("in.ndjson")))
        func rows(_ path: String) throws -> [String] {
            var out: [String] = []
            let database = try Database(path: path, mode: .readWrite)
            try database.loadExtension("mod_spatialite")
            try database.forEachRow(
                """
                SELECT p.place_id, t.name, t.other_names, t.address, t.types, t.cell FROM place_text t JOIN place p ON p.id = t.rowid ORDER BY p.place_id
                """
            ) { row in out.append((0..<6).map { row.optionalString($0) ?? "-" }.joined(separator: "|")) }
            return out
        }
        #expect(try rows(db) == rows(other))
        #expect(try rows(db).count == 6)
        // The index itself: the same words in the same places, and each
        // consistent with its text.
        func vocabulary(_ path: String) throws -> [String] {
            var out: [String] = []
            let database = try Database(path: path, mode: .readWrite)
            try database.loadExtension("mod_spatialite")
            try database.execute("INSERT INTO place_text (place_text) VALUES ('integrity-check')")
            try database.forEachRow("SELECT term, doc, cnt FROM place_text_vocab ORDER BY term") { row in
                out.append("\(try row.string(0)) \(try row.int64(1)) \(try row.int64(2))")
            }
            return out
        }
        #expect(try vocabulary(db) == vocabulary(other))
        #expect(try vocabulary(db).contains("lausanne 1 1"))
        #expect(
            try rows(db).first { $0.hasPrefix("lac|") }
                == #"lac|Café du Lac|-|Quai d'Ouchy 1, 1006 Lausanne|cafe ["cafe","food"]|"#
                + "\u{E000}f13652x18663 \u{E000}k1365x1866")
    }

    @Test(
        "the typo vocabulary is the index's own words, the grid cells left out: after a fresh import and after an update"
    )
    func vocabularyIsTheIndexWords() throws {
        let (dir, db) = try database()
        func check(_ expected: Set<String>) throws {
            let database = try Database(path: db, mode: .readWrite)
            try database.loadExtension("mod_spatialite")
            var terms: [String] = [], words: [String] = []
            try database.forEachRow(
                "SELECT term FROM place_text_vocab WHERE term NOT GLOB char(57344) || '[fk][0-9]*x[0-9]*' ORDER BY term"
            ) { terms.append(try $0.string(0)) }
            try database.forEachRow("SELECT word, reversed FROM place_word ORDER BY word") { row in
                words.append(try row.string(0))
                #expect(try row.string(1) == String(try row.string(0).reversed()))
            }
            #expect(Set(words).isSuperset(of: terms))
            #expect(expected.isSubset(of: Set(words)))
            #expect(!words.contains { TextIndexSQL.isCellWord($0) })
        }
        try check([
            "cafe", "du", "lac", "ouchy", "1006", "lausanne", "food", "clothing", "store", "muller", "boulangerie",
        ])
        // An update's new words join it (folded as the index folds them).
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(
                try dir.write(
                    "more.ndjson",
                    """
                    {"id":"new","displayName":{"text":"Épicerie Dvořák"},"location":{"latitude":46.52,"longitude":6.63},"types":["store"]}

                    """)))
        try check(["epicerie", "dvorak"])
        let m = TextGrid.mark
        #expect(TextIndexSQL.isCellWord(m + "f13652x18663") && TextIndexSQL.isCellWord(m + "k1x2"))
        #expect(
            !TextIndexSQL.isCellWord(m + "fox") && !TextIndexSQL.isCellWord(m + "k2")
                && !TextIndexSQL.isCellWord(m + "f1x") && !TextIndexSQL.isCellWord(m + "xf1x2"))
        // Without the mark, a word like a cell's is a word (schema version 18).
        #expect(!TextIndexSQL.isCellWord("f13652x18663") && !TextIndexSQL.isCellWord("k1x2"))
    }

    @Test("an update bringing more distinct words than one batch puts every one in the typo vocabulary")
    func vocabularyInBatches() throws {
        let (dir, db) = try database()
        // 1,800 places of 40 words each: 72,000 distinct words, more than
        // `TextIndexWriter.wordBatch`, so the vocabulary goes in batches.
        let perPlace = 40, places = (TextIndexWriter.wordBatch + 6_000) / perPlace
        func word(_ n: Int) -> String {
            var s = "", k = n
            for _ in 0..<4 { s.append(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(k % 26)))); k /= 26 }
            return "zq" + s
        }
        var lines = ""
        for p in 0..<places {
            let name = (0..<perPlace).map { word(p * perPlace + $0) }.joined(separator: " ")
            lines +=
                #"{"id":"w\#(p)","displayName":{"text":"\#(name)"},"location":{"latitude":46.5,"longitude":6.6},"types":["store"]}"#
                + "\n"
        }
        let summary = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("words.ndjson", lines)))
        #expect(summary.inserted == places)
        let database = try Database(path: db, mode: .readWrite)
        var stored = Set<String>()
        try database.forEachRow("SELECT word FROM place_word WHERE word GLOB 'zq*'") { stored.insert(try $0.string(0)) }
        #expect(stored.count == places * perPlace)
        #expect(stored.contains(word(0)) && stored.contains(word(places * perPlace - 1)))
    }

    @Test("the index row's cell words are TextGrid's, everywhere on the globe")
    func rowCellsAreTextGrids() {
        var rng = TestRandom(seed: 17)
        var points = [
            Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 90, longitude: 180),
            Coordinate(latitude: 0, longitude: 0),
            Coordinate(latitude: 46.5201, longitude: 6.6301), Coordinate(latitude: -33.86, longitude: 151.2),
        ]
        for _ in 0..<2000 {
            points.append(Coordinate(latitude: rng.unit() * 180 - 90, longitude: rng.unit() * 360 - 180))
        }
        for c in points {
            #expect(TextIndexRow.cells(c) == TextGrid.cell(c, .fine) + " " + TextGrid.cell(c, .coarse))
        }
    }

    @Test("OSM alternative names, translations and brands are searched")
    func osmNames() throws {
        let dir = try TempDirectory("text-search-osm")
        let db = dir.file("places.sqlite")
        let feature = """
            \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[6.63,46.52]},"properties":{"@type":"node","@id":1,"name":"Musée Olympique","name:en":"Olympic Museum","alt_name":"Olympic Museum Lausanne","old_name":"Musée du CIO","tourism":"museum"}}
            \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[6.64,46.53]},"properties":{"@type":"node","@id":2,"name":"Coop City","brand":"Coop","shop":"department_store"}}

            """
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.geojsonseq", feature)))
        let client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "olympic museum") == ["osm:n1"])
        #expect(try ids(client, "musee du cio") == ["osm:n1"])
        #expect(try ids(client, "coop") == ["osm:n2"])
        // The name the user typed in full ranks the place as a name match.
        let r = try client.searchText(TextSearchRequest(textQuery: "Olympic Museum"))
        #expect(r.first?.ranking.name == 1)
    }

    /// FTS5's own check that the index holds exactly the tokens of the
    /// view's text (external content: what the triggers delete by).
    static func integrity(_ path: String) throws {
        let database = try Database(path: path, mode: .readWrite)
        try database.loadExtension("mod_spatialite")
        try database.execute("INSERT INTO place_text (place_text, rank) VALUES ('integrity-check', 1)")
    }

    @Test(
        "a fresh import writes the index rows the view gives: OSM names with escapes, a repeated ID, then edits by trigger"
    )
    func freshRowsEqualView() throws {
        let dir = try TempDirectory("text-search-fresh")
        // Other names with a quote, a backslash, a newline, ",null" and a
        // non-string value; an address; Google types with the two left out.
        let osm = """
            \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[6.63,46.52]},"properties":{"@type":"node","@id":1,"name":"Musée \\"Olympique\\"","name:en":"Olympic\\nMuseum","alt_name":"a,null \\\\ b","old_name":"Musée du CIO","brand":"12","tourism":"museum"}}
            \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[6.64,46.53]},"properties":{"@type":"node","@id":2,"name":"Coop City","brand":"Coop","shop":"department_store","addr:street":"Rue du Pont","addr:housenumber":"5"}}
            \u{1E}{"type":"Feature","geometry":{"type":"Point","coordinates":[6.65,46.54]},"properties":{"@type":"node","@id":3,"name":"Plain","alt_name":"Bar,null Baz","old_name":"[nullo] ok","name:de":"Klar","amenity":"bar"}}

            """
        let db = dir.file("osm.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.geojsonseq", osm)))
        try Self.integrity(db)
        let client = try PlaceReader(databasePath: db)
        #expect(try ids(client, "olympique") == ["osm:n1"])
        #expect(try ids(client, "a null b") == ["osm:n1"])
        // The view's replace cuts ",null" and "[null" even inside a name (its tokens are what the index holds).
        #expect(try ids(client, "bar baz") == ["osm:n3"])
        #expect(try ids(client, "klar") == ["osm:n3"])
        let google = """
            {"id":"g1","displayName":{"text":"Café \\"Lac\\""},"location":{"latitude":46.52,"longitude":6.63},"types":["cafe","point_of_interest","establishment"],"primaryType":"cafe","formattedAddress":"Quai 1\\n1006 Lausanne"}
            {"id":"g2","displayName":{"text":"Bar"},"location":{"latitude":46.52,"longitude":6.63},"types":["bar"]}
            {"id":"g2","displayName":{"text":"Bar Rouge"},"location":{"latitude":46.53,"longitude":6.64},"types":["bar"]}

            """
        let gdb = dir.file("google.sqlite")
        _ = try PlaceImporter(databasePath: gdb).importInput(.file(try dir.write("in.ndjson", google)))
        try Self.integrity(gdb)
        let g = try PlaceReader(databasePath: gdb)
        #expect(try ids(g, "bar rouge") == ["g2"])
        #expect(try ids(g, "lausanne") == ["g1"])
        // Edits by trigger delete with the view's text: the index stays whole.
        let database = try Database(path: gdb, mode: .readWrite)
        try database.loadExtension("mod_spatialite")
        try database.execute(
            "UPDATE place SET name = 'Cafe Bleu' WHERE place_id = 'g1'; UPDATE place SET removed_run = last_run WHERE place_id = 'g2'"
        )
        try database.execute("INSERT INTO place_text (place_text, rank) VALUES ('integrity-check', 1)")
        try Self.integrity(db)
        let edited = try PlaceReader(databasePath: gdb)
        #expect(try ids(edited, "bleu") == ["g1"])
        #expect(try ids(edited, "rouge").isEmpty)
    }

    @Test(
        "ranking reads other names only where they can change the answer: the same answer as scoring every place whole")
    func boundedEqualsWhole() throws {
        let dir = try TempDirectory("text-search-bound")
        let db = dir.file("places.sqlite")
        var rng = TestRandom(seed: 5)
        let words = ["Museum", "Olympic", "Lac", "Café", "Coop", "City", "Mode", "Musée", "Pont"]
        var lines = ""
        for i in 0..<120 {
            func name() -> String {
                (0..<(1 + rng.int(2))).map { _ in words[rng.int(words.count)] }.joined(separator: " ")
            }
            var tags = #""name":"\#(name())""#
            if rng.int(2) == 0 { tags += #","alt_name":"\#(name())""# }
            if rng.int(3) == 0 { tags += #","name:en":"\#(name())""# }
            let lng = 6.6 + rng.unit() * 0.1, lat = 46.5 + rng.unit() * 0.05
            lines +=
                "\u{1E}"
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lng),\#(lat)]},"properties":{"@type":"node","@id":\#(i),\#(tags),"tourism":"museum"}}"#
                + "\n"
        }
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.geojsonseq", lines)))
        let client = try PlaceReader(databasePath: db)
        let whole = try PlaceReader(databasePath: db)
        whole.boundsTextRanking = false
        let near = Coordinate(latitude: 46.52, longitude: 6.63)
        var named = 0
        for q in ["museum", "olympic museum", "cafe lac", "coop city", "musee", "pont mode", "city"] {
            for n in [1, 3, 7, 20] {
                let request = TextSearchRequest(
                    textQuery: q, locationBias: .circle(center: near, radiusMeters: nil), maxResultCount: n)
                let bounded = try client.searchText(request), reference = try whole.searchText(request)
                #expect(bounded.map(\.place.id) == reference.map(\.place.id), "\(q) \(n)")
                #expect(bounded.map(\.ranking) == reference.map(\.ranking), "\(q) \(n)")
                named += reference.filter { $0.ranking.name > 0 }.count
            }
        }
        #expect(named > 20)
    }

    @Test(
        "reading every match in one query gathers what the grid levels gather: the same answers, namesakes and restrictions included"
    )
    func completeEqualsLevels() throws {
        let dir = try TempDirectory("text-search-complete")
        let db = dir.file("places.sqlite")
        var rng = TestRandom(seed: 17)
        // Namesakes (the same BM25: ties at every cut) spread over about 60 km
        // around Lausanne, so that fine, coarse and whole-index levels each
        // find some, and a few far away.
        let words = ["Museum", "Olympic", "Lac", "Café", "Coop", "City", "Mode", "Musée", "Pont", "Boulangerie"]
        var lines = ""
        for i in 0..<400 {
            let name = (0..<(1 + rng.int(2))).map { _ in words[rng.int(words.count)] }.joined(separator: " ")
            let spread = [0.005, 0.03, 0.3][rng.int(3)]
            var lat = 46.52 + (rng.unit() - 0.5) * spread, lng = 6.63 + (rng.unit() - 0.5) * spread
            if i % 50 == 0 { lat = 40 + rng.unit() * 10; lng = -5 + rng.unit() * 20 }
            let rating = rng.int(3) == 0 ? #","userRatingCount":\#(rng.int(500))"# : ""
            lines +=
                #"{"id":"p\#(i)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["museum"]\#(rating)}"#
                + "\n"
        }
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", lines)))
        let complete = try PlaceReader(databasePath: db)
        let levels = try PlaceReader(databasePath: db)
        levels.completeMatchLimit = 0
        let small = try PlaceReader(databasePath: db)
        small.completeMatchLimit = 40
        let near = Coordinate(latitude: 46.521, longitude: 6.632)
        let areas: [(bias: SearchArea?, restriction: SearchArea?)] = [
            (.circle(center: near, radiusMeters: nil), nil), (.circle(center: near, radiusMeters: 300), nil),
            (nil, .circle(center: near, radiusMeters: 800)), (nil, .circle(center: near, radiusMeters: 20_000)),
            (
                nil,
                .rectangle(
                    low: Coordinate(latitude: 46.4, longitude: 6.5), high: Coordinate(latitude: 46.6, longitude: 6.7))
            ),
        ]
        var compared = 0, found = 0
        for q in [
            "museum", "olympic museum", "cafe lac", "coop city", "musee", "pont mode", "city", "boulangerie", "olympc",
            "lac pont cafe",
        ] {
            for area in areas {
                for n in [1, 5, 20, 150] {
                    var request = TextSearchRequest(
                        textQuery: q, locationBias: area.bias, locationRestriction: area.restriction, maxResultCount: n)
                    let reference = try levels.searchText(request)
                    for reader in [complete, small] {
                        let answer = try reader.searchText(request)
                        #expect(answer.map(\.place.id) == reference.map(\.place.id), "\(q) \(n) \(area)")
                        #expect(answer.map(\.ranking) == reference.map(\.ranking), "\(q) \(n) \(area)")
                    }
                    request.rankByDistance = true
                    #expect(
                        try complete.searchText(request).map(\.place.id) == levels.searchText(request).map(\.place.id),
                        "\(q) \(n) \(area) by distance")
                    compared += 1
                    found += reference.count
                }
            }
            for prefix in [String(q.prefix(3)), String(q.prefix(q.count - 1))] {
                let request = AutocompleteRequest(
                    input: prefix, locationBias: .circle(center: near, radiusMeters: nil), maxResultCount: 5)
                #expect(try complete.autocomplete(request) == levels.autocomplete(request), "\(prefix)")
            }
        }
        #expect(compared == 200 && found > 2000)
        // The one-query path is taken: every match of a word 400 places
        // share among them is read at once, and the levels' cells agree.
        let store = try PlaceStore(path: db, writable: false)
        let all = try #require(
            try store.read {
                try store.allTextMatches(
                    #"{name other_names address types} : ("museum")"#, phrases: [#""museum""#], limit: 1000)
            })
        #expect(all.count == 400)
        #expect(
            try store.read {
                try store.allTextMatches(
                    #"{name other_names address types} : ("museum")"#, phrases: [#""museum""#], limit: 399)
            } == nil)
        for m in all.prefix(50) {
            for level in TextGrid.Level.allCases {
                let cells = TextGrid.blockCells(m.candidate.coordinate, level)
                #expect(TextGrid.contains(cells, level, key: m.cell))
                #expect(TextGrid.contains(cells, level, key: TextGrid.key(m.candidate.coordinate)))
            }
        }
    }

    @Test("searchText request bodies are read as the Places API (New) writes them")
    func requestJSON() throws {
        let body = try #require(
            try JSONValue(
                parsing: """
                    {"textQuery":"cafe","locationBias":{"circle":{"center":{"latitude":46.5,"longitude":6.6},"radius":500}},"includedType":"cafe","maxResultCount":3,"languageCode":"fr"}
                    """
            ).objectValue)
        let r = try TextSearchRequest(json: body)
        #expect(r.textQuery == "cafe" && r.includedTypes == ["cafe"] && r.maxResultCount == 3)
        #expect(r.locationBias == .circle(center: Coordinate(latitude: 46.5, longitude: 6.6), radiusMeters: 500))
        let rect = try #require(
            try JSONValue(
                parsing: """
                    {"textQuery":"x","locationRestriction":{"rectangle":{"low":{"latitude":46,"longitude":6},"high":{"latitude":47,"longitude":7}}}}
                    """
            ).objectValue)
        #expect(
            try TextSearchRequest(json: rect).locationRestriction
                == .rectangle(low: Coordinate(latitude: 46, longitude: 6), high: Coordinate(latitude: 47, longitude: 7))
        )
        for bad in [
            #"{}"#, #"{"textQuery":1}"#, #"{"textQuery":"x","bogus":1}"#, #"{"textQuery":"x","maxResultCount":0}"#,
            #"{"textQuery":"x","locationBias":{"circle":{"center":{"latitude":99,"longitude":0}}}}"#,
        ] {
            let o = try #require(try JSONValue(parsing: bad).objectValue)
            #expect(throws: PlaceDBError.self) { try TextSearchRequest(json: o) }
        }
        let auto = try #require(
            try JSONValue(parsing: #"{"input":"cafe du lac","inputOffset":6,"sessionToken":"t"}"#).objectValue)
        #expect(try AutocompleteRequest(json: auto).input == "cafe d")
    }
}

@Suite("text search on the async client")
struct AsyncTextSearchTests {
    @Test("searchText and autocomplete on PlacesClient give the sync reader's answers, concurrently")
    func asyncEqualsSync() async throws {
        let dir = try TempDirectory("text-search-async")
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", textPlaces)))
        let near = Coordinate(latitude: 46.52, longitude: 6.63)
        let reader = try PlaceReader(databasePath: db)
        let queries = ["cafe du lac", "pharmacy", "Boulngerie", "muller", "\" NEAR( *"]
        let client = try PlacesClient(databasePath: db, maxReaders: 3)
        let answers = try await withThrowingTaskGroup(of: (Int, [TextSearchResult], [AutocompleteSuggestion]).self) {
            group in
            for (i, q) in queries.enumerated() {
                group.addTask {
                    (
                        i, try await client.searchText(q, near: near),
                        try await client.autocomplete(String(q.prefix(4)), near: near)
                    )
                }
            }
            return try await group.reduce(into: [Int: ([TextSearchResult], [AutocompleteSuggestion])]()) {
                $0[$1.0] = ($1.1, $1.2)
            }
        }
        for (i, q) in queries.enumerated() {
            let time = HoursQueryTime.instant(Date())
            let sync = try reader.searchText(
                TextSearchRequest(textQuery: q, locationBias: .circle(center: near, radiusMeters: nil)), at: time)
            #expect(answers[i]?.0.map(\.place.id) == sync.map(\.place.id), "\(q)")
            #expect(answers[i]?.0.map(\.ranking) == sync.map(\.ranking), "\(q)")
            let suggested = try reader.autocomplete(
                AutocompleteRequest(
                    input: String(q.prefix(4)), locationBias: .circle(center: near, radiusMeters: nil), origin: near))
            #expect(answers[i]?.1 == suggested, "\(q)")
        }
        #expect(answers[0]?.0.first?.place.id == "lac")
        #expect(answers[2]?.0.first?.place.id == "bakery")
        #expect(answers[0]?.1.first?.placeID == "lac")
        #expect(answers[4]?.0.isEmpty == true)
        // Errors are typed and speak of the request.
        var failure: PlaceDBError?
        do {
            _ = try await client.searchText(String(repeating: "a", count: 1001))
        } catch {
            failure = error
        }
        #expect(
            failure?.description.hasPrefix("textQuery is 1001 characters long") == true,
            "\(String(describing: failure))")
    }
}

@Suite("text folding, edit distance and ranking")
struct TextQueryTests {
    @Test("folding removes case and diacritics and splits as unicode61 does")
    func folding() {
        #expect(TextFolding.words("Café du Lac") == ["cafe", "du", "lac"])
        #expect(TextFolding.words("Müller's  BÄCKEREI-Ost") == ["muller", "s", "backerei", "ost"])
        #expect(TextFolding.words("Красная площадь") == ["красная", "площадь"])
        #expect(TextFolding.words("*\"() NEAR(") == ["near"])
        #expect(TextFolding.fold("Crème Brûlée") == "creme brulee")
        #expect(TextFolding.reversed("lac") == "cal")
        // As SQLite's unicode61 remove_diacritics 2 folds (checked with fts5vocab):
        // Latin diacritics go, other scripts' and undecomposable letters stay.
        #expect(
            TextFolding.words("Айва Ёлка Łódź Øster Đakovo İstanbul Ærø Straße ő ų ǖ ș ț ğ ή Ẳ") == [
                "айва", "ёлка", "łodz", "øster", "đakovo", "istanbul", "ærø", "straße", "o", "u", "u", "s", "t", "g",
                "ή", "a",
            ])
    }

    @Test("the Latin table folds every letter as Foundation's decomposition does")
    func latinTable() throws {
        for v in Array(0xA0..<0x300) + Array(0x1DF0..<0x1F10) {
            let scalar = try #require(Unicode.Scalar(UInt32(v)))
            #expect(TextFolding.folded(scalar) == TextFolding.decomposedFold(scalar), "U+\(String(v, radix: 16))")
        }
        #expect(TextFolding.folded("É") == "e" && TextFolding.folded("ẞ") == "ß" && TextFolding.folded("ł") == "ł")
    }

    @Test(
        "the Latin fast paths (words, literal, collapsed white space) give what Unicode categories and Foundation's decomposition give"
    )
    func latinFastPaths() throws {
        let letters: [Unicode.GeneralCategory] = [
            .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        ]
        var latin = 0
        for v in UInt32(0)..<0x2000 where TextFolding.isLatinLetter(v) {
            let scalar = try #require(Unicode.Scalar(v))
            #expect(
                letters.contains(scalar.properties.generalCategory) && !scalar.properties.isWhitespace,
                "U+\(String(v, radix: 16))")
            #expect(
                TextFolding.literal(String(Character(scalar)))
                    == TextFolding.decomposedLiteral(String(Character(scalar))), "U+\(String(v, radix: 16))")
            latin += 1
        }
        #expect(latin == 0x190 - 2 + 0x100)
        /// `words` by categories only (the code before the fast paths).
        func reference(_ text: String) -> [String] {
            var out: [String] = [], word = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .spacingMark: continue
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                    .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                    word.append(contentsOf: TextFolding.folded(scalar).unicodeScalars)
                default:
                    if !word.isEmpty { out.append(String(word)); word.removeAll() }
                }
            }
            if !word.isEmpty { out.append(String(word)) }
            return out
        }
        var rng = TestRandom(seed: 23)
        let alphabet: [Character] =
            Array("aZ09 -'.,\tÉéüÜßłøǢǕİẞẳñÆ×÷ά\u{A0}\u{2003}\u{301}\u{308}\u{1E9E}") + [
                "e\u{301}", " \u{308}", "\r\n",
            ]
        for _ in 0..<3000 {
            let text = String((0..<rng.int(16)).map { _ in alphabet[rng.int(alphabet.count)] })
            #expect(
                TextFolding.unicodeWords(text) == reference(text),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(
                TextFolding.literal(text) == TextFolding.decomposedLiteral(text),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(
                TextFolding.collapsed(text) == text.split(whereSeparator: \.isWhitespace).joined(separator: " "),
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(
            TextFolding.literal("Café  Müller") == "cafe muller"
                && TextFolding.collapsed(" Café  Müller ") == "Café Müller")
    }

    @Test("the ASCII fast path folds as the Unicode one does")
    func asciiFolding() {
        var rng = TestRandom(seed: 17)
        let alphabet = Array("aZ09 _-'\"*()\t\n.,:;!?/\\xyzQW")
        for _ in 0..<2000 {
            let text = String((0..<rng.int(24)).map { _ in alphabet[rng.int(alphabet.count)] })
            #expect(TextFolding.asciiWords(text) == TextFolding.unicodeWords(text), "\(text)")
        }
        #expect(TextFolding.asciiWords("Café") == nil)
        #expect(TextFolding.literal("  Font d'  AIGUA ") == "font d' aigua")
        #expect(TextFolding.words("McDonald's DRIVE-IN 24") == ["mcdonald", "s", "drive", "in", "24"])
    }

    @Test("folding gives the words SQLite's FTS5 index holds (unicode61 remove_diacritics 2)")
    func foldingMatchesFTS5() throws {
        let dir = try TempDirectory("folding")
        let db = try Database(path: dir.file("f.sqlite"))
        try db.execute(
            "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, row)"
        )
        let text =
            "Айва Ёлка Łódź Øster Đakovo İstanbul Ærø Straße ǅ café naïve Ẳ ő ų ǖ ș ț ğ ή ώ Ά Crème Brûlée Ñandú Çà Dvořák Šimek Ľubica Ģirts Ōsaka Ünye Ꞌ Ðe Þing Ŋ ĳ Œuvre"
        try db.run("INSERT INTO t (x) VALUES (?)", [.text(text)])
        var vocabulary: Set<String> = []
        try db.forEachRow("SELECT term FROM v") { vocabulary.insert(try $0.string(0)) }
        #expect(Set(TextFolding.words(text)) == vocabulary)
    }

    @Test("edit distance counts insertions, deletions, substitutions and swaps")
    func editDistance() {
        #expect(EditDistance.within("pharmacy", "phrmacy", limit: 1) == 1)
        #expect(EditDistance.within("pharmacy", "pharmcay", limit: 1) == 1)
        #expect(EditDistance.within("pharmacy", "pharmaxy", limit: 1) == 1)
        #expect(EditDistance.within("pharmacy", "farmacy", limit: 1) == nil)
        #expect(EditDistance.within("pharmacy", "farmacy", limit: 2) == 2)
        #expect(EditDistance.within("lac", "lac", limit: 0) == 0)
    }

    @Test("match expressions quote every word")
    func expressions() {
        let e = TextMatchExpression.expression(
            [QueryTerm(word: "caf\"e"), QueryTerm(word: "l", prefix: true, corrections: [])], cells: ["f1x2"])
        #expect(e == #"("caf""e" AND "l" *) AND cell : ("f1x2")"#)
        // The text columns are named where a word could be a grid cell's:
        // only a word with the mark, which nobody types.
        let m = TextGrid.mark
        #expect(
            TextMatchExpression.expression([QueryTerm(word: "cafe"), QueryTerm(word: m + "f12x34")])
                == "{name other_names address types} : (\"cafe\" AND \"\(m)f12x34\")")
        #expect(
            TextMatchExpression.expression([QueryTerm(word: "cafe"), QueryTerm(word: "f12x34")])
                == #"("cafe" AND "f12x34")"#)
        for (word, prefix, cell) in [
            (m + "f12x34", false, true), (m + "k1x2", false, true), (m + "f12x", false, false),
            (m + "fx12", false, false), (m + "f12", false, false),
            (m, true, true), (m + "f", true, true), (m + "k12", true, true), (m + "k12x", true, true),
            (m + "k12x3", true, true), (m + "kx", true, false), (m + "fa", true, false),
            // Typed letters are not a cell word's start any more.
            ("f12x34", false, false), ("k1x2", false, false), ("f", true, false), ("k", true, false),
            ("k12x", true, false), ("cafe", true, false), ("cafe", false, false),
        ] {
            #expect(
                TextMatchExpression.mayMatchCell(QueryTerm(word: word, prefix: prefix)) == cell, "\(word) \(prefix)")
        }
        #expect(TextMatchExpression.mayMatchCell(QueryTerm(word: "fo", corrections: [m + "f1x2"])))
        #expect(!TextMatchExpression.mayMatchCell(QueryTerm(word: "fo", corrections: ["f1x2"])))
        #expect(!TextMatchExpression.mayMatchCell(QueryTerm(word: "f", prefix: true, expansions: ["fa", "fo"])))
        #expect(
            TextMatchExpression.term(QueryTerm(word: "phrmacy", corrections: ["pharmacy"]))
                == #"("phrmacy" OR "pharmacy")"#)
        #expect(TextMatchExpression.expression([]) == nil)
    }

    @Test("grid cells: the block around a point holds its own cell and wraps at the antimeridian")
    func grid() {
        let c = Coordinate(latitude: 46.5201, longitude: 6.6301)
        #expect(TextGrid.cell(c, .fine) == "\u{E000}f13652x18663")
        #expect(TextGrid.cell(c, .coarse) == "\u{E000}k1365x1866")
        #expect(TextGrid.block(c, .fine).contains("\u{E000}f13652x18663"))
        #expect(TextGrid.block(c, .coarse).count == 9)
        #expect(TextGrid.block(Coordinate(latitude: 0, longitude: 179.999), .fine).contains("\u{E000}f9000x0"))
    }

    @Test("name match: whole name 1, a name that starts with what is typed 0.5")
    func nameMatch() {
        #expect(
            TextRanking.nameMatch(query: ["cafe", "du", "lac"], lastIsPrefix: false, names: [["cafe", "du", "lac"]])
                == 1)
        #expect(
            TextRanking.nameMatch(query: ["cafe", "du"], lastIsPrefix: true, names: [["cafe", "du", "lac"]]) == 0.5)
        // In a search (no prefix), only the whole name counts.
        #expect(
            TextRanking.nameMatch(query: ["cafe", "du"], lastIsPrefix: false, names: [["cafe", "du", "lac"]]) == 0)
        #expect(
            TextRanking.nameMatch(query: ["cafe", "du", "l"], lastIsPrefix: true, names: [["cafe", "du", "lac"]]) == 0.5
        )
        #expect(TextRanking.nameMatch(query: ["lac"], lastIsPrefix: false, names: [["cafe", "du", "lac"]]) == 0)
    }
}

@Suite("text index migration")
struct TextIndexTests {
    /// SQL that takes a database back to before the text index (version 10).
    static let dropTextIndex = """
        DROP TRIGGER place_text_insert; DROP TRIGGER place_text_unindex; DROP TRIGGER place_text_update; DROP TRIGGER place_text_delete;
        DROP VIEW place_text_source; DROP TABLE place_word; DROP TABLE place_text_vocab; DROP TABLE place_text;
        ALTER TABLE place DROP COLUMN text_cell;
        """

    @Test("migration 11 indexes the places of an older database, leaving out removed ones")
    func migration() throws {
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(try dir.write("in.ndjson", textPlaces)))
            try importer.store.db.execute(
                """
                \(SchemaRollback.indexGeneration)
                -- (12: links.)
                DROP TABLE place_link; DROP TABLE link_rule; DROP TABLE place_group; DROP TABLE link_setting; DROP INDEX place_by_group; ALTER TABLE place DROP COLUMN group_id;
                \(Self.dropTextIndex)
                UPDATE place SET removed_run = last_run WHERE place_id = 'pharma-far';
                -- (14: the date of the data of each run.)
                ALTER TABLE import_run DROP COLUMN data_time;
                DELETE FROM schema_migration WHERE version >= 11;
                PRAGMA user_version = 10;
                """)
        }
        // A reader refuses the old version; a writer migrates it.
        #expect(throws: PlaceDBError.self) { try PlaceReader(databasePath: path) }
        _ = try PlaceImporter(databasePath: path)
        let client = try PlaceReader(databasePath: path)
        let found = try client.searchText(TextSearchRequest(textQuery: "pharmacy")).map(\.place.id.rawValue)
        #expect(found == ["pharma"])
        #expect(
            try client.searchText(TextSearchRequest(textQuery: "Boulngerie")).map(\.place.id.rawValue) == ["bakery"])
    }
}
