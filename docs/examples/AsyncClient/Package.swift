// swift-tools-version: 6.0
// An app's use of placedb's async client: a package of its own that
// depends on placedb by path (Scripts/test builds and runs it).
import PackageDescription

let package = Package(
    name: "AsyncClient",
    dependencies: [.package(name: "placedb", path: "../../..")],
    targets: [
        .executableTarget(
            name: "AsyncClient", dependencies: [.product(name: "PlaceKit", package: "placedb")],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])])
    ],
    swiftLanguageModes: [.v6]
)
