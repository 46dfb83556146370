import Foundation
import Testing
import SQLiteDB
import PlaceKitTestSupport

@Suite("RowArena: values bound without SQLite's copy")
struct RowArenaTests {
    @Test("rows bound through a small arena, growing and reused row after row, read back as bound")
    func rowsRoundTrip() throws {
        let dir = try TempDirectory("arena")
        let db = try Database(path: dir.file("arena.sqlite"))
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT, data BLOB)")
        let insert = try db.prepare("INSERT INTO t (id, name, note, data) VALUES (?, ?, ?, ?)")
        // Smaller than many rows: it has to grow (and move) between rows.
        let arena = RowArena(capacity: 64)
        var rng = TestRandom(seed: 3)
        var expected: [[DatabaseValue]] = []
        for i in 0..<500 {
            let name = String(repeating: "é☕a", count: rng.int(60))
            let note: String? = rng.int(5) == 0 ? nil : "n\(i)-" + String(repeating: "x", count: rng.int(300))
            let data = (0..<rng.int(200)).map { _ in UInt8(rng.int(256)) }
            insert.rewind()
            arena.startRow(reserving: name.utf8.count + (note?.utf8.count ?? 0) + data.count)
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
        #expect(try db.scalar("SELECT count(*) FROM t WHERE name = ''")?.int64 == Int64(expected.filter { $0[1] == .text("") }.count))
        #expect(try db.scalar("SELECT count(*) FROM t WHERE name IS NULL")?.int64 == 0)
    }
}
