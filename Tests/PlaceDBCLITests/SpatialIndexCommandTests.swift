import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("placedb spatial-index build and status")
struct SpatialIndexCommandTests {
    @Test(
        "status says missing, build writes and checks the file (status then current, checksums read), a second build does nothing, an import makes it stale; exit 1 until current"
    )
    func buildAndStatus() throws {
        let cli = try CLI.withQueryPlaces()
        let path = cli.db + ".placeidx"
        var r = cli.run(["spatial-index", "status", "--output", "text"])
        #expect(r.code == 1)
        #expect(r.out == "\(path): no stored index; 'placedb spatial-index build' writes it\n")
        func infoState() throws -> JSONValue? {
            try JSONValue(parsing: cli.run(["info", "--output", "json"]).out)["spatialIndex"]?["state"]
        }
        #expect(try infoState() == .string("missing"))
        #expect(
            cli.run(["info", "--output", "text"]).out.contains(
                "\nspatial index: no stored index (placedb spatial-index build writes it)\n"))
        r = cli.run(["spatial-index", "build", "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        #expect(try infoState() == .string("current"))
        let built = try JSONValue(parsing: r.out)
        #expect(built["action"] == .string("built"))
        #expect(built["before"] == .string("no stored index"))
        #expect(built["path"] == .string(path))
        #expect(built["places"].map { if case .int(let n) = $0 { n > 0 } else { false } } == true)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.fileExists(atPath: path + ".checked"))
        r = cli.run(["spatial-index", "status", "--output", "json"])
        #expect(r.code == 0)
        let status = try JSONValue(parsing: r.out)
        #expect(status["state"] == .string("current"))
        #expect(status["checked"] == .bool(true))
        r = cli.run(["spatial-index", "build", "--output", "text"])
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("\(path): current; nothing done ("))
        // Current but never checked (its record gone): read once, and recorded.
        try FileManager.default.removeItem(atPath: path + ".checked")
        r = cli.run(["spatial-index", "build", "--output", "json"])
        #expect(try JSONValue(parsing: r.out)["action"] == .string("checked"))
        #expect(FileManager.default.fileExists(atPath: path + ".checked"))
        // The unmerged view has a file of its own.
        r = cli.run(["spatial-index", "status", "--unmerged", "--output", "text"])
        #expect(r.code == 1)
        #expect(r.out.contains("no stored index"))
        // Any import changes the database: the file is stale until built again.
        #expect(cli.run(["import", try cli.dir.write("more.ndjson", CLI.sample)]).code == 0)
        r = cli.run(["spatial-index", "status", "--output", "json"])
        #expect(r.code == 1)
        #expect(try JSONValue(parsing: r.out)["state"] == .string("stale"))
        #expect(try infoState() == .string("stale"))
        r = cli.run(["spatial-index", "build", "--output", "json"])
        #expect(r.code == 0)
        let again = try JSONValue(parsing: r.out)
        #expect(again["action"] == .string("built"))
        let before = again["before"].flatMap(\.stringValue) ?? ""
        #expect(before.hasPrefix("stale: "), "\(before)")
        #expect(cli.run(["spatial-index", "status"]).code == 0)
    }

    @Test("a directory placedb cannot write to: build fails in one line, exit 77; an argument is a usage error")
    func cannotWrite() throws {
        let cli = try CLI.withQueryPlaces()
        #expect(cli.run(["spatial-index", "build", "extra"]).code == 64)
        // The index path taken by a directory: the file cannot be written there.
        try FileManager.default.createDirectory(atPath: cli.db + ".placeidx", withIntermediateDirectories: false)
        let r = cli.run(["spatial-index", "build"])
        #expect(r.code == 77)
        #expect(r.err.hasPrefix("placedb spatial-index build: \(cli.db).placeidx: not written: "))
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
    }
}
