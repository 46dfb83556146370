import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceModel
import PlaceKitTestSupport
import SQLiteDB

@Suite("placedb import --no-text-index and placedb text-index")
struct TextIndexCommandTests {
    /// The names of the text index's schema objects in the database.
    static func textIndexObjects(_ path: String) throws -> [String] {
        let db = try Database(path: path, mode: .readOnly)
        var names: [String] = []
        try db.forEachRow(
            "SELECT name FROM sqlite_master WHERE name LIKE 'place\\_text%' ESCAPE '\\' OR name LIKE 'place\\_word%' ESCAPE '\\' ORDER BY name"
        ) {
            names.append(try $0.string(0))
        }
        return names
    }

    static let queries = [
        ["search", "cafe", "--near", "46.52,6.63", "--fields", "id"],
        ["search", "cafe du lac", "--fields", "id,displayName"],
        ["search", "pharmcy", "--fields", "id"],
        ["autocomplete", "caf", "--near", "46.52,6.63"],
    ]

    @Test("a fresh import with --no-text-index has no text index; search and autocomplete say how to build it, exit 1")
    func freshImportWithout() throws {
        let cli = try CLI()
        let r = cli.run([
            "import", "--no-text-index", try cli.dir.write("places.ndjson", queryPlaces), "--output", "text",
        ])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasSuffix("; text index: none\n"), "\(r.out)")
        // A new database's empty index is dropped without a word.
        #expect(r.err.isEmpty, "\(r.err)")
        #expect(try Self.textIndexObjects(cli.db) == [])
        for q in Self.queries {
            let s = cli.run(q)
            #expect(s.code == 1, "\(q)")
            #expect(s.out.isEmpty)
            #expect(
                s.err
                    == "placedb \(q[0]): \(cli.db): this database has no text index (it was imported without one); build it with `placedb text-index build`\n"
            )
        }
        let info = cli.run(["info", "--output", "json"])
        #expect(try JSONValue(parsing: info.out)["textIndex"] == .bool(false))
    }

    @Test(
        "text-index build makes the index of migration 11 again: the same objects and the same answers as an import with it"
    )
    func buildMatchesImport() throws {
        let with = try CLI(), without = try CLI()
        #expect(with.run(["import", try with.dir.write("places.ndjson", queryPlaces)]).code == 0)
        #expect(
            without.run(["import", "--no-text-index", try without.dir.write("places.ndjson", queryPlaces)]).code == 0)
        let built = without.run(["text-index", "build", "--output", "text"])
        #expect(built.code == 0, "\(built.err)")
        #expect(built.out == "\(without.db): text index built\n")
        #expect(try Self.textIndexObjects(without.db) == Self.textIndexObjects(with.db))
        #expect(try Self.textIndexObjects(without.db).contains("place_text_insert"))
        for q in Self.queries {
            let a = with.run(q), b = without.run(q)
            #expect(a.code == 0 && b.code == 0, "\(q): \(b.err)")
            #expect(a.out == b.out, "\(q)")
        }
        #expect(
            try JSONValue(parsing: without.run(["search", "cafe", "--fields", "id"]).out)["places"]?.arrayValue?.isEmpty
                == false)
        // The typo words too.
        let words = { (p: String) throws -> [String] in
            var w: [String] = []
            try Database(path: p, mode: .readOnly).forEachRow("SELECT word FROM place_word ORDER BY word") {
                w.append(try $0.string(0))
            }
            return w
        }
        #expect(try words(without.db) == words(with.db))
        // Idempotent.
        let again = without.run(["text-index", "build", "--output", "json"])
        #expect(again.code == 0)
        #expect(try JSONValue(parsing: again.out)["changed"] == .bool(false))
    }

    @Test("a later import into a database without the index keeps it without one, and no error")
    func laterImportKeepsNone() throws {
        let cli = try CLI()
        #expect(cli.run(["import", "--no-text-index", try cli.dir.write("a.ndjson", queryPlaces)]).code == 0)
        let more = """
            {"id":"later","displayName":{"text":"Pharmacie du Port"},"location":{"latitude":46.51,"longitude":6.62},"types":["pharmacy"]}
            {"id":"cafe","displayName":{"text":"Café du Lac renamed"},"location":{"latitude":46.52,"longitude":6.63},"types":["cafe"]}

            """
        let r = cli.run(["import", try cli.dir.write("b.ndjson", more), "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.isEmpty, "\(r.err)")
        #expect(try JSONValue(parsing: r.out)["textIndex"] == .bool(false))
        #expect(try Self.textIndexObjects(cli.db) == [])
        // Built afterwards, it finds what that import wrote.
        #expect(cli.run(["text-index", "build"]).code == 0)
        let found = cli.run(["search", "pharmacie port", "--fields", "id"])
        #expect(try JSONValue(parsing: found.out)["places"]?.arrayValue?.first?["id"] == "later")
    }

    @Test(
        "--no-text-index into a database with an indexed place drops the index, saying so once; a kept import keeps it")
    func dropsExisting() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("a.ndjson", queryPlaces)]).code == 0)
        #expect(try !Self.textIndexObjects(cli.db).isEmpty)
        let kept = cli.run(["import", try cli.dir.write("a2.ndjson", queryPlaces)])
        #expect(kept.code == 0)
        #expect(try JSONValue(parsing: kept.out)["textIndex"] == .bool(true))
        let r = cli.run(["import", "--no-text-index", cli.dir.file("a.ndjson"), cli.dir.file("a2.ndjson")])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.err.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].hasPrefix("placedb import: dropped the text index of \(cli.db) ("), "\(r.err)")
        #expect(try Self.textIndexObjects(cli.db) == [])
        #expect(cli.run(["search", "cafe"]).code == 1)
        // drop on a database without it does nothing.
        let drop = cli.run(["text-index", "drop", "--output", "text"])
        #expect(drop.code == 0 && drop.out == "\(cli.db): no text index; nothing done\n")
    }

    @Test("a failing --no-text-index import rolls the drop back with the rest")
    func failedImportKeepsIndex() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("a.ndjson", queryPlaces)]).code == 0)
        let bad = try cli.dir.write(
            "bad.ndjson",
            "{\"id\":\"x\",\"displayName\":{\"text\":\"X\"},\"location\":{\"latitude\":46.5,\"longitude\":6.6}}\n{not json\n"
        )
        let r = cli.run(["import", "--no-text-index", bad])
        #expect(r.code == 65)
        #expect(try Self.textIndexObjects(cli.db).contains("place_text"))
        #expect(cli.run(["search", "cafe"]).code == 0)
    }

    @Test("text-index on a missing database exits 66")
    func missingDatabase() throws {
        let cli = try CLI()
        #expect(cli.run(["text-index", "build"]).code == 66)
        #expect(cli.run(["text-index", "drop"]).code == 66)
        #expect(cli.run(["text-index", "analyze"]).code == 66)
    }

    @Test(
        "text-index analyze stores the counts (text and JSON reports), info tells whether they are current; a bad threshold exits 64, no index 1"
    )
    func analyze() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("a.ndjson", queryPlaces)]).code == 0)
        let info = { () throws -> JSONValue? in
            try JSONValue(parsing: cli.run(["info", "--output", "json"]).out)["textCounts"]
        }
        #expect(try info() == .string("none"))
        let before = Self.queries.map { cli.run($0).out }
        let text = cli.run(["text-index", "analyze", "--min-places", "1", "--output", "text"])
        #expect(text.code == 0, "\(text.err)")
        #expect(text.out.hasPrefix("\(cli.db): text index analyzed: "), "\(text.out)")
        #expect(text.out.hasSuffix(" prefixes counted)\n"), "\(text.out)")
        #expect(try info() == .string("current"))
        #expect(
            cli.run(["info", "--output", "text"]).out.contains("text index: present; counts of common words: current\n")
        )
        #expect(Self.queries.map { cli.run($0).out } == before)
        let json = try JSONValue(parsing: cli.run(["text-index", "analyze", "--min-places", "2"]).out)
        #expect(json["action"] == .string("analyze") && json["minPlaces"] == .int(2))
        #expect((json["words"]?.intValue ?? 0) >= 1 && (json["prefixes"]?.intValue ?? 0) >= 1)
        // A new place: the import carries the counts (they stay current).
        let more =
            #"{"id":"more","displayName":{"text":"Café Nouveau"},"location":{"latitude":46.52,"longitude":6.63}}"#
        #expect(cli.run(["import", try cli.dir.write("b.ndjson", more + "\n")]).code == 0)
        #expect(try info() == .string("current"))
        // And renamed by another import: carried too.
        let renamed = more.replacingOccurrences(of: "Nouveau", with: "Ancien")
        #expect(cli.run(["import", try cli.dir.write("c.ndjson", renamed + "\n")]).code == 0)
        #expect(try info() == .string("current"))
        // Renamed in SQL (no import to carry them): stale until analyzed again.
        let raw = try Database(path: cli.db, mode: .readWrite)
        try raw.loadExtension("mod_spatialite")
        try raw.execute("UPDATE place SET name = 'Café Moderne' WHERE place_id = 'more'")
        #expect(raw.changes == 1)
        #expect(try info() == .string("stale"))
        #expect(
            cli.run(["info", "--output", "text"]).out.contains(
                "counts of common words: stale (placedb text-index analyze counts them again)"))
        for bad in ["0", "x", "-3"] {
            let r = cli.run(["text-index", "analyze", "--min-places", bad])
            #expect(r.code == 64, "\(bad)")
            #expect(r.err.contains("invalid value '\(bad)' for '--min-places'"), "\(r.err)")
        }
        #expect(cli.run(["text-index", "drop"]).code == 0)
        let none = cli.run(["text-index", "analyze"])
        #expect(none.code == 1)
        #expect(none.err.contains("this database has no text index"), "\(none.err)")
    }

    @Test(
        "text-index lists writes the word lists (text and JSON reports); answers do not change; info tells whether they are current; drop removes them"
    )
    func lists() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("a.ndjson", queryPlaces)]).code == 0)
        let state = { () throws -> JSONValue? in
            try JSONValue(parsing: cli.run(["info", "--output", "json"]).out)["wordLists"]?["state"]
        }
        #expect(try state() == nil)
        let before = Self.queries.map { cli.run($0).out }
        let text = cli.run(["text-index", "lists", "--output", "text"])
        #expect(text.code == 0, "\(text.err)")
        let file = cli.db + ".placetext"
        #expect(text.out.hasPrefix("\(cli.db): word lists written to \(file): "), "\(text.out)")
        #expect(text.out.hasSuffix(" bytes\n"), "\(text.out)")
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try state() == .string("current"))
        #expect(cli.run(["info", "--output", "text"]).out.contains("; word lists: current\n"))
        #expect(Self.queries.map { cli.run($0).out } == before)
        let json = try JSONValue(parsing: cli.run(["text-index", "lists"]).out)
        #expect(json["action"] == .string("lists") && json["path"] == .string(file))
        #expect((json["words"]?.intValue ?? 0) >= 10 && (json["postings"]?.intValue ?? 0) >= 10)
        // An import changes the index: the lists are stale, and not read.
        let more =
            #"{"id":"more","displayName":{"text":"Café Nouveau"},"location":{"latitude":46.52,"longitude":6.63}}"#
        #expect(cli.run(["import", try cli.dir.write("b.ndjson", more + "\n")]).code == 0)
        #expect(try state() == .string("stale"))
        #expect(
            cli.run(["info", "--output", "text"]).out.contains(
                "; word lists: stale (the text index changed since; placedb text-index lists writes them again)"))
        let found = cli.run(["search", "cafe nouveau", "--fields", "id"])
        #expect(found.out.contains("\"more\""), "\(found.out)")
        #expect(cli.run(["text-index", "lists", "extra"]).code == 64)
        #expect(cli.run(["text-index", "drop"]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
        let none = cli.run(["text-index", "lists"])
        #expect(none.code == 1)
        #expect(none.err.contains("this database has no text index"), "\(none.err)")
    }
}
