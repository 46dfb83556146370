import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("text index analyze: stored counts of common words and prefixes")
struct TextCountTests {
    /// `n` places around Lausanne whose names mix a few common words
    /// ("Café", "Bar", "Boulangerie") and rarer ones, so that words and
    /// prefixes are held by many, some and few places.
    static func places(_ n: Int, prefix: String = "p") -> String {
        let first = ["Café", "Bar", "Boulangerie", "Bäckerei", "Banca", "Casa", "Museo", "Muller"]
        let second = ["du Lac", "Central", "Harbour", "Hall", "Station", "Haus", "Garden", "Gare", "Ouchy"]
        var out = ""
        for i in 0..<n {
            let name = "\(first[i % first.count]) \(second[(i / 3) % second.count])\(i % 7 == 0 ? " Zed\(i)" : "")"
            let lat = 46.50 + Double(i % 40) * 0.002, lng = 6.60 + Double(i / 40) * 0.002
            out +=
                #"{"id":"\#(prefix)\#(i)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["cafe"],"primaryType":"cafe"}"#
                + "\n"
        }
        return out
    }

    func database(_ n: Int = 240) throws -> (TempDirectory, String) {
        let dir = try TempDirectory("text-counts")
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", Self.places(n))))
        return (dir, db)
    }

    /// `count(*)` of `phrase` as FTS5 gives it, on a connection of its own.
    func liveCount(_ db: String, _ phrase: String) throws -> Int64 {
        try Database(path: db, mode: .readOnly).scalar(TextIndexSQL.phraseCount, [.text(phrase)])?.int64 ?? -1
    }

    func stored(_ db: String) throws -> [String: Int64] {
        var out: [String: Int64] = [:]
        try Database(path: db, mode: .readOnly).forEachRow("SELECT phrase, places FROM place_text_count") {
            out[try $0.string(0)] = try $0.int64(1)
        }
        return out
    }

    @Test("every word and prefix held by at least the threshold's places is stored with FTS5's own count, and no other")
    func storesExactlyTheCommonPhrases() throws {
        let (dir, db) = try database()
        _ = dir
        let threshold: Int64 = 12
        let analysis = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: threshold)
        let counts = try stored(db)
        // Every phrase the vocabulary makes, counted live: words and all their prefixes.
        var phrases = Set<String>()
        try Database(path: db, mode: .readOnly).forEachRow(TextIndexSQL.wordCounts) { row in
            let term = try row.string(0)
            guard !term.hasPrefix(TextGrid.mark) else { return }
            phrases.insert(TextMatchExpression.quoted(term))
            let scalars = Array(term.unicodeScalars)
            for n in 1...scalars.count {
                phrases.insert(TextMatchExpression.quoted(String(String.UnicodeScalarView(scalars[..<n]))) + " *")
            }
        }
        var common = 0, words = 0, prefixes = 0
        for phrase in phrases {
            let live = try liveCount(db, phrase)
            if live >= threshold {
                common += 1
                if phrase.hasSuffix(" *") { prefixes += 1 } else { words += 1 }
                #expect(counts[phrase] == live, "\(phrase): stored \(counts[phrase] ?? -1), FTS5 \(live)")
            } else {
                #expect(counts[phrase] == nil, "\(phrase) is held by \(live) places, under the threshold")
            }
        }
        #expect(common == counts.count)
        #expect(analysis?.words == words && analysis?.prefixes == prefixes)
        // Some words and prefixes of each kind, and the shared ones counted once.
        #expect(words >= 5 && prefixes >= 10)
        #expect(counts[#""b" *"#] != nil && counts[#""caf" *"#] == counts[#""cafe" *"#])
        #expect((analysis?.counted ?? 0) < prefixes)
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
    }

    @Test("a reader takes a stored count instead of counting, while the index is the one counted")
    func storedCountsAreRead() throws {
        let (dir, db) = try database()
        _ = dir
        let phrase = TextMatchExpression.quoted("ca") + " *"
        let live = try liveCount(db, phrase)
        #expect(live >= 20)
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 5)
        #expect(try stored(db)[phrase] == live)
        // A count written by hand (no write to the index) is what a reader
        // takes: the stored table is read, not the index.
        let raw = try Database(path: db, mode: .readWrite)
        try raw.run("UPDATE place_text_count SET places = 12345 WHERE phrase = ?1", [.text(phrase)])
        let reader = try PlaceStore(path: db, writable: false)
        #expect(try reader.read { try reader.withTextStatistics { try reader.phraseCount(phrase) } } == 12345)
        // A place renamed in SQL ("Bar ..." to "Casa Nueva"): the index
        // changed, the stored counts are left aside, and the same reader
        // counts again.
        try raw.loadExtension("mod_spatialite")
        try raw.execute("UPDATE place SET name = 'Casa Nueva' WHERE place_id = 'p1'")
        #expect(try reader.textCountState() == .stale)
        let recounted = try reader.read { try reader.withTextStatistics { try reader.phraseCount(phrase) } }
        // (Every place holds "cafe" among its types: the count is the same,
        // not the 12,345 written by hand.)
        let now = try liveCount(db, phrase)
        #expect(recounted == live && now == live)
        #expect(try PlaceReader(databasePath: db).databaseInfo().textCounts == "stale")
    }

    @Test("a change to the index leaves the counts aside: a rename, a deletion or a removal in SQL")
    func anyChangeMakesThemStale() throws {
        let changes = [
            "UPDATE place SET name = 'Banca Nuova' WHERE place_id = 'p1'",
            "DELETE FROM place WHERE place_id = 'p2'",
            "UPDATE place SET removed_run = (SELECT max(id) FROM import_run) WHERE place_id = 'p3'",
        ]
        for change in changes {
            let (dir, db) = try database(60)
            _ = dir
            _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3)
            #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
            let raw = try Database(path: db, mode: .readWrite)
            try raw.loadExtension("mod_spatialite")
            try raw.execute(change)
            #expect(raw.changes == 1, "\(change)")
            #expect(try PlaceStore(path: db, writable: false).textCountState() == .stale, "\(change)")
        }
    }

    @Test("an import of new places keeps the counts current: each stored phrase's count is FTS5's again")
    func anImportOfNewPlacesCarriesThem() throws {
        let (dir, db) = try database()
        let analysis = try #require(try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3))
        #expect(analysis.words > 5 && analysis.prefixes > 5)
        let before = try stored(db)
        // 90 new places, other IDs, the same words; in two imports, the
        // second by another importer (a new connection).
        for (n, prefix) in [(60, "q"), (30, "r")] {
            let importer = try PlaceImporter(databasePath: db)
            _ = try importer.importInput(.file(try dir.write("\(prefix).ndjson", Self.places(n, prefix: prefix))))
            #expect(try PlaceStore(path: db, writable: false).textCountState() == .current, "\(prefix)")
        }
        let after = try stored(db)
        #expect(Set(after.keys) == Set(before.keys), "the phrases stored stay those the analysis stored")
        var grew = 0
        for (phrase, places) in after {
            #expect(places == (try liveCount(db, phrase)), "\(phrase)")
            if places > before[phrase]! { grew += 1 }
        }
        #expect(grew == after.count, "every common phrase is in the new places too")
        // A new analysis stores the same counts for those phrases.
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3)
        let fresh = try stored(db)
        for (phrase, places) in after { #expect(fresh[phrase] == places, "\(phrase)") }
    }

    /// Every stored count is FTS5's `count(*)`, and what a new analysis
    /// (at `minPlaces`) stores for the same phrase.
    func expectCountsExact(_ db: String, minPlaces: Int64, _ comment: Comment) throws {
        let carried = try stored(db)
        #expect(!carried.isEmpty, comment)
        for (phrase, places) in carried { #expect(places == (try liveCount(db, phrase)), "\(phrase): \(comment)") }
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: minPlaces)
        let fresh = try stored(db)
        for (phrase, places) in carried where fresh[phrase] != nil {
            #expect(fresh[phrase] == places, "\(phrase): \(comment)")
        }
    }

    @Test("an import that renames places, and a snapshot that removes some, keep them current and exact")
    func changesAreCarried() throws {
        let (dir, db) = try database(60)
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3)
        // The same records again: nothing changes.
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("same.ndjson", Self.places(60))))
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        // A new place, two renamed ones ("Bar du Lac" to "Banca Nuova",
        // "Café ..." to "Museo Harbour"), one renamed twice in one input.
        let renames = [("p1", "Banca Nuova"), ("p8", "Museo Harbour"), ("p9", "Casa Zed"), ("p9", "Museo Hall")]
        let changed =
            Self.places(1, prefix: "new")
            + renames.map {
                #"{"id":"\#($0.0)","displayName":{"text":"\#($0.1)"},"location":{"latitude":46.5,"longitude":6.6},"types":["cafe"]}"#
            }.joined(separator: "\n") + "\n"
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("changed.ndjson", changed)))
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        try expectCountsExact(db, minPlaces: 3, "after the renames")

        // A snapshot of its own source: 40 places, then 25 of them and 5
        // new: 15 removed, every count exact.
        // (One importer at a time holds the database's import lock.)
        let snapshot = ImportOptions(snapshot: "snap")
        do {
            let importer = try PlaceImporter(databasePath: db, options: snapshot)
            _ = try importer.importInput(.file(try dir.write("s1.ndjson", Self.places(40, prefix: "s"))))
            _ = try importer.finishSnapshot()
        }
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3)
        let kept = Self.places(40, prefix: "s").split(separator: "\n").prefix(25).joined(separator: "\n") + "\n"
        do {
            let importer = try PlaceImporter(databasePath: db, options: snapshot)
            _ = try importer.importInput(.file(try dir.write("s2.ndjson", kept + Self.places(5, prefix: "t"))))
            #expect(try importer.finishSnapshot() == 15)
        }
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        try expectCountsExact(db, minPlaces: 3, "after the snapshot")
    }

    @Test("other names and names in other languages are carried too: every word stored, each count exact")
    func otherNamesAreCarried() throws {
        let dir = try TempDirectory("text-counts-names")
        let db = dir.file("places.sqlite")
        func node(_ id: Int, _ name: String, _ tags: String) -> String {
            "\u{1E}" + GeoFixtures.osmNode(id, name, lng: 9.52 + Double(id) * 0.001, tags: tags) + "\n"
        }
        let first = [
            node(
                1, "Café Rathaus",
                #""amenity":"cafe","name:de":"Rathauskaffee","name:fr":"Café de la Mairie","alt_name":"Ratscafé""#),
            node(2, "Bäckerei Frick", #""shop":"bakery","name:it":"Panetteria Frick","old_name":"Frick Beck""#),
            node(3, "Museo Civico", #""tourism":"museum","name:de":"Stadtmuseum""#),
        ]
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("a.geojsonseq", first.joined())))
        // Every word and prefix stored (one place is enough).
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 1)
        #expect(try stored(db)[TextMatchExpression.quoted("rathauskaffee")] == 1)
        // Two of them again, with other names in other languages.
        let second = [
            node(1, "Café Rathaus", #""amenity":"cafe","name:de":"Ratskeller","name:en":"Town Hall Cafe""#),
            node(3, "Museo Civico", #""tourism":"museum","name:de":"Stadtmuseum","name:fr":"Musée municipal""#),
        ]
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("b.geojsonseq", second.joined())))
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        let carried = try stored(db)
        for (phrase, places) in carried { #expect(places == (try liveCount(db, phrase)), "\(phrase)") }
        #expect(carried[TextMatchExpression.quoted("rathauskaffee")] == 0, "the old name's word is held by none now")
        #expect(carried[TextMatchExpression.quoted("stadtmuseum")] == 1)
    }

    @Test("a change that leaves the index as it was keeps them current; a failed import leaves them as they were")
    func changesOutsideTheIndex() throws {
        let (dir, db) = try database(60)
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3)
        let raw = try Database(path: db, mode: .readWrite)
        try raw.loadExtension("mod_spatialite")
        try raw.execute("UPDATE place SET rating_count = 42 WHERE place_id = 'p4'")
        #expect(raw.changes == 1)
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        // A bad record rolls the whole input back (onError .stop): the
        // counts stay current, and the next import of new places carries them.
        let bad = Self.places(3, prefix: "bad") + "{not json\n"
        let importer = try PlaceImporter(databasePath: db)
        #expect(throws: PlaceDBError.self) { try importer.importInput(.file(try dir.write("bad.ndjson", bad))) }
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        _ = try importer.importInput(.file(try dir.write("good.ndjson", Self.places(20, prefix: "good"))))
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .current)
        for (phrase, places) in try stored(db) { #expect(places == (try liveCount(db, phrase)), "\(phrase)") }
    }

    @Test("answers are the same with the counts stored as without them")
    func sameAnswers() throws {
        let (dir, db) = try database()
        _ = dir
        let inputs = ["ba", "Café H", "Boulangerie G", "mu", "b", "Museo Ha", "casa central", "zed"]
        func answers() throws -> [[String]] {
            let reader = try PlaceReader(databasePath: db)
            var out: [[String]] = []
            for input in inputs {
                let near = SearchArea.circle(center: Coordinate(latitude: 46.52, longitude: 6.62), radiusMeters: nil)
                out.append(
                    try reader.autocomplete(AutocompleteRequest(input: input, locationBias: near)).map {
                        "\($0.placeID.rawValue) \(($0.ranking.score * 1e9).rounded())"
                    })
                var search = TextSearchRequest(textQuery: input, maxResultCount: 10)
                search.locationBias = near
                out.append(
                    try reader.searchText(search, fields: try FieldMask(parsing: "id")).map {
                        "\($0.place.id.rawValue) \(($0.ranking.score * 1e9).rounded())"
                    })
            }
            return out
        }
        let before = try answers()
        #expect(before.filter { !$0.isEmpty }.count >= 12)
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 2)
        #expect(try PlaceReader(databasePath: db).databaseInfo().textCounts == "current")
        #expect(try answers() == before)
    }

    @Test("text-index drop takes the counts away; build makes the tables again, empty; info says none")
    func dropAndBuild() throws {
        let (dir, db) = try database(60)
        _ = dir
        #expect(try PlaceReader(databasePath: db).databaseInfo().textCounts == "none")
        _ = try PlaceStore(path: db, writable: true).analyzeTextIndex(minPlaces: 3)
        #expect(try !stored(db).isEmpty)
        #expect(try TextIndexMaintenance.drop(databasePath: db) == 60)
        let names = try Database(path: db, mode: .readOnly).scalar(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('place_text_count', 'place_text_counted')")?.int64
        #expect(names == 0)
        #expect(try PlaceReader(databasePath: db).databaseInfo().textCounts == nil)
        #expect(try TextIndexMaintenance.analyze(databasePath: db) == nil)
        #expect(try TextIndexMaintenance.build(databasePath: db))
        #expect(try stored(db).isEmpty)
        #expect(try PlaceReader(databasePath: db).databaseInfo().textCounts == "none")
        #expect(try PlaceStore(path: db, writable: false).textCountState() == .unanalyzed)
    }

    @Test(
        "migration 19 gives a version 18 database with a text index the two tables, empty; one without the index stays without"
    )
    func migration19() throws {
        for indexed in [true, false] {
            let (dir, db) = try database(30)
            _ = dir
            if !indexed { #expect(try TextIndexMaintenance.drop(databasePath: db) == 30) }
            do {
                let raw = try Database(path: db, mode: .readWrite)
                try raw.execute(
                    """
                    DROP TABLE IF EXISTS place_text_count;
                    DROP TABLE IF EXISTS place_text_counted;
                    DELETE FROM schema_migration WHERE version > 18;
                    PRAGMA user_version = 18;
                    """)
            }
            #expect(throws: PlaceDBError.self, "a reader refuses the old version") { try PlaceReader(databasePath: db) }
            let upgraded = try PlaceImporter(databasePath: db).store.db
            #expect(try Migrator.storedVersion(upgraded) == PlaceStore.schemaVersion)
            let tables = try upgraded.scalar(
                "SELECT count(*) FROM sqlite_master WHERE name IN ('place_text_count', 'place_text_counted')")?.int64
            #expect(tables == (indexed ? 2 : 0), "indexed: \(indexed)")
            if indexed {
                #expect(try upgraded.scalar("SELECT count(*) FROM place_text_count")?.int64 == 0)
                #expect(try PlaceReader(databasePath: db).databaseInfo().textCounts == "none")
            }
        }
    }
}
