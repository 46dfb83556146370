import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("placedb resolve, alias import and place with old IDs")
struct ResolveCommandTests {
    func setUp() throws -> CLI {
        let cli = try CLI()
        let places = try cli.dir.write(
            "p.ndjson",
            """
            {"id":"old","displayName":{"text":"Old"},"location":{"latitude":1,"longitude":2},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"new"}
            {"id":"new","displayName":{"text":"New"},"location":{"latitude":1.5,"longitude":2.5}}

            """)
        #expect(cli.run(["import", places]).code == 0)
        let aliases = try cli.dir.write("a.csv", "old_id,new_id,reason\nolder,old,renumbered\n")
        let r = cli.run(["alias", "import", aliases, "--output", "text"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("1 alias record: 1 added"))
        return cli
    }

    @Test("resolve prints status, current ID and the chain")
    func resolve() throws {
        let cli = try setUp()
        let r = cli.run(["resolve", "older"])
        #expect(r.code == 0)
        let json = try JSONValue(parsing: r.out)
        #expect(json["status"] == .string("MOVED"))
        #expect(json["placeId"] == .string("new"))
        #expect(json["chain"]?.arrayValue?.compactMap { $0["reason"]?.stringValue } == ["renumbered", "moved"])
        #expect(json["displayName"]?["text"] == .string("New"))
        let text = cli.run(["resolve", "older", "nope", "--output", "text"])
        #expect(text.code == 1, "a NOT_FOUND ID exits 1")
        #expect(text.out.contains("older: MOVED -> new"))
        #expect(text.out.contains("nope: NOT_FOUND"))
    }

    @Test("place with an old ID answers with the current place and says which ID was asked for")
    func placeFollows() throws {
        let cli = try setUp()
        let r = cli.run(["place", "older", "--fields", "id,displayName"])
        #expect(r.code == 0)
        let json = try JSONValue(parsing: r.out)
        #expect(json["id"] == .string("new"))
        #expect(json["requestedId"] == .string("older"))
        #expect(r.err.contains("'older' resolved to 'new' (renumbered, moved)"))
    }

    @Test(
        "records linked as one place: place answers merged with provenance per record; --unmerged answers each record as imported"
    )
    func linkedRecords() throws {
        let cli = try CLI()
        let google = try cli.dir.write(
            "g.ndjson",
            """
            {"id":"ChIJone","displayName":{"text":"Café Sperl"},"location":{"latitude":48.20000,"longitude":16.36000},"types":["cafe","food"],"internationalPhoneNumber":"+43 1 5864158","rating":4.5}

            """)
        let overture = try cli.dir.write(
            "o.geojsonseq",
            """
            {"type":"Feature","id":"08f0000000000001","geometry":{"type":"Point","coordinates":[16.36004,48.20003]},"properties":{"names":{"primary":"Cafe Sperl"},"categories":{"primary":"cafe"},"phones":["+4315864158"],"update_time":"2025-01-01T00:00:00Z"}}

            """)
        #expect(cli.run(["import", google, "--captured-at", "2024-01-01T00:00:00Z"]).code == 0)
        let imported = cli.run(["import", overture])
        #expect(imported.code == 0, "\(imported.err)")
        let merged = try JSONValue(parsing: cli.run(["place", "08f0000000000001", "--provenance"]).out)
        #expect(merged["id"] == .string("ChIJone"))
        #expect(merged["rating"] == .double(4.5))
        #expect(
            merged["provenance"]?["records"]?.arrayValue?.compactMap { $0["placeId"]?.stringValue } == [
                "ChIJone", "08f0000000000001",
            ])
        #expect(merged["provenance"]?["memberRecords"]?["rating"] == .string("ChIJone"))
        let raw = try JSONValue(parsing: cli.run(["place", "08f0000000000001", "--unmerged"]).out)
        #expect(raw["id"] == .string("08f0000000000001"))
        #expect(raw["rating"] == nil)
        let nearby = { (extra: [String]) throws -> [String] in
            let r = cli.run(["nearby", "48.2,16.36", "--fields", "id", "--output", "json"] + extra)
            return try JSONValue(parsing: r.out)["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        #expect(try nearby([]) == ["ChIJone"])
        #expect(try nearby(["--unmerged"]).sorted() == ["08f0000000000001", "ChIJone"])
        let resolved = try JSONValue(parsing: cli.run(["resolve", "08f0000000000001"]).out)
        #expect(resolved["status"] == .string("MOVED"))
        #expect(resolved["chain"]?.arrayValue?.first?["reason"] == .string("same-place"))
        #expect(
            try JSONValue(parsing: cli.run(["resolve", "08f0000000000001", "--unmerged"]).out)["status"]
                == .string("CURRENT"))
    }

    @Test("bad usage and bad alias files exit 64 and 65")
    func errors() throws {
        let cli = try setUp()
        #expect(cli.run(["resolve"]).code == 64)
        #expect(cli.run(["alias", "export", "x"]).code == 64)
        let bad = try cli.dir.write("bad.csv", "old_id,new_id,reason\na,b,wormhole\n")
        let r = cli.run(["alias", "import", bad])
        #expect(r.code == 65)
        #expect(r.err.contains("bad.csv:2: unknown reason 'wormhole'"))
    }
}

@Suite("placedb resolve --batch")
struct ResolveBatchTests {
    @Test("--batch reads IDs from stdin and writes one JSON line per line, in order (a blank one an error line)")
    func batch() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let places = try dir.write(
            "p.ndjson",
            """
            {"id":"a","location":{"latitude":1,"longitude":2},"movedPlaceId":"b"}
            {"id":"b","location":{"latitude":1,"longitude":2}}

            """)
        #expect(try Tool.run(BinaryTests.binary, ["import", places, "--db", dir.file("db.sqlite")]).status == 0)
        let input = try dir.write("ids.txt", "b\na\n\nmissing\nplaces/a\n")
        let r = try Tool.run(
            "sh", ["-c", "'\(BinaryTests.binary)' resolve --batch --db '\(dir.file("db.sqlite"))' < '\(input)'"])
        #expect(r.status == 65)
        let lines = r.stdout.split(separator: "\n").map { try? JSONValue(parsing: String($0)) }
        #expect(lines.count == 5)
        #expect(
            lines.map { $0?["status"]?.stringValue }
                == ["CURRENT", "MOVED", "INVALID_ARGUMENT", "NOT_FOUND", "MOVED"].map {
                    $0 == "INVALID_ARGUMENT" ? nil : $0
                })
        #expect(lines[2]?["error"]?["status"] == "INVALID_ARGUMENT")
        #expect(lines.map { $0?["requestedId"]?.stringValue } == ["b", "a", nil, "missing", "a"])
    }
}
