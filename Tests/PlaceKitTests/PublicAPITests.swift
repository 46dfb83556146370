import Foundation
import PlaceModel
import Testing

/// The public API is what docs/library.md ("What is public") lists, no more
/// and no less: each library target's top-level `public` types are read
/// from its sources and compared with the names the section's bullet for
/// that target gives; `SQLiteDB` and `PlaceStorage` have no public
/// declaration at all. A type made public without a line in the docs, or a
/// documented type that is not public, fails here.
@Suite("The public API is the documented one")
struct PublicAPITests {
    /// The package root: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift files of a target, with their text.
    static func sources(_ target: String) throws -> [(name: String, text: String)] {
        let dir = root.appendingPathComponent("Sources/\(target)")
        guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            files.append(
                (
                    url.path.replacingOccurrences(of: root.path + "/", with: ""),
                    try String(contentsOf: url, encoding: .utf8)
                ))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The declarations at the start of a line: attributes, then an access
    /// level, then what is declared.
    static func declaration(_ line: Substring) -> (indent: Substring, kind: Substring, name: Substring)? {
        guard
            let m = try?
                #/^(?<indent>[ \t]*)(?:@\w+(?:\([^)\n]*\))?\s+)*(?<access>public|open)\s+(?:(?:final|static|nonisolated|indirect|mutating|convenience|required|override)\s+)*(?<kind>struct|enum|class|protocol|actor|typealias|func|var|let|init|extension|subscript|case)\b\s*(?<name>\w*)/#
                .prefixMatch(in: line)
        else { return nil }
        return (m.indent, m.kind, m.name)
    }

    /// The top-level public types of a target (nested ones are their
    /// type's), by name, with the file each is in.
    static func publicTypes(_ target: String) throws -> [String: String] {
        var types: [String: String] = [:]
        for (file, text) in try sources(target) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                guard let m = declaration(line), m.indent.isEmpty,
                    ["struct", "enum", "class", "protocol", "actor", "typealias"].contains(String(m.kind))
                else { continue }
                types[String(m.name)] = file
            }
        }
        return types
    }

    /// The type names the docs give for a target: the capitalized names in
    /// backticks in its bullet of "What is public" (`A.b` counts as `A`;
    /// `PATH`, all capitals, is not a type).
    static func documentedTypes() throws -> [String: Set<String>] {
        let doc = try String(contentsOf: root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        guard let start = doc.range(of: "### What is public"),
            let end = doc.range(of: "Everything else is `package`", range: start.upperBound..<doc.endIndex)
        else {
            Issue.record("docs/library.md has no \"What is public\" section")
            return [:]
        }
        var byTarget: [String: Set<String>] = [:]
        var target: String?
        for line in doc[start.upperBound..<end.lowerBound].split(separator: "\n") {
            if let m = line.firstMatch(of: #/^- `(\w+)`:/#) {
                target = String(m.1)
            } else if !line.hasPrefix("  ") {
                target = nil
            }
            guard let target else { continue }
            let body = line.firstMatch(of: #/^- `\w+`:/#).map { line[$0.range.upperBound...] } ?? line[...]
            for m in body.matches(of: #/`([A-Z][A-Z0-9]*[a-z]\w*)/#) {
                byTarget[target, default: []].insert(String(m.1))
            }
        }
        return byTarget
    }

    @Test(
        "each library target's public types are the ones docs/library.md lists for it",
        arguments: ["PlaceModel", "PlaceKit", "PlaceKitGD"])
    func publicTypesAreDocumented(target: String) throws {
        let documented = try #require(
            try Self.documentedTypes()[target], "no bullet for \(target) in docs/library.md's \"What is public\"")
        let types = try Self.publicTypes(target)
        #expect(!types.isEmpty)
        let undocumented = types.filter { !documented.contains($0.key) }.map { "\($0.key) (\($0.value))" }.sorted()
        #expect(
            undocumented.isEmpty,
            "public in \(target) but not in docs/library.md: \(undocumented); document it or make it package")
        let missing = documented.subtracting(types.keys).sorted()
        #expect(missing.isEmpty, "listed for \(target) in docs/library.md but not a public type there: \(missing)")
    }

    @Test("SQLiteDB and PlaceStorage declare nothing public", arguments: ["SQLiteDB", "PlaceStorage"])
    func storageHasNoPublicAPI(target: String) throws {
        var found: [String] = []
        let files = try Self.sources(target)
        #expect(!files.isEmpty)
        for (file, text) in files {
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if Self.declaration(line) != nil || line.contains(/^\s*public\s+import\b/) {
                    found.append("\(file):\(i + 1)")
                }
            }
        }
        #expect(found.isEmpty, "public declarations in \(target): \(found)")
    }

    @Test("the declaration pattern finds public types and skips package ones")
    func patternReadsDeclarations() {
        #expect(Self.declaration("public struct Place: Sendable {")?.name == "Place")
        #expect(Self.declaration("@frozen public enum Kind {")?.name == "Kind")
        #expect(Self.declaration("public final class PlacesClient: Sendable {")?.name == "PlacesClient")
        #expect(Self.declaration("    public static func x() {}")?.indent == "    ")
        #expect(Self.declaration("package struct Hidden {}") == nil)
        #expect(Self.declaration("/// public struct InAComment") == nil)
    }
}

/// The library's messages speak of places, files and values; the command
/// line adds its options (PlaceDBError+CommandLine.swift in PlaceDBCLI).
@Suite("Library messages name no command-line option")
struct LibraryMessageTests {
    /// A value of every case.
    static let errors: [PlaceDBError] = [
        .notFound("p1"), .noDatabase(path: "x.sqlite"), .notADatabasePath(""), .notADatabasePath(":memory:"),
        .danglingSymlink(path: "x.sqlite", target: "gone.sqlite"),
        .cannotOpen(path: "x.sqlite", sqliteMessage: "unable to open", forReading: true),
        .notAnSQLiteDatabase(path: "x.sqlite"), .notAPlacedbDatabase(path: "x.sqlite", hasOtherTables: true),
        .notAPlacedbDatabase(path: "x.sqlite", hasOtherTables: false),
        .schemaTooOld(path: "x.sqlite", version: 1, supported: 2),
        .schemaTooNew(path: "x.sqlite", version: 3, supported: 2),
        .walNeedsWriter(path: "x.sqlite", sqliteMessage: "locked"),
        .readOnly(path: "x.sqlite", reason: "read-only file"),
        .spatiaLiteMissing(path: "x.sqlite", sqliteMessage: "not found"),
        .noTextIndex(path: "x.sqlite"), .corrupt(path: "x.sqlite", reason: "bad row"),
        .database(path: "x.sqlite", reason: "disk I/O error"),
        .input(
            InputError(kind: .corrupt, source: "a.jpg", reason: "this is a JPEG image, not JSON/GeoJSON", found: .image)
        ),
        .input(
            InputError(
                kind: .corrupt, source: "a.sqlite", reason: "this is an SQLite database, not JSON/GeoJSON",
                found: .sqliteDatabase)),
        .input(
            InputError(
                kind: .unreadable, source: "photos", reason: "is a directory, not an image file", found: .directory)),
        .invalidArgument("radius must be positive"), .invalidFieldMask(FieldMaskError(unknown: "colour")),
        .invalidFieldMask(
            FieldMaskError(unknown: "location.latitude.foo", detail: "location.latitude has no sub-fields")),
        .unknownFilterColumn(column: "nam", filter: "nam = 'x'", suggestion: "name", columns: ["id", "name"]),
        .unknownFilterColumn(column: "zzz", filter: "zzz = 1", suggestion: nil, columns: ["id", "name"]),
        .unknownImportRun(7), .unknownSnapshot("osm"), .noRunsToCompare, .photoNotFound("no photo 'p' in x.sqlite"),
        .noLocalImage(photo: "places/p1/photos/r"), .badImage("corrupt PNG image"),
        .missingTool(package: "osmium-tool", reason: "reading a.osm.pbf needs osmium"),
    ]

    @Test("no case's description names an option or a placedb command")
    func descriptionsNameNoOption() {
        #expect(Self.errors.count >= 30)
        for e in Self.errors {
            let text = e.description
            #expect(!text.isEmpty && !text.contains("\n"), "\(text)")
            #expect(text.firstMatch(of: /(^|\s|\()--[a-z]/) == nil, "names an option: \(text)")
            #expect(
                text.firstMatch(
                    of:
                        /placedb (import|photo|info|export|open|text-index|link|alias|serve|search|nearby|current|diff|place)\b/
                ) == nil,
                "names a command: \(text)")
        }
    }

    @Test("the new cases say what the command line's strings said, less the advice")
    func wording() {
        #expect(
            PlaceDBError.noLocalImage(photo: "places/p1/photos/r").description
                == "NOT_FOUND: photo 'places/p1/photos/r' has no local image")
        #expect(PlaceDBError.unknownImportRun(7).description == "there is no import run 7")
        #expect(
            PlaceDBError.unknownFilterColumn(column: "nam", filter: "nam = 'x'", suggestion: "name", columns: [])
                .description
                == "unknown column 'nam' in the filter 'nam = 'x''; did you mean 'name'?")
        #expect(
            FieldMaskError(unknown: "colour").description.hasPrefix(
                "unknown field 'colour' in the field mask; valid fields: *, "))
        #expect(
            PlaceDBError.input(
                InputError(
                    kind: .corrupt, source: "a.jpg", reason: "this is a JPEG image, not JSON/GeoJSON", found: .image)
            ).description
                == "a.jpg: this is a JPEG image, not JSON/GeoJSON; a photo's image is added with PhotoImporter")
    }
}
