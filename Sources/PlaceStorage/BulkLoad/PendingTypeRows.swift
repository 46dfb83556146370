import SQLiteDB

/// `place_type` rows of a fresh import, written a chunk at a time in key
/// order (type, place) instead of one by one as places come.
///
/// Rows inserted in input order land all over the table's B-tree (each
/// place goes to the end of its type's range, a different page each time);
/// sorted, a chunk's rows of one type follow each other onto the same pages,
/// after the rows of the chunks before (rowids only grow in a fresh import).
///
/// A full chunk is sorted at once, but written a statement at a time while
/// the next chunk fills (`add` writes two rows for each row it takes), so
/// the writing thread never stops for a whole chunk's inserts, a stop the
/// reading thread, its queue full, would wait out. Memory stays bounded by two
/// chunks: the one filling and the one being written.
///
/// A row written again in the same import (its ID repeats in the input)
/// has its types written directly (`markRewritten`); its pairs still waiting
/// are then left out, in either chunk.
final class PendingTypeRows {
    private struct Pair {
        let rowid: Int64
        let code: Int32
    }

    private let insert: MultiRowInsert
    /// The type names `insert` reads while a chunk is written (`RowArena`).
    private let arena = RowArena(capacity: 1024)
    private let chunk: Int
    private var names: [String] = []
    private var codes: [String: Int32] = [:]
    /// The chunk filling, in input order.
    private var pairs: [Pair] = []
    /// The chunk before, sorted, written from `written` on.
    private var sorted: [Pair] = []
    private var written = 0
    /// Its type names, in `arena`, by code.
    private var nameBytes: [ArenaBytes] = []
    /// Rows `add` owes to the chunk being written (counted only while
    /// one is; `sortChunk` starts it again at 0).
    private var credit = 0
    /// Rows whose types were written directly since the last chunk was
    /// sorted; their waiting pairs are stale.
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
        if pairs.count >= chunk {
            try writeRest()
            sortChunk()
        } else if written < sorted.count {
            // Twice as fast as rows come: the chunk is written before the next one fills.
            credit += 2 * types.count
            while credit >= insert.rowsPerStatement && written < sorted.count {
                credit -= insert.rowsPerStatement
                try writeNext(insert.rowsPerStatement)
            }
        }
    }

    func markRewritten(_ rowid: Int64) throws {
        rewritten.insert(rowid)
        if rewritten.count >= chunk { try flush() }
    }

    /// Writes every waiting row.
    func flush() throws {
        try writeRest()
        sortChunk()
        try writeRest()
    }

    /// Writes what is left of the sorted chunk.
    private func writeRest() throws {
        while written < sorted.count { try writeNext(sorted.count - written) }
    }

    /// Writes the sorted chunk's next `count` rows at most, leaving out the
    /// stale ones.
    private func writeNext(_ count: Int) throws {
        let end = min(sorted.count, written + count)
        let rows =
            rewritten.isEmpty
            ? sorted[written..<end] : ArraySlice(sorted[written..<end].filter { !rewritten.contains($0.rowid) })
        try insert.insert(count: rows.count) { statement, i, at in
            let p = rows[rows.startIndex + i]
            try statement.bindText(nameBytes[Int(p.code)], at: at)
            try statement.bind(integer: p.rowid, at: at + 1)
        }
        written = end
    }

    /// Moves the filling chunk, sorted by key (type name, its bytes as
    /// SQLite's BINARY collation compares them, then rowid), to be written.
    /// Call once the chunk before is written.
    private func sortChunk() {
        precondition(written == sorted.count, "a chunk sorted before the one before it was written")
        let order = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
        var rank = [Int32](repeating: 0, count: names.count)
        for (r, code) in order.enumerated() { rank[code] = Int32(r) }
        if !rewritten.isEmpty { pairs.removeAll { rewritten.contains($0.rowid) } }
        rewritten = []
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
            sorted.removeAll(keepingCapacity: true)
            sorted.append(contentsOf: pairs)
            for p in pairs {
                let r = Int(rank[Int(p.code)])
                sorted[next[r]] = p
                next[r] += 1
            }
        } else {
            swap(&sorted, &pairs)
            sorted.sort { a, b in
                let ra = rank[Int(a.code)], rb = rank[Int(b.code)]
                return ra < rb || (ra == rb && a.rowid < b.rowid)
            }
        }
        pairs.removeAll(keepingCapacity: true)
        written = 0
        credit = 0
        // Each type's name copied once, and bound without SQLite's copy
        // per row (the arena is not written again until the next chunk).
        arena.startRow()
        nameBytes = names.map { arena.copy($0) }
    }
}
