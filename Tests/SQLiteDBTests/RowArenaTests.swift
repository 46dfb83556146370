import Foundation
import Testing
import SQLiteDB
import PlaceKitTestSupport

@Suite("RowArena: values bound without SQLite's copy")
struct RowArenaTests {
    @Test(
        "rows bound through a small arena, outgrown in the middle of rows and reused row after row, read back as bound")
    func rowsRoundTrip() throws {
        let dir = try TempDirectory("arena")
        let db = try Database(path: dir.file("arena.sqlite"))
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT, data BLOB)")
        let insert = try db.prepare("INSERT INTO t (id, name, note, data) VALUES (?, ?, ?, ?)")
        // Smaller than many rows: a row outgrows it after its first values
        // are bound, which must stay where they are until the row has run.
        let arena = RowArena(capacity: 64)
        var rng = TestRandom(seed: 3)
        var expected: [[DatabaseValue]] = []
        for i in 0..<500 {
            let name = String(repeating: "é☕a", count: rng.int(60))
            let note: String? = rng.int(5) == 0 ? nil : "n\(i)-" + String(repeating: "x", count: rng.int(300))
            let data = (0..<rng.int(200)).map { _ in UInt8(rng.int(256)) }
            insert.rewind()
            arena.startRow()
            try insert.bind(integer: Int64(i), at: 1)
            try insert.bindText(name, at: 2, in: arena)
            try insert.bindText(note, at: 3, in: arena)
            try data.withUnsafeBytes { try insert.bindBlob($0, at: 4, in: arena) }
            try insert.run()
            expected.append([.integer(Int64(i)), .text(name), note.map { .text($0) } ?? .null, .blob(data)])
        }
        var rows: [[DatabaseValue]] = []
        try db.forEachRow("SELECT id, name, note, data FROM t ORDER BY id") { row in
            rows.append((0..<row.count).map { row[$0] })
        }
        #expect(rows.count == expected.count)
        #expect(rows == expected)
        // The empty text is '' (a pointer is bound), not NULL.
        #expect(
            try db.scalar("SELECT count(*) FROM t WHERE name = ''")?.int64
                == Int64(expected.filter { $0[1] == .text("") }.count))
        #expect(try db.scalar("SELECT count(*) FROM t WHERE name IS NULL")?.int64 == 0)
    }

    @Test("values bound only when they change: rows of repeated, alternating and NULL values read back as bound")
    func boundValuesRoundTrip() throws {
        let dir = try TempDirectory("bound")
        let db = try Database(path: dir.file("bound.sqlite"))
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, a TEXT, b BLOB, k INTEGER)")
        // ?6 used twice, as the insert's run column is.
        let insert = try db.prepare("INSERT INTO t (id, n, r, s, a, b, k) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)")
        let binds = BoundValues(insert)
        let arena = RowArena(capacity: 64)
        var rng = TestRandom(seed: 9)
        let sources = ["osm", "osm", "google", "overture"]
        var expected: [[DatabaseValue]] = []
        for i in 0..<2000 {
            // Runs of equal values, then a change; NULL often.
            let n: Int64? = rng.int(3) == 0 ? nil : Int64(rng.int(3))
            let r: Double? = [nil, 0.0, -0.0, 4.5][rng.int(4)]
            let s: String? = rng.int(4) == 0 ? nil : sources[rng.int(sources.count)]
            let a: String? = rng.int(3) == 0 ? nil : "a\(rng.int(5))" + String(repeating: "é", count: rng.int(40))
            let b: [UInt8]? = rng.int(3) == 0 ? nil : (0..<rng.int(50)).map { _ in UInt8(rng.int(256)) }
            insert.rewind()
            arena.startRow()
            try binds.bind(integer: Int64(i), at: 1)
            try binds.bind(integer: n, at: 2)
            try binds.bind(real: r, at: 3)
            try binds.bind(text: s, at: 4)
            try binds.bindText(a, at: 5, in: arena)
            if let b {
                try b.withUnsafeBytes { try binds.bindBlob($0, at: 6, in: arena) }
            } else {
                try binds.bindText(utf8: nil, at: 6, in: arena)
            }
            try insert.run()
            // Column k repeats parameter 6 (the blob or NULL).
            let blob: DatabaseValue = b.map { .blob($0) } ?? .null
            expected.append([
                .integer(Int64(i)), n.map { .integer($0) } ?? .null, r.map { .real($0) } ?? .null,
                s.map { .text($0) } ?? .null, a.map { .text($0) } ?? .null, blob, blob,
            ])
        }
        var rows: [[DatabaseValue]] = []
        try db.forEachRow("SELECT id, n, r, s, a, b, k FROM t ORDER BY id") { row in
            rows.append((0..<row.count).map { row[$0] })
        }
        #expect(rows.count == expected.count)
        #expect(rows == expected)
    }
}
