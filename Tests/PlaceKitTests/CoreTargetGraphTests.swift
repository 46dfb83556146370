import Foundation
import Testing

/// The core that travels (docs/library.md): the library product(s) an app
/// depends on build with SQLite and zlib alone. Read from the manifest as
/// SwiftPM resolves it (`swift package describe --type json`), so a
/// dependency added to Package.swift later is caught here.
@Suite("The core library's target graph")
struct CoreTargetGraphTests {
    /// The package root: three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The `swift` driver: $SWIFT_EXEC's directory or the first on PATH.
    static let swift: String? = {
        let env = ProcessInfo.processInfo.environment
        var dirs = (env["PATH"] ?? "").split(separator: ":").map(String.init)
        if let exec = env["SWIFT_EXEC"] {
            dirs.insert(URL(fileURLWithPath: exec).deletingLastPathComponent().path, at: 0)
        }
        return dirs.map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The core products, and the targets that would put libgd (or its
    /// libpng shim) into their graph.
    static let coreProducts = ["PlaceKit"]
    static let imageTargets: Set<String> = ["CGD", "PlaceKitGD"]

    struct Description: Decodable {
        struct Product: Decodable { var name: String; var targets: [String] }
        struct Target: Decodable {
            var name: String
            var type: String
            var target_dependencies: [String]?
        }
        var products: [Product]
        var targets: [Target]
    }

    /// The manifest described as JSON. Its own scratch path, so it neither
    /// waits for the lock of the `swift test` running this test nor
    /// touches .build (the package has no dependencies: nothing to fetch).
    static func describe() throws -> Description {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "placedb-describe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(swift))
        process.arguments = [
            "package", "--package-path", root, "--scratch-path", scratch.path, "describe", "--type", "json",
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package describe failed: \(message)")
        return try JSONDecoder().decode(Description.self, from: data)
    }

    /// Every target reachable from `names` through target dependencies.
    static func closure(of names: [String], in description: Description) -> Set<String> {
        let byName = Dictionary(description.targets.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var seen = Set<String>()
        var stack = names
        while let name = stack.popLast() {
            guard seen.insert(name).inserted else { continue }
            stack += byName[name]?.target_dependencies ?? []
        }
        return seen
    }

    @Test(
        "the core product's targets reach no libgd",
        .enabled(if: swift != nil, "no swift binary on PATH (or beside $SWIFT_EXEC) to run 'swift package describe'"))
    func coreHasNoLibgd() throws {
        let description = try Self.describe()
        for productName in Self.coreProducts {
            let product = try #require(
                description.products.first { $0.name == productName }, "no product \(productName) in Package.swift")
            let graph = Self.closure(of: product.targets, in: description)
            // The graph is the one expected: the layers, SQLite and zlib.
            #expect(
                graph.isSuperset(of: ["PlaceKit", "PlaceModel", "PlaceStorage", "SQLiteDB", "CSQLite", "CZlib"]),
                "\(productName): \(graph.sorted())")
            #expect(
                graph.isDisjoint(with: Self.imageTargets),
                "\(productName) reaches \(graph.intersection(Self.imageTargets).sorted())")
            // No system library but SQLite, zlib and the prefetch header,
            // which links nothing.
            let systemLibraries = graph.filter { name in
                description.targets.first { $0.name == name }?.type == "system-target"
            }
            #expect(
                systemLibraries == ["CSQLite", "CZlib", "CPrefetch"], "\(productName) links \(systemLibraries.sorted())"
            )
        }
        let prefetchMap = try String(
            contentsOfFile: Self.root + "/Sources/CPrefetch/module.modulemap", encoding: .utf8)
        #expect(!prefetchMap.contains("link"), "CPrefetch links a library: \(prefetchMap)")
        // The check can fail: the executable's graph does reach libgd.
        let cli = Self.closure(of: ["placedb"], in: description)
        #expect(cli.contains("CGD") && cli.contains("PlaceKitGD"), "placedb: \(cli.sorted())")
    }
}
