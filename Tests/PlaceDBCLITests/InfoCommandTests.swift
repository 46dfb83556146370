import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceStorage
import PlaceModel
import SQLiteDB

@Suite("placedb info")
struct InfoCommandTests {
    @Test("info counts places by source, type and status, lists runs, snapshots and aliases, sizes and the extent")
    func info() throws {
        let cli = try CLI()
        let first = try cli.dir.write(
            "s1.ndjson",
            """
            {"id":"a","displayName":{"text":"A"},"location":{"latitude":10,"longitude":20},"types":["cafe"],"businessStatus":"OPERATIONAL"}
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":11,"longitude":21},"types":["park"]}
            {"id":"c","displayName":{"text":"C"},"location":{"latitude":12.5,"longitude":-3},"types":["cafe"],"businessStatus":"CLOSED_TEMPORARILY"}

            """)
        let second = try cli.dir.write(
            "s2.ndjson",
            """
            {"id":"a","displayName":{"text":"A"},"location":{"latitude":10,"longitude":20},"types":["cafe"],"businessStatus":"OPERATIONAL"}
            {"id":"c","displayName":{"text":"C"},"location":{"latitude":12.5,"longitude":-3},"types":["cafe"],"businessStatus":"CLOSED_TEMPORARILY"}

            """)
        #expect(cli.run(["import", "--snapshot", "demo", first]).code == 0)
        #expect(cli.run(["import", "--snapshot", "demo", second]).code == 0)
        let aliases = try cli.dir.write("a.csv", "old_id,new_id,reason\nolder,a,renumbered\nx,c,explicit\n")
        #expect(cli.run(["alias", "import", aliases]).code == 0)

        let r = cli.run(["info", "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        let json = try JSONValue(parsing: r.out)
        #expect(json["places"] == ["total": 3, "live": 2, "removed": 1])
        #expect(json["bySource"]?.objectValue?.members.map(\.value) == [2], "one source, 2 live places")
        #expect(json["byType"]?["cafe"] == 2)
        #expect(json["byType"]?["park"] == nil, "b was removed: counts are of live places")
        #expect(json["byBusinessStatus"]?["OPERATIONAL"] == 1)
        #expect(json["byBusinessStatus"]?["CLOSED_TEMPORARILY"] == 1)
        #expect(json["aliases"]?["total"] == 2)
        #expect(json["aliases"]?["byReason"]?["renumbered"] == 1)
        #expect(json["schemaVersion"]?.doubleValue == Double(Schema.migrator.latestVersion))
        let runs = try #require(json["runs"]?.arrayValue)
        #expect(runs.count >= 3)
        #expect(json["snapshots"]?.arrayValue?.first?["source"] == "demo")
        let box = try #require(json["boundingBox"])
        #expect(abs((box["west"]?.doubleValue ?? 0) - -3) < 1e-4)
        #expect(abs((box["east"]?.doubleValue ?? 0) - 20) < 1e-4, "b (21) is removed: the extent is of live places")
        #expect(abs((box["north"]?.doubleValue ?? 0) - 12.5) < 1e-4)
        let sizes = try #require(json["sizes"]?.objectValue)
        #expect((sizes["place"]?.doubleValue ?? 0) > 0)

        let text = cli.run(["info", "--output", "text"])
        #expect(text.code == 0)
        #expect(text.out.contains("places: 2 live, 1 removed"))
        #expect(text.out.contains("aliases: 2"))
        #expect(cli.run(["info", "--runs", "x"]).code == 64)
        #expect(cli.run(["info", "--db", cli.dir.file("none.sqlite")]).code == 66)
    }
}
