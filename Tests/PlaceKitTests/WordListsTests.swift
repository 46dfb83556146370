import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("text-index lists: stored word lists answer as FTS5 does")
struct WordListsTests {
    /// Places around Lausanne whose names, addresses and types put words in
    /// every column, some words many times (a frequency past one byte), and
    /// letters the tokenizer keeps ("ł").
    static func places(_ n: Int, prefix: String = "w") -> String {
        let first = ["Café", "Bar", "Boulangerie", "Bäckerei", "Banca", "Casa", "Museo", "Łódź", "Hall"]
        let second = ["du Lac", "Central", "Harbour", "Hall", "Station", "Haus", "Garden", "Gare", "Ouchy"]
        let types = [
            ["cafe"], ["bar", "restaurant"], ["bakery", "store"], ["bank"], ["museum", "tourist_attraction"],
        ]
        var out = ""
        for i in 0..<n {
            var name = "\(first[i % first.count]) \(second[(i / 3) % second.count])"
            if i % 7 == 0 { name += " Zed\(i % 5)" }
            if i == 11 { name += String(repeating: " Repeat", count: 30) }
            // A prefix of more words than are cut to a block word by word.
            if i % 3 == 1 { name += " Pre\(i % 97)" }
            let lat = 46.50 + Double(i % 40) * 0.002, lng = 6.60 + Double(i / 40) * 0.002
            let address = i % 3 == 0 ? #","formattedAddress":"Rue du Lac \#(i), 1007 Lausanne, Harbour""# : ""
            let t = types[i % types.count].map { "\"\($0)\"" }.joined(separator: ",")
            out +=
                #"{"id":"\#(prefix)\#(i)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":[\#(t)],"primaryType":\#(types[i % types.count][0].debugDescription)\#(address)}"#
                + "\n"
        }
        return out
    }

    func database(_ n: Int = 300) throws -> (TempDirectory, String) {
        let dir = try TempDirectory("word-lists")
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(try dir.write("in.ndjson", Self.places(n))))
        return (dir, db)
    }

    /// What a query asks of the text index: an expression with its phrases
    /// and cells, and how (`best`, or all of them up to `limit`).
    struct Asked: CustomStringConvertible {
        var expression: String
        var phrases: [String]
        var cells: Int = 0
        var best: Int?
        var limit: Int?
        var prefix: String?
        var description: String {
            "\(expression) best \(best.map(String.init) ?? "-") limit \(limit.map(String.init) ?? "-") prefix \(prefix ?? "-")"
        }
    }

    static func asked() -> [Asked] {
        let here = Coordinate(latitude: 46.51, longitude: 6.62)
        let fine = TextGrid.block(here, .fine), coarse = TextGrid.block(here, .coarse)
        // A block at the places' edge: few of them.
        let edge = TextGrid.block(Coordinate(latitude: 46.585, longitude: 6.625), .fine)
        let termSets: [[QueryTerm]] = [
            [QueryTerm(word: "cafe")],
            [QueryTerm(word: "cafe"), QueryTerm(word: "du"), QueryTerm(word: "lac")],
            [QueryTerm(word: "bar"), QueryTerm(word: "central")],
            [QueryTerm(word: "hall")],
            [QueryTerm(word: "harbour"), QueryTerm(word: "lausanne")],
            [QueryTerm(word: "repeat")],
            [QueryTerm(word: "łodz"), QueryTerm(word: "gare")],
            [QueryTerm(word: "store")],
            [QueryTerm(word: "tourist"), QueryTerm(word: "attraction")],
            [QueryTerm(word: "nowhere")],
            [QueryTerm(word: "ca", prefix: true)],
            [QueryTerm(word: "b", prefix: true)],
            [QueryTerm(word: "museo"), QueryTerm(word: "ha", prefix: true)],
            [QueryTerm(word: "zed", prefix: true), QueryTerm(word: "central")],
            [QueryTerm(word: "cafx", corrections: ["cafe", "casa"]), QueryTerm(word: "lac")],
            [QueryTerm(word: "ba", prefix: true, expansions: ["bar", "banca", "bakery"])],
            [QueryTerm(word: "qq", prefix: true)],
            [QueryTerm(word: "ł", prefix: true)],
            [QueryTerm(word: "łod", prefix: true), QueryTerm(word: "gare")],
            [QueryTerm(word: "pre", prefix: true)],
            // Words the index does not hold, of characters it holds.
            [QueryTerm(word: "łodx", corrections: ["łodz"]), QueryTerm(word: "gare")],
            [QueryTerm(word: "łx", prefix: true)],
            [QueryTerm(word: "bar"), QueryTerm(word: "pre", prefix: true)],
            // A prefix asked as its words, tested on the places of another
            // word (their own words), one of them also a phrase of its own,
            // one held by no place.
            [QueryTerm(word: "cafe"), QueryTerm(word: "ha", prefix: true, expansions: ["hall", "harbour", "haus"])],
            [QueryTerm(word: "hall"), QueryTerm(word: "ha", prefix: true, expansions: ["hall", "harbour", "haus"])],
            [QueryTerm(word: "museo"), QueryTerm(word: "ga", prefix: true, expansions: ["gare", "garden", "gaz"])],
        ]
        var out: [Asked] = []
        for terms in termSets {
            let phrases = TextMatchExpression.phrases(terms)
            for any in [false, true] where !any || terms.count > 1 {
                for cells in [[], fine, coarse, edge] {
                    guard let e = TextMatchExpression.expression(terms, any: any, cells: cells) else { continue }
                    for best in [nil, 5, 2000] as [Int?] {
                        out.append(Asked(expression: e, phrases: phrases, cells: cells.count, best: best))
                    }
                    if cells.isEmpty {
                        for limit in [3, 1000] { out.append(Asked(expression: e, phrases: phrases, limit: limit)) }
                    }
                }
            }
        }
        // A prefix looked for in the rows of the other words (`PrefixSplit`).
        for (others, prefix) in [(["museo"], "ha"), (["bar", "central"], "z"), (["cafe"], "l"), (["hall"], "qq")] {
            let terms = others.map { QueryTerm(word: $0) }
            for cells in [[], fine] {
                guard let e = TextMatchExpression.expression(terms, cells: cells) else { continue }
                let phrases = TextMatchExpression.phrases(terms)
                out.append(Asked(expression: e, phrases: phrases, cells: cells.count, best: 2000, prefix: prefix))
                if cells.isEmpty { out.append(Asked(expression: e, phrases: phrases, limit: 1000, prefix: prefix)) }
            }
        }
        return out
    }

    typealias Answer = [(rowid: Int64, bm25: UInt64, cell: Int64)]

    func answer(_ store: PlaceStore, _ a: Asked) throws -> Answer? {
        if let limit = a.limit {
            return try store.allTextMatches(a.expression, phrases: a.phrases, limit: limit, prefix: a.prefix)?.map {
                ($0.candidate.rowid, $0.bm25.bitPattern, $0.cell)
            }
        }
        return try store.withTextStatistics {
            try store.textMatches(a.expression, phrases: a.phrases, cells: a.cells, best: a.best, prefix: a.prefix)
                .map { ($0.candidate.rowid, $0.bm25.bitPattern, -1) }
        }
    }

    func expectSame(_ a: Answer?, _ b: Answer?, _ comment: Comment) {
        #expect((a == nil) == (b == nil), comment)
        guard let a, let b else { return }
        #expect(a.count == b.count, comment)
        for (x, y) in zip(a, b) {
            #expect(x.rowid == y.rowid && x.bm25 == y.bm25 && x.cell == y.cell, comment)
        }
    }

    @Test(
        "each expression search and autocomplete ask gives the same places, in the same order, with the same BM25 bit for bit"
    )
    func sameAsFTS5() throws {
        let (dir, db) = try database()
        _ = dir
        let summary = try #require(try PlaceStore(path: db, writable: false).writeWordLists())
        #expect(summary.words > 50 && summary.postings > 1000)
        let lists = try PlaceStore(path: db, writable: false)
        let asked = Self.asked()
        let withLists = try asked.map { try answer(lists, $0) }
        // Every expression was answered from the lists.
        #expect(lists.textMatchesFromWordLists == asked.count)
        try FileManager.default.moveItem(atPath: WordLists.path(for: db), toPath: db + ".aside")
        let fts5 = try PlaceStore(path: db, writable: false)
        var nonEmpty = 0
        for (a, mine) in zip(asked, withLists) {
            let theirs = try answer(fts5, a)
            expectSame(mine, theirs, "\(a)")
            if let mine, !mine.isEmpty { nonEmpty += 1 }
        }
        #expect(fts5.textMatchesFromWordLists == 0)
        #expect(nonEmpty > asked.count / 2)
    }

    @Test("the lists count words and prefixes as FTS5 does")
    func counts() throws {
        let (dir, db) = try database()
        _ = dir
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        guard case .success(let lists) = WordLists.open(WordLists.path(for: db)) else {
            Issue.record("the lists do not open")
            return
        }
        let live = try Database(path: db, mode: .readOnly)
        for phrase in [
            #""cafe""#, #""hall""#, #""h" *"#, #""ha" *"#, #""b" *"#, #""repeat""#, #""zz" *"#, #""nowhere""#,
        ] {
            let n = try live.scalar(TextIndexSQL.phraseCount, [.text(phrase)])?.int64
            #expect(WordListQuery.count(phrase, lists: lists) == n, "\(phrase)")
        }
        // A word is one token as it stands when the index's words hold its
        // characters; other words are left to FTS5.
        #expect(lists.isOneToken(Array("łodx".utf8)) && lists.isOneToken(Array("zed9".utf8)))
        for word in ["ŵodz", "Łodz", "o'brien", "cafe\u{301}", ""] {
            #expect(!lists.isOneToken(Array(word.utf8)), "\(word)")
            #expect(WordListQuery(TextMatchExpression.quoted(word), lists: lists) == nil, "\(word)")
        }
        #expect(WordListQuery(TextMatchExpression.quoted("łodx"), lists: lists) != nil)
        // A frequency past what one byte holds: "repeat" 30 times in a name (weight 10).
        let w = try #require(lists.find(Array("repeat".utf8)))
        #expect(lists.frequency(lists.postings(w).lowerBound) == 300)
        // The places are numbered by grid cell, not by rowid: each cell's
        // places are one run of documents, each holding the cell's word.
        #expect(lists.cellRuns)
        #expect(!(1..<lists.placeCount).allSatisfy { lists.rowid(UInt32($0 - 1)) < lists.rowid(UInt32($0)) })
        let here = Coordinate(latitude: 46.51, longitude: 6.62)
        var cells = 0
        for level in [TextGrid.Level.fine, .coarse] {
            for cell in TextGrid.block(here, level) {
                guard let w = lists.find(Array(cell.utf8)) else { continue }
                let run = lists.cellRun(w)
                #expect(run.count == lists.postings(w).count, "\(cell)")
                #expect(run.allSatisfy { lists.tokens($0) > 0 }, "\(cell)")
                var cellRowids: Set<Int64> = []
                try live.forEachRow(
                    "SELECT rowid FROM place_text WHERE place_text MATCH ?", [.text("cell : \"\(cell)\"")]
                ) { cellRowids.insert(try $0.int64(0)) }
                #expect(Set(run.map { lists.rowid($0) }) == cellRowids, "\(cell)")
                cells += 1
            }
        }
        #expect(cells >= 3)
    }

    @Test("after an import the lists are stale: FTS5 answers, the same as without them, until they are written again")
    func staleAfterImport() throws {
        let (dir, db) = try database()
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("more.ndjson", Self.places(20, prefix: "x"))))
        let a = Asked(expression: #""cafe""#, phrases: [#""cafe""#], best: nil)
        let stale = try PlaceStore(path: db, writable: false)
        let before = try answer(stale, a)
        #expect(stale.textMatchesFromWordLists == 0)
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        let current = try PlaceStore(path: db, writable: false)
        expectSame(try answer(current, a), before, "written again")
        #expect(current.textMatchesFromWordLists == 1)
        // A reader that found them stale reads the new file from its next query on.
        expectSame(try answer(stale, a), before, "the stale reader, after they were written again")
        #expect(stale.textMatchesFromWordLists == 1)
        // The new places are found.
        #expect((before ?? []).count > 300 / 9)
    }

    @Test("a damaged file, or one of another format, is not read: FTS5 answers")
    func damaged() throws {
        let (dir, db) = try database()
        _ = dir
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        let path = WordLists.path(for: db)
        let good = try #require(FileManager.default.contents(atPath: path))
        func damage(at offset: Int, _ expected: (WordListsProblem) -> Bool) throws {
            var bytes = [UInt8](good)
            bytes[offset] ^= 0x5a
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            switch WordLists.open(path) {
            case .success: Issue.record("damage at \(offset) was not found")
            case .failure(let p): #expect(expected(p), "\(offset): \(p)")
            }
            let store = try PlaceStore(path: db, writable: false)
            _ = try answer(store, Asked(expression: #""cafe""#, phrases: [#""cafe""#], best: 5))
            #expect(store.textMatchesFromWordLists == 0)
        }
        func isDamaged(_ p: WordListsProblem) -> Bool { if case .damaged = p { true } else { false } }
        // The header, then a byte in the middle of each section.
        try damage(at: 40, isDamaged)
        let word = { (i: Int) in
            good.withUnsafeBytes { Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))) }
        }
        for i in WordLists.sectionNames.indices {
            let offset = word(WordLists.fixedWords + 3 * i), length = word(WordLists.fixedWords + 3 * i + 1)
            #expect(length > 0, "section \(WordLists.sectionNames[i]) is empty")
            if length > 0 { try damage(at: offset + length / 2, isDamaged) }
        }
        try damage(at: 8, { $0 == .otherFormat })
        try Data([0, 1, 2]).write(to: URL(fileURLWithPath: path))
        if case .failure(let p) = WordLists.open(path) {
            #expect(p == .damaged("it is too short"))
        } else {
            Issue.record("a file of three bytes opened")
        }
    }

    @Test("a file checked once is recorded; any later write to it makes the next reader check it again")
    func checkedRecord() throws {
        let (dir, db) = try database()
        _ = dir
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        let path = WordLists.path(for: db)
        // The record is written only for a file changed more than a second ago.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -10)], ofItemAtPath: path)
        Thread.sleep(forTimeInterval: 1.1)
        guard case .success = WordLists.open(path) else {
            Issue.record("the lists do not open")
            return
        }
        #expect(FileManager.default.fileExists(atPath: CheckedRecord.path(path)))
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        bytes[bytes.count / 2] ^= 1
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(bytes.count / 2))
        handle.write(Data([bytes[bytes.count / 2]]))
        try handle.close()
        if case .success = WordLists.open(path) { Issue.record("a changed file was trusted on its old record") }
    }
}
