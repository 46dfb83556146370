import CSQLite
#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection. It owns its `sqlite3*` handle and closes it in
/// `deinit`. A connection is not `Sendable`: keep it with one owner, and give
/// each parallel reader its own connection.
package final class Database {
    /// How to open a file.
    package enum Mode: Sendable {
        case readOnly
        case readWrite
        /// Read-write, creating the file if it does not exist.
        case create
        /// Read-only, taking the file as one no one changes (SQLite's
        /// `immutable=1`): no locks, no WAL index (`-shm`), nothing
        /// created beside it, and a `-wal` file is not read. For a file in
        /// a read-only directory or on a full or read-only medium, where
        /// `readOnly` cannot create the WAL index.
        case immutable
    }

    /// The raw handle, for the few callers (extension loading) that need it.
    let handle: OpaquePointer
    /// The path the connection was opened on.
    package let path: String
    private var statementCache: [String: Statement] = [:]

    /// Process-wide SQLite settings, applied once before the first connection.
    private static let configured: Bool = {
        _ = csqlite_disable_memstatus()
        return true
    }()

    /// Opens `path`. Throws when SQLite cannot open it.
    package init(path: String, mode: Mode = .create) throws {
        _ = Database.configured
        var db: OpaquePointer?
        let flags: Int32
        switch mode {
        case .readOnly: flags = SQLITE_OPEN_READONLY
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .create: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .immutable: flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let name = mode == .immutable ? Database.fileURI(path, query: "immutable=1") : path
        let rc = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(extendedCode: rc, message: message)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
        if Database.profiles { Database.profile(db) }
    }

    /// Whether `PLACEDB_PROFILE_SQL` is set (to anything but empty or 0):
    /// then every statement a connection runs is written to standard error
    /// when it ends, with the time it took (SQLite's `SQLITE_TRACE_PROFILE`),
    /// for finding which statement of a slow query is slow.
    static let profiles: Bool = {
        guard let v = getenv("PLACEDB_PROFILE_SQL") else { return false }
        let s = String(cString: v)
        return !s.isEmpty && s != "0"
    }()

    /// Writes `sql <ms> ms: <statement, parameters bound>` (at most 300
    /// bytes of it) to standard error as each statement of `db` ends.
    private static func profile(_ db: OpaquePointer) {
        sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_PROFILE),
            { _, _, statement, nanoseconds in
                guard let statement, let nanoseconds else { return 0 }
                let ns = nanoseconds.load(as: Int64.self)
                let stmt = OpaquePointer(statement)
                var text = "?"
                if let expanded = sqlite3_expanded_sql(stmt) {
                    text = String(cString: expanded)
                    sqlite3_free(expanded)
                }
                if text.utf8.count > 300 { text = String(decoding: text.utf8.prefix(300), as: UTF8.self) + "..." }
                let ms = Double(ns) / 1e6
                let line = "sql \((ms * 1000).rounded() / 1000) ms: \(String(text.map { $0.isNewline ? " " : $0 }))\n"
                _ = line.withCString { write(2, $0, strlen($0)) }
                return 0
            }, nil)
    }

    /// `path` as an absolute `file:` URI with `query`, every byte that is
    /// not a plain path character percent-encoded (`?`, `#`, `%`, spaces).
    static func fileURI(_ path: String, query: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            if getcwd(&buffer, buffer.count) != nil {
                let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                absolute = cwd + (cwd.hasSuffix("/") ? "" : "/") + path
            }
        }
        var uri = "file:"
        let hex = Array("0123456789ABCDEF".utf8)
        for b in absolute.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                uri.unicodeScalars.append(Unicode.Scalar(b))
            default:
                uri += "%" + String(decoding: [hex[Int(b >> 4)], hex[Int(b & 15)]], as: UTF8.self)
            }
        }
        return uri + "?" + query
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// The error SQLite holds now for this connection.
    func lastError(code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            extendedCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql
        )
        .withCodeIfMissing(code)
    }

    /// Runs one or more SQL statements that return no rows of interest.
    package func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Prepares a new statement.
    package func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement kept for reuse on this connection, reset and with
    /// its bindings cleared.
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `sql` with `arguments` and returns the first column of the first
    /// row, or nil when there is no row.
    package func scalar(_ sql: String, _ arguments: [DatabaseValue] = []) throws -> DatabaseValue? {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        return row[0]
    }

    /// Runs `sql` with `arguments` and calls `body` for each row.
    package func forEachRow(_ sql: String, _ arguments: [DatabaseValue] = [], _ body: (Row) throws -> Void) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        while let row = try statement.step() {
            try body(row)
        }
    }

    /// Runs `sql` with `arguments` for its effect.
    package func run(_ sql: String, _ arguments: [DatabaseValue] = []) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { statement.reset() }
        try statement.run()
    }

    /// The rowid of the last inserted row.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by this connection since it opened.
    package var totalChanges: Int { Int(sqlite3_total_changes(handle)) }

    /// The number of rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// True when a transaction is open.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside a transaction: commits when it returns, rolls back
    /// when it throws.
    package func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let result = try body()
            try execute("COMMIT TRANSACTION")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }

    /// Runs `body` in one read transaction (BEGIN DEFERRED ... COMMIT), so
    /// its statements share one snapshot and take the file's locks once;
    /// inside a transaction already open it just runs `body`. The one read
    /// helper: `PlaceStore.read` and `PlaceReader.read` forward to it.
    package func read<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try cachedStatement("BEGIN DEFERRED").run()
        do {
            let result = try body()
            try cachedStatement("COMMIT").run()
            return result
        } catch {
            if isInTransaction { try? cachedStatement("ROLLBACK").run() }
            throw error
        }
    }

    /// Runs `body` inside a savepoint, which nests inside a transaction.
    package func savepoint<T>(_ name: String, _ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body()
            try execute("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            try? execute("ROLLBACK TO SAVEPOINT \(name)")
            try? execute("RELEASE SAVEPOINT \(name)")
            throw error
        }
    }

    /// Loads a SQLite extension (a shared object such as `mod_spatialite`).
    package func loadExtension(_ name: String, entryPoint: String? = nil) throws {
        sqlite3_enable_load_extension(handle, 1)
        defer { sqlite3_enable_load_extension(handle, 0) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_load_extension(handle, name, entryPoint, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "cannot load extension \(name)"
            sqlite3_free(errorMessage)
            throw SQLiteError(extendedCode: rc, message: message)
        }
    }

    /// SQLite's library version, e.g. "3.40.1".
    package static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}

/// How a transaction takes its locks.
package enum TransactionKind: String, Sendable {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"
}

extension SQLiteError {
    fileprivate func withCodeIfMissing(_ code: Int32) -> SQLiteError {
        extendedCode == SQLITE_OK ? SQLiteError(extendedCode: code, message: message, sql: sql) : self
    }
}
