import Testing
@testable import PlaceModel

@Suite("Library errors")
struct PlaceDBErrorTests {
    static let databaseErrors: [PlaceDBError] = [
        .noDatabase(path: "p.sqlite"),
        .notADatabasePath(""),
        .notADatabasePath(":memory:"),
        .danglingSymlink(path: "p.sqlite", target: "gone.sqlite"),
        .cannotOpen(path: "p.sqlite", sqliteMessage: "unable to open database file", forReading: true),
        .notAnSQLiteDatabase(path: "p.sqlite"),
        .notAPlacedbDatabase(path: "p.sqlite", hasOtherTables: true),
        .notAPlacedbDatabase(path: "p.sqlite", hasOtherTables: false),
        .schemaTooOld(path: "p.sqlite", version: 3, supported: 8),
        .schemaTooNew(path: "p.sqlite", version: 99, supported: 8),
        .walNeedsWriter(path: "p.sqlite", sqliteMessage: "attempt to write a readonly database"),
        .spatiaLiteMissing(path: "p.sqlite", sqliteMessage: "not found"),
        .corrupt(path: "p.sqlite", reason: "place 'A' has a corrupt stored document"),
    ]

    @Test("messages speak of files and places, never of command-line options or commands", arguments: databaseErrors)
    func noCommandLineAdvice(_ error: PlaceDBError) {
        let message = error.description
        #expect(!message.contains("--"), "\(message)")
        #expect(!message.contains("placedb import"), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        #expect(!message.isEmpty)
    }

    @Test("a message names the file it is about")
    func namesTheFile() {
        for error in Self.databaseErrors {
            if case .notADatabasePath = error { continue }
            #expect(error.description.hasPrefix("p.sqlite: "), "\(error)")
        }
    }

    @Test("an error said of another path keeps its cause")
    func replacingPath() {
        let e = PlaceDBError.schemaTooNew(path: "/tmp/x.new-1", version: 99, supported: 8).replacingPath(
            with: "places.sqlite")
        guard case .schemaTooNew(let path, let version, let supported) = e else {
            Issue.record("became \(e)")
            return
        }
        #expect(path == "places.sqlite" && version == 99 && supported == 8)
    }
}
