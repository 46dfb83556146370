import Foundation
import SQLiteDB

/// `place_type` rows of a fresh import, written at its end in key order
/// (type, place) instead of one by one as places come.
///
/// Rows inserted in input order land all over the table's B-tree (each
/// place goes to the end of its type's range, a different page each time);
/// in key order every insert appends to the page the last one filled. Memory
/// stays bounded: a chunk of (rowid, type code) pairs is sorted and spilled
/// as a run (`SortedRuns`) beside the database when full, and the runs are
/// merged at the end.
///
/// A row written again in the same import (its ID repeats in the input)
/// keeps its types up to date directly (`markRewritten`); its deferred pairs
/// are then left out. When more than half a chunk of rows are rewritten,
/// `flush` writes what is pending and the import goes on with direct
/// inserts, so that set stays bounded too.
final class PendingTypeRows {
    /// A row's ID (40 bits) and its type's code (24 bits) in one word.
    struct Pair {
        let bits: UInt64
        init(rowid: Int64, code: UInt32) { bits = UInt64(rowid) << 24 | UInt64(code) }
        var rowid: Int64 { Int64(bits >> 24) }
        var code: Int { Int(bits & 0xFF_FFFF) }
    }

    /// Whether a row fits a pair (anything else is written directly).
    static func fits(rowid: Int64) -> Bool { rowid >= 0 && rowid < 1 << 40 }
    static let maxCodes = 1 << 24

    private let db: Database
    private let insert: Statement
    private let chunk: Int
    private var names: [String] = []
    private var codes: [String: UInt32] = [:]
    private var pairs: [Pair] = []
    private var runs: SortedRuns<Pair>?
    /// Rows whose types were written directly; their deferred pairs are stale.
    private var rewritten = Set<Int64>()

    init(db: Database, insert: Statement, chunk: Int) {
        self.db = db
        self.insert = insert
        self.chunk = max(1, chunk)
    }

    /// Whether rewrites have outgrown the bound (then call `flush`).
    var tooManyRewrites: Bool { rewritten.count > max(1, chunk / 2) }

    /// Defers the row's types; false (nothing deferred) when the row or a
    /// new type does not fit a pair: write them directly.
    func add(rowid: Int64, types: [String]) throws -> Bool {
        guard Self.fits(rowid: rowid), names.count + types.count <= Self.maxCodes else { return false }
        for type in types {
            let code: UInt32
            if let c = codes[type] {
                code = c
            } else {
                code = UInt32(names.count)
                names.append(type)
                codes[type] = code
            }
            pairs.append(Pair(rowid: rowid, code: code))
        }
        if pairs.count >= chunk { try spill() }
        return true
    }

    func markRewritten(_ rowid: Int64) {
        rewritten.insert(rowid)
    }

    /// The order of `place_type`'s key: type name (bytes, as SQLite's BINARY
    /// collation compares), then rowid.
    private func order() -> (Pair, Pair) -> Bool {
        let sorted = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
        var rank = [UInt32](repeating: 0, count: names.count)
        for (r, code) in sorted.enumerated() { rank[code] = UInt32(r) }
        return { a, b in
            let ra = rank[a.code], rb = rank[b.code]
            return ra < rb || (ra == rb && a.bits < b.bits)
        }
    }

    private func spill() throws {
        // Ranks of the names known now agree with the final ones on every
        // pair of names, so the runs merge in the final order.
        let less = order()
        pairs.sort(by: less)
        if runs == nil {
            runs = SortedRuns(directory: URL(fileURLWithPath: db.path).deletingLastPathComponent().path, less: less)
        }
        runs!.less = less
        try runs!.spill(pairs)
        pairs.removeAll(keepingCapacity: true)
    }

    /// Writes every pending row (in key order) and empties the set.
    func flush() throws {
        let less = order()
        let rewritten = self.rewritten
        func write(_ p: Pair) throws {
            if rewritten.contains(p.rowid) { return }
            insert.rewind()
            try insert.bind(text: names[p.code], at: 1)
            try insert.bind(integer: p.rowid, at: 2)
            try insert.run()
        }
        if let spilled = runs {
            try spill()
            pairs = []
            spilled.less = less
            try spilled.merge(write)
        } else {
            pairs.sort(by: less)
            for p in pairs { try write(p) }
        }
        pairs = []
        runs = nil
        self.rewritten = []
    }
}
