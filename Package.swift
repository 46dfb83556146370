// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "placedb",
    products: [
        .library(name: "PlaceKit", targets: ["PlaceKit"]),
        .executable(name: "placedb", targets: ["placedb"]),
        .executable(name: "placedb-bench", targets: ["placedb-bench"]),
        .executable(name: "placedb-fuzz", targets: ["placedb-fuzz"]),
    ],
    targets: [
        // C libraries from Debian, as system-library targets.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        // libFuzzer's driver entry point (ships with the Swift toolchain;
        // linked only by a -sanitize=fuzzer build, see docs/fuzzing.md).
        .systemLibrary(name: "CLibFuzzer"),

        // The only code that touches the SQLite C API.
        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),

        // The public library: model, formats, import, store, queries.
        .target(name: "PlaceKit", dependencies: ["SQLiteDB", "CZlib", "CGD"]),

        // The command line, as a library so tests can run it in-process.
        .target(name: "PlaceDBCLI", dependencies: ["PlaceKit"]),
        .executableTarget(name: "placedb", dependencies: ["PlaceDBCLI"]),
        .executableTarget(name: "placedb-bench", dependencies: ["PlaceKit", "SQLiteDB", "CGD"]),

        // Fuzz targets (docs/fuzzing.md): a library of targets, and one
        // executable that runs them under libFuzzer when built by
        // Scripts/fuzz (-sanitize=fuzzer -DFUZZING) and replays files otherwise.
        .target(name: "PlaceDBFuzz", dependencies: ["PlaceKit", "PlaceDBCLI"]),
        .executableTarget(name: "placedb-fuzz", dependencies: ["PlaceDBFuzz", "CLibFuzzer"]),

        .target(name: "PlaceKitTestSupport", dependencies: ["PlaceKit", "CGD"], path: "Sources/PlaceKitTestSupport"),
        .testTarget(name: "SQLiteDBTests", dependencies: ["SQLiteDB", "PlaceKitTestSupport"]),
        .testTarget(name: "PlaceKitTests", dependencies: ["PlaceKit", "SQLiteDB", "PlaceKitTestSupport"]),
        .testTarget(name: "PlaceDBCLITests", dependencies: ["PlaceDBCLI", "PlaceKit", "PlaceKitTestSupport", "PlaceDBFuzz"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// Strict settings for every Swift target, in one place.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
