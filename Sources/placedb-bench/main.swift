// placedb-bench: measures placedb on seeded generated data. Each
// subcommand is one benchmark; see `placedb-bench --help`.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [(name: String, summary: String, run: ([String]) throws -> Void)] = [
    ("import", "import N generated Places API (New) NDJSON records with the placedb binary", ImportBench.run),
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
