import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel
import SQLiteDB

/// The library's errors name no command-line option; the command line adds
/// the advice where it catches them.
@Suite("command-line advice on library errors")
struct ErrorAdviceTests {
    @Test("a missing database: exit 66, and the command line says how to make one")
    func missingDatabase() throws {
        let cli = try CLI()
        let r = cli.run(["place", "A", "--db", cli.dir.file("absent.sqlite")])
        #expect(r.code == 66)
        #expect(
            r.err
                == "placedb place: \(cli.dir.file("absent.sqlite")): no database here (import something first, or pass --db PATH)\n",
            "\(r.err)")
    }

    @Test("an SQLite file of another program: the command line says to choose another --db")
    func otherTables() throws {
        let cli = try CLI()
        let other = cli.dir.file("other.sqlite")
        let db = try Database(path: other, mode: .create)
        try db.execute("CREATE TABLE t (x)")
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let r = cli.run(["import", file, "--db", other])
        #expect(r.code == 1)
        #expect(
            r.err.hasSuffix(
                "\(other): is an SQLite database but not a placedb one (it has other tables); choose another --db\n"),
            "\(r.err)")
    }

    @Test("an empty --db is a usage error naming the option")
    func emptyPath() throws {
        let cli = try CLI()
        let r = cli.run(["place", "A", "--db", ""])
        #expect(r.code == 64)
        #expect(
            r.err.hasPrefix("placedb place: the database path is empty: give a file path (--db places.sqlite)\n"),
            "\(r.err)")
    }
}
