import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceModel
import PlaceKitTestSupport

/// `placedb current` on a coarse fix and `placedb autocomplete --query-predictions`.
@Suite("placedb current (approximate) and autocomplete --query-predictions")
struct ApproximateCommandTests {
    /// 100 pizzerias 40 m apart around (46.52, 6.63) and the town of
    /// Testville, a Google-style `locality, political` record 2 km east.
    static func cli() throws -> CLI {
        var lines: [String] = []
        for i in 0..<10 {
            for j in 0..<10 {
                let lat = 46.52 + Double(j - 5) * 0.00036, lng = 6.63 + Double(i - 5) * 0.00052
                lines.append(
                    #"{"id":"p\#(i)-\#(j)","displayName":{"text":"Pizzeria \#(i)-\#(j)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["pizza_restaurant"],"primaryType":"pizza_restaurant"}"#
                )
            }
        }
        lines.append(
            #"{"id":"town","displayName":{"text":"Testville"},"location":{"latitude":46.52,"longitude":6.656},"types":["locality","political"],"primaryType":"locality"}"#
        )
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("places.ndjson", lines.joined(separator: "\n") + "\n")])
        #expect(r.code == 0, "\(r.err)")
        return cli
    }

    @Test(
        "a coarse fix prints one line saying so, with the nearest locality; JSON carries approximate and locality; a fine fix neither"
    )
    func current() throws {
        let cli = try Self.cli()
        let coarse = cli.run(["current", "46.52,6.63", "--accuracy", "1000", "--output", "text"])
        #expect(coarse.code == 0, "\(coarse.err)")
        let lines = coarse.out.split(separator: "\n")
        #expect(lines.count == 7) // 5 places, none of these, the approximate line
        let last = String(lines.last ?? "")
        #expect(last.hasPrefix("approximate: the fix is too coarse to name a place"), "\(last)")
        #expect(last.contains("nearest locality Testville, 2.0 km away (locality, town)"), "\(last)")
        let json = try JSONValue(
            parsing: cli.run(["current", "46.52,6.63", "--accuracy", "1000", "--fields", "id"]).out)
        #expect(json["approximate"]?.boolValue == true)
        #expect(json["locality"]?["id"]?.stringValue == "town")
        #expect(json["locality"]?["containsFix"]?.boolValue == false)
        let fine = cli.run(["current", "46.52,6.63", "--accuracy", "3", "--output", "text"])
        #expect(fine.code == 0)
        #expect(!fine.out.contains("approximate"))
        #expect(
            try JSONValue(parsing: cli.run(["current", "46.52,6.63", "--accuracy", "3"]).out)["approximate"] == nil)
        // A batch line without maxResultCount lists 5, as --limit's default.
        let batch = cli.run(
            ["current", "--batch", "--fields", "id"],
            input: #"{"location": {"latitude": 46.52, "longitude": 6.63}, "accuracyMeters": 1000}"# + "\n")
        #expect(try JSONValue(parsing: batch.out)["placeLikelihoods"]?.arrayValue?.count == 5)
    }

    @Test("autocomplete --query-predictions prints the searches after the places")
    func queries() throws {
        let cli = try Self.cli()
        let text = cli.run(["autocomplete", "pizz", "--near", "46.52,6.63", "--query-predictions", "--output", "text"])
        #expect(text.code == 0, "\(text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(Array(lines.suffix(2)) == ["   search  pizza", "   search  pizza near Testville"])
        let plain = cli.run(["autocomplete", "pizz", "--near", "46.52,6.63", "--output", "text"])
        #expect(!plain.out.contains("search"))
        #expect(cli.run(["autocomplete", "--batch", "--query-predictions"], input: "{}\n").code == 64)
    }
}
