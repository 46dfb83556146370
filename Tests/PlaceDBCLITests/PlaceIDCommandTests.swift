import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

/// One ID spelling in every command (docs/formats.md#place-ids).
@Suite("Place IDs in every command")
struct PlaceIDCommandTests {
    static let places = """
        {"type":"Feature","geometry":{"type":"Point","coordinates":[7.4246,43.7384]},"properties":{"@type":"node","@id":1794111149,"amenity":"cafe","name":"Café de Paris","opening_hours":"Mo-Su 08:00-20:00"}}
        {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[7.4250,43.7390],[7.4252,43.7390],[7.4252,43.7392],[7.4250,43.7392],[7.4250,43.7390]]]},"properties":{"@type":"way","@id":4097656,"tourism":"museum","name":"Musée"}}

        """

    func setUp() throws -> CLI {
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("monaco.geojsonseq", Self.places), "--time-zone", "Europe/Monaco"])
        #expect(r.code == 0, "\(r.err)")
        return cli
    }

    @Test("OpenStreetMap places are listed as osm:n... and osm:w..., and every command takes both spellings")
    func everyCommand() throws {
        let cli = try setUp()
        let nearby = cli.run(["nearby", "43.7384,7.4246", "--radius", "200", "--fields", "id,name"])
        #expect(nearby.code == 0, "\(nearby.err)")
        let listed = try JSONValue(parsing: nearby.out)["places"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(listed == ["places/osm:n1794111149", "places/osm:w4097656"])
        for id in ["osm:n1794111149", "osm:node/1794111149", "places/osm:node/1794111149", "places/osm:n1794111149"] {
            let place = cli.run(["place", id, "--fields", "id"])
            #expect(place.code == 0, "\(id): \(place.err)")
            #expect(try JSONValue(parsing: place.out) == ["id": "osm:n1794111149"], "\(id)")
            #expect(!place.err.contains("resolved to"), "a spelling is no move")
            let resolve = try JSONValue(parsing: cli.run(["resolve", id]).out)
            #expect(
                resolve["status"] == "CURRENT" && resolve["placeId"] == "osm:n1794111149"
                    && resolve["requestedId"] == "osm:n1794111149",
                "the ID as placedb spells it")
            #expect(cli.run(["open", id, "--at", "2026-05-04T12:00"]).code == 0, "\(id)")
            #expect(cli.run(["photos", id]).code == 0, "\(id)")
        }
        let batch = cli.run(["resolve", "--batch"], input: "osm:way/4097656\nosm:w4097656\nosm:way/1\n")
        let lines = batch.out.split(separator: "\n").map { try? JSONValue(parsing: Array($0.utf8)) }
        #expect(lines.map { $0?["placeId"] } == ["osm:w4097656", "osm:w4097656", nil])
        #expect(batch.code == 1, "osm:way/1 is NOT_FOUND")
        let missing = cli.run(["place", "osm:node/1"])
        #expect(missing.code == 1 && missing.err.contains("NOT_FOUND"))
    }

    @Test("alias files and link rules take old spellings; an export imports back under the same IDs")
    func aliasesAndExport() throws {
        let cli = try setUp()
        let aliases = try cli.dir.write("aliases.csv", "old_id,new_id,reason\nosm:node/7,osm:way/4097656,redrawn\n")
        #expect(cli.run(["alias", "import", aliases]).code == 0)
        let r = try JSONValue(parsing: cli.run(["resolve", "osm:n7"]).out)
        #expect(r["placeId"] == "osm:w4097656" && r["chain"]?.arrayValue?.first?["from"] == "osm:n7")
        let exported = cli.run([
            "export", "-o", cli.dir.file("out.ndjson"), "--aliases", cli.dir.file("aliases.ndjson"),
        ])
        #expect(exported.code == 0, "\(exported.err)")
        let other = try CLI()
        #expect(other.run(["import", cli.dir.file("out.ndjson")]).code == 0)
        #expect(other.run(["alias", "import", cli.dir.file("aliases.ndjson")]).code == 0)
        let ids = try JSONValue(
            parsing: other.run(["nearby", "43.7384,7.4246", "--radius", "200", "--fields", "id"]).out)["places"]?
            .arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(ids == ["osm:n1794111149", "osm:w4097656"])
        #expect(try JSONValue(parsing: other.run(["resolve", "osm:node/7"]).out)["placeId"] == "osm:w4097656")
    }

    @Test(
        "every Tehran capture's Maps CID (its file name, and the cid= of its googleMapsUri) resolves to its place",
        .enabled(
            if: CorpusData.has("google/v1/third-party-captures/tehran-restaurants"),
            "needs ../shared/data/google/v1/third-party-captures/tehran-restaurants"))
    func tehranCIDs() throws {
        let dir = try #require(CorpusData.url("google/v1/third-party-captures/tehran-restaurants"))
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(files.count == 65)
        let cli = try CLI()
        let imported = cli.run(["import"] + files.map { dir.appendingPathComponent($0).path })
        #expect(imported.code == 0, "\(imported.err)")
        var input = ""
        var expected: [String] = []
        for file in files {
            let place = try JSONValue(parsing: [UInt8](try Data(contentsOf: dir.appendingPathComponent(file))))
            input += String(file.dropLast(5)) + "\n"
            expected.append(try #require(place["id"]?.stringValue))
        }
        let batch = cli.run(["resolve", "--batch"], input: input)
        #expect(batch.code == 0, "\(batch.err)")
        let resolved = batch.out.split(separator: "\n").map {
            (try? JSONValue(parsing: Array($0.utf8)))?["placeId"]?.stringValue
        }
        #expect(resolved == expected.map(Optional.some), "every CID, as the bare number")
        let prefixed = cli.run(
            ["resolve", "--batch"], input: input.split(separator: "\n").map { "cid:\($0)\n" }.joined())
        #expect(
            prefixed.out.split(separator: "\n").map { (try? JSONValue(parsing: Array($0.utf8)))?["status"] }
                == Array(repeating: "CURRENT", count: 65))
    }
}
