// swift-tools-version: 6.0
// An app that uses only placedb's core (the PlaceKit product: SQLite and
// zlib, no libgd): Scripts/test builds it and checks what it prints.
import PackageDescription

let package = Package(
    name: "CoreExample",
    dependencies: [.package(name: "placedb", path: "../..")],
    targets: [
        .executableTarget(
            name: "CoreExample", dependencies: [.product(name: "PlaceKit", package: "placedb")],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])])
    ],
    swiftLanguageModes: [.v6]
)
