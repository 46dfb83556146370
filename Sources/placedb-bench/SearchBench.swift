// placedb-bench search [--places N] [--queries Q] [--runs R] [--dir DIR] [--reuse]
//                      [--profile KIND [--text T [--at LAT,LNG]]] [--trigram] [--no-floor] [--slowest N]
//                      [--no-plain] [--query-floor] [--analyze] [--word-lists | --no-word-lists] [--indexed-only]
//                      [--no-rank-inputs]
//
// N generated places (default 1,000,000; seeded) with realistic names:
// chains, family names, made-up names from syllables, the words of their
// kind in several languages (some with diacritics) and place words,
// clustered around 300 city centres. Then:
//   1. Import cost: R rounds of fresh in-process imports of the same NDJSON,
//      with and without the text-index step, interleaved (A B, B A, ...)
//      because the machine is shared; seconds min/median and file sizes.
//      Then the floor (unless --no-floor): the same rows' text inserted
//      through sqlite3 alone into a new file's FTS5 table of the index's
//      definition (and of fewer columns or less detail), CPU and bytes.
//   2. Query latency in-process on the indexed database: exact names,
//      autocomplete with 60% of a name, one-letter typos and type words
//      (unfiltered; with minRating 3: the first page, the second page
//      of the reader that gave the first, and of another reader; within a
//      2 km circle (locationRestriction); by distance (rankPreference)),
//      each from a point within 500 m of the place; median and p90 of Q
//      queries after a warm-up on 200 other ones; beside them the plain FTS5 query
//      (`MATCH ... ORDER BY bm25 LIMIT 20`) on the same database through
//      the sqlite3 library.
//   With --reuse, step 1 is skipped when DIR holds the indexed database of
//   an earlier run (same N; its NDJSON may be deleted: the places are made
//   again from the generator's states, kept in DIR/search-N.states): only
//   the queries are timed. --indexed-only
//   imports only with the text index (R rounds) and leaves out the floor:
//   for 100M places, where the plain database would not fit beside it. --profile KIND
//   (e.g. "search: type", "autocomplete") runs only placedb's queries of
//   that kind, five times, then prints how many matched rows were read one
//   by one: for perf or callgrind; with --text T, only that kind's query of
//   text T (as --slowest prints it), 200 times, and the 8 points where it
//   took longest (median thread CPU, matches unread and rows read);
//   with --at LAT,LNG as well, only the query from that point.
//   --slowest N prints the N slowest queries of each kind, with their text
//   and point (to ask again with `placedb autocomplete --near`).
//   --no-plain leaves out the plain FTS5 query beside placedb's (at 10M
//   places it takes most of step 2's time: about a second a type query).
//   --analyze runs `placedb text-index analyze` on the indexed database
//   before step 2 (its time printed): the queries then read the stored
//   counts of common words and prefixes.
//   --word-lists writes the text index's word lists beside the indexed
//   database (`placedb text-index lists`, its time printed) before step 2;
//   --no-word-lists removes them: queries then read FTS5's lists alone.
//   --no-rank-inputs ranks as without the lists' rank inputs: every match's
//   row is read before it is ranked (the same answers).
//   Without either, the queries read whatever lists are there and current.
//   --query-floor then gives, for the exact names and the autocompletes,
//   the least FTS5 reading each query needs (`QueryFloor`), beside
//   placedb's time for the same queries.
//   3. With --trigram: the trigram alternative for typos (build time, size,
//      latency).
import Foundation
import PlaceKit
import PlaceModel
import PlaceStorage
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif

/// CPU seconds of the calling thread (repeatable on a loaded machine, where wall clock is not).
func threadCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// CPU seconds of the whole process (all threads), user + system.
func processCPU() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(
        u.ru_stime.tv_usec) / 1e6
}

enum SearchBench {
    static let chains = [
        "Starbucks", "Lidl", "Aldi", "McDonald's", "Subway", "Boots", "dm", "Rossmann", "Zara", "H&M", "Carrefour",
        "Tesco", "Costa Coffee", "Burger King", "Pret A Manger", "Spar", "Edeka", "Rewe", "Migros", "Coop",
    ]
    static let families = [
        "Müller", "Schmidt", "García", "Martín", "Rossi", "Bianchi", "Dupont", "Lefèvre", "Novák", "Kowalski",
        "Nieminen",
        "Smith", "Jones", "O'Brien", "Papadopoulos", "Yılmaz", "Silva", "Gonçalves", "Jensen", "Andersson", "Janssen",
        "Horváth", "Ivanov", "Popescu", "Fernández", "Łukasz", "Østergaard", "Šimek", "Dvořák", "Zürcher",
    ]
    static let kinds: [(type: String, words: [String])] = [
        ("cafe", ["Café", "Coffee", "Kaffeehaus", "Espresso Bar", "Caffè"]),
        ("restaurant", ["Restaurant", "Trattoria", "Bistro", "Brasserie", "Grill", "Kitchen", "Taverna"]),
        ("bakery", ["Bakery", "Bäckerei", "Boulangerie", "Panadería", "Forno"]),
        ("pharmacy", ["Pharmacy", "Apotheke", "Pharmacie", "Farmacia", "Chemist"]),
        ("bar", ["Bar", "Pub", "Tavern", "Lounge", "Kneipe"]),
        ("book_store", ["Books", "Bookshop", "Buchhandlung", "Librairie", "Libreria"]),
        ("gym", ["Fitness", "Gym", "Sportstudio"]),
        ("supermarket", ["Market", "Supermarket", "Grocery", "Supermercado"]),
        ("hotel", ["Hotel", "Inn", "Hostel", "Pension"]),
        ("clothing_store", ["Fashion", "Boutique", "Mode", "Moda"]),
        ("museum", ["Museum", "Gallery", "Musée", "Museo"]),
        ("school", ["School", "Academy", "Schule", "École"]),
        ("hair_care", ["Hair Salon", "Friseur", "Coiffure", "Barber"]),
        ("dentist", ["Dental", "Zahnarzt", "Dentiste"]),
    ]
    static let placeWords = [
        "Central", "Old Town", "du Lac", "am See", "Riverside", "Station", "Market Square", "Harbour", "North", "South",
        "on the Hill", "Altstadt", "del Mar", "Park", "City", "Corner", "Bridge", "Castle", "Garden", "Plaza",
    ]
    static let syllables = [
        "ka", "lo", "mi", "ren", "do", "sa", "ti", "ber", "gan", "vel", "mar", "no", "ri", "ta", "zen", "fu", "lin",
        "qu", "bo", "sche", "ný", "ké", "ar", "ol", "pe", "dra", "wen", "ska", "mo", "ha", "ju", "ro", "ce", "li", "ga",
        "tho",
        "ve", "nu", "ei", "ma",
    ]

    struct Generated {
        let id: String
        let name: String
        let type: String
        let coordinate: Coordinate
        let ratingCount: Int
    }

    static func make(_ i: Int, cities: [Coordinate], _ rng: inout SplitMix64) -> Generated {
        let kind = kinds[rng.int(kinds.count)]
        let word = kind.words[rng.int(kind.words.count)]
        func madeUp() -> String {
            var s = ""
            for _ in 0..<(2 + rng.int(2)) { s += syllables[rng.int(syllables.count)] }
            return s.prefix(1).uppercased() + s.dropFirst()
        }
        let name: String
        switch rng.int(10) {
        case 0, 1:
            name = chains[rng.int(chains.count)] + (rng.int(3) == 0 ? " " + placeWords[rng.int(placeWords.count)] : "")
        case 2, 3: name = "\(families[rng.int(families.count)]) \(word)"
        case 4: name = "\(word) \(families[rng.int(families.count)])"
        case 5, 6: name = "\(madeUp()) \(word)"
        case 7: name = "\(word) \(placeWords[rng.int(placeWords.count)])"
        case 8: name = "\(madeUp()) \(madeUp())"
        default: name = "\(word) \(madeUp()) \(placeWords[rng.int(placeWords.count)])"
        }
        let city = cities[rng.int(cities.count)]
        // About 4 km around the centre (sum of uniforms: roughly normal).
        let north = (rng.unit() + rng.unit() + rng.unit() - 1.5) * 8000,
            east = (rng.unit() + rng.unit() + rng.unit() - 1.5) * 8000
        return Generated(
            id: "gen-\(String(i, radix: 36))", name: name, type: kind.type,
            coordinate: EvalCurrent.offset(city, east: east, north: north),
            ratingCount: rng.int(3) == 0 ? rng.int(2000) : 0)
    }

    /// The generated places, made again on demand: the generator's state
    /// is kept every `stride` places (8 bytes for 64 places), so that 100M
    /// places take 12.5 MB here rather than tens of GiB of strings.
    struct GeneratedPlaces {
        static let stride = 64
        let count: Int
        let cities: [Coordinate]
        /// The generator's state before place `k * stride`.
        var checkpoints: [UInt64] = []

        init(count: Int, cities: [Coordinate]) {
            self.count = count
            self.cities = cities
        }

        /// The states written by `write(to:)` for `count` places; nil
        /// where the file is missing or of another count.
        init?(count: Int, reading path: String) {
            guard let data = FileManager.default.contents(atPath: path),
                data.count == (Self.cityCount * 2 + (count + Self.stride - 1) / Self.stride) * 8
            else { return nil }
            let words = data.withUnsafeBytes { Array($0.bindMemory(to: UInt64.self)) }
            self.count = count
            cities = (0..<Self.cityCount).map {
                Coordinate(
                    latitude: Double(bitPattern: words[2 * $0]), longitude: Double(bitPattern: words[2 * $0 + 1]))
            }
            checkpoints = Array(words[(2 * Self.cityCount)...])
        }

        static let cityCount = 300

        /// The cities' points and the states, as native 64-bit words.
        func write(to path: String) throws {
            var words: [UInt64] = []
            for c in cities { words += [c.latitude.bitPattern, c.longitude.bitPattern] }
            words += checkpoints
            try words.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path)) }
        }

        subscript(i: Int) -> Generated {
            precondition(i >= 0 && i < count, "place \(i) of \(count)")
            var rng = SplitMix64(state: checkpoints[i / Self.stride])
            var i0 = i - i % Self.stride
            while i0 < i {
                _ = make(i0, cities: cities, &rng)
                i0 += 1
            }
            return make(i, cities: cities, &rng)
        }
    }

    /// The places, written as NDJSON to `path` (nil: not written).
    static func generate(count: Int, path: String?) throws -> GeneratedPlaces {
        var rng = SplitMix64(state: 20261201)
        var cities: [Coordinate] = []
        for _ in 0..<GeneratedPlaces.cityCount {
            cities.append(Coordinate(latitude: rng.unit() * 110 - 45, longitude: rng.unit() * 360 - 180))
        }
        var out = GeneratedPlaces(count: count, cities: cities)
        out.checkpoints.reserveCapacity(count / GeneratedPlaces.stride + 1)
        var text = ""
        text.reserveCapacity(1 << 21)
        let file = try path.map { path in
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }
        let writer = JSONWriter()
        for i in 0..<count {
            if i % GeneratedPlaces.stride == 0 { out.checkpoints.append(rng.state) }
            let g = make(i, cities: cities, &rng)
            guard let file else { continue }
            var o = JSONObject()
            o["id"] = .string(g.id)
            o["displayName"] = ["text": .string(g.name)]
            o["location"] = ["latitude": .double(g.coordinate.latitude), "longitude": .double(g.coordinate.longitude)]
            o["types"] = [.string(g.type)]
            if g.ratingCount > 0 {
                o["userRatingCount"] = .int(Int64(g.ratingCount))
                // A rating from the count (no draw: the same places and names as before).
                o["rating"] = .double(1 + Double(g.ratingCount % 9) * 0.5)
            }
            text += writer.string(.object(o)) + "\n"
            if text.utf8.count > (1 << 21) - 1024 { file.write(Data(text.utf8)); text.removeAll(keepingCapacity: true) }
        }
        file?.write(Data(text.utf8))
        try file?.close()
        return out
    }

    static func run(_ args: [String]) throws {
        let count = Int(option("--places", args) ?? "") ?? 1_000_000
        let queries = Int(option("--queries", args) ?? "") ?? 2000
        let runs = max(1, Int(option("--runs", args) ?? "") ?? 2)
        let dir = option("--dir", args) ?? "bench-out"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let input = "\(dir)/search-\(count).ndjson"
        let indexed = "\(dir)/search-indexed.sqlite"
        let reuse = args.contains("--reuse") && FileManager.default.fileExists(atPath: indexed)
        // The generator's states, kept beside the database: a later --reuse
        // does not make every place again (minutes at 100M).
        let states = "\(dir)/search-\(count).states"
        let places: GeneratedPlaces
        if reuse, let kept = GeneratedPlaces(count: count, reading: states) {
            places = kept
        } else {
            places = try generate(count: count, path: reuse ? nil : input)
            try places.write(to: states)
        }
        let ndjson =
            FileManager.default.fileExists(atPath: input)
            ? "\(fmt(Double(fileSize(input)) / 1e6)) MB NDJSON" : "NDJSON not kept"
        print(
            "placedb-bench search: \(count) generated places (seed 20261201, 300 cities), \(ndjson); machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (shared)"
        )
        print("")

        if reuse {
            print("reusing \(indexed) (import not measured)")
            print("")
        } else {
            try measureImport(input: input, count: count, runs: runs, dir: dir, args: args)
        }
        try measureQueries(places: places, indexed: indexed, queries: queries, args: args)
    }

    /// 1. Import with and without the text-index step, interleaved.
    static func measureImport(input: String, count: Int, runs: Int, dir: String, args: [String]) throws {
        var times: [Bool: [Double]] = [true: [], false: []]
        var cpu: [Bool: [Double]] = [true: [], false: []]
        var sizes: [Bool: Int] = [:]
        let indexed = "\(dir)/search-indexed.sqlite"
        let indexedOnly = args.contains("--indexed-only")
        for round in 0..<runs {
            for withIndex in indexedOnly ? [true] : round % 2 == 0 ? [true, false] : [false, true] {
                let db = withIndex ? indexed : "\(dir)/search-plain.sqlite"
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: db + suffix)
                }
                var options = ImportOptions()
                options.textIndex = withIndex
                let started = Date(), startedCPU = processCPU()
                do {
                    let importer = try PlaceImporter(databasePath: db, options: options)
                    _ = try importer.importInput(.file(input))
                }
                times[withIndex]!.append(Date().timeIntervalSince(started))
                cpu[withIndex]!.append(processCPU() - startedCPU)
                sizes[withIndex] = fileSize(db)
            }
        }
        print(
            "| fresh import (in-process, \(runs) \(indexedOnly ? "rounds" : "interleaved rounds")) | wall seconds (min / median) | CPU seconds, all threads (min / median) | database bytes | bytes/place |"
        )
        print("|---|---|---|---|---|")
        for (withIndex, label) in [
            (false, "without the text index step"), (true, "with the text index (FTS5 + words)"),
        ] {
            guard let t = times[withIndex], !t.isEmpty, let c = cpu[withIndex], let size = sizes[withIndex] else {
                continue
            }
            print(
                "| \(label) | \(fmt(t.min()!, 2)) / \(fmt(median(t), 2)) | \(fmt(c.min()!, 2)) / \(fmt(median(c), 2)) | \(size) | \(size / count) |"
            )
        }
        print("")
        // --indexed-only: one import, nothing to compare it with.
        guard !indexedOnly else { return }
        let a = median(times[true]!), b = median(times[false]!)
        let ca = median(cpu[true]!), cb = median(cpu[false]!)
        print(
            "import slowdown (medians): wall \(fmt(100 * (a / b - 1), 1))%, CPU \(fmt(100 * (ca / cb - 1), 1))% (target <= 20%); database growth: \(fmt(100 * (Double(sizes[true]!) / Double(sizes[false]!) - 1), 1))% (target <= 30%)"
        )
        print("")
        // 1b. The floor: FTS5 alone on the same rows' text, no placedb code.
        if !args.contains("--no-floor") {
            let floor = try FTS5Floor.run(indexed: indexed, dir: dir)
            print(
                "| FTS5 alone: the same \(count) rows inserted through sqlite3 into a new file's FTS5 table (content='', one transaction) | CPU seconds (this thread) | % of the import's CPU without the index | wall seconds | table bytes | % of the database without the index |"
            )
            print("|---|---|---|---|---|---|")
            for f in floor {
                print(
                    "| \(f.label) | \(fmt(f.cpu, 2)) | \(fmt(100 * f.cpu / cb, 1))% | \(fmt(f.wall, 2)) | \(f.bytes) | \(fmt(100 * Double(f.bytes) / Double(sizes[false]!), 1))% |"
                )
            }
            print("")
            print(
                "the text index's import CPU (with - without, medians): \(fmt(ca - cb, 2)) s, of which FTS5 alone with the index's definition: \(fmt(floor[0].cpu, 2)) s"
            )
            print("")
        }
    }

    /// 2. Query latency.
    static func measureQueries(places: GeneratedPlaces, indexed: String, queries: Int, args: [String]) throws {
        /// `body`'s result and its wall seconds.
        func timed<T>(_ body: () throws -> T) rethrows -> (T, String) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let result = try body()
            return (result, fmt(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9, 2))
        }
        if args.contains("--analyze") {
            let (a, s) = try timed { try PlaceStore(path: indexed, writable: true).analyzeTextIndex() }
            print(
                "placedb text-index analyze: \(s) s, \(a?.words ?? 0) words and \(a?.prefixes ?? 0) prefixes stored (\(a?.counted ?? 0) prefixes counted)\n"
            )
        }
        if args.contains("--word-lists") {
            let (w, s) = try timed { try PlaceStore(path: indexed, writable: false).writeWordLists() }
            print(
                "placedb text-index lists: \(s) s, \(w?.words ?? 0) words, \(w?.postings ?? 0) postings, \(fmt(Double(w?.bytes ?? 0) / 1e6, 1)) MB\n"
            )
        } else if args.contains("--no-word-lists") {
            unlink(WordLists.path(for: indexed))
            unlink(CheckedRecord.path(WordLists.path(for: indexed)))
        }
        print("word lists: \(try PlaceStore(path: indexed, writable: false).wordListsState()?.state ?? "none")")
        print("")
        let client = try PlaceReader(databasePath: indexed)
        // A second reader on the same file: a page token that arrives at
        // another connection than the first page's (no ranking kept).
        let other = try PlaceReader(databasePath: indexed)
        if args.contains("--no-rank-inputs") {
            client.ranksFromWordLists = false
            other.ranksFromWordLists = false
        }
        let raw = try Database(path: indexed, mode: .readOnly)
        let mask = try FieldMask(parsing: "id,displayName,primaryType")
        struct Query { let kind: String; let text: String; let at: Coordinate }
        func makeQueries(_ queries: Int, seed: UInt64) -> [Query] {
            var rng = SplitMix64(state: seed)
            var list: [Query] = []
            for _ in 0..<queries {
                let p = places[rng.int(places.count)]
                let angle = rng.unit() * 2 * Double.pi, r = 500 * rng.unit().squareRoot()
                let at = EvalCurrent.offset(p.coordinate, east: r * cos(angle), north: r * sin(angle))
                let chars = Array(p.name)
                list.append(Query(kind: "search: exact name", text: p.name, at: at))
                list.append(
                    Query(
                        kind: "autocomplete: 60% of the name",
                        text: String(chars.prefix(Int((Double(chars.count) * 0.6).rounded(.up)))), at: at))
                list.append(Query(kind: "search: one-letter typo", text: EvalSearch.deleteLetter(p.name, &rng), at: at))
                list.append(
                    Query(kind: "search: type words", text: p.type.replacingOccurrences(of: "_", with: " "), at: at))
                list.append(
                    Query(
                        kind: "search: type words, minRating 3, page 1",
                        text: p.type.replacingOccurrences(of: "_", with: " "), at: at))
                list.append(
                    Query(
                        kind: "search: type words, minRating 3, page 2",
                        text: p.type.replacingOccurrences(of: "_", with: " "), at: at))
                list.append(
                    Query(
                        kind: "search: type words, minRating 3, page 2, another reader",
                        text: p.type.replacingOccurrences(of: "_", with: " "), at: at))
                list.append(
                    Query(
                        kind: "search: type words, within 2 km", text: p.type.replacingOccurrences(of: "_", with: " "),
                        at: at))
                list.append(
                    Query(
                        kind: "search: type words, by distance", text: p.type.replacingOccurrences(of: "_", with: " "),
                        at: at))
            }
            return list
        }
        let list = makeQueries(queries, seed: 7)
        var lastCPU = 0.0
        /// The results a search asks for (the query floor's `want` follows it).
        let searchResults = 20
        /// Set while profiling: a first page's request differs in
        /// `regionCode` from the 16 before it, so that the reader's memo of
        /// pages (16 rankings) does not answer a repeat.
        var repeatNumber: Int?
        /// The request of a query; for the paged kinds, the first page, or
        /// the second page's (its token from the first page, asked of
        /// `client` untimed; the timed page is asked of `client`, which
        /// kept the ranking, or of `other`, which did not).
        func request(_ q: Query) throws -> TextSearchRequest {
            var request = TextSearchRequest(
                textQuery: q.text, locationBias: .circle(center: q.at, radiusMeters: nil),
                maxResultCount: searchResults)
            if let n = repeatNumber, q.kind.contains("page 1") { request.regionCode = "R\(n % 17)" }
            if q.kind.contains("minRating") { request.minRating = 3 }
            if q.kind.contains("within 2 km") {
                request.locationBias = nil
                request.locationRestriction = .circle(center: q.at, radiusMeters: 2_000)
            }
            request.rankByDistance = q.kind.contains("by distance")
            if q.kind.contains("page 2") {
                let first = try client.searchTextJSON(request, fields: mask, nextPageToken: true)
                request.pageToken = try JSONValue(parsing: first)["nextPageToken"]?.stringValue
            }
            return request
        }
        func timed(_ q: Query) throws -> Double {
            let search = q.kind.hasPrefix("autocomplete") ? nil : try request(q)
            let c0 = threadCPU()
            defer { lastCPU = (threadCPU() - c0) * 1000 }
            let t0 = DispatchTime.now().uptimeNanoseconds
            if let search {
                let reader = q.kind.hasSuffix("another reader") ? other : client
                _ = try reader.searchTextJSON(search, fields: mask, nextPageToken: q.kind.contains("page"))
            } else {
                _ = try client.autocompleteJSON(
                    AutocompleteRequest(input: q.text, locationBias: .circle(center: q.at, radiusMeters: nil)))
            }
            return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        }
        let plain = try raw.prepare(
            "SELECT rowid FROM place_text WHERE place_text MATCH ?1 ORDER BY bm25(place_text) LIMIT 20")
        func timedPlain(_ q: Query) throws -> Double {
            let words = TextFolding.words(q.text)
            guard !words.isEmpty else { return 0 }
            var expr = words.map(TextMatchExpression.quoted).joined(separator: " ")
            if q.kind.hasPrefix("autocomplete") { expr += " *" }
            let c0 = threadCPU()
            defer { lastCPU = (threadCPU() - c0) * 1000 }
            let t0 = DispatchTime.now().uptimeNanoseconds
            plain.reset()
            try plain.bind(.text(expr), at: 1)
            while try plain.step() != nil {}
            return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        }
        if let kind = option("--profile", args) {
            // Only placedb's queries of that kind (a kind's name, or the start
            // of several), five times over, for a profiler.
            let exact = list.contains { $0.kind == kind }
            let text = option("--text", args)
            let at = option("--at", args).map { $0.split(separator: ",").compactMap { Double($0) } }
            let chosen = list.filter { q in
                (exact ? q.kind == kind : q.kind.hasPrefix(kind)) && (text ?? q.text) == q.text
                    && (at.map { a in
                        a.count == 2 && abs(q.at.latitude - a[0]) < 1e-5 && abs(q.at.longitude - a[1]) < 1e-5
                    } ?? true)
            }
            let times = text == nil ? 5 : 200
            // With --text, each point's median thread CPU and rows read (the
            // slowest points first): what makes a kind's tail.
            var byPoint: [(cpu: [Double], unread: Int, read: Int)] = Array(
                repeating: ([], 0, 0), count: chosen.count)
            for n in 0..<times {
                repeatNumber = n
                for (i, q) in chosen.enumerated() {
                    let before = client.wordListUse
                    _ = try timed(q)
                    let after = client.wordListUse
                    byPoint[i].cpu.append(lastCPU)
                    byPoint[i].unread += after.unread - before.unread
                    byPoint[i].read += after.read - before.read
                }
            }
            if text != nil {
                let medians = byPoint.map { median($0.cpu) }
                for i in chosen.indices.sorted(by: { medians[$0] > medians[$1] }).prefix(8) {
                    let q = chosen[i]
                    print(
                        "\(fmt(medians[i], 2)) ms at \(fmt(q.at.latitude, 5)),\(fmt(q.at.longitude, 5)): \(byPoint[i].unread / times) unread, \(byPoint[i].read / times) rows read a query"
                    )
                }
            }
            let use = client.wordListUse
            print(
                "\(chosen.count * times) queries; word lists answered \(use.queries) index queries; \(use.unread) matches came unread; \(use.read) matched rows read one by one"
            )
            return
        }
        // Warm-up on other queries (the pages of the index in the cache; the
        // counts of common words that the reader keeps between queries),
        // so that the timed ones are not repeats.
        let withPlain = !args.contains("--no-plain")
        for q in makeQueries(50, seed: 8) {
            _ = try timed(q)
            if withPlain { _ = try timedPlain(q) }
        }
        var ours: [String: [Double]] = [:], fts: [String: [Double]] = [:], oursCPU: [String: [Double]] = [:],
            ftsCPU: [String: [Double]] = [:]
        var slowest: [String: [(cpu: Double, text: String, at: Coordinate)]] = [:]
        for q in list {
            ours[q.kind, default: []].append(try timed(q))
            oursCPU[q.kind, default: []].append(lastCPU)
            slowest[q.kind, default: []].append((lastCPU, q.text, q.at))
            guard withPlain else { continue }
            fts[q.kind, default: []].append(try timedPlain(q))
            ftsCPU[q.kind, default: []].append(lastCPU)
        }
        print(
            "| query (\(queries) each, in-process, from within 500 m) | placedb wall median / p90 / p99 ms | placedb thread CPU median / p90 / p99 ms | plain FTS5 MATCH ... ORDER BY bm25 LIMIT 20: wall median / p90 / p99 ms | its CPU median / p90 / p99 ms |"
        )
        print("|---|---|---|---|---|")
        func stat(_ xs: [Double]?) -> String { percentiles(xs ?? [], digits: 3) }
        for kind in [
            "search: exact name", "autocomplete: 60% of the name", "search: one-letter typo", "search: type words",
            "search: type words, minRating 3, page 1", "search: type words, minRating 3, page 2",
            "search: type words, minRating 3, page 2, another reader", "search: type words, within 2 km",
            "search: type words, by distance",
        ] {
            print(
                "| \(kind) | \(stat(ours[kind])) | \(stat(oursCPU[kind])) | \(stat(fts[kind])) | \(stat(ftsCPU[kind])) |"
            )
        }
        print("")
        print("targets: search median < 1 ms and p90 < 5 ms; autocomplete median < 2 ms, p90 < 10 ms, p99 < 25 ms")
        print(
            "word lists answered \(client.wordListUse.queries) index queries; \(client.wordListUse.unread) matches came unread (ranked before their rows were read); \(client.wordListUse.read) matched rows read one by one"
        )
        if let n = Int(option("--slowest", args) ?? ""), n > 0 {
            for (kind, list) in slowest.sorted(by: { $0.key < $1.key }) {
                print(
                    "slowest of \(kind) (thread CPU ms): "
                        + list.sorted { $0.cpu > $1.cpu }.prefix(n).map {
                            "\(fmt($0.cpu, 1)) '\($0.text)' (\(fmt($0.at.latitude, 5)),\(fmt($0.at.longitude, 5)))"
                        }.joined(
                            separator: ", "))
            }
        }

        if args.contains("--query-floor") {
            try printFloors(
                list.map { ($0.kind, $0.text, $0.at) }, placedb: slowest, raw: raw, searchResults: searchResults)
        }

        if args.contains("--trigram") {
            let plainPath = (indexed as NSString).deletingLastPathComponent + "/search-plain.sqlite"
            let before = fileSize(indexed)
            let t0 = Date()
            let tri = try TrigramIndex(path: indexed)
            let built = Date().timeIntervalSince(t0)
            let after = fileSize(indexed)
            var lat: [Double] = []
            for q in list where q.kind == "search: one-letter typo" {
                let s = threadCPU()
                _ = try tri.search(q.text, near: q.at, client: client)
                lat.append((threadCPU() - s) * 1000)
            }
            lat.sort()
            print("")
            print(
                "trigram alternative (FTS5 trigram over folded names): built in \(fmt(built, 1)) s, +\(after - before) bytes (\(fmt(100 * Double(after - before) / Double(fileSize(plainPath)), 1))% of the database without the text index); typo query thread CPU median \(fmt(median(lat), 3)) ms, p90 \(fmt(lat[lat.count * 9 / 10], 3)) ms"
            )
        }
    }
}
