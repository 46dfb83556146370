import CSQLite

/// An error reported by SQLite, or by this wrapper on SQLite's behalf.
///
/// It carries SQLite's extended result code, SQLite's own message and the SQL
/// that failed (never the bound values, which may be private data).
package struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    package let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or this wrapper's.
    package let message: String
    /// The SQL that failed, when there was one.
    package let sql: String?

    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, ...).
    package var primaryCode: Int32 { extendedCode & 0xFF }

    package var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql {
            let oneLine = sql.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
                .map { $0.drop(while: { $0 == " " || $0 == "\t" }) }
                .joined(separator: " ")
            text += " (in \"\(oneLine.prefix(200))\")"
        }
        return text
    }
}
