import Foundation

/// The newest `.geojsonseq` snapshot of each region in `dataDir` (the
/// region is the file name before its date: `london-2020-07-20...` is
/// `london`), only the `regions` asked for when given; region -> file name.
/// The OSM evaluations read these (older snapshots mostly repeat them).
func newestSnapshots(in dataDir: String, regions wanted: Set<String>?) throws -> [String: String] {
    let files =
        (try? FileManager.default.contentsOfDirectory(atPath: dataDir))?.filter { $0.hasSuffix(".geojsonseq") }.sorted()
        ?? []
    guard !files.isEmpty else {
        throw BenchError(message: "\(dataDir): no .geojsonseq files (the shared OSM data is absent)")
    }
    var newest: [String: String] = [:]
    for f in files {
        let region = String(f.prefix { !$0.isNumber }.dropLast())
        if let w = wanted, !w.contains(region) { continue }
        if let old = newest[region], old > f { continue }
        newest[region] = f
    }
    return newest
}
