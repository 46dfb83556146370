import Foundation
import Testing
import PlaceDBFuzz
import PlaceKitTestSupport
import PlaceModel

/// The fuzz targets (docs/fuzzing.md) build and run in the normal suite:
/// each replays its committed seeds (Tests/Fuzz/seeds) and seeds made from the
/// shared data, so a harness that rots or a seed that crashes fails here,
/// not only under Scripts/fuzz. A broken check stops the process.
/// Serialized: the targets share one scratch file per process, as a fuzzer
/// runs them.
@Suite("Fuzz targets replay their seeds", .serialized)
struct FuzzTargetTests {
    static let seedRoot: URL = {
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Tests/Fuzz/seeds"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fuzz/seeds"),
        ]
        return (candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[0])
            .standardizedFileURL
    }()

    static func inputs(_ dir: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .sorted { $0.path < $1.path }
    }

    @Test("every target has a name Scripts/fuzz knows and committed seeds", arguments: FuzzTarget.all.map(\.name))
    func seeded(_ name: String) throws {
        let script = try String(
            contentsOf: Self.seedRoot.appendingPathComponent("../../../Scripts/fuzz").standardizedFileURL,
            encoding: .utf8)
        #expect(script.contains("[\(name)]="), "Scripts/fuzz has no max_len for \(name)")
        #expect(
            !Self.inputs(Self.seedRoot.appendingPathComponent(name)).isEmpty, "no seeds in Tests/Fuzz/seeds/\(name)")
    }

    @Test("each target runs its committed seeds without a finding", arguments: FuzzTarget.all.map(\.name))
    func replay(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        var count = 0
        for url in Self.inputs(Self.seedRoot.appendingPathComponent(name)) {
            let data = try Data(contentsOf: url)
            data.withUnsafeBytes { target.run($0) }
            count += 1
        }
        #expect(count > 0)
    }

    @Test(
        "seeds made from ../shared/data replay without a finding",
        .enabled(if: CorpusData.isPresent, "needs ../shared/data"))
    func sharedSeeds() throws {
        let root = try #require(CorpusData.root)
        let dir = try TempDirectory()
        let counts = try makeSeeds(from: root.path, into: dir.url.path, perFile: 5)
        for name in ["json", "records", "v1", "legacy", "geojson", "geometry", "osm-hours", "image", "aliases"] {
            #expect(counts[name, default: 0] > 0, "no seeds for \(name) from the shared data")
        }
        for (name, _) in counts {
            let target = try #require(FuzzTarget.named(name))
            // A sample of each: the whole set is Scripts/fuzz's to run.
            for url in Self.inputs(dir.url.appendingPathComponent(name)).prefix(25) {
                let data = try Data(contentsOf: url)
                data.withUnsafeBytes { target.run($0) }
            }
        }
    }
}
