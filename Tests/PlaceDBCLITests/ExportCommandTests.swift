import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceStorage
import PlaceModel
import SQLiteDB

/// JSON compared as data: members in any order, numbers as doubles
/// (SQLite writes 4.0 where placedb writes 4).
func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let i): return .double(Double(i))
    case .array(let a): return .array(a.map(canonical))
    case .object(let o):
        return .object(JSONObject(o.members.sorted { $0.key < $1.key }.map { ($0.key, canonical($0.value)) }))
    default: return value
    }
}

/// The answers a database gives: the stored record behind `place` for
/// every live place, `resolve` for every ID it knows (places, removed ones
/// and aliases).
struct Answers {
    var places: [String: JSONValue] = [:]
    var resolutions: [String: JSONValue] = [:]
    var removed: Set<String> = []
    /// The last record of each removed place.
    var removedPlaces: [String: JSONValue] = [:]

    init(databasePath: String) throws {
        let store = try PlaceStore(path: databasePath, writable: false)
        var live: [String] = [], ids: Set<String> = []
        try store.db.forEachRow("SELECT place_id, removed_run IS NOT NULL FROM place") { row in
            let id = try row.string(0)
            ids.insert(id)
            if try row.int64(1) == 0 { live.append(id) } else { removed.insert(id) }
        }
        try store.db.forEachRow("SELECT alias_id, place_id FROM place_alias") { row in
            ids.insert(try row.string(0))
            ids.insert(try row.string(1))
        }
        let client = try PlaceReader(databasePath: databasePath)
        for id in live {
            // The record as stored: what export writes and the view gives.
            // `placedb place` serves it at the time asked (openNow computed,
            // stale current hours left out), a function of this record and
            // the time: the same records give the same answers.
            places[id] = canonical(
                .object(try client.fetchStoredPlace(id: PlaceID(id), followAliases: false).apiJSON(fields: .all)))
        }
        for id in removed {
            removedPlaces[id] = canonical(
                .object(try client.fetchStoredPlace(id: PlaceID(id), followAliases: false).apiJSON(fields: .all)))
        }
        for id in ids {
            resolutions[id] = canonical(try client.resolvePlaceID(PlaceID(id)).json)
        }
    }

}

@Suite("placedb export")
struct ExportCommandTests {
    static let places = """
        {"id":"c1","displayName":{"text":"Café Un","languageCode":"fr"},"location":{"latitude":-33.8688,"longitude":151.2093},"types":["cafe","food"],"primaryType":"cafe","rating":4.5,"userRatingCount":120,"internationalPhoneNumber":"+61 2 5550 0000","regularOpeningHours":{"openNow":true,"weekdayDescriptions":["Monday: 8:00 AM – 5:00 PM"]},"scraperField":{"kept":[1,2]}}
        {"id":"c2","displayName":{"text":"Two"},"location":{"latitude":46.52030187654321,"longitude":6.625012345678901},"types":["park"],"rating":4.0,"userRatingCount":7}
        {"id":"old","displayName":{"text":"Old"},"location":{"latitude":1,"longitude":2},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"c2"}

        """

    /// Runs the command; what it wrote to standard output as bytes (export
    /// streams bytes), as UTF-8 text.
    static func runBytes(_ cli: CLI, _ args: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturedConsole(terminal: false, environment: ["PLACEDB_DATABASE": cli.db])
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdout + String(decoding: console.stdoutBytes, as: UTF8.self), console.stderr)
    }

    func setUp() throws -> CLI {
        let cli = try CLI()
        let input = try cli.dir.write("p.ndjson", Self.places)
        #expect(cli.run(["import", input]).code == 0)
        let aliases = try cli.dir.write("a.csv", "old_id,new_id,reason,confidence\nolder,old,renumbered,0.5\n")
        #expect(cli.run(["alias", "import", aliases]).code == 0)
        return cli
    }

    @Test("export then import into a new database gives the same place and resolve answers")
    func roundTrip() throws {
        let cli = try setUp()
        let out = cli.dir.file("out.ndjson"), aliases = cli.dir.file("aliases.ndjson")
        let r = cli.run(["export", "-o", out, "--aliases", aliases, "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        let summary = try JSONValue(parsing: r.out)
        #expect(summary["places"] == .int(3))
        #expect(summary["aliases"] == .int(2))
        let copy = cli.dir.file("copy.sqlite")
        #expect(cli.run(["import", out, "--db", copy]).code == 0)
        #expect(cli.run(["alias", "import", aliases, "--db", copy]).code == 0)
        let a = try Answers(databasePath: cli.db), b = try Answers(databasePath: copy)
        #expect(a.places.count == 3)
        #expect(a.places == b.places)
        #expect(a.resolutions.count == 4)
        for (id, answer) in a.resolutions {
            // Each hop's source and recordedAt included: the alias file carries them.
            #expect(answer == b.resolutions[id], "resolve \(id)")
        }
        // The extras come back as extras, the evidence with its edge.
        let store = try PlaceStore(path: copy, writable: false)
        #expect(try store.extra(id: "c1")?["scraperField"] == ["kept": [1, 2]])
    }

    @Test(
        "--tombstones exports removed places with their removal and replacements; import removes them again, resolve answers the same"
    )
    func tombstones() throws {
        let cli = try CLI()
        let s1 = try cli.dir.write(
            "s1.ndjson",
            """
            {"id":"a","displayName":{"text":"A"},"location":{"latitude":10,"longitude":20},"types":["cafe"],"scraperField":1}
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":11,"longitude":21},"types":["park"]}
            {"id":"gone","displayName":{"text":"Gone"},"location":{"latitude":12,"longitude":22},"types":["bar"]}

            """)
        let s2 = try cli.dir.write(
            "s2.ndjson",
            """
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":11,"longitude":21},"types":["park"]}
            {"id":"gone","displayName":{"text":"Gone"},"location":{"latitude":12,"longitude":22},"types":["bar"]}

            """)
        let s3 = try cli.dir.write(
            "s3.ndjson",
            """
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":11,"longitude":21},"types":["park"]}

            """)
        #expect(cli.run(["import", "--snapshot", "demo", "--no-match", s1]).code == 0)
        #expect(cli.run(["import", "--snapshot", "demo", "--no-match", s2]).code == 0)
        let aliases = try cli.dir.write("a.csv", "old_id,new_id,reason,confidence\na,b,merged,0.7\n")
        #expect(cli.run(["alias", "import", "--source", "curated", aliases]).code == 0)
        #expect(cli.run(["import", "--snapshot", "demo", "--no-match", s3]).code == 0)

        let out = cli.dir.file("out.ndjson")
        let r = cli.run(["export", "-o", out, "--tombstones", "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        #expect(try JSONValue(parsing: r.out)["tombstones"] == 2)
        let records = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
            try JSONValue(parsing: String($0))
        }
        let a = try #require(records.first { $0["id"] == "a" })
        let tomb = try #require(a["placedbTombstone"])
        #expect(tomb["snapshot"] == "demo")
        let edge = tomb["replacedBy"]?.arrayValue?.first
        #expect(edge?["id"] == "b" && edge?["reason"] == "merged" && edge?["source"] == "curated")
        #expect(a["scraperField"] == 1, "its source fields stay")
        #expect(records.first { $0["id"] == "b" }?["placedbTombstone"] == nil, "a live place has none")
        #expect(
            cli.run(["export"]).out.contains("placedbTombstone") == false, "without --tombstones, no removed places")

        // Into a new database: the same removals, at the same times, the
        // same edges; every resolve answer identical, to the byte.
        let copy = cli.dir.file("copy.sqlite")
        let i = cli.run(["import", out, "--db", copy, "--output", "json"])
        #expect(i.code == 0, "\(i.err)")
        #expect(try JSONValue(parsing: i.out)["total"]?["removed"] == 2)
        let before = try Answers(databasePath: cli.db), after = try Answers(databasePath: copy)
        #expect(before.removed == ["a", "gone"] && after.removed == before.removed)
        #expect(before.resolutions == after.resolutions)
        #expect(before.removedPlaces == after.removedPlaces)
        let store = try PlaceStore(path: copy, writable: false)
        #expect(try store.extra(id: "a")?["placedbTombstone"] == nil, "the removal is not kept as a source field")
        #expect(try store.extra(id: "a")?["scraperField"] == 1)

        // Imported again: nothing changes. Into a database that holds the
        // place live (seen since), the tombstone does not remove it.
        #expect(cli.run(["import", out, "--db", copy]).code == 0)
        #expect(try Answers(databasePath: copy).resolutions == before.resolutions)
        let live = cli.dir.file("live.sqlite")
        #expect(cli.run(["import", s1, "--db", live]).code == 0)
        #expect(cli.run(["import", out, "--db", live]).code == 0)
        let l = try Answers(databasePath: live)
        #expect(l.removed == [], "a and gone are live there")

        // A tombstone whose removal time cannot be read: 65, nothing written.
        let bad = try cli.dir.write(
            "bad.ndjson",
            #"{"id":"x","displayName":{"text":"X"},"location":{"latitude":1,"longitude":2},"placedbTombstone":{"removedAt":"last week"}}"#
                + "\n")
        let fresh = cli.dir.file("fresh.sqlite")
        let e = cli.run(["import", bad, "--db", fresh])
        #expect(e.code == 65, "\(e.err)")
        #expect(e.err.contains("placedbTombstone.removedAt") && e.err.contains("'x'"), "\(e.err)")
    }

    @Test("GeoJSON sequence and collection carry the whole document as properties")
    func geoJSON() throws {
        let cli = try setUp()
        let seq = Self.runBytes(cli, ["export", "--format", "geojsonseq"])
        #expect(seq.code == 0, "\(seq.err)")
        let lines = seq.out.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            #expect(line.first == "\u{1E}")
            let feature = try JSONValue(parsing: String(line.dropFirst()))
            #expect(feature["type"] == "Feature")
            #expect(feature["geometry"]?["type"] == "Point")
            #expect(feature["properties"]?["id"] == feature["id"])
        }
        let out = cli.dir.file("all.geojson")
        #expect(cli.run(["export", "-o", out]).code == 0, "the format comes from the extension")
        let collection = try JSONValue(parsing: String(contentsOfFile: out, encoding: .utf8))
        let features = try #require(collection["features"]?.arrayValue)
        #expect(features.count == 3)
        let c2 = try #require(features.first { $0["id"] == "c2" })
        #expect(c2["geometry"]?["coordinates"] == [6.625012345678901, 46.52030187654321])
        #expect(c2["properties"]?["displayName"]?["text"] == "Two")
        #expect(c2["properties"]?["rating"]?.doubleValue == 4)
    }

    @Test("--where filters with SQL over the place table; a bad one is a usage error and writes nothing")
    func whereFilter() throws {
        let cli = try setUp()
        let r = Self.runBytes(cli, ["export", "--where", "primary_type = 'cafe'"])
        #expect(r.code == 0)
        #expect(r.out.split(separator: "\n").count == 1)
        #expect(r.out.contains(#""id":"c1""#))
        let out = cli.dir.file("bad.ndjson")
        let bad = cli.run(["export", "--where", "no_such_column = 1", "-o", out])
        #expect(bad.code == 64)
        #expect(
            bad.err.contains(
                "unknown column 'no_such_column' in --where 'no_such_column = 1'; the columns are id, place_id, name, "),
            "\(bad.err)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("export refuses to write over its database")
    func refusesDatabase() throws {
        let cli = try setUp()
        let r = cli.run(["export", "-o", cli.db])
        #expect(r.code == 64)
        #expect(try Answers(databasePath: cli.db).places.count == 3)
    }

    @Test(
        "a --where SQLite refuses while it runs (load_extension, an integer overflow, a bad JSON path, a blob too big) or prepares (a syntax error) is a usage error, 64, in one line; nothing is written",
        arguments: [
            "load_extension('/tmp/x')", "abs(-9223372036854775808) > 0", "json_extract('{}', '$[') IS NULL",
            "zeroblob(1e10) = 1", "primary_type = = 'cafe'",
        ])
    func whereRefusedWhileRunning(filter: String) throws {
        let cli = try setUp()
        let out = cli.dir.file("out.ndjson")
        for args in [["export", "--where", filter, "-o", out], ["export", "--where", filter]] {
            let r = cli.run(args)
            #expect(r.code == 64, "\(filter): \(r.err)")
            let lines = r.err.split(separator: "\n")
            #expect(lines.first?.hasPrefix("placedb export: the filter '\(filter)' ") == true, "\(r.err)")
            #expect(
                !lines.contains { $0.hasPrefix("placedb export:") && $0 != lines.first }, "one error line: \(r.err)")
            #expect(r.out.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }
}
