import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceKit
import PlaceKitTestSupport
import PlaceModel
import SQLiteDB

/// The export round trip on the shared real data: every live place's
/// `place` answer and every ID's `resolve` answer are the same after
/// `export` and `import` (+ `alias import`) into a new database.
@Suite("export round trip on the shared corpora (../shared/data)")
struct ExportCorpusTests {
    /// The corpora: the Google files (one import, bad files skipped) and
    /// each region's OpenStreetMap POI snapshots, imported in date order as
    /// snapshots of one source (the removed places and the aliases linking
    /// them to their successors are the point).
    static var corpora: [(name: String, imports: [[String]])] {
        var out: [(String, [[String]])] = []
        let google = CorpusData.files(under: "google", extension: "json").filter { !$0.path.contains("/schema/") }.map(
            \.path)
        if !google.isEmpty { out.append(("google", [["--on-error", "skip"] + google])) }
        let nwr = CorpusData.files(under: "osm/poi-nwr", extension: "geojsonseq")
        for region in Set(nwr.map { $0.lastPathComponent.split(separator: "-")[0] }).sorted() {
            let snapshots = nwr.filter { $0.lastPathComponent.hasPrefix(region + "-") }.map(\.path).sorted()
            out.append(("osm/poi-nwr/\(region)", snapshots.map { ["--snapshot", "osm", $0] }))
        }
        return out
    }

    static var names: [String] { corpora.map(\.name) }

    @Test("the shared corpora are all there", .enabled(if: CorpusData.isPresent, "needs ../shared/data"))
    func present() {
        #expect(Self.names.count >= 8, "the Google files and 7 OpenStreetMap regions")
    }

    @Test(
        "export, import into a new database: same place answers, same resolve answers",
        .enabled(if: CorpusData.isPresent, "needs ../shared/data"), arguments: names)
    func roundTrip(_ name: String) throws {
        let corpus = try #require(Self.corpora.first { $0.name == name })
        let cli = try CLI()
        for args in corpus.imports {
            let r = cli.run(["import"] + args)
            #expect(r.code == 0 || r.code == 65, "\(name): \(r.err.prefix(500))")
        }
        let out = cli.dir.file("out.ndjson"), aliases = cli.dir.file("aliases.ndjson")
        let e = cli.run(["export", "-o", out, "--aliases", aliases, "--tombstones"])
        #expect(e.code == 0, "\(e.err)")
        let copy = cli.dir.file("copy.sqlite")
        let i = cli.run(["import", out, "--db", copy])
        #expect(i.code == 0, "\(i.err.prefix(500))")
        if try String(contentsOfFile: aliases, encoding: .utf8).isEmpty == false {
            let r = cli.run(["alias", "import", aliases, "--db", copy])
            #expect(r.code == 0, "\(r.err.prefix(500))")
        }
        let a = try Answers(databasePath: cli.db), b = try Answers(databasePath: copy)
        #expect(a.places.count > 100, "\(name): \(a.places.count) places")
        #expect(a.places.count == b.places.count)
        var differing = 0
        for (id, answer) in a.places where b.places[id] != answer {
            differing += 1
            if differing <= 3 { Issue.record("\(name): place \(id) differs after the round trip") }
        }
        #expect(differing == 0, "\(name): \(differing) of \(a.places.count) place answers differ")
        // Removed places come back as the same tombstones (--tombstones):
        // every ID resolves the same, its removal date included.
        #expect(a.removed.count == b.removed.count, "\(name): removed places")
        var removedDiffering = 0
        for (id, answer) in a.removedPlaces where b.removedPlaces[id] != answer {
            removedDiffering += 1
            if removedDiffering <= 3 { Issue.record("\(name): removed place \(id) differs after the round trip") }
        }
        #expect(removedDiffering == 0, "\(name): \(removedDiffering) of \(a.removedPlaces.count) removed places differ")
        // To the byte: each hop's source and recordedAt too (the tombstones
        // and the alias file carry them).
        differing = 0
        for (id, answer) in a.resolutions {
            if b.resolutions[id] != answer {
                differing += 1
                if differing <= 3 {
                    Issue.record(
                        "\(name): resolve \(id) differs: \(JSONWriter().string(answer)) vs \(b.resolutions[id].map { JSONWriter().string($0) } ?? "nil")"
                    )
                }
            }
        }
        #expect(differing == 0, "\(name): \(differing) of \(a.resolutions.count) resolve answers differ")
        let removedAnswers = a.resolutions.values.filter { $0["status"] == "REMOVED" }.count
        print(
            "export round trip \(name): \(a.places.count) places and \(a.removedPlaces.count) removed identical; \(a.resolutions.count) resolve answers identical to the byte, each hop's source and time included (\(removedAnswers) REMOVED)"
        )
        // The view gives the same documents as placedb place.
        let view = try PlaceDocumentViewTests.viewDocuments(cli.db)
        var viewDiffering = 0
        for (id, answer) in a.places where !PlaceDocumentViewTests.same(view[id], answer) {
            viewDiffering += 1
            if viewDiffering <= 3 {
                Issue.record(
                    "\(name): place_document \(id) differs: \(view[id].map { JSONWriter().string($0) } ?? "nil") vs \(JSONWriter().string(answer))"
                )
            }
        }
        #expect(
            viewDiffering == 0,
            "\(name): \(viewDiffering) of \(a.places.count) place_document rows differ from placedb place")
    }
}
