import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Walks every Google Places file under ../shared/data/google (real API
/// responses), reading each with Foundation's JSON parser as an independent
/// oracle: files whose records all carry an ID and a location must import
/// with no rejects and round-trip by ID; the others (autocomplete
/// predictions, error responses, field-masked partial records, photo media)
/// must be refused with a one-line error and leave the database unchanged.
@Suite(
    "Google Places corpus (../shared/data/google)",
    .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
struct GoogleCorpusTests {
    struct Expected {
        let id: String
        let name: String?
        let latitude: Double
        let longitude: Double
        let types: [String]
    }

    static let files: [URL] = CorpusData.files(under: "google", extension: "json").filter {
        !$0.path.contains("/schema/")
    }

    /// The records of a response, as the API documents its shapes.
    static func records(_ json: Any) -> [[String: Any]] {
        if let array = json as? [[String: Any]] { return array }
        guard let object = json as? [String: Any] else { return [] }
        for key in ["places", "results", "candidates"] {
            if let list = object[key] as? [[String: Any]] { return list }
        }
        if let result = object["result"] as? [String: Any] { return [result] }
        if object["predictions"] != nil || object["status"] != nil { return [] }
        return [object]
    }

    static func expected(_ r: [String: Any]) -> Expected? {
        if let id = r["place_id"] as? String {
            guard let loc = (r["geometry"] as? [String: Any])?["location"] as? [String: Any],
                let lat = (loc["lat"] as? NSNumber)?.doubleValue, let lng = (loc["lng"] as? NSNumber)?.doubleValue
            else { return nil }
            return Expected(
                id: id, name: r["name"] as? String, latitude: lat, longitude: lng, types: r["types"] as? [String] ?? [])
        }
        guard let id = r["id"] as? String, let loc = r["location"] as? [String: Any],
            let lat = (loc["latitude"] as? NSNumber)?.doubleValue,
            let lng = (loc["longitude"] as? NSNumber)?.doubleValue
        else { return nil }
        return Expected(
            id: id, name: (r["displayName"] as? [String: Any])?["text"] as? String, latitude: lat, longitude: lng,
            types: r["types"] as? [String] ?? [])
    }

    @Test("the shared Google corpus holds its files")
    func corpusPresent() throws {
        #expect(Self.files.count >= 40, "expected the Google corpus files, found \(Self.files.count)")
    }

    @Test("every file that holds places imports and each place round-trips by ID", arguments: files)
    func file(_ url: URL) throws {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let records = Self.records(json)
        let expected = records.compactMap(Self.expected)
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let importer = try PlaceImporter(databasePath: db)

        if !records.isEmpty && expected.count == records.count {
            let summary = try importer.importInput(.file(url.path))
            #expect(summary.rejected == 0)
            #expect(summary.records == records.count)
            let client = try PlaceReader(databasePath: db)
            for e in expected {
                let place = try client.fetchPlace(id: PlaceID(e.id))
                #expect(place.displayName?.text == e.name, "\(url.lastPathComponent): \(e.id) name")
                // Foundation's JSONSerialization on Linux is not correctly
                // rounded (it is off by 1-3 ulp on some of these numbers, where
                // placedb's parser agrees with strtod), so the oracle gets a
                // few ulp of slack: far below a micrometre.
                #expect(
                    abs(place.coordinate.latitude - e.latitude) <= 4 * e.latitude.ulp,
                    "\(url.lastPathComponent): \(e.id) latitude")
                #expect(
                    abs(place.coordinate.longitude - e.longitude) <= 4 * e.longitude.ulp,
                    "\(url.lastPathComponent): \(e.id) longitude")
                #expect(place.types == e.types, "\(url.lastPathComponent): \(e.id) types")
                // The output is the Places API (New) shape.
                let api = place.apiJSON
                #expect(api["name"]?.stringValue == "places/\(e.id)")
                #expect(api["id"]?.stringValue == e.id)
                #expect(api.keys.allSatisfy { !$0.contains("_") }, "snake_case key left in \(e.id): \(api.keys)")
            }
            // The same file again changes nothing.
            let again = try importer.importInput(.file(url.path))
            #expect(again.changedNothing && again.unchanged == records.count)
        } else {
            // Not places (or partial ones): refused with one line, nothing written.
            do {
                _ = try importer.importInput(.file(url.path))
                Issue.record("\(url.lastPathComponent) holds no complete places but imported without an error")
            } catch let error as PlaceDBError {
                guard case .badInput = error else {
                    Issue.record("expected a bad-input error, got \(error)")
                    return
                }
                #expect(!error.description.contains("\n"))
                #expect(error.description.hasPrefix(url.path + ":"))
            }
            // A failed first import leaves no database at all.
            #expect(!FileManager.default.fileExists(atPath: db))
        }
    }
}
