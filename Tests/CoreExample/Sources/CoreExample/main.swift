import Foundation
import PlaceKit
import PlaceModel

// CoreExample: imports three places from NDJSON into a database in a
// temporary directory, then asks what is near a point, for one place's
// details and whether it is open at a given time. Only the core product:
// with no image codec installed, adding a photo's image fails with one
// line (and nothing else needs one).
let ndjson = """
    {"id":"core-example-cafe","displayName":{"text":"Café du Lac"},"location":{"latitude":46.5080,"longitude":6.6270},"types":["cafe","food"],"primaryType":"cafe","formattedAddress":"Quai d'Ouchy 1, 1006 Lausanne","utcOffsetMinutes":60,"photos":[{"name":"places/core-example-cafe/photos/coreExamplePhoto-0123456789","widthPx":640,"heightPx":480}],"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":18,"minute":0}}]}}
    {"id":"core-example-museum","displayName":{"text":"Musée Olympique"},"location":{"latitude":46.5087,"longitude":6.6339},"types":["museum"],"primaryType":"museum","formattedAddress":"Quai d'Ouchy 1, 1006 Lausanne"}
    {"id":"core-example-far","displayName":{"text":"Gare de Genève"},"location":{"latitude":46.2102,"longitude":6.1424},"types":["train_station"],"primaryType":"train_station"}
    """

let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "placedb-core-example-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let input = directory.appendingPathComponent("places.ndjson").path
try Data(ndjson.utf8).write(to: URL(fileURLWithPath: input))
let database = directory.appendingPathComponent("places.sqlite").path

let summary = try PlaceImporter(databasePath: database).importInput(.file(input))
print("imported \(summary.inserted) places")

let client = try PlacesClient(databasePath: database)
let near = Coordinate(latitude: 46.5082, longitude: 6.6275)
for hit in try await client.searchNearby(center: near, radius: 1000, maxResultCount: 5) {
    print("nearby: \(hit.place.id) \(hit.place.displayName?.text ?? "") \(Int(hit.distanceMeters.rounded())) m")
}
let cafe = try await client.fetchPlace(id: PlaceID("core-example-cafe"))
print(
    "details: \(cafe.id) \(cafe.displayName?.text ?? "") | \(cafe.formattedAddress ?? "") | \(cafe.types.joined(separator: ","))"
)
// Monday 2 March 2026, 10:00 UTC: 11:00 in Lausanne.
let status = try await client.isOpen(
    placeID: PlaceID("core-example-cafe"), at: Date(timeIntervalSince1970: 1_772_445_600))
print("open at 2026-03-02T11:00+01:00: \(status.state.rawValue)")

let photos = try await client.fetchPhotoMetadata(placeID: PlaceID("core-example-cafe"))
print("photos: \(photos.map(\.name).joined(separator: ","))")
do {
    // A PNG's signature: the codec is asked for before the bytes are read.
    try PhotoImporter(databasePath: database).addImage(
        forPhoto: photos[0].name, data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    print("photo add: added")
} catch let error as PlaceDBError {
    print("photo add: \(error)")
}
