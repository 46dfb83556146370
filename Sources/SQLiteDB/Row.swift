import CSQLite

/// The current row of a statement. Valid until the statement steps again.
package struct Row {
    let statement: Statement

    package var count: Int { Int(sqlite3_column_count(statement.handle)) }

    /// The value of column `index` (0-based).
    package subscript(index: Int) -> DatabaseValue {
        let h = statement.handle
        let i = Int32(index)
        switch sqlite3_column_type(h, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(h, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(h, i))
        case SQLITE_TEXT: return .text(Self.text(h, i))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(h, i))
            guard n > 0, let p = sqlite3_column_blob(h, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: p, count: n)))
        default: return .null
        }
    }

    package func isNull(_ index: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_NULL }

    // Required columns: a NULL throws, naming the column, instead of
    // reading as 0 or "" (a database file may come from anyone).

    /// The integer in column `index`; throws when it is NULL.
    package func int64(_ index: Int) throws -> Int64 {
        try requireValue(index)
        return sqlite3_column_int64(statement.handle, Int32(index))
    }
    /// The number in column `index`; throws when it is NULL.
    package func double(_ index: Int) throws -> Double {
        try requireValue(index)
        return sqlite3_column_double(statement.handle, Int32(index))
    }
    /// The text in column `index`; throws when it is NULL.
    package func string(_ index: Int) throws -> String {
        try requireValue(index)
        return optionalString(index) ?? ""
    }

    // Nullable columns: NULL is nil.

    package func optionalInt64(_ index: Int) -> Int64? {
        isNull(index) ? nil : sqlite3_column_int64(statement.handle, Int32(index))
    }
    package func optionalDouble(_ index: Int) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(statement.handle, Int32(index))
    }
    package func optionalString(_ index: Int) -> String? {
        guard sqlite3_column_type(statement.handle, Int32(index)) != SQLITE_NULL else { return nil }
        return Self.text(statement.handle, Int32(index))
    }

    /// Column `i`'s text with its length (`String(cString:)` would end it
    /// at a NUL).
    static func text(_ h: OpaquePointer, _ i: Int32) -> String {
        guard let p = sqlite3_column_text(h, i) else { return "" }
        let n = Int(sqlite3_column_bytes(h, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// The name SQLite gives column `index` of the result.
    package func columnName(_ index: Int) -> String {
        sqlite3_column_name(statement.handle, Int32(index)).map { String(cString: $0) } ?? "#\(index)"
    }

    private func requireValue(_ index: Int) throws {
        guard isNull(index) else { return }
        throw SQLiteError(
            extendedCode: SQLITE_MISMATCH, message: "column '\(columnName(index))' is NULL where a value is required",
            sql: statement.sql)
    }
    /// Calls `body` with the raw bytes of a text or blob column, no copy.
    package func withBytes<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let h = statement.handle
        let i = Int32(index)
        let p = sqlite3_column_blob(h, i)
        let n = Int(sqlite3_column_bytes(h, i))
        return try body(UnsafeRawBufferPointer(start: p, count: n))
    }
}
