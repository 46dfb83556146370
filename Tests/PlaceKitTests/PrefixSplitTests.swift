import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage
import SQLiteDB

/// Autocomplete's last word with more vocabulary words than are asked for
/// one by one, looked for in the rows of the other words (`PrefixSplit`).
@Suite("autocomplete's prefix read from the rows the other words match")
struct PrefixSplitTests {
    static let syllables = ["ka", "lo", "mi", "ren", "do", "sa", "ti", "ber", "gan", "vel"]
    /// 60 words starting with "s" (common) and 40 with "qu" (rare): both
    /// more than `prefixExpansionLimit`.
    static let sWords = (0..<60).map { "S" + syllables[$0 % 10] + syllables[$0 / 10] }
    static let qWords = (0..<40).map { "Qu" + syllables[$0 % 10] + syllables[$0 / 10] }
    static let lausanne = Coordinate(latitude: 46.52, longitude: 6.63)
    /// The one "Bookshop Qu..." near Lausanne.
    static let rareNear = "Bookshop Qusaren"

    /// 500 places around Lausanne (Google records: name, address, types)
    /// and 100 OpenStreetMap ones (an `alt_name`, the other names' column),
    /// a few far away; "Bookshop" is common, a word with "q" rare.
    func database() throws -> (TempDirectory, String) {
        let dir = try TempDirectory("prefix-split")
        let db = dir.file("places.sqlite")
        var rng = TestRandom(seed: 31)
        let plain = ["Central", "Lac", "Pont", "Gare", "du", "Riviera"]
        /// A word of a name or address: with "q" only where `rare`.
        func word(rare: Bool = false) -> String {
            switch rng.int(10) {
            case 0...4: Self.sWords[rng.int(Self.sWords.count)]
            case 5 where rare: Self.qWords[rng.int(Self.qWords.count)]
            default: plain[rng.int(plain.count)]
            }
        }
        func location() -> (Double, Double) {
            let spread = [0.004, 0.03, 0.3][rng.int(3)]
            return (46.52 + (rng.unit() - 0.5) * spread, 6.63 + (rng.unit() - 0.5) * spread)
        }
        var google = ""
        for i in 0..<500 {
            let first = ["Bookshop", "Bookshop", "Café", "Boulangerie"][rng.int(4)]
            var name = first + " " + word(rare: first != "Bookshop")
            if rng.int(4) == 0 { name += " " + word(rare: first != "Bookshop") }
            var (lat, lng) = location()
            if i % 40 == 0 { (lat, lng) = (40 + rng.unit() * 8, -4 + rng.unit() * 20) }
            let type = first == "Bookshop" ? "book_store" : first == "Café" ? "cafe" : "bakery"
            let address = rng.int(3) == 0 ? #","formattedAddress":"Rue \#(word()) \#(1 + rng.int(40)), Lausanne""# : ""
            let rating = rng.int(3) == 0 ? #","userRatingCount":\#(rng.int(900))"# : ""
            google +=
                #"{"id":"g\#(i)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["\#(type)"]\#(address)\#(rating)}"#
                + "\n"
        }
        // Every word with the prefixes once (far away), so that the
        // vocabulary has them all.
        for (i, w) in (Self.sWords + Self.qWords).enumerated() {
            google +=
                #"{"id":"w\#(i)","displayName":{"text":"Café \#(w)"},"location":{"latitude":-33.9,"longitude":18.4},"types":["cafe"]}"#
                + "\n"
        }
        // The one rare "Bookshop Qu..." near Lausanne, and two far away.
        for (id, lat, lng) in [("rare", 46.5205, 6.6305), ("rare-far", 47.37, 8.54), ("rare-farther", 48.85, 2.35)] {
            google +=
                #"{"id":"\#(id)","displayName":{"text":"\#(Self.rareNear)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["book_store"]}"#
                + "\n"
        }
        var osm = ""
        for i in 0..<100 {
            let (lat, lng) = location()
            var tags = #""name":"Bookshop \#(plain[rng.int(plain.count)])""#
            if rng.int(2) == 0 { tags += #","alt_name":"\#(word()) Books""# }
            osm +=
                "\u{1E}"
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lng),\#(lat)]},"properties":{"@type":"node","@id":\#(i + 1),\#(tags),"shop":"books"}}"#
                + "\n"
        }
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", google)))
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.geojsonseq", osm)))
        return (dir, db)
    }

    @Test("the places and scores of FTS5's prefix query, from the rows of the other words or the cells")
    func sameAsPrefixQuery() throws {
        let (dir, db) = try database()
        _ = dir
        let store = try PlaceStore(path: db, writable: false)
        let near = TextGrid.block(Self.lausanne, .fine), wide = TextGrid.block(Self.lausanne, .coarse)
        var compared = 0
        try store.read {
            try store.withTextStatistics {
                #expect(try store.wordsStarting(with: "s", limit: 32) == nil)
                #expect(try store.wordsStarting(with: "qu", limit: 32) == nil)
                for (words, prefix) in [
                    (["bookshop"], "s"), (["bookshop"], "qu"), (["cafe"], "s"), (["bookshop", "central"], "s"),
                    ([], "s"), (["books"], "s"), (["bookshop"], "q"), (["rue"], "s"), (["bookshop"], "zz"),
                ] {
                    let others = words.map { QueryTerm(word: $0) }
                    let all = others + [QueryTerm(word: prefix, prefix: true)]
                    let filter = all.contains(where: TextMatchExpression.mayMatchCell)
                    for cells in [near, wide, []] {
                        guard
                            let full = TextMatchExpression.expression(all, cells: cells),
                            let split = TextMatchExpression.expression(others, cells: cells, columnFilter: filter)
                        else {
                            #expect(words.isEmpty && cells.isEmpty)
                            continue
                        }
                        let phrases = TextMatchExpression.phrases(all)
                        let otherPhrases = TextMatchExpression.phrases(others)
                        for best in [nil, 3] {
                            let expected = try store.textMatches(full, phrases: phrases, cells: cells.count, best: best)
                            let got = try store.textMatches(
                                split, phrases: otherPhrases, cells: cells.count, best: best, prefix: prefix)
                            #expect(
                                got.map(\.candidate.rowid) == expected.map(\.candidate.rowid), "\(full) \(best ?? -1)")
                            #expect(got.map(\.bm25) == expected.map(\.bm25), "\(full)")
                            compared += expected.count
                        }
                        guard cells.isEmpty else { continue }
                        for limit in [5, 1000] {
                            let expected = try store.allTextMatches(full, phrases: phrases, limit: limit)
                            let got = try store.allTextMatches(
                                split, phrases: otherPhrases, limit: limit, prefix: prefix)
                            #expect(got?.map(\.candidate.rowid) == expected?.map(\.candidate.rowid), "\(full) \(limit)")
                            #expect(got?.map(\.bm25) == expected?.map(\.bm25), "\(full) \(limit)")
                            #expect(got?.map(\.cell) == expected?.map(\.cell), "\(full) \(limit)")
                        }
                    }
                }
            }
        }
        #expect(compared > 500)
    }

    @Test("autocomplete answers as with FTS5's prefix query, whichever way the prefix is read")
    func sameAnswers() throws {
        let (dir, db) = try database()
        _ = dir
        let reference = try PlaceReader(databasePath: db)
        reference.prefixRowCost = .infinity
        let always = try PlaceReader(databasePath: db)
        always.prefixRowCost = 0
        let chosen = try PlaceReader(databasePath: db)
        let areas: [(bias: SearchArea?, restriction: SearchArea?)] = [
            (.circle(center: Self.lausanne, radiusMeters: nil), nil),
            (.circle(center: Self.lausanne, radiusMeters: 500), nil),
            (nil, .circle(center: Self.lausanne, radiusMeters: 2000)), (nil, nil),
        ]
        var found = 0
        for input in [
            "bookshop s", "Bookshop Qu", "bookshop q", "cafe s", "s", "bookshop central s", "books s", "rue s",
            "boulangerie s", "café q", "bookshop zz",
        ] {
            for area in areas {
                for n in [1, 5, 40] {
                    let request = AutocompleteRequest(
                        input: input, locationBias: area.bias, locationRestriction: area.restriction, maxResultCount: n)
                    let expected = try reference.autocomplete(request)
                    #expect(try always.autocomplete(request) == expected, "\(input) \(n) \(area)")
                    #expect(try chosen.autocomplete(request) == expected, "\(input) \(n) \(area)")
                    found += expected.count
                }
            }
        }
        #expect(found > 500)
    }

    @Test(
        "migration 17 indexes a version 16 database's one-letter prefixes: its definition, FTS5's integrity-check and the answers of a fresh import"
    )
    func prefixListsMigrated() throws {
        let (dir, db) = try database()
        _ = dir
        let copy = dir.file("v16.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        let declared = "SELECT sql FROM sqlite_master WHERE name = 'place_text'"
        do {
            // Version 16: the same index without prefix lists.
            let importer = try PlaceImporter(databasePath: copy)
            let withPrefix = TextIndexSQL.create
            let without = withPrefix.replacing(#/,\s*prefix = '1'/#, with: "")
            #expect(without != withPrefix)
            try Self.downgrade(importer.store.db, to: 16, index: without)
            #expect(try importer.store.db.scalar(declared)?.string?.contains("prefix") == false)
        }
        #expect(throws: PlaceDBError.self, "a reader refuses the old version") { try PlaceReader(databasePath: copy) }
        do {
            let upgraded = try PlaceImporter(databasePath: copy).store.db
            #expect(try upgraded.scalar(declared)?.string?.contains("prefix = '1'") == true)
            // The index against its content (rank 1: the view's text too).
            try upgraded.execute("INSERT INTO place_text (place_text, rank) VALUES ('integrity-check', 1)")
        }
        let found = try sameAutocompletes(
            migrated: copy, fresh: db,
            ["bookshop s", "bookshop q", "cafe s", "s", "b", "books s", "rue s", "café q", "bookshop qu"])
        #expect(found > 100)
    }

    /// Makes `db` a database of schema `version` whose text index is made
    /// by `index` (that version's SQL), as an older placedb left it.
    static func downgrade(_ db: Database, to version: Int, index: String) throws {
        try db.execute(
            """
            \(TextIndexSQL.drop)
            \(index)
            DELETE FROM schema_migration WHERE version > \(version);
            PRAGMA user_version = \(version);
            """)
    }

    /// Asks both databases each input near Lausanne for 1, 5 and 40
    /// suggestions, expects the same answers, and returns how many
    /// suggestions the fresh one gave in all.
    func sameAutocompletes(migrated: String, fresh: String, _ inputs: [String]) throws -> Int {
        let migrated = try PlaceReader(databasePath: migrated)
        let fresh = try PlaceReader(databasePath: fresh)
        var found = 0
        for input in inputs {
            for n in [1, 5, 40] {
                let request = AutocompleteRequest(
                    input: input, locationBias: .circle(center: Self.lausanne, radiusMeters: nil), maxResultCount: n)
                let expected = try fresh.autocomplete(request)
                #expect(try migrated.autocomplete(request) == expected, "\(input) \(n)")
                found += expected.count
            }
        }
        return found
    }

    @Test(
        "migration 18 takes a version 17 database's grid cell words out of the one-letter lists f and k: FTS5's integrity-check and the answers of a fresh import"
    )
    func cellWordsMarked() throws {
        let (dir, db) = try database()
        let copy = dir.file("v17.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        let places = "SELECT count(*) FROM place WHERE removed_run IS NULL"
        let kList = #"SELECT count(*) FROM place_text WHERE place_text MATCH '"k" *'"#
        let kWords =
            #"SELECT count(*) FROM place_text WHERE place_text MATCH '{name other_names address types} : "k" *'"#
        do {
            // Version 17: cell words without the mark (f13652x18663), in
            // the lists f and k.
            let importer = try PlaceImporter(databasePath: copy)
            let marked = TextIndexSQL.create
            let unmarked = marked.replacingOccurrences(of: "char(57344) || ", with: "")
            #expect(unmarked != marked)
            try Self.downgrade(importer.store.db, to: 17, index: unmarked)
            let db = importer.store.db
            #expect(try db.scalar(kList)?.int64 == db.scalar(places)?.int64)
            #expect(
                try db.scalar(#"SELECT count(*) FROM place_text_vocab WHERE term GLOB 'k[0-9]*x[0-9]*'"#)?.int64 ?? 0
                    > 0)
        }
        #expect(throws: PlaceDBError.self, "a reader refuses the old version") { try PlaceReader(databasePath: copy) }
        do {
            let upgraded = try PlaceImporter(databasePath: copy).store.db
            #expect(try Migrator.storedVersion(upgraded) == PlaceStore.schemaVersion)
            try upgraded.execute("INSERT INTO place_text (place_text, rank) VALUES ('integrity-check', 1)")
            // The list k holds the places with a word starting with k, no more.
            let listed = try upgraded.scalar(kList)?.int64 ?? -1
            #expect(listed == (try upgraded.scalar(kWords)?.int64 ?? -2))
            #expect(try listed < (upgraded.scalar(places)?.int64 ?? 0))
            #expect(
                try upgraded.scalar(#"SELECT count(*) FROM place_text_vocab WHERE term GLOB 'k[0-9]*x[0-9]*'"#)?.int64
                    == 0)
            // No cell word in the typo vocabulary.
            #expect(
                try upgraded.scalar("SELECT count(*) FROM place_word WHERE word GLOB char(57344) || '*'")?.int64 == 0)
        }
        let found = try sameAutocompletes(
            migrated: copy, fresh: db,
            ["bookshop k", "bookshop f", "cafe f", "k", "f", "bookshop s", "bookshop q", "café central"])
        #expect(found > 50)
    }

    @Test("a migration that makes the text index again leaves it in one segment, as a fresh import does")
    func remadeIndexMerged() throws {
        let dir = try TempDirectory("remade-index")
        let db = dir.file("places.sqlite")
        // Enough text that FTS5's rebuild writes several segments.
        var rng = TestRandom(seed: 5)
        var lines = ""
        for i in 0..<25_000 {
            let words = (0..<6).map { _ in "w\(rng.int(40_000))" }.joined(separator: " ")
            lines +=
                #"{"id":"p\#(i)","displayName":{"text":"\#(words)"},"location":{"latitude":\#(46 + rng.unit()),"longitude":\#(6 + rng.unit())}}"#
                + "\n"
        }
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", lines)))
        let segments = "SELECT count(DISTINCT segid) FROM place_text_idx"
        do {
            let importer = try PlaceImporter(databasePath: db)
            #expect(try importer.store.db.scalar(segments)?.int64 == 1, "a fresh import")
            // Version 17, its index made by a rebuild alone.
            try Self.downgrade(
                importer.store.db, to: 17,
                index: TextIndexSQL.create.replacingOccurrences(of: "char(57344) || ", with: ""))
            #expect(try importer.store.db.scalar(segments)?.int64 ?? 0 > 1, "a rebuild alone")
        }
        let upgraded = try PlaceImporter(databasePath: db).store.db
        #expect(try Migrator.storedVersion(upgraded) == PlaceStore.schemaVersion)
        #expect(try upgraded.scalar(segments)?.int64 == 1)
        try upgraded.execute("INSERT INTO place_text (place_text, rank) VALUES ('integrity-check', 1)")
    }

    @Test("migration 17 leaves a version 16 database without a text index without one")
    func noIndexNotMade() throws {
        let (dir, db) = try database()
        _ = dir
        do {
            let importer = try PlaceImporter(databasePath: db)
            try TextIndex.drop(importer.store.db)
            try importer.store.db.execute(
                "DELETE FROM schema_migration WHERE version >= 17; PRAGMA user_version = 16;")
        }
        let upgraded = try PlaceImporter(databasePath: db).store.db
        #expect(try Migrator.storedVersion(upgraded) == Schema.migrator.latestVersion)
        #expect(try !TextIndex.exists(upgraded))
        #expect(try upgraded.scalar("SELECT name FROM schema_migration WHERE version = 17")?.string != nil)
    }

    @Test("a common first word with a rare prefix finds the one place near, then the far ones")
    func rarePrefix() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        client.prefixRowCost = 0
        for input in ["bookshop q", "Bookshop Qu", "bookshop qusa"] {
            let s = try client.autocomplete(
                AutocompleteRequest(
                    input: input, locationBias: .circle(center: Self.lausanne, radiusMeters: nil), maxResultCount: 3))
            #expect(s.map(\.placeID.rawValue) == ["rare", "rare-far", "rare-farther"], "\(input)")
        }
    }
}
