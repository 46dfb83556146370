import CSQLite

/// An error reported by SQLite, or by this wrapper on SQLite's behalf.
///
/// It carries SQLite's extended result code, SQLite's own message and the SQL
/// that failed (never the bound values, which may be private data).
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    public let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or this wrapper's.
    public let message: String
    /// The SQL that failed, when there was one.
    public let sql: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, ...).
    public var primaryCode: Int32 { extendedCode & 0xFF }

    public var description: String {
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
