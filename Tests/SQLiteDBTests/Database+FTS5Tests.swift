import Foundation
import Testing
import SQLiteDB
import PlaceKitTestSupport

@Suite("bm25_counted: FTS5's BM25 with the phrase counts given")
struct CountedBM25Tests {
    let dir: TempDirectory
    let db: Database

    init() throws {
        dir = try TempDirectory("bm25")
        db = try Database(path: dir.file("fts.sqlite"))
        try db.execute("CREATE VIRTUAL TABLE doc USING fts5(title, body, tag)")
        var rng = TestRandom(seed: 11)
        let words = ["cafe", "bakery", "lac", "du", "pharmacy", "central", "market", "old", "town", "bar"]
        for i in 0..<400 {
            func text(_ n: Int) -> String { (0..<n).map { _ in words[rng.int(words.count)] }.joined(separator: " ") }
            try db.run(
                "INSERT INTO doc (rowid, title, body, tag) VALUES (?, ?, ?, ?)",
                [.integer(Int64(i + 1)), .text(text(1 + rng.int(3))), .text(text(rng.int(8))), .text("t\(i % 7)")])
        }
        try db.registerCountedBM25()
    }

    /// rowid -> score of `function` over the rows matching `query`.
    func scores(_ query: String, _ function: String, _ counts: String? = nil) throws -> [Int64: Double] {
        var out: [Int64: Double] = [:]
        try db.forEachRow(
            "SELECT rowid, \(function) FROM doc WHERE doc MATCH ?1", [.text(query), counts.map { .text($0) } ?? .null]
        ) { row in
            out[try row.int64(0)] = try row.double(1)
        }
        return out
    }

    func count(_ phrase: String) throws -> Int64 {
        try db.scalar("SELECT count(*) FROM doc WHERE doc MATCH ?1", [.text("{title body} : " + phrase)])?.int64 ?? -1
    }

    @Test("with the true counts, or none given, it scores every row as bm25() does")
    func sameAsBM25() throws {
        let query = #"{title body} : ("cafe" AND ("lac" OR "bakery") AND "ph" *) AND tag : ("t1" OR "t3")"#
        let expected = try scores(query, "bm25(doc, 10.0, 2.0, 0.0) + 0 * coalesce(length(?2), 0)")
        #expect(expected.count > 5)
        let counts = try [#""cafe""#, #""lac""#, #""bakery""#, #""ph" *"#].map { String(try count($0)) }.joined(
            separator: " ")
        for given in [counts + " 0 0", counts + " 123 9", counts, nil, "", "x"] {
            let got = try scores(query, "bm25_counted(doc, ?2, 10.0, 2.0, 0.0)", given)
            #expect(got.keys.sorted() == expected.keys.sorted(), "counts \(given ?? "NULL")")
            for (rowid, score) in expected {
                #expect(abs((got[rowid] ?? 0) - score) <= 1e-12 * abs(score), "row \(rowid), counts \(given ?? "NULL")")
            }
        }
    }

    @Test("the counts given are the ones used: other counts give other scores")
    func countsAreUsed() throws {
        let query = #"{title body} : ("cafe" AND "market")"#
        let truth = try scores(
            query, "bm25_counted(doc, ?2, 1.0, 1.0, 0.0)", "\(try count(#""cafe""#)) \(try count(#""market""#))")
        let other = try scores(query, "bm25_counted(doc, ?2, 1.0, 1.0, 0.0)", "1 1")
        #expect(!truth.isEmpty && truth.keys.sorted() == other.keys.sorted())
        #expect(truth.contains { other[$0.key]! < $0.value - 1e-9 }) // rarer words score higher (more negative)
    }
}

@Suite("bm25_prefixed: bm25_counted with a prefix phrase read from each row's text")
struct PrefixedBM25Tests {
    let dir: TempDirectory
    let db: Database

    init() throws {
        dir = try TempDirectory("bm25-prefixed")
        db = try Database(path: dir.file("fts.sqlite"))
        try db.execute(
            "CREATE VIRTUAL TABLE doc USING fts5(title, body, tag, tokenize = 'unicode61 remove_diacritics 2')")
        var rng = TestRandom(seed: 12)
        let words = [
            "Café", "cafeteria", "bakery", "Lac", "du", "pharmacy", "Phare", "central", "market", "old", "town", "bar",
            "Pâtisserie", "park",
        ]
        for i in 0..<400 {
            func text(_ n: Int) -> String { (0..<n).map { _ in words[rng.int(words.count)] }.joined(separator: " ") }
            // The tag column weighs 0 and holds words with the prefixes too.
            try db.run(
                "INSERT INTO doc (rowid, title, body, tag) VALUES (?, ?, ?, ?)",
                [.integer(Int64(i + 1)), .text(text(1 + rng.int(3))), .text(text(rng.int(8))), .text("p\(i % 7) ca")])
        }
        try db.registerCountedBM25()
    }

    /// rowid -> score of the rows matching `query` (`prefix`: bm25_prefixed
    /// with it, its words looked for in the first two columns, its rows
    /// counted there; rows it scores NULL left out).
    func scores(_ query: String, prefix: String? = nil) throws -> [Int64: Double] {
        var out: [Int64: Double] = [:]
        var sql = "SELECT rowid, bm25_counted(doc, NULL, 10.0, 2.0, 0.0) FROM doc WHERE doc MATCH ?1"
        var arguments: [DatabaseValue] = [.text(query)]
        if let prefix {
            sql = """
                SELECT rowid, bm25_prefixed(doc, NULL, ?2, ?3, 2, title, body, 10.0, 2.0, 0.0) FROM doc WHERE doc MATCH ?1
                """
            let rows = try db.scalar(
                "SELECT count(*) FROM doc WHERE doc MATCH ?1", [.text("{title body} : \"\(prefix)\" *")])?.int64
            arguments += [.text(prefix), .integer(rows ?? -1)]
        }
        try db.forEachRow(sql, arguments) { row in
            if !row.isNull(1) { out[try row.int64(0)] = try row.double(1) }
        }
        return out
    }

    @Test("the rows and scores of the expression with the prefix phrase, bit for bit")
    func sameAsPrefixQuery() throws {
        var compared = 0
        for (others, prefix) in [
            (#""cafe" AND ("lac" OR "bakery")"#, "ph"), (#""market""#, "p"), (#""bar""#, "ca"), (#""du""#, "pa"),
            (#""town""#, "zz"), (#""old" AND "old""#, "o"),
        ] {
            let full = #"{title body} : (\#(others) AND "\#(prefix)" *)"#
            let expected = try scores(full)
            let got = try scores("{title body} : (\(others))", prefix: prefix)
            #expect(got.keys.sorted() == expected.keys.sorted(), "\(full)")
            for (rowid, score) in expected { #expect(got[rowid] == score, "\(full) row \(rowid)") }
            // With grid-cell-like phrases of a column weighing 0 after them.
            let inTags = try scores(#"{title body} : (\#(others)) AND tag : ("p1" OR "p3")"#, prefix: prefix)
            let expectedInTags = try scores(#"{title body} : (\#(others) AND "\#(prefix)" *) AND tag : ("p1" OR "p3")"#)
            #expect(inTags == expectedInTags, "\(full) in tags")
            compared += expected.count
        }
        #expect(compared > 100)
    }
}
