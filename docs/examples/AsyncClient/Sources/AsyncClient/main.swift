import PlaceKit
import PlaceModel

// AsyncClient DATABASE [LAT,LNG]: the places near a point, then where a
// visitor at each of them is likely to be, eight queries at once.
let arguments = CommandLine.arguments
let client = try PlacesClient(databasePath: arguments.count > 1 ? arguments[1] : "places.sqlite")
let center =
    Coordinate(parsing: arguments.count > 2 ? arguments[2] : "46.5197,6.6323") ?? Coordinate(latitude: 0, longitude: 0)

let nearby = try await Task.detached {
    try await client.searchNearby(center: center, radius: 2000, maxResultCount: 8)
}.value
print("\(try await client.placeCount()) places; \(nearby.count) within 2 km of \(center)")

let answers = try await withThrowingTaskGroup(of: (PlaceID, PlaceLikelihood?).self) { group in
    for hit in nearby {
        group.addTask {
            (
                hit.place.id,
                try await client.findPlaceLikelihoods(location: hit.place.coordinate, accuracy: 20).placeLikelihoods
                    .first
            )
        }
    }
    var best: [PlaceID: PlaceLikelihood] = [:]
    for try await (id, likelihood) in group { best[id] = likelihood }
    return best
}
for hit in nearby {
    let best = answers[hit.place.id]
    print(
        "at \(hit.place.displayName?.text ?? hit.place.id.rawValue): \(best?.place.displayName?.text ?? "none") \(best?.likelihood ?? 0)"
    )
}
