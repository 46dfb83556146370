// placedb-bench link-data [--records N] [--dir DIR]
//
// The inputs of the linking benchmarks (docs/performance.md, "Linking"):
// N generated compact records (the first N of `placedb-bench world`'s
// input, seed 20261130) in DIR/link-N-a.ndjson, and in
// DIR/link-N-b-twin.ndjson a twin of each: the same record renumbered
// ("twin-" before its ID) and moved 0-30 m in a random direction (seed
// 20261204). Imported as two sources with `--no-link` and linked with
// `placedb link`, every place has exactly one twin to find.
import Foundation

enum LinkWorldData {
    static func run(_ args: [String]) throws {
        let records = Int(option("--records", args) ?? "") ?? 500_000
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a = "\(dir)/link-\(WorldBench.label(records))-a.ndjson",
            b = "\(dir)/link-\(WorldBench.label(records))-b-twin.ndjson"
        let outA = try BlockFile(creating: a), outB = try BlockFile(creating: b)
        var rng = SplitMix64(state: 20261130)
        var moves = SplitMix64(state: 20261204)
        for i in 0..<records {
            let p = GeneratedPlace.make(i, &rng)
            outA.write(p.compact + "\n")
            let d = 30 * moves.unit(), angle = 2 * Double.pi * moves.unit()
            let lat = p.latitude + d * cos(angle) / 111_320
            var lng = p.longitude + d * sin(angle) / (111_320 * max(0.01, cos(p.latitude * .pi / 180)))
            // Across the antimeridian: the same spot, on the other side.
            if lng > 180 { lng -= 360 } else if lng < -180 { lng += 360 }
            let twin = GeneratedPlace(
                id: "twin-" + p.id, name: p.name, category: p.category, latitude: lat, longitude: lng,
                rating: p.rating, ratingCount: p.ratingCount)
            outB.write(twin.compact + "\n")
        }
        try outA.close()
        try outB.close()
        print("\(a)\n\(b)")
    }
}
