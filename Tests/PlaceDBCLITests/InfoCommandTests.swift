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

    @Test(
        "info counts in one pass what GROUP BY counts: the same lists, ties by name in byte order, places without a type or status as (none) first among equals"
    )
    func countsAsGroupBy() throws {
        let cli = try CLI()
        var lines: [String] = []
        let types = ["cafe", "park", "bar", "Bar", "école", "zoo"]
        let statuses = ["OPERATIONAL", "CLOSED_TEMPORARILY", "CLOSED_PERMANENTLY"]
        for i in 0..<240 {
            let type = i % 7 == 0 ? "" : #","types":["\#(types[i % types.count])"]"#
            let status = i % 5 == 0 ? "" : #","businessStatus":"\#(statuses[i % statuses.count])""#
            lines.append(
                #"{"id":"p\#(i)","displayName":{"text":"P\#(i)"},"location":{"latitude":\#(Double(i % 40) / 10),"longitude":\#(Double(i / 40) / 10)}\#(type)\#(status)}"#
            )
        }
        let all = try cli.dir.write("all.ndjson", lines.joined(separator: "\n") + "\n")
        let fewer = try cli.dir.write("fewer.ndjson", lines.prefix(200).joined(separator: "\n") + "\n")
        #expect(cli.run(["import", "--snapshot", "s", all]).code == 0)
        #expect(cli.run(["import", "--snapshot", "s", fewer]).code == 0)
        let other = try cli.dir.write(
            "other.ndjson",
            #"{"id":"o1","displayName":{"text":"O"},"location":{"latitude":0.1,"longitude":0.1},"types":["zoo"]}"#
                + "\n")
        #expect(cli.run(["import", "--source", "other", other]).code == 0)

        let store = try PlaceStore(path: cli.db, writable: false)
        let info = try store.info()
        func grouped(_ sql: String) throws -> [DatabaseInfo.Count] {
            var out: [DatabaseInfo.Count] = []
            try store.db.forEachRow(sql) {
                out.append(DatabaseInfo.Count(name: $0.optionalString(0) ?? "(none)", count: Int(try $0.int64(1))))
            }
            return out
        }
        let live = "FROM place WHERE removed_run IS NULL GROUP BY 1 ORDER BY 2 DESC, 1"
        #expect(info.byType == (try grouped("SELECT primary_type, count(*) \(live)")))
        #expect(info.byStatus == (try grouped("SELECT business_status, count(*) \(live)")))
        #expect(info.bySource == (try grouped("SELECT source, count(*) \(live)")))
        #expect(
            info.removedBySource
                == (try grouped(
                    "SELECT source, count(*) FROM place WHERE removed_run IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1")))
        #expect(info.places == 241 && info.livePlaces == 201 && info.removedPlaces == 40)
        #expect(info.byType.contains { $0.name == "(none)" } && info.byStatus.contains { $0.name == "(none)" })
        #expect(info.bySource.count == 2)
        // With removed places the extent is of the live ones (joined).
        let box = try #require(info.boundingBox)
        #expect(abs(box.east - 0.4) < 1e-6, "the last 40 places (longitude 0.5) were removed")
    }

    @Test(
        "the extent read from the R*Tree's root node is its entries' through inserts, moves and deletes; sizes are measured only when asked"
    )
    func rootExtent() throws {
        let cli = try CLI()
        var lines: [String] = []
        // Enough places for a root above the leaves (a node holds about 170).
        for i in 0..<3000 {
            lines.append(
                #"{"id":"p\#(i)","displayName":{"text":"P\#(i)"},"location":{"latitude":\#(Double(i % 60) * 0.7 - 20),"longitude":\#(Double(i / 60) * 1.3 - 30)}}"#
            )
        }
        #expect(cli.run(["import", try cli.dir.write("in.ndjson", lines.joined(separator: "\n") + "\n")]).code == 0)
        let store = try PlaceStore(path: cli.db, writable: true)
        func entries() throws -> (Double, Double, Double, Double) {
            var box = (0.0, 0.0, 0.0, 0.0)
            try store.db.forEachRow("SELECT min(xmin), min(ymin), max(xmax), max(ymax) FROM idx_place_geom") {
                box = (
                    $0.optionalDouble(0) ?? 0, $0.optionalDouble(1) ?? 0, $0.optionalDouble(2) ?? 0,
                    $0.optionalDouble(3) ?? 0
                )
            }
            return box
        }
        var depth = 0
        try store.db.forEachRow("SELECT data FROM idx_place_geom_node WHERE nodeno = 1") { row in
            row.withBytes(0) { depth = Int($0[0]) << 8 | Int($0[1]) }
        }
        #expect(depth >= 1, "the root is not a leaf")
        func same() throws {
            let root = try #require(try store.rtreeRootExtent())
            let all = try entries()
            #expect(root.west == all.0 && root.south == all.1 && root.east == all.2 && root.north == all.3)
            #expect(
                try store.info(sizesUpTo: -1).boundingBox.map { [$0.west, $0.south, $0.east, $0.north] } == [
                    all.0, all.1, all.2, all.3,
                ])
        }
        try same()
        // The easternmost column moved in, the westernmost deleted: the root's boxes shrink with them.
        try store.db.execute(
            "UPDATE place SET geom = MakePoint(0.5, 0.5, 4326) WHERE place_id IN (SELECT place_id FROM place ORDER BY id DESC LIMIT 60)"
        )
        try same()
        try store.db.execute("DELETE FROM place WHERE id IN (SELECT id FROM place ORDER BY id LIMIT 60)")
        try same()
        #expect(abs(try entries().0 - -28.7) < 1e-4)

        let measured = try store.info()
        #expect(measured.sizesMeasured && (measured.sizes?.isEmpty == false))
        // The limit is the file's size, inclusive.
        #expect(try store.info(sizesUpTo: measured.fileBytes).sizesMeasured)
        #expect(try !store.info(sizesUpTo: measured.fileBytes - 1).sizesMeasured)
        let skipped = try store.info(sizesUpTo: -1)
        #expect(!skipped.sizesMeasured && skipped.sizes == nil)
        #expect(skipped.json["sizesMeasured"] == false && skipped.json["sizes"] == nil)
        // A small file: sizes by default; --sizes asks for them whatever the size.
        let text = cli.run(["info", "--output", "text"])
        #expect(text.code == 0 && text.out.contains("size by table and index:"))
        #expect(try JSONValue(parsing: cli.run(["info", "--sizes", "--output", "json"]).out)["sizes"] != nil)
        #expect(InfoCommand.text(skipped, lastRuns: 1).contains { $0.contains("--sizes reads every page") })
    }
}
