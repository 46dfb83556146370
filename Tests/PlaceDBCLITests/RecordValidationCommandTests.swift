import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKitTestSupport

/// The adversarial probe's import findings at the command line: an empty
/// geometry trapped (exit 132), NUL cut IDs apart on export.
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

    @Test(
        "with --on-error skip the empty MultiLineString and GeometryCollection are counted rejected and the good feature kept"
    )
    func emptyGeometriesSkipped() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.geojsonl", Self.features.joined(separator: "\n") + "\n")
        let r = cli.run(["import", file, "--on-error", "skip", "--output", "json"])
        #expect(r.code == 0, "rejected records are counted, as any other rejected record")
        #expect(
            r.err.contains("in.geojsonl:3: record 3 (place 'gc'): GeometryCollection has no geometries"), "\(r.err)")
        #expect(r.out.contains(#""rejected":2"#) || r.out.contains(#""rejected": 2"#), "\(r.out)")
        #expect(cli.run(["place", "ok"]).code == 0)
        #expect(cli.run(["place", "gc"]).code != 0)
    }

    @Test(
        "IDs and names holding U+0000 are refused on import naming the member; export gives back exactly the places kept"
    )
    func nulRefusedAndExportWhole() throws {
        let cli = try CLI()
        let lines = [
            #"{"id":"a\u0000x","location":{"latitude":1,"longitude":2}}"#,
            #"{"id":"a\u0000y","location":{"latitude":1,"longitude":2}}"#,
            #"{"id":"b","displayName":{"text":"B\u0000C"},"location":{"latitude":1,"longitude":2}}"#,
            #"{"id":"c","displayName":{"text":"C"},"location":{"latitude":1,"longitude":2}}"#,
        ]
        let file = try cli.dir.write("in.ndjson", lines.joined(separator: "\n") + "\n")
        let r = cli.run(["import", file, "--on-error", "skip"])
        #expect(r.code == 0)
        #expect(cli.run(["import", file]).code == 65, "without --on-error skip the first one stops the import")
        #expect(r.err.contains("in.ndjson:1: record 1: the place ID 'a\\x00x' contains U+0000 (NUL)"), "\(r.err)")
        #expect(r.err.contains("in.ndjson:3: record 3 (place 'b'): displayName.text contains U+0000 (NUL)"), "\(r.err)")
        let export = ExportCommandTests.runBytes(cli, ["export"])
        #expect(export.code == 0)
        let exported = export.out.split(separator: "\n")
        #expect(exported.count == 1, "\(export.out)")
        #expect(exported.first?.contains(#""id":"c""#) == true)
    }
}
