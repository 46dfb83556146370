// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "placedb",
    products: [
        // The core: import, queries, aliases, hours, photos' metadata; it
        // links SQLite and zlib only (docs/library.md).
        .library(name: "PlaceKit", targets: ["PlaceKit", "PlaceModel"]),
        // Photo scaling with libgd, for PlaceKit's ImageCodec.
        .library(name: "PlaceKitGD", targets: ["PlaceKitGD"]),
        .executable(name: "placedb", targets: ["placedb"]),
        .executable(name: "placedb-bench", targets: ["placedb-bench"]),
        .executable(name: "placedb-fuzz", targets: ["placedb-fuzz"]),
    ],
    targets: [
        // C libraries from Debian, as system-library targets.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // libFuzzer's driver entry point (ships with the Swift toolchain;
        // linked only by a -sanitize=fuzzer build, see docs/fuzzing.md).
        .systemLibrary(name: "CLibFuzzer"),
        // One compiler builtin Swift cannot call: a cache prefetch hint for
        // the spatial index's queries and the word lists' (a header,
        // nothing linked).
        .systemLibrary(name: "CPrefetch"),
        // libgd's API (Debian's libgd-dev headers), with libgd opened when an
        // image is first decoded: a run that touches no image loads none of
        // the libraries libgd needs; and libpng's warnings routed away from
        // stderr: libgd gives its PNG readers no warning handler
        // (Sources/CGD/libgd.c).
        .target(name: "CGD", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("dl")]),

        // The only code that touches the SQLite C API.
        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),

        // Layers, each importing only the ones below it (docs/library.md):
        // values and pure functions (no SQLite, no I/O) ...
        .target(name: "PlaceModel"),
        // ... every SQL statement, the schema and its migrations, the writer
        // and the bulk loader ...
        .target(name: "PlaceStorage", dependencies: ["PlaceModel", "SQLiteDB", "CPrefetch"]),
        // ... and the public library: formats, import, aliases, photos,
        // rendering and the client.
        // SQLite and zlib are all it links: images are decoded and scaled
        // through its ImageCodec protocol, ...
        .target(name: "PlaceKit", dependencies: ["PlaceModel", "PlaceStorage", "CZlib", "CPrefetch"]),
        // ... which libgd implements here (GDImageCodec; the command line,
        // the server and the benchmarks install it at start).
        .target(name: "PlaceKitGD", dependencies: ["PlaceKit", "PlaceModel", "CGD"]),

        // The command line, as a library so tests can run it in-process.
        .target(name: "PlaceDBCLI", dependencies: ["PlaceKit", "PlaceKitGD", "PlaceModel", "PlaceDBServer"]),
        // `placedb serve`: the Places API (New) over HTTP (docs/server.md),
        // on libmicrohttpd; the routes call PlaceKit through ServerBackend.
        .target(
            name: "PlaceDBServer", dependencies: ["PlaceKit", "PlaceKitGD", "PlaceModel", "CMicroHTTPD"],
            exclude: ["Vendor"]),
        .executableTarget(name: "placedb", dependencies: ["PlaceDBCLI"]),
        .executableTarget(
            name: "placedb-bench",
            dependencies: ["PlaceKit", "PlaceKitGD", "PlaceModel", "PlaceStorage", "SQLiteDB", "CGD"]),

        // Fuzz targets (docs/fuzzing.md): a library of targets (with the
        // entry points they call; PlaceKit ships no fuzz code), and one
        // executable that runs them under libFuzzer when built by
        // Scripts/fuzz (-sanitize=fuzzer -DFUZZING) and replays files otherwise.
        .target(
            name: "PlaceDBFuzz",
            dependencies: ["PlaceKit", "PlaceModel", "PlaceStorage", "PlaceDBCLI", "PlaceDBServer"]),
        .executableTarget(name: "placedb-fuzz", dependencies: ["PlaceDBFuzz", "CLibFuzzer"]),

        .target(
            name: "PlaceKitTestSupport", dependencies: ["PlaceKit", "PlaceKitGD", "PlaceModel", "CGD"],
            path: "Sources/PlaceKitTestSupport"),
        .testTarget(name: "SQLiteDBTests", dependencies: ["SQLiteDB", "PlaceKitTestSupport"]),
        .testTarget(name: "PlaceModelTests", dependencies: ["PlaceModel", "PlaceKitTestSupport"]),
        .testTarget(
            name: "PlaceStorageTests", dependencies: ["PlaceStorage", "PlaceModel", "SQLiteDB", "PlaceKitTestSupport"]),
        .testTarget(
            name: "PlaceKitTests",
            dependencies: ["PlaceKit", "PlaceKitGD", "PlaceModel", "PlaceStorage", "SQLiteDB", "PlaceKitTestSupport"]),
        .testTarget(
            name: "PlaceDBServerTests",
            dependencies: ["PlaceDBServer", "PlaceDBCLI", "PlaceKit", "PlaceModel", "PlaceKitTestSupport", "SQLiteDB"]),
        .testTarget(
            name: "PlaceDBCLITests",
            dependencies: [
                "PlaceDBCLI", "PlaceKit", "PlaceModel", "PlaceStorage", "SQLiteDB", "PlaceKitTestSupport",
                "PlaceDBFuzz",
            ], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// Strict settings for every Swift target (library, CLI, bench, fuzz, test
// support and tests), in one place:
// - the Swift 6 language mode, so complete concurrency checking is on
//   (data races are compile errors), stated per target as well as above;
// - `any` spelled out for existentials;
// - imports internal unless marked (`public import` where a public
//   signature needs the module, `package import` where a package one does)
//   and members seen only through a file's own imports, so a file says
//   what it uses and a module's users do not see its dependencies;
// - every warning of our code an error (SwiftPM applies this to the root
//   package only, so a package depending on placedb is not broken by a
//   newer compiler's warning). SwiftPM's own warnings (a system library's
//   pkg-config flag it drops) are not compiler warnings: Scripts/test
//   checks the build log for those.
for target in package.targets where target.type != .system && target.name != "CGD" {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .treatAllWarnings(as: .error),
        ]
}
