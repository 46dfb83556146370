import Foundation
import Testing
import PlaceModel
import PlaceKitTestSupport

/// docs/server.md's table of request fields against the API's discovery
/// document: every method and request field of the document has a row, and
/// every row names one of them, so the table cannot drift.
@Suite("the request field table of docs/server.md")
struct DiscoveryTableTests {
    static let serverDoc = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/server.md").standardizedFileURL

    /// "method field" for every request field (the body's schema) and query
    /// parameter of every method of the discovery document; methods by
    /// their id without the service's name (`places.searchText`).
    static func documentFields(_ discovery: JSONValue) -> Set<String> {
        var out: Set<String> = []
        let service = (discovery["name"]?.stringValue ?? "places") + "."
        let schemas = discovery["schemas"]?.objectValue ?? JSONObject()
        func walk(_ resources: JSONValue?) {
            for (_, resource) in resources?.objectValue ?? JSONObject() {
                for (_, method) in resource["methods"]?.objectValue ?? JSONObject() {
                    guard var id = method["id"]?.stringValue else { continue }
                    if id.hasPrefix(service) { id.removeFirst(service.count) }
                    for (name, _) in method["parameters"]?.objectValue ?? JSONObject() { out.insert("\(id) \(name)") }
                    if let ref = method["request"]?["$ref"]?.stringValue {
                        for (name, _) in schemas[ref]?["properties"]?.objectValue ?? JSONObject() {
                            out.insert("\(id) \(name)")
                        }
                    }
                }
                walk(resource["resources"])
            }
        }
        walk(discovery["resources"])
        return out
    }

    /// "method field" for every row of the table under "### Request fields".
    static func tableFields(_ markdown: String) -> Set<String> {
        guard let start = markdown.range(of: "### Request fields\n") else { return [] }
        var out: Set<String> = []
        for line in markdown[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 4, cells[1].hasPrefix("places."), cells[2].hasPrefix("`"), cells[2].hasSuffix("`")
            else { continue }
            out.insert("\(cells[1]) \(cells[2].dropFirst().dropLast())")
        }
        return out
    }

    @Test(
        "every method and request field of the discovery document has a row, and every row is one of them",
        .enabled(
            if: CorpusData.url("google/schema/places.v1.discovery.json") != nil, "needs ../shared/data/google/schema"))
    func tableMatchesDocument() throws {
        let url = try #require(CorpusData.url("google/schema/places.v1.discovery.json"))
        let fields = Self.documentFields(try JSONValue(parsing: Array(try Data(contentsOf: url))))
        #expect(fields.contains("places.searchText pageToken"))
        #expect(fields.count > 50)
        let table = Self.tableFields(try String(contentsOf: Self.serverDoc, encoding: .utf8))
        #expect(fields.subtracting(table).sorted() == [], "missing from docs/server.md's table")
        #expect(table.subtracting(fields).sorted() == [], "in docs/server.md's table but not in the document")
    }

    @Test("the table reader finds rows and stops at the next heading")
    func reader() {
        let text =
            "### Request fields\n\n| method | field | what |\n|---|---|---|\n| places.get | `name` | x |\n| places.get | not code | y |\n### Next\n| places.get | `late` | z |\n"
        #expect(Self.tableFields(text) == ["places.get name"])
    }
}
