import SQLiteDB
import PlaceModel

/// An INSERT of many rows per statement (`VALUES (?, ?), (?, ?), ...`), for
/// bulk writes where running one statement per row costs more than the row:
/// the statement's start, cursor and finish are paid once per batch.
struct MultiRowInsert {
    private let single: Statement
    private let batch: Statement
    let rowsPerStatement: Int
    let columns: Int

    /// `verb` is `INSERT` or `INSERT OR IGNORE`; `table` is quoted as given.
    init(db: Database, verb: String = "INSERT", into table: String, columns: [String], rowsPerStatement: Int = 64)
        throws
    {
        self.columns = columns.count
        self.rowsPerStatement = max(1, rowsPerStatement)
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let head = "\(verb) INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        single = try db.prepare(head + row)
        batch = try db.prepare(head + Array(repeating: row, count: self.rowsPerStatement).joined(separator: ", "))
    }

    /// Inserts rows 0..<count; `bind(statement, row, first)` binds row
    /// `row`'s values to the parameters from `first` on.
    func insert(count: Int, bind: (Statement, Int, Int32) throws -> Void) throws {
        var i = 0
        while count - i >= rowsPerStatement {
            batch.rewind()
            for r in 0..<rowsPerStatement { try bind(batch, i + r, Int32(r * columns + 1)) }
            try batch.run()
            i += rowsPerStatement
        }
        while i < count {
            single.rewind()
            try bind(single, i, 1)
            try single.run()
            i += 1
        }
    }
}
