import Foundation
import Testing
import SQLiteDB
import PlaceKitTestSupport
import PlaceModel

@Suite("SQLite wrapper")
struct DatabaseTests {
    let dir: TempDirectory
    let db: Database

    init() throws {
        dir = try TempDirectory("sqlitedb")
        db = try Database(path: dir.file("test.sqlite"))
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score REAL, data BLOB)")
    }

    @Test("values of every type round-trip through bind and read")
    func roundTrip() throws {
        try db.run(
            "INSERT INTO t (name, score, data) VALUES (?, ?, ?)",
            [.text("émile ☕"), .real(-33.8688), .blob([0, 1, 255])])
        var rows: [[DatabaseValue]] = []
        try db.forEachRow("SELECT id, name, score, data, NULL FROM t") { row in
            rows.append((0..<row.count).map { row[$0] })
        }
        #expect(rows == [[.integer(1), .text("émile ☕"), .real(-33.8688), .blob([0, 1, 255]), .null]])
    }

    @Test("text holding U+0000 is bound and read whole, not cut at the NUL (two names that differ after it stay two)")
    func textWithNUL() throws {
        try db.run("INSERT INTO t (name) VALUES (?)", [.text("a\u{0}x")])
        try db.run("INSERT INTO t (name) VALUES (?)", [.text("a\u{0}y")])
        var names: [DatabaseValue] = []
        var strings: [String?] = []
        try db.forEachRow("SELECT name FROM t ORDER BY id") { row in
            names.append(row[0])
            strings.append(row.optionalString(0))
        }
        #expect(names == [.text("a\u{0}x"), .text("a\u{0}y")])
        #expect(strings == ["a\u{0}x", "a\u{0}y"])
    }

    @Test("an error carries the extended code, SQLite's message and the SQL, not the values")
    func errorDetails() throws {
        try db.run("INSERT INTO t (name) VALUES (?)", ["secret-value"])
        let error = #expect(throws: SQLiteError.self) {
            try db.run("INSERT INTO t (name) VALUES (?)", ["secret-value"])
        }
        #expect(error?.extendedCode == 2067) // SQLITE_CONSTRAINT_UNIQUE
        #expect(error?.primaryCode == 19)
        #expect(error?.message.contains("UNIQUE constraint failed: t.name") == true)
        #expect(error?.sql == "INSERT INTO t (name) VALUES (?)")
        #expect(error?.description.contains("secret-value") == false)
    }

    @Test("a syntax error is reported at prepare time with the SQL")
    func syntaxError() {
        let error = #expect(throws: SQLiteError.self) { _ = try db.prepare("SELEC nothing") }
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC nothing")
    }

    @Test("a wrong number of arguments throws instead of binding silently")
    func argumentCount() {
        #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t (name) VALUES (?)", []) }
    }

    @Test("a NULL in a required column throws naming the column; the optional accessors give nil")
    func requiredColumns() throws {
        try db.run("INSERT INTO t (name, score) VALUES ('a', NULL)")
        let statement = try db.prepare("SELECT name, score AS the_score, NULL AS missing, 7 FROM t")
        if let row = try statement.step() {
            #expect(try row.string(0) == "a")
            #expect(try row.int64(3) == 7)
            let error = #expect(throws: SQLiteError.self) { try row.double(1) }
            #expect(error?.message == "column 'the_score' is NULL where a value is required")
            #expect(error?.sql?.contains("SELECT name, score") == true)
            #expect(throws: SQLiteError.self) { try row.string(2) }
            #expect(throws: SQLiteError.self) { try row.int64(2) }
            #expect(row.optionalDouble(1) == nil && row.optionalString(2) == nil && row.optionalInt64(2) == nil)
            #expect(row.optionalString(0) == "a" && row.optionalInt64(3) == 7 && row.optionalDouble(3) == 7)
        } else {
            Issue.record("no row")
        }
    }

    @Test("a statement reset after a failed step runs again with new arguments")
    func resetAfterFailure() throws {
        let insert = try db.prepare("INSERT INTO t (name) VALUES (?)")
        try insert.bind(["dup"])
        try insert.run()
        try insert.bind(["dup"])
        #expect(throws: SQLiteError.self) { try insert.run() }
        insert.reset()
        try insert.bind(["other"])
        try insert.run()
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(2))
    }

    @Test("read runs its body in one transaction, nests in an open one, and ends it when the body throws")
    func readTransaction() throws {
        #expect(try db.read { db.isInTransaction })
        #expect(!db.isInTransaction)
        struct Stop: Error {}
        #expect(throws: Stop.self) { try db.read { throw Stop() } }
        #expect(!db.isInTransaction)
        try db.transaction {
            try db.read { try db.run("INSERT INTO t (name) VALUES ('inside')") }
            #expect(db.isInTransaction)
        }
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(1))
    }

    @Test("the throwing cursor walks every row")
    func cursor() throws {
        for i in 0..<5 { try db.run("INSERT INTO t (name, score) VALUES (?, ?)", [.text("n\(i)"), .real(Double(i))]) }
        let statement = try db.prepare("SELECT name FROM t WHERE score >= ? ORDER BY score")
        var cursor = try statement.cursor([.real(2)])
        var names: [String] = []
        while let row = try cursor.next() { names.append(try row.string(0)) }
        #expect(names == ["n2", "n3", "n4"])
        // Reused with new arguments after a reset.
        var again = try statement.cursor([.real(4)])
        #expect(try again.next()?.string(0) == "n4")
    }

    @Test("a transaction rolls back when its body throws")
    func rollback() throws {
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t (name) VALUES ('a')")
                throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t")?.int == 0)
        #expect(!db.isInTransaction)
        try db.transaction { try db.run("INSERT INTO t (name) VALUES ('b')") }
        #expect(try db.scalar("SELECT count(*) FROM t")?.int == 1)
    }

    @Test("a savepoint undoes only its own part")
    func savepoint() throws {
        struct Boom: Error {}
        try db.transaction {
            try db.run("INSERT INTO t (name) VALUES ('kept')")
            _ = try? db.savepoint("inner") {
                try db.run("INSERT INTO t (name) VALUES ('undone')")
                throw Boom()
            }
        }
        var names: [String] = []
        try db.forEachRow("SELECT name FROM t") { names.append(try $0.string(0)) }
        #expect(names == ["kept"])
    }

    @Test("migrations run once, in order, and a newer file is refused")
    func migrations() throws {
        let m1 = Migration(version: 1, name: "one", sql: "CREATE TABLE a (x)")
        let m2 = Migration(version: 2, name: "two", sql: "CREATE TABLE b (y)")
        let path = dir.file("m.sqlite")
        let first = try Database(path: path)
        #expect(try Migrator(application: "test", migrations: [m1]).migrate(first) == [1])
        #expect(try Migrator(application: "test", migrations: [m1, m2]).migrate(first) == [2])
        #expect(try Migrator(application: "test", migrations: [m1, m2]).migrate(first) == [])
        #expect(try Migrator.storedVersion(first) == 2)
        let error = #expect(throws: SQLiteError.self) {
            try Migrator(application: "test", migrations: [m1]).migrate(first)
        }
        #expect(error?.message.contains("newer test") == true)
    }

    @Test("a failing migration leaves the previous version in place")
    func failingMigration() throws {
        let ok = Migration(version: 1, name: "ok", sql: "CREATE TABLE a (x)")
        let bad = Migration(version: 2, name: "bad", sql: "CREATE TABLE c (z); CREATE TABLE a (x)")
        let db = try Database(path: dir.file("f.sqlite"))
        #expect(throws: SQLiteError.self) { try Migrator(application: "t", migrations: [ok, bad]).migrate(db) }
        #expect(try Migrator.storedVersion(db) == 1)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'c'")?.int == 0)
    }

    @Test("a read-only connection cannot write")
    func readOnly() throws {
        let ro = try Database(path: dir.file("test.sqlite"), mode: .readOnly)
        let error = #expect(throws: SQLiteError.self) { try ro.execute("INSERT INTO t (name) VALUES ('x')") }
        #expect(error?.primaryCode == 8) // SQLITE_READONLY
    }

    @Test("opening a missing file read-only fails with SQLite's reason")
    func missingFile() {
        #expect(throws: SQLiteError.self) { _ = try Database(path: dir.file("absent.sqlite"), mode: .readOnly) }
    }

    @Test("an extension that does not exist fails to load with a message")
    func missingExtension() {
        let error = #expect(throws: SQLiteError.self) { try db.loadExtension("no_such_extension_xyz") }
        #expect(error?.message.isEmpty == false)
    }
}
