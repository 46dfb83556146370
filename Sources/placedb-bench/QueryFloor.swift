// The least FTS5 reading a search or an autocomplete needs, query by query
// (`placedb-bench search --query-floor`): a lower bound on any answer built
// on FTS5 with the search's semantics (docs/search.md, "The floor of a
// query"), beside placedb's own time for the same query.
//
// The search gathers candidates in the 3x3 block of fine grid cells around
// the focus, then of coarse cells, until it holds `want` of them; failing
// that, it adds the whole index's best by BM25, which needs every place
// holding the words (FTS5 cannot stop early on BM25). So the least a query
// can read is: the block's matches when a block holds `want` (or the
// matches anywhere, if reading them costs less); else every match anywhere
// (the first 301 when at most 300 places hold the words: the one-pass path
// reads them all and stops there). Each is a `count(*)` of the expression
// placedb asks (`TextMatchExpression.expression`): no score, no join, no
// row read. An autocomplete's last word is FTS5's prefix query (`"ha" *`:
// the index's one-letter lists, or the merge of every word with a longer
// prefix); a second floor leaves it out where that reads less (what
// `PrefixSplit` reads before it looks for the prefix in the rows' text: a
// bound no way of matching the prefix goes under). Thread CPU, best of two.
import PlaceKit
import PlaceModel
import PlaceStorage
import SQLiteDB

enum QueryFloor {
    /// Where the reading stops.
    enum Step: String, CaseIterable {
        case cells = "a block of cells"
        case onePass = "at most 300 matches anywhere"
        case wholeIndex = "every match anywhere"
    }

    /// The floor of one query (thread CPU ms) and where it stops: `ms`, the
    /// reading of the query's own expression; `others`, the same with an
    /// autocomplete's prefix left out where that reads less: what a split
    /// reads before it looks for the prefix in the rows, so a bound that
    /// no way of matching the prefix goes under (for a search, `ms`).
    struct Floor {
        var ms: Double
        var others: Double
        var step: Step
    }

    /// The statement `floor` counts with, prepared once on the indexed database.
    static func counter(_ raw: Database) throws -> Statement {
        try raw.prepare("SELECT count(*) FROM (SELECT rowid FROM place_text WHERE place_text MATCH ?1 LIMIT ?2)")
    }

    static func floor(_ count: Statement, text: String, at: Coordinate, prefix: Bool, want: Int) throws -> Floor? {
        let words = TextFolding.words(text)
        guard !words.isEmpty else { return nil }
        let terms = words.enumerated().map {
            QueryTerm(word: $0.element, prefix: prefix && $0.offset == words.count - 1)
        }
        let others = prefix && terms.count > 1 ? Array(terms.dropLast()) : nil
        /// The matches of `terms` within `cells` (at most `limit`), the CPU
        /// ms of reading them, and of the cheaper of that and the other terms alone.
        func read(_ cells: [String], limit: Int = -1) throws -> (matches: Int64, ms: Double, others: Double) {
            func once(_ t: [QueryTerm]) throws -> (Int64, Double) {
                guard let e = TextMatchExpression.expression(t, cells: cells) else { return (0, 0) }
                var best = Double.infinity, n: Int64 = 0
                for _ in 0..<2 {
                    count.reset()
                    try count.bind(.text(e), at: 1)
                    try count.bind(.integer(Int64(limit)), at: 2)
                    let c0 = threadCPU()
                    n = try count.step()?.int64(0) ?? 0
                    best = min(best, (threadCPU() - c0) * 1000)
                }
                return (n, best)
            }
            let (n, ms) = try once(terms)
            return (n, ms, try others.map { min(ms, try once($0).1) } ?? ms)
        }
        // Every match anywhere: the first 301 tell whether at most 300 hold the words.
        var anywhere = try read([], limit: 301)
        if anywhere.matches > 300 { anywhere = try read([]) }
        var levels = (ms: 0.0, others: 0.0)
        for level in TextGrid.Level.allCases {
            let inBlock = try read(TextGrid.block(at, level))
            levels = (levels.ms + inBlock.ms, levels.others + inBlock.others)
            if inBlock.matches >= want {
                return Floor(ms: min(levels.ms, anywhere.ms), others: min(levels.others, anywhere.others), step: .cells)
            }
        }
        return Floor(ms: anywhere.ms, others: anywhere.others, step: anywhere.matches <= 300 ? .onePass : .wholeIndex)
    }
}

extension SearchBench {
    /// Prints, for the exact names and the autocompletes of `queries`, the
    /// floors beside placedb's thread CPU for the same queries (`placedb`:
    /// by kind, in the order of `queries`), and how many floors are above
    /// the targets: when a tenth (a hundredth) of them or more are, the
    /// floors' p90 (p99) is above the target, and so is that of any search
    /// on FTS5 with these semantics (with the third floor: whatever the cells
    /// cost).
    static func printFloors(
        _ queries: [(kind: String, text: String, at: Coordinate)],
        placedb: [String: [(cpu: Double, text: String, at: Coordinate)]],
        raw: Database, searchResults: Int
    ) throws {
        let count = try QueryFloor.counter(raw)
        // `want` as the search sets it: the results asked for, at least 10.
        let kinds: [(kind: String, prefix: Bool, want: Int, p90: Double, p99: Double?)] = [
            ("search: exact name", false, max(searchResults, 10), 5, nil),
            ("autocomplete: 60% of the name", true, max(AutocompleteRequest(input: "").maxResultCount, 10), 10, 25),
        ]
        print("")
        print(
            "| query | placedb thread CPU median / p90 / p99 ms | FTS5 reading floor median / p90 / p99 ms | the same, the prefix left out where that reads less | that, with the cells free | where the reading stops: \(QueryFloor.Step.allCases.map(\.rawValue).joined(separator: " / ")) | floors above the p90 target (each of the three) | above the p99 target |"
        )
        print("|---|---|---|---|---|---|---|---|")
        func stat(_ xs: [Double]) -> String { percentiles(xs, digits: 2) }
        for k in kinds {
            var floors: [Double] = [], lower: [Double] = [], free: [Double] = [], ours: [Double] = []
            var steps: [QueryFloor.Step: Int] = [:]
            let times = placedb[k.kind] ?? []
            for (i, q) in queries.filter({ $0.kind == k.kind }).enumerated() {
                let prefix = k.prefix && PlaceReader.lastIsPrefix(q.text)
                guard let f = try QueryFloor.floor(count, text: q.text, at: q.at, prefix: prefix, want: k.want) else {
                    continue
                }
                floors.append(f.ms)
                lower.append(f.others)
                free.append(f.step == .cells ? 0 : f.others)
                steps[f.step, default: 0] += 1
                if i < times.count { ours.append(times[i].cpu) }
            }
            func above(_ t: Double) -> String {
                [floors, lower, free].map { f in String(f.filter { $0 > t }.count) }.joined(separator: ", ")
                    + " of \(floors.count) (\(fmt(t, 0)) ms)"
            }
            print(
                "| \(k.kind) | \(stat(ours)) | \(stat(floors)) | \(stat(lower)) | \(stat(free)) | \(QueryFloor.Step.allCases.map { String(steps[$0] ?? 0) }.joined(separator: " / ")) | \(above(k.p90)) | \(k.p99.map(above) ?? "-") |"
            )
        }
    }
}
