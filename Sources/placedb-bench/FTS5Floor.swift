// The floor of the text index's import cost: what FTS5 alone costs to
// index the same rows, with no placedb code on the way (`search`, step 1b).
import Foundation
import SQLiteDB

enum FTS5Floor {
    struct Variant {
        let label: String
        let columns: [Int]
        let detail: String?
    }

    /// The indexed database's own `place_text` definition, its external
    /// content taken away (`content = ''`: what FTS5 stores for an external
    /// content table, `_data`, `_idx`, `_docsize`, `_config`), then fewer
    /// columns or less detail.
    static let variants = [
        Variant(
            label: "as the index: 5 columns (name, other names, address, types, cells)", columns: [0, 1, 2, 3, 4],
            detail: nil),
        Variant(label: "the same, detail=column", columns: [0, 1, 2, 3, 4], detail: "column"),
        Variant(label: "4 text columns, no cells", columns: [0, 1, 2, 3], detail: nil),
        Variant(label: "name only", columns: [0], detail: nil),
    ]

    /// Reads every row of `place_text` (through its view: the text the
    /// index was built from), then inserts them in one transaction into a
    /// new file's FTS5 table, for each variant: CPU seconds of the inserts
    /// and the commit (this thread: SQLite's FTS5 runs on it), wall
    /// seconds, and bytes the table added to the file.
    static func run(indexed: String, dir: String) throws -> [(label: String, cpu: Double, wall: Double, bytes: Int)] {
        let source = try Database(path: indexed, mode: .readOnly)
        guard let sql = try source.scalar("SELECT sql FROM sqlite_master WHERE name = 'place_text'")?.string else {
            throw BenchError(message: "\(indexed): no place_text table")
        }
        let pageSize = try source.scalar("PRAGMA page_size")?.int ?? 4096
        // The columns' text, held in memory so that reading it is not timed.
        var rows: [(Int64, [String?])] = []
        try source.forEachRow("SELECT rowid, name, other_names, address, types, cell FROM place_text") { row in
            rows.append((try row.int64(0), (1...5).map { row.optionalString($0) }))
        }
        let names = ["name", "other_names", "address", "types", "cell"]
        // Its options (tokenize, detail, ...), without the external content.
        guard let open = sql.range(of: "fts5("), sql.hasSuffix(")") else {
            throw BenchError(message: "\(indexed): place_text is not an FTS5 table")
        }
        let options = sql[open.upperBound..<sql.index(before: sql.endIndex)].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0.contains("=") && !$0.hasPrefix("content") }
        var out: [(String, Double, Double, Int)] = []
        for v in variants {
            let path = "\(dir)/fts5-floor.sqlite"
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            let db = try Database(path: path)
            // As placedb opens a new file for an import (PlaceStore): the
            // same page size, cache and sync (rollback journal).
            try db.execute("PRAGMA page_size = \(pageSize); PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536")
            let columns = v.columns.map { names[$0] }
            let own =
                options.filter { v.detail == nil || !$0.hasPrefix("detail") }
                + (v.detail.map { ["detail = \($0)"] } ?? [])
            try db.execute(
                "CREATE VIRTUAL TABLE t USING fts5(\((columns + ["content = ''"] + own).joined(separator: ", ")))")
            let empty = fileSize(path)
            let insert = try db.prepare(
                "INSERT INTO t (rowid, \(columns.joined(separator: ", "))) VALUES (\((1...(columns.count + 1)).map { "?\($0)" }.joined(separator: ", ")))"
            )
            let c0 = threadCPU(), t0 = Date()
            try db.transaction {
                for (rowid, text) in rows {
                    insert.reset()
                    try insert.bind(.integer(rowid), at: 1)
                    for (i, c) in v.columns.enumerated() { try insert.bind(text: text[c], at: Int32(i + 2)) }
                    try insert.run()
                }
            }
            out.append((v.label, threadCPU() - c0, Date().timeIntervalSince(t0), fileSize(path) - empty))
        }
        return out
    }
}
