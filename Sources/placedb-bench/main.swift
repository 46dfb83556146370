// placedb-bench: measures placedb on seeded generated data. Each
// subcommand is one benchmark; see `placedb-bench --help`.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [(name: String, summary: String, run: ([String]) throws -> Void)] = [
    ("import", "import N generated places (GeoJSON, NDJSON) with placedb and ogr2ogr", ImportBench.run),
    ("resolve", "batch-resolve IDs against N places with A aliases", ResolveBench.run),
    ("aliases-eval", "link the OSM snapshots' ID changes and compare with osm/derived", AliasEval.run),
    ("photo", "add a generated camera-size JPEG and fetch it at several maximum sizes", PhotoBench.run),
    ("osm-hours", "share of OpenStreetMap opening_hours values placedb evaluates, the forms left, and parse/evaluate speed", OSMHoursBench.run),
    ("nearby", "nearby and current-place queries: recall, latency, index load, SpatiaLite SQL, --batch", NearbyBench.run),
    ("eval-current", "simulated visits on OSM POIs: the current-place model against nearest-place baselines", EvalCurrent.run),
]

guard let name = arguments.first, let bench = benchmarks.first(where: { $0.name == name }) else {
    var usage = "usage: placedb-bench <benchmark> [options]\n\nbenchmarks:\n"
    for b in benchmarks { usage += "  \(b.name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(b.summary)\n" }
    FileHandle.standardError.write(Data(usage.utf8))
    exit(arguments.first == "--help" ? 0 : 64)
}
do {
    try bench.run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("placedb-bench \(name): \(error)\n".utf8))
    exit(1)
}
