import Foundation
import Testing
import SQLiteDB
@testable import PlaceStorage
import PlaceKitTestSupport

/// `place_type` rows of a fresh import: each chunk sorted, then written a
/// statement at a time while the next fills, with the stale pairs of rows
/// written again left out in either chunk.
@Suite("PendingTypeRows")
struct PendingTypeRowsTests {
    let dir: TempDirectory
    init() throws { dir = try TempDirectory("types") }

    func database(_ name: String) throws -> Database {
        let db = try Database(path: dir.file(name))
        try db.execute(
            "CREATE TABLE place_type (type TEXT NOT NULL, place INTEGER NOT NULL, PRIMARY KEY (type, place)) WITHOUT ROWID"
        )
        return db
    }

    func rows(_ db: Database) throws -> Set<String> {
        var out = Set<String>()
        try db.forEachRow("SELECT type, place FROM place_type") { row in
            out.insert("\(try row.string(0)) \(row[1].int64 ?? -1)")
        }
        return out
    }

    static let names = [
        "cafe", "bar", "Bar", "bär", "restaurant", "food", "point_of_interest", "establishment", "shop", "☕",
        "museum", "park", "", "a", "aa", "ab", "b", "store", "bakery", "pharmacy",
    ]

    @Test(
        "the stored rows are each row's last types, whatever the chunk; rows written again leave nothing stale",
        arguments: [1, 7, 50, 300])
    func lastTypesWin(chunk: Int) throws {
        let db = try database("last-\(chunk).sqlite")
        let direct = try TypeRowWriter(db: db)
        var rng = TestRandom(seed: UInt64(chunk))
        var want: [Int64: [String]] = [:]
        try db.transaction {
            let pending = try PendingTypeRows(db: db, chunk: chunk)
            var next: Int64 = 1
            for _ in 0..<3000 {
                let types = (0..<rng.int(4)).map { _ in Self.names[rng.int(Self.names.count)] }
                if rng.int(6) == 0, next > 1 {
                    // A row written again, as DirectLoader writes it: its
                    // pairs still waiting are stale, its types go in now.
                    let rowid = Int64(1 + rng.int(Int(next - 1)))
                    try pending.markRewritten(rowid)
                    try direct.replace(rowid: rowid, oldTypes: want[rowid] ?? [], with: types, insertAll: true)
                    want[rowid] = types
                } else {
                    try pending.add(rowid: next, types: types)
                    want[next] = types
                    next += 1
                }
            }
            try pending.flush()
        }
        var expected = Set<String>()
        for (rowid, types) in want { for t in types { expected.insert("\(t) \(rowid)") } }
        let got = try rows(db)
        #expect(got.count == expected.count)
        #expect(got.subtracting(expected).isEmpty, "stored, stale: \(got.subtracting(expected).sorted().prefix(5))")
        #expect(expected.subtracting(got).isEmpty, "missing: \(expected.subtracting(got).sorted().prefix(5))")
    }

    @Test("a full chunk is written a statement at a time as the next one fills, and all of it before the next is full")
    func writtenAsTheNextFills() throws {
        let db = try database("spread.sqlite")
        let chunk = 2000
        try db.transaction {
            let pending = try PendingTypeRows(db: db, chunk: chunk)
            var rowid: Int64 = 0
            func addPlace() throws {
                rowid += 1
                try pending.add(rowid: rowid, types: [Self.names[Int(rowid) % 7], "establishment"])
            }
            // The first chunk fills: nothing written yet.
            for _ in 0..<(chunk / 2 - 1) { try addPlace() }
            #expect(try db.scalar("SELECT count(*) FROM place_type")?.int == 0)
            try addPlace()
            var counts: [Int] = []
            // The second chunk fills: the first is written in steps.
            for _ in 0..<(chunk / 2 - 1) {
                try addPlace()
                counts.append(try db.scalar("SELECT count(*) FROM place_type")?.int ?? -1)
            }
            let steps = zip(counts.dropFirst(), counts).map { $0 - $1 }
            #expect(counts.first ?? 0 < 100, "\(counts.prefix(3))")
            #expect(steps.allSatisfy { $0 >= 0 && $0 <= 64 }, "\(steps.filter { $0 > 64 }.prefix(3))")
            #expect(counts.last == chunk)
            try pending.flush()
            #expect(try db.scalar("SELECT count(*) FROM place_type")?.int == 2 * Int(rowid))
        }
    }
}
