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
