import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("placedb import: bad viewports")
struct ImportViewportTests {
    @Test("bad viewports are counted in the import summary, never an error; the places are imported")
    func countedWarnings() throws {
        let cli = try CLI()
        let records = """
            {"id":"inverted","location":{"latitude":46.5,"longitude":6.6},"types":["cafe"],"viewport":{"low":{"latitude":46.51,"longitude":6.59},"high":{"latitude":46.49,"longitude":6.61}}}
            {"id":"island","location":{"latitude":-16.5,"longitude":179.9999},"types":["park"],"viewport":{"low":{"latitude":-16.502,"longitude":179.998},"high":{"latitude":-16.498,"longitude":-179.998}}}
            {"id":"region","location":{"latitude":46.6,"longitude":6.6},"types":["cafe"],"viewport":{"low":{"latitude":46.4,"longitude":6.4},"high":{"latitude":46.8,"longitude":6.8}}}
            {"id":"region2","location":{"latitude":46.65,"longitude":6.6},"types":["cafe"],"viewport":{"low":{"latitude":46.4,"longitude":6.4},"high":{"latitude":46.8,"longitude":6.8}}}
            {"id":"kiosk","location":{"latitude":46.7,"longitude":6.6},"types":["cafe"],"viewport":{"low":{"latitude":46.69865,"longitude":6.59865},"high":{"latitude":46.70135,"longitude":6.60135}}}

            """
        let file = try cli.dir.write("in.ndjson", records)
        let text = cli.run(["import", file, "--output", "text"])
        #expect(text.code == 0, "\(text.err)")
        #expect(text.out.contains("5 inserted"))
        #expect(
            text.out.contains(
                ", 4 viewports ignored as footprints (1 inverted, 1 crosses the antimeridian, 2 larger than 20 km)"),
            "\(text.out)")
        #expect(text.err.isEmpty)

        let cli2 = try CLI()
        let json = try JSONValue(
            parsing: cli2.run(["import", try cli2.dir.write("in.ndjson", records), "--output", "json"]).out)
        let ignored = json["inputs"]?.arrayValue?.first?["ignoredViewports"]
        #expect(
            ignored?["inverted"] == 1 && ignored?["larger than 20 km"] == 2 && ignored?["crosses the antimeridian"] == 1
        )
        #expect(ignored?["default map view"] == nil)
    }
}
