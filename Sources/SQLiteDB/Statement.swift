import CSQLite

/// A prepared statement. It owns its `sqlite3_stmt` and finalizes it in
/// `deinit`. Reuse it with `bind` + `step`; it is reset before each binding.
package final class Statement {
    let handle: OpaquePointer
    /// The SQL text, for error messages.
    package let sql: String
    private unowned let database: Database

    init(database: Database, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw database.lastError(code: rc, sql: sql)
        }
        self.handle = stmt
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings. It cannot fail:
    /// `sqlite3_reset` only repeats the error of the last `step`, which
    /// `step` has already thrown, and `sqlite3_clear_bindings` always
    /// succeeds.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to parameters 1...n (after a reset).
    package func bind(_ values: [DatabaseValue]) throws {
        reset()
        let count = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == count else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE, message: "statement takes \(count) arguments, got \(values.count)", sql: sql
            )
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// How many parameters the statement has (the largest index).
    package var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    /// Binds one value to parameter `index` (1-based).
    package func bind(_ value: DatabaseValue, at index: Int32) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let v): try bind(integer: v, at: index)
        case .real(let v): try bind(real: v, at: index)
        case .text(let s):
            // With its length: as a C string it would end at a NUL.
            var s = s
            let rc = s.withUTF8 { bytes in
                UnsafeRawBufferPointer(bytes).withMemoryRebound(to: CChar.self) { chars in
                    // An empty string has no base address; SQLite reads a NULL pointer as NULL, not "".
                    chars.isEmpty
                        ? sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                        : sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), csqlite_transient())
                }
            }
            if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
        case .blob(let b): try b.withUnsafeBytes { try bindBlob($0, at: index) }
        }
    }

    /// Binds a string's UTF-8 as text (nil: NULL) without the C string a
    /// `DatabaseValue.text` makes (SQLite copies the bytes).
    package func bind(text: String?, at index: Int32) throws {
        guard var text else { return try bindNull(at: index) }
        try text.withUTF8 { try bindText(utf8: UnsafeRawBufferPointer($0), at: index) }
    }

    package func bind(integer: Int64?, at index: Int32) throws {
        guard let integer else { return try bindNull(at: index) }
        let rc = sqlite3_bind_int64(handle, index, integer)
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    package func bind(real: Double?, at index: Int32) throws {
        guard let real else { return try bindNull(at: index) }
        let rc = sqlite3_bind_double(handle, index, real)
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    package func bindNull(at index: Int32) throws {
        let rc = sqlite3_bind_null(handle, index)
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    /// Binds bytes as a blob (SQLite copies them).
    package func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        let rc = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    /// Resets the statement to run again, keeping its bindings (for a
    /// statement whose every parameter is bound again before each run).
    package func rewind() {
        sqlite3_reset(handle)
    }

    /// Binds UTF-8 bytes as text without building a `String`.
    package func bindText(utf8 bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        let rc = sqlite3_bind_text(
            handle, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
            csqlite_transient())
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    /// Binds bytes copied into a `RowArena` as text, SQLITE_STATIC: SQLite
    /// keeps the pointer (see `RowArena` for when that is safe).
    package func bindText(_ copied: ArenaBytes, at index: Int32) throws {
        // An empty copy still points into the arena, so '' is not NULL.
        let bytes = copied.bytes
        let rc = sqlite3_bind_text(
            handle, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    /// Binds bytes copied into a `RowArena` as a blob, SQLITE_STATIC.
    package func bindBlob(_ copied: ArenaBytes, at index: Int32) throws {
        let bytes = copied.bytes
        let rc = sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), nil)
        if rc != SQLITE_OK { throw database.lastError(code: rc, sql: sql) }
    }

    /// Steps once: the next row, or nil when done. Errors throw.
    package func step() throws -> Row? {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return Row(statement: self)
        case SQLITE_DONE: return nil
        default: throw database.lastError(code: rc, sql: sql)
        }
    }

    /// Steps to completion, ignoring rows.
    package func run() throws {
        while try step() != nil {}
    }

    /// A throwing cursor over the rows.
    package func cursor(_ arguments: [DatabaseValue] = []) throws -> RowCursor {
        try bind(arguments)
        return RowCursor(statement: self)
    }

    /// The column names of the result.
    package var columnNames: [String] {
        (0..<sqlite3_column_count(handle)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }
}

/// A throwing cursor: `while let row = try cursor.next() { ... }`.
package struct RowCursor {
    let statement: Statement
    package mutating func next() throws -> Row? { try statement.step() }
}
