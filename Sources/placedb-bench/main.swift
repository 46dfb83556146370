// placedb-bench: measures placedb on seeded generated data. Each
// subcommand is one benchmark; see `placedb-bench --help`.
import Foundation
import PlaceKitGD

// The photo benchmark scales with libgd, as the command line does.
GDImageCodec.install()

let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [(name: String, summary: String, options: String, run: ([String]) throws -> Void)] = [
    (
        "import", "import N generated places (GeoJSON, NDJSON, compact NDJSON) with placedb and ogr2ogr",
        "[--records N] [--runs R] [--dir DIR] [--no-ogr2ogr] [--only geojson|ndjson|compact] [--no-warmup]",
        ImportBench.run
    ),
    (
        "reimport", "re-import N places cut to a field mask into a database that holds them (member merge)",
        "[--records N] [--runs R] [--dir DIR] [--mask FIELDS]", ReimportBench.run
    ),
    (
        "world",
        "world scale: import N generated compact records (default 100M) in one run; rate per step, CPU and I/O, peak RSS, bytes per place",
        "[--records N] [--step S] [--dir DIR] [--keep] [--generate-only]", WorldBench.run
    ),
    (
        "resolve", "batch-resolve IDs against N places with A aliases",
        "[--places N] [--aliases A] [--ids Q] [--runs R] [--dir DIR]", ResolveBench.run
    ),
    (
        "aliases-eval", "link the OSM snapshots' ID changes and compare with osm/derived",
        "[--data DIR] [--threshold S] [--radius M]", AliasEval.run
    ),
    (
        "eval-link-pairs",
        "the same-place scorer on Overture's labelled conflation pairs: P/R/F1 at the threshold, cross-validated F1, µs per score",
        "[--pairs PATH] [--folds K] [--misses]", LinkEval.run
    ),
    (
        "fit-link",
        "fit the same-place scorer's logistic weights on the labelled pairs and write SamePlaceWeights.swift",
        "[--pairs PATH] [--folds K] --write PATH", LinkEval.fit
    ),
    (
        "eval-link-import",
        "the labelled conflation pairs imported as two sources and linked by placedb: precision, recall, F1 of the groups",
        "[--pairs PATH]", LinkImportEval.run
    ),
    (
        "link-data",
        "the linking benchmark's inputs: N generated compact records and a twin of each (renumbered, moved 0-30 m), two NDJSON files",
        "[--records N] [--dir DIR]", LinkWorldData.run
    ),
    (
        "eval-link-drift",
        "two OSM snapshots of a region as two sources (the newer renumbered), linked: persisted places grouped, links that join different places",
        "[--data DIR] [--pairs OLD:NEW,...] [--misses]", LinkDriftEval.run
    ),
    (
        "photo", "add a generated camera-size JPEG and fetch it at several maximum sizes",
        "[--width W] [--height H] [--runs R] [--dir DIR]", PhotoBench.run
    ),
    (
        "osm-hours",
        "share of OpenStreetMap opening_hours values placedb evaluates, the forms left, and parse/evaluate speed",
        "[--data DIR] [--runs R] [--list]", OSMHoursBench.run
    ),
    (
        "nearby", "nearby and current-place queries: recall, latency, index load, SpatiaLite SQL, --batch",
        "[--places N] [--queries Q] [--recall-queries Q] [--runs R] [--batch-lines B] [--dir DIR] [--geonames PATH|none]",
        NearbyBench.run
    ),
    (
        "serve-answers",
        "each answer written from the stored bytes (CLI, server) against the typed answer then a JSON tree (CPU per answer)",
        "--db PATH [--ids N] [--runs R] [--only typed|stored] [--answers details,nearby,search]",
        ServeAnswerBench.run
    ),
    (
        "eval-current",
        "simulated visits on OSM POIs (or, with --google, on the Google places): the current-place model against nearest-place baselines",
        "[--google] [--data DIR] [--fixes N] [--seed S] [--dir DIR] [--regions a,b,...] [--accuracies 5,20,65,300 (--google: 5,10)] [--model k=v,...] [--bins] [--breakdown] [--misses (--google)] [--svg-dir DIR] [--whole DIR [--all-features]] [--twin|--twin-no-link]",
        EvalCurrent.run
    ),
    (
        "eval-search",
        "text search and autocomplete on named OSM POIs: exact, folded, 60% prefix, one-letter typo and type-word queries, per region",
        "[--data DIR] [--dir DIR] [--seed S] [--regions a,b,...] [--trigram] [--misses]", EvalSearch.run
    ),
    (
        "eval-text-queries",
        "query understanding: \"TYPE in CITY\" over the Google captures and the OSM regions, each with the GeoNames cities: share of the top 10 of the type and in the city",
        "[--google DIR] [--osm DIR] [--geonames PATH] [--dir DIR] [--regions google,andorra,...] [--misses]",
        EvalTextQueries.run
    ),
    (
        "search",
        "text search and autocomplete latency on N generated places with realistic names, against plain FTS5; index build cost and size",
        "[--places N] [--queries Q] [--runs R] [--dir DIR] [--reuse] [--profile KIND [--text T [--at LAT,LNG]]] [--trigram] [--no-floor] [--slowest N] [--no-plain] [--query-floor] [--analyze] [--word-lists | --no-word-lists] [--indexed-only] [--no-rank-inputs]",
        SearchBench.run
    ),
    (
        "eval-link-scorer-drift",
        "the same-place scorer alone on two OSM snapshots of a region (the newer renumbered): each old place's best new candidate, persisted places linked, wrong links, µs a score and a LinkRecord",
        "[--data DIR] [--pairs OLD:NEW,...] [--wrong] [--unlinked]", LinkScorerDriftEval.run
    ),
]

guard let name = arguments.first, let bench = benchmarks.first(where: { $0.name == name }) else {
    var usage = "usage: placedb-bench <benchmark> [options]\n\nbenchmarks:\n"
    for b in benchmarks { usage += "  \(b.name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(b.summary)\n" }
    FileHandle.standardError.write(Data(usage.utf8))
    exit(arguments.first == "--help" ? 0 : 64)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: placedb-bench \(bench.name) \(bench.options)\n\n\(bench.summary)")
    exit(0)
}
do {
    try bench.run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("placedb-bench \(name): \(error)\n".utf8))
    exit(1)
}
