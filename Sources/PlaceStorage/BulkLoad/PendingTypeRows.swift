import SQLiteDB

/// `place_type` rows of a fresh import, written a chunk at a time in key
/// order (type, place) instead of one by one as places come.
///
/// Rows inserted in input order land all over the table's B-tree (each
/// place goes to the end of its type's range, a different page each time);
/// sorted, a chunk's rows of one type follow each other onto the same pages,
/// after the rows of the chunks before (rowids only grow in a fresh import).
/// Memory stays bounded by the chunk.
///
/// A row written again in the same import (its ID repeats in the input)
/// has its types written directly (`markRewritten`); its pairs still waiting
/// are then left out.
final class PendingTypeRows {
    private struct Pair {
        let rowid: Int64
        let code: Int32
    }

    private let insert: MultiRowInsert
    /// The type names `insert` reads during a flush (`RowArena`).
    private let arena = RowArena(capacity: 1024)
    private let chunk: Int
    private var names: [String] = []
    private var codes: [String: Int32] = [:]
    private var pairs: [Pair] = []
    /// Rows whose types were written directly; their waiting pairs are stale.
    private var rewritten = Set<Int64>()

    init(db: Database, chunk: Int) throws {
        insert = try MultiRowInsert(db: db, verb: "INSERT OR IGNORE", into: "place_type", columns: ["type", "place"])
        self.chunk = max(1, chunk)
    }

    func add(rowid: Int64, types: [String]) throws {
        for type in types {
            let code: Int32
            if let c = codes[type] {
                code = c
            } else {
                code = Int32(names.count)
                names.append(type)
                codes[type] = code
            }
            pairs.append(Pair(rowid: rowid, code: code))
        }
        if pairs.count >= chunk { try flush() }
    }

    func markRewritten(_ rowid: Int64) throws {
        rewritten.insert(rowid)
        if rewritten.count >= chunk { try flush() }
    }

    /// Writes the waiting rows in key order: type name (its bytes, as
    /// SQLite's BINARY collation compares them), then rowid.
    func flush() throws {
        let sorted = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
        var rank = [Int32](repeating: 0, count: names.count)
        for (r, code) in sorted.enumerated() { rank[code] = Int32(r) }
        var inRowidOrder = true
        for k in pairs.indices.dropFirst() where pairs[k].rowid < pairs[k - 1].rowid {
            inRowidOrder = false
            break
        }
        if inRowidOrder && !pairs.isEmpty {
            // The usual case (a fresh import's rowids only grow): a stable
            // counting sort by type keeps each type's rows in rowid order.
            var next = [Int](repeating: 0, count: names.count + 1)
            for p in pairs { next[Int(rank[Int(p.code)]) + 1] += 1 }
            for r in 1..<next.count { next[r] += next[r - 1] }
            var sorted = pairs
            for p in pairs {
                let r = Int(rank[Int(p.code)])
                sorted[next[r]] = p
                next[r] += 1
            }
            pairs = sorted
        } else {
            pairs.sort { a, b in
                let ra = rank[Int(a.code)], rb = rank[Int(b.code)]
                return ra < rb || (ra == rb && a.rowid < b.rowid)
            }
        }
        if !rewritten.isEmpty { pairs.removeAll { rewritten.contains($0.rowid) } }
        // Each type's name copied once, and bound without SQLite's copy
        // per row (the arena is not written again until the next flush).
        arena.startRow()
        let nameBytes = names.map { arena.copy($0) }
        try insert.insert(count: pairs.count) { statement, i, first in
            try statement.bindText(nameBytes[Int(pairs[i].code)], at: first)
            try statement.bind(integer: pairs[i].rowid, at: first + 1)
        }
        pairs.removeAll(keepingCapacity: true)
        rewritten = []
    }
}
