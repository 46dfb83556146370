import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("placedb diff")
struct DiffCommandTests {
    static func record(_ id: String, _ name: String, _ lat: Double, _ lng: Double, _ type: String = "cafe") -> String {
        #"{"id":"\#(id)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["\#(type)"]}"#
    }

    static func lines(_ out: String) throws -> [JSONValue] {
        try out.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    static func changes(_ lines: [JSONValue], _ kind: String) -> [String] {
        lines.filter { $0["change"] == .string(kind) }.compactMap { $0["id"]?.stringValue }.sorted()
    }

    /// Three snapshot imports: s1 a b c k; s2: a moved ~111 m and renamed,
    /// b removed, c retyped, d added, k unchanged, old -> k alias recorded;
    /// s3: a moved again, b back, d removed.
    static func threeSnapshots(_ cli: CLI) throws {
        let s1 = try cli.dir.write(
            "s1.ndjson",
            [
                record("a", "A", 10, 20), record("b", "B", 11, 21), record("c", "C", 12, 22), record("k", "K", 13, 23),
                record("old", "Old", 13.0001, 23),
            ].joined(separator: "\n") + "\n")
        let s2 = try cli.dir.write(
            "s2.ndjson",
            [
                record("a", "A2", 10.001, 20), record("c", "C", 12, 22, "park"), record("d", "D", 14, 24),
                record("k", "K", 13, 23),
            ].joined(separator: "\n") + "\n")
        let s3 = try cli.dir.write(
            "s3.ndjson",
            [
                record("a", "A2", 10.01, 20), record("b", "B", 11, 21), record("c", "C", 12, 22, "park"),
                record("k", "K", 13, 23),
            ].joined(separator: "\n") + "\n")
        #expect(cli.run(["import", "--snapshot", "demo", "--no-match", s1]).code == 0)
        let aliases = try cli.dir.write("a.csv", "old_id,new_id,reason\nold,k,renumbered\n")
        #expect(cli.run(["alias", "import", aliases]).code == 0)
        #expect(cli.run(["import", "--snapshot", "demo", "--no-match", s2]).code == 0)
        #expect(cli.run(["import", "--snapshot", "demo", "--no-match", s3]).code == 0)
    }

    @Test("diff reports added, removed, moved, renamed, retyped and re-identified places between two snapshot imports")
    func kinds() throws {
        let cli = try CLI()
        try Self.threeSnapshots(cli)
        let info = try JSONValue(parsing: cli.run(["info", "--output", "json"]).out)
        let completions = (info["runs"]?.arrayValue ?? []).filter { $0["input"] == "snapshot demo" }.compactMap {
            $0["id"]?.intValue
        }
        #expect(completions.count == 3)

        let r = cli.run(["diff", "--snapshot", "demo", String(completions[0]), String(completions[1])])
        #expect(r.code == 0, "\(r.err)")
        let lines = try Self.lines(r.out)
        #expect(Self.changes(lines, "added") == ["d"])
        #expect(Self.changes(lines, "removed") == ["b"], "old is re-identified as k, not removed")
        #expect(Self.changes(lines, "moved") == ["a"])
        #expect(Self.changes(lines, "renamed") == ["a"])
        #expect(Self.changes(lines, "retyped") == ["c"])
        #expect(Self.changes(lines, "reidentified") == ["k"])
        let moved = try #require(lines.first { $0["change"] == "moved" })
        #expect(moved["before"]?["name"] == "A" && moved["after"]?["name"] == "A2")
        #expect(abs((moved["distanceMeters"]?.doubleValue ?? 0) - 111.2) < 1)
        #expect(moved["before"]?["location"]?["latitude"]?.doubleValue == 10)
        let reid = try #require(lines.first { $0["change"] == "reidentified" })
        #expect(reid["previousId"] == "old" && reid["reason"] == "renumbered")
        #expect(
            r.err.contains("1 added, 1 removed, 1 moved (> 50 m), 1 renamed, 1 retyped, 1 re-identified"), "\(r.err)")

        // The default: the snapshot's last two imports. a's state after the
        // second import comes from the change log (it moved again since).
        let last = try Self.lines(cli.run(["diff", "--snapshot", "demo"]).out)
        #expect(Self.changes(last, "added") == ["b"], "b came back")
        #expect(Self.changes(last, "removed") == ["d"])
        #expect(Self.changes(last, "moved") == ["a"])
        #expect(Self.changes(last, "renamed").isEmpty)
        let a = try #require(last.first { $0["change"] == "moved" })
        #expect(a["before"]?["location"]?["latitude"]?.doubleValue == 10.001)
        #expect(a["after"]?["location"]?["latitude"]?.doubleValue == 10.01)

        // First to last: b removed and back is no change; the threshold decides moves.
        let whole = try Self.lines(
            cli.run([
                "diff", "--snapshot", "demo", String(completions[0]), String(completions[2]), "--moved-threshold",
                "2000",
            ]).out)
        #expect(Self.changes(whole, "removed").isEmpty)
        #expect(Self.changes(whole, "added").isEmpty, "d came and went")
        #expect(Self.changes(whole, "moved").isEmpty, "1.1 km is under 2000 m")
        #expect(Self.changes(whole, "renamed") == ["a"])

        // From before any run: everything live is added.
        let all = cli.run(["diff", "--snapshot", "demo", "0", String(completions[0]), "--summary", "--output", "json"])
        #expect(all.code == 0, "\(all.err)")
        let summary = try JSONValue(parsing: all.out)
        #expect(summary["changes"]?["added"] == 5)
        #expect(summary["places"]?["after"] == 5)

        // A run of an input of a snapshot import stands for its completion.
        let inputRun = completions[1] - 1
        #expect(cli.run(["diff", "--snapshot", "demo", String(completions[0]), String(inputRun)]).out == r.out)

        // Dates: the state after the last run started by then.
        let dates = cli.run([
            "diff", "--snapshot", "demo", "--from", "2000-01-01", "--to", "2999-12-31", "--summary", "--output", "json",
        ])
        #expect(dates.code == 0, "\(dates.err)")
        let span = try JSONValue(parsing: dates.out)
        #expect(span["changes"]?["added"] == 4, "from the empty database to the last import: a, b, c, k")
        #expect(span["places"]?["before"] == 0 && span["places"]?["after"] == 4)
    }

    @Test("the async client's diff gives the changes placedb diff prints, line for line")
    func clientDiff() async throws {
        let cli = try CLI()
        try Self.threeSnapshots(cli)
        let printed = cli.run(["diff", "--snapshot", "demo"]).out
        let client = try PlacesClient(databasePath: cli.db)
        let (summary, changes) = try await client.diff(snapshot: "demo")
        #expect(!changes.isEmpty)
        let writer = JSONWriter(pretty: false)
        let lines = changes.map { writer.string($0.json) + "\n" }.joined()
        #expect(lines == printed)
        #expect(summary.counts[.removed] == 1 && summary.counts[.added] == 1)
        await #expect(throws: PlaceDBError.self) { _ = try await client.diff(movedThresholdMeters: -1) }
    }

    @Test(
        "a snapshot of an OpenStreetMap export dates its removals and alias edges by the export's newest @timestamp, not by the import; diff reports the date"
    )
    func dataDates() throws {
        let cli = try CLI()
        func node(_ id: Int, _ name: String, _ lat: Double, _ t: Int) -> String {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[9.52,\#(lat)]},"properties":{"@type":"node","@id":\#(id),"@timestamp":\#(t),"name":"\#(name)","amenity":"cafe"}}"#
        }
        // The café redrawn as a building: a small square around the node.
        func way(_ id: Int, _ name: String, _ lat: Double, _ t: Int) -> String {
            let (s, n, w, e) = (lat - 0.00005, lat + 0.00005, 9.51995, 9.52005)
            return
                #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[\#(w),\#(s)],[\#(e),\#(s)],[\#(e),\#(n)],[\#(w),\#(n)],[\#(w),\#(s)]]]},"properties":{"@type":"way","@id":\#(id),"@timestamp":\#(t),"name":"\#(name)","amenity":"cafe"}}"#
        }
        let t2013 = 1_367_366_400 // 2013-05-01
        let t2021 = 1_635_415_200 // 2021-10-28T10:00:00Z, the export's newest
        let s1 = try cli.dir.write(
            "s1.geojsonseq",
            [node(1, "Café Central", 47.14, t2013), node(2, "Bar Zwei", 47.15, t2013)].joined(separator: "\n") + "\n")
        let s2 = try cli.dir.write(
            "s2.geojsonseq",
            [way(7, "Café Central", 47.14, 1_500_000_000), node(3, "Neu", 47.16, t2021)].joined(separator: "\n") + "\n")
        #expect(cli.run(["import", "--snapshot", "osm", s1]).code == 0)
        #expect(cli.run(["import", "--snapshot", "osm", s2]).code == 0)
        let removed = try JSONValue(parsing: cli.run(["resolve", "osm:n2"]).out)
        #expect(removed["status"] == "REMOVED")
        #expect(removed["removedAt"] == "2021-10-28T10:00:00Z", "\(removed)")
        let redrawn = try JSONValue(parsing: cli.run(["resolve", "osm:n1"]).out)
        #expect(redrawn["placeId"] == "osm:w7", "\(redrawn)")
        #expect(redrawn["chain"]?.arrayValue?.first?["recordedAt"] == "2021-10-28T10:00:00Z", "\(redrawn)")
        // diff says the date of each side's data.
        let info = try JSONValue(parsing: cli.run(["info", "--output", "json"]).out)
        let completions = (info["runs"]?.arrayValue ?? []).filter { $0["input"] == "snapshot osm" }.compactMap {
            $0["id"]?.intValue
        }
        #expect(completions.count == 2)
        let summary = cli.run([
            "diff", "--snapshot", "osm", String(completions[0]), String(completions[1]), "-o", cli.dir.file("d.ndjson"),
            "--output", "json",
        ])
        #expect(summary.code == 0, "\(summary.err)")
        let json = try JSONValue(parsing: summary.out)
        #expect(json["from"]?["dataTime"] == "2013-05-01T00:00:00Z", "\(json)")
        #expect(json["to"]?["dataTime"] == "2021-10-28T10:00:00Z", "\(json)")
        let text = cli.run(["diff", "--snapshot", "osm", "--summary", "--output", "text"])
        #expect(text.out.contains("data of 2021-10-28T10:00:00Z"), "\(text.out)")
    }

    @Test("diff writes the changes to -o FILE and the summary to standard output; bad sides are usage errors")
    func outputsAndErrors() throws {
        let cli = try CLI()
        try Self.threeSnapshots(cli)
        let file = cli.dir.file("changes.ndjson")
        let r = cli.run(["diff", "--snapshot", "demo", "-o", file, "--output", "text"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("snapshot 'demo', run "), "\(r.out)")
        #expect(try Self.lines(String(contentsOfFile: file, encoding: .utf8)).count == 3)

        #expect(cli.run(["diff", "--snapshot", "demo", "7", "2"]).code == 64, "reversed")
        #expect(cli.run(["diff", "--snapshot", "demo", "1", "999"]).code == 64, "no such run")
        #expect(cli.run(["diff", "--snapshot", "nope"]).code == 64)
        #expect(cli.run(["diff", "--snapshot", "demo", "1"]).code == 64, "one run")
        #expect(cli.run(["diff", "--snapshot", "demo", "x", "2"]).code == 64)
        #expect(cli.run(["diff", "--from", "2020-01-01"]).code == 64, "--from without --to")
        #expect(cli.run(["diff", "--from", "yesterday", "--to", "2020-01-01"]).code == 64)
        #expect(cli.run(["diff", "--snapshot", "demo", "--moved-threshold", "-3"]).code == 64)
        let aliasRun = cli.run(["diff", "--snapshot", "demo", "2", "3"])
        #expect(aliasRun.code == 64, "run 3 is the alias import, no run of the snapshot")
        #expect(aliasRun.err.contains("not a completed import of snapshot 'demo'"), "\(aliasRun.err)")
        #expect(cli.run(["diff", "--db", cli.dir.file("none.sqlite"), "1", "2"]).code == 66)
    }

    /// The places of an `osmium export` POI file as placedb names them, by
    /// a reading of its own: ID -> (name, latitude, longitude).
    static func osmPlaces(_ path: String) throws -> [String: (name: String?, lat: Double, lng: Double)] {
        var out: [String: (name: String?, lat: Double, lng: Double)] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let text = line.drop { $0 == "\u{1E}" }
            guard !text.isEmpty else { continue }
            let f = try JSONValue(parsing: String(text))
            let p = try #require(f["properties"])
            let c = try #require(f["geometry"]?["coordinates"]?.arrayValue)
            let id = "osm:\((p["@type"]?.stringValue ?? "").prefix(1))\(p["@id"]?.intValue ?? 0)"
            out[id] = (p["name"]?.stringValue, c[1].doubleValue ?? 0, c[0].doubleValue ?? 0)
        }
        return out
    }

    @Test(
        "diff of real OpenStreetMap snapshots matches an independent comparison of the two files",
        .enabled(if: CorpusData.has("osm/poi/andorra-2021-10-28.poi.geojsonseq"), "needs ../shared/data/osm/poi"))
    func osmSnapshots() throws {
        let cli = try CLI()
        let dates = ["2020-05-01", "2021-04-13", "2021-10-28"]
        let files = try dates.map { try #require(CorpusData.url("osm/poi/andorra-\($0).poi.geojsonseq")).path }
        for f in files { #expect(cli.run(["import", "--snapshot", "osm-andorra", f]).code == 0) }
        let info = try JSONValue(parsing: cli.run(["info", "--output", "json"]).out)
        let runs = (info["runs"]?.arrayValue ?? []).filter { $0["input"] == "snapshot osm-andorra" }.compactMap {
            $0["id"]?.intValue
        }
        try #require(runs.count == 3)
        for (i, j) in [(0, 1), (1, 2), (0, 2)] {
            let before = try Self.osmPlaces(files[i]), after = try Self.osmPlaces(files[j])
            let same = Set(before.keys).intersection(after.keys)
            let added = Set(after.keys).subtracting(before.keys), removed = Set(before.keys).subtracting(after.keys)
            let moved = same.filter {
                haversineMeters(before[$0]!.lat, before[$0]!.lng, after[$0]!.lat, after[$0]!.lng) > 5
            }
            let renamed = same.filter { before[$0]!.name != after[$0]!.name }

            let r = cli.run([
                "diff", "--snapshot", "osm-andorra", String(runs[i]), String(runs[j]), "--moved-threshold", "5",
            ])
            #expect(r.code == 0, "\(r.err)")
            let lines = try Self.lines(r.out)
            let reid = lines.filter { $0["change"] == "reidentified" }
            // A re-identified ID pair stands for one removal and one addition.
            let reidOld = Set(reid.compactMap { $0["previousId"]?.stringValue }).subtracting(after.keys)
            let reidNew = Set(reid.compactMap { $0["id"]?.stringValue }).subtracting(before.keys)
            #expect(Set(Self.changes(lines, "added")).union(reidNew) == added, "\(dates[i]) -> \(dates[j])")
            #expect(Set(Self.changes(lines, "removed")).union(reidOld) == removed, "\(dates[i]) -> \(dates[j])")
            #expect(Set(Self.changes(lines, "moved")) == moved, "\(dates[i]) -> \(dates[j])")
            #expect(Set(Self.changes(lines, "renamed")) == renamed, "\(dates[i]) -> \(dates[j])")
            #expect(!added.isEmpty && !removed.isEmpty && !renamed.isEmpty, "real changes to compare")
            print(
                "diff andorra \(dates[i]) -> \(dates[j]): \(added.count) added, \(removed.count) removed, \(moved.count) moved > 5 m, \(renamed.count) renamed; re-identified \(reid.count)"
            )
        }
    }
}
