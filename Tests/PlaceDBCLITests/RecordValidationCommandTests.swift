import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKitTestSupport

/// The adversarial probe's import findings at the command line: an empty
/// geometry trapped (exit 132).
@Suite("Record validation at the command line")
struct RecordValidationCommandTests {
    static let features = [
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"id":"ok","name":"Kept"}}"#,
        #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[]},"properties":{"id":"mls","name":"M"}}"#,
        #"{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[]},"properties":{"id":"gc","name":"G"}}"#,
    ]

    @Test("an empty MultiLineString stops the import with 65 naming file:line, record and place; nothing is imported")
    func emptyMultiLineStringStops() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.geojsonl", Self.features.joined(separator: "\n") + "\n")
        let r = cli.run(["import", file])
        #expect(r.code == 65)
        #expect(r.err.contains("in.geojsonl:2: record 2 (place 'mls'): MultiLineString has no lines"), "\(r.err)")
        #expect(cli.run(["place", "ok"]).code != 0)
    }

    @Test("with --on-error skip the empty MultiLineString and GeometryCollection are counted rejected and the good feature kept")
    func emptyGeometriesSkipped() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.geojsonl", Self.features.joined(separator: "\n") + "\n")
        let r = cli.run(["import", file, "--on-error", "skip", "--output", "json"])
        #expect(r.code == 0, "rejected records are counted, as any other rejected record")
        #expect(r.err.contains("in.geojsonl:3: record 3 (place 'gc'): GeometryCollection has no geometries"), "\(r.err)")
        #expect(r.out.contains(#""rejected":2"#) || r.out.contains(#""rejected": 2"#), "\(r.out)")
        #expect(cli.run(["place", "ok"]).code == 0)
        #expect(cli.run(["place", "gc"]).code != 0)
    }
}
