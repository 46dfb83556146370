import Foundation
import PlaceModel

/// A match expression as `TextMatchExpression` writes it, evaluated over
/// stored word lists (`WordLists`): the places FTS5 would match, each with
/// `bm25_counted`'s score bit for bit (the same formula, sums in the same
/// order). Nil from `init` where the lists cannot answer exactly as FTS5
/// would (the caller asks FTS5): syntax `TextMatchExpression` does not
/// write, a quoted word that may be more than one token, a grid-cell word
/// outside `cell :`.
struct WordListQuery {
    fileprivate indirect enum Node {
        /// One word's list, or none (a word no place holds).
        case words(Range<Int>)
        /// Any word in the range (a prefix): tested on a place's own words.
        case prefix(Range<Int>)
        /// A grid-cell word, or none (a cell no place is in).
        case cell(Int?)
        case and([Node])
        case or([Node])
    }

    fileprivate struct Phrase {
        var words: Range<Int>
        var prefix: Bool
        var cell: Bool
    }

    private let lists: WordLists
    /// The expression as clauses that must all hold, each any of its items.
    private let clauses: [[Item]]
    private let phrases: [Phrase]
    /// Per clause of text words, the text phrases (in the scorer's order)
    /// its items are: a place can have the clause in a name only where one
    /// of them is there (`best`'s `inNames`).
    private let textClauses: [[Int]]

    /// `expression` over `lists`, and with `prefix` (`PlaceStore.textMatches`'
    /// split prefix) the places that also hold a word starting with it, the
    /// prefix's phrase last; nil where it cannot answer as FTS5 would.
    init?(_ expression: String, prefix: String? = nil, lists: WordLists) {
        var parser = Parser(Array(expression.utf8), lists: lists)
        guard var root = parser.parse() else { return nil }
        if let prefix {
            guard let node = parser.word(Array(prefix.utf8), prefix: true, context: .text) else { return nil }
            root = .and([root, node])
        }
        guard let clauses = Self.clauses(root) else { return nil }
        self.lists = lists
        self.clauses = clauses
        phrases = parser.phrases
        let text = parser.phrases.filter { !$0.cell }.map(\.words)
        textClauses = clauses.compactMap { clause in
            var found: [Int] = []
            var isText = false
            for item in clause {
                let words: Range<Int>
                switch item {
                case .cell: continue
                case .word(let w): words = w..<(w + 1)
                case .prefix(let r): words = r
                }
                isText = true
                found += text.indices.filter { text[$0] == words }
            }
            return isText ? found : nil
        }
    }

    /// The number of places holding `phrase` (`"word"` or `"word" *`, as
    /// `TextMatchExpression` quotes them), from `lists`; nil where FTS5
    /// must count it.
    static func count(_ phrase: String, lists: WordLists) -> Int64? {
        var parser = Parser(Array(phrase.utf8), lists: lists)
        guard parser.parse() != nil, parser.phrases.count == 1 else { return nil }
        // A word's phrase is one word (or none): its list's length.
        return Int64(lists.placesHolding(parser.phrases[0].words))
    }

    /// The number of text phrases (not grid cells) and which are prefixes,
    /// in the expression's order.
    var textPhrases: [(prefix: Bool, words: Int)] {
        phrases.filter { !$0.cell }.map { ($0.prefix, $0.words.count) }
    }

    // MARK: Matching

    /// A word, any word of a range (a prefix: tested on a place's own
    /// words), or a grid cell (a run of documents when the lists' cells are).
    private enum Item {
        case word(Int)
        case prefix(Range<Int>)
        case cell(Int)
    }

    /// `node` as clauses that must all hold, each any of its items; nil
    /// when it is not of that form (an OR over an AND).
    private static func clauses(_ node: Node) -> [[Item]]? {
        switch node {
        case .words(let r): return [r.isEmpty ? [] : [.word(r.lowerBound)]]
        case .prefix(let r): return [[.prefix(r)]]
        case .cell(let w): return [w.map { [.cell($0)] } ?? []]
        case .and(let children):
            var out: [[Item]] = []
            for c in children {
                guard let more = clauses(c) else { return nil }
                out += more
            }
            return out
        case .or(let children):
            var items: [Item] = []
            for c in children {
                guard let more = clauses(c), more.count == 1 else { return nil }
                items += more[0]
            }
            return [items]
        }
    }

    /// A match as `first` and `best` give it: its place's rowid, BM25,
    /// document, `inNames` and `wordInNames` (see `best`).
    typealias Match = (rowid: Int64, bm25: Double, doc: UInt32, inNames: Bool, wordInNames: Bool)

    /// The places matching, in rowid order, with their BM25 (`counts`:
    /// the number of places holding each prefix phrase, in order, as
    /// `bm25_counted` is given it; a word's is its list's length); at
    /// most `limit` (nil when more match). The matches are scored, and
    /// their rows looked up, only once they are known to be no more.
    /// Each with its document, `inNames` and `wordInNames`, as `best`
    /// gives them.
    func first(limit: Int, prefixCounts: [Int64], word: [UInt8]? = nil) -> [Match]? {
        var docs: [UInt32] = []
        var more = false
        forEachMatch { doc in
            if docs.count == limit {
                more = true
                return false
            }
            docs.append(doc)
            return true
        }
        if more { return nil }
        var scored = Scored(self, prefixCounts: prefixCounts, word: word)
        return docs.map { doc in
            let s = scored(doc)
            return (lists.rowid(doc), s.bm25, doc, s.inNames, s.wordInNames)
        }.sorted { $0.rowid < $1.rowid }
    }

    /// Scores matches given in document order: BM25, `inNames` and
    /// `wordInNames` (`best`).
    private struct Scored {
        var scorer: Scorer
        let query: WordListQuery
        let word: [UInt8]?
        var named: Cursor

        init(_ query: WordListQuery, prefixCounts: [Int64], word: [UInt8]?) {
            self.query = query
            self.word = word
            scorer = Scorer(query, prefixCounts: prefixCounts)
            // The matches come in document order: the word's list is sought
            // forward only. A word no place holds is in no place's names.
            named = Cursor(query.lists, word.flatMap { query.lists.find($0) })
        }

        mutating func callAsFunction(_ doc: UInt32) -> (bm25: Double, inNames: Bool, wordInNames: Bool) {
            let bm25 = scorer.score(doc)
            var wordInNames = word == nil
            if let p = named.seek(doc) { wordInNames = query.lists.inName(p) }
            return (bm25, scorer.inNames(query.textClauses), wordInNames)
        }
    }

    /// The `best` places by BM25 (all with nil), ties by rowid. A match's
    /// row is looked up where a tie needs it, and for the answer: a
    /// one-shot process does not page in the document table for matches
    /// it leaves out. Each with its document and `inNames`: false where
    /// some clause of text words has none of its words in the place's name
    /// or other names (`WordLists.nameBit`), so that no name of the place
    /// can be the query's. With `word` (an autocomplete's prefix as typed),
    /// `wordInNames` says whether the place's names hold that very word
    /// (else none of them can be the query's words whole); true without.
    /// In that order, unless not `ordered` (then in no order: for a caller
    /// that keeps them by place).
    func best(_ best: Int?, prefixCounts: [Int64], word: [UInt8]? = nil, ordered: Bool = true) -> [Match] {
        /// A match before its rowid is looked up.
        typealias Found = (doc: UInt32, bm25: Double, inNames: Bool, wordInNames: Bool)
        var scored = Scored(self, prefixCounts: prefixCounts, word: word)
        var out: [Found] = []
        forEachMatch { doc in
            let s = scored(doc)
            out.append((doc, s.bm25, s.inNames, s.wordInNames))
            return true
        }
        let lists = self.lists
        let order: (Found, Found) -> Bool = {
            $0.bm25 != $1.bm25 ? $0.bm25 < $1.bm25 : lists.rowid($0.doc) < lists.rowid($1.doc)
        }
        let answer = { (chosen: [Found]) in
            (ordered ? chosen.sorted(by: order) : chosen).map {
                (
                    rowid: lists.rowid($0.doc), bm25: $0.bm25, doc: $0.doc, inNames: $0.inNames,
                    wordInNames: $0.wordInNames
                )
            }
        }
        guard let best, best < out.count else { return answer(out) }
        guard best > 0 else { return [] }
        // The best `best` in a heap whose top is the worst of them.
        var heap = Array(out.prefix(best))
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var worst = i
                if l < heap.count && order(heap[worst], heap[l]) { worst = l }
                if r < heap.count && order(heap[worst], heap[r]) { worst = r }
                if worst == i { return }
                heap.swapAt(i, worst)
                i = worst
            }
        }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        for m in out.dropFirst(best) where order(m, heap[0]) {
            heap[0] = m
            siftDown(0)
        }
        return answer(heap)
    }

    /// Calls `body` with each matching document in order, until it
    /// returns false. Grid-cell clauses, when each cell is a run of
    /// documents, restrict the others to those runs: a word's postings in
    /// them are found by binary search. Of the other clauses, the one
    /// whose places cost least to give and to test in the others gives
    /// them (the driver); each other clause is tested on them, the most
    /// selective first, by seeking in its words' lists (moving forward
    /// only) or looking up a prefix in the place's own words.
    private func forEachMatch(_ body: (UInt32) -> Bool) {
        guard !clauses.isEmpty, !clauses.contains(where: \.isEmpty) else { return }
        var runs: [Range<UInt32>]?
        var clauses: [[Item]] = []
        for clause in self.clauses {
            let cells = clause.compactMap { item -> Int? in
                if case .cell(let w) = item { return w }
                return nil
            }
            guard lists.cellRuns, cells.count == clause.count else {
                clauses.append(clause)
                continue
            }
            let these = Self.union(cells.map { lists.cellRun($0) })
            runs = runs.map { Self.intersection($0, these) } ?? these
        }
        if let runs {
            if runs.isEmpty { return }
            if clauses.isEmpty {
                for r in runs {
                    for doc in r where !body(doc) { return }
                }
                return
            }
        }
        // Each item's postings within the runs: a word's, found by binary
        // search; a prefix's words', so for a prefix of few words, else all
        // (`uncut`: cut to the runs later).
        let uncut = { (item: Item) -> Bool in
            if runs != nil, case .prefix(let r) = item { return r.count > Self.prefixWordsCut }
            return false
        }
        let inRuns = { (item: Item) -> [Range<Int>] in
            guard let runs, !uncut(item) else { return [self.postings(item)] }
            switch item {
            case .word(let w), .cell(let w): return self.postings(w, in: runs)
            case .prefix(let r): return r.flatMap { self.postings($0, in: runs) }
            }
        }
        let within = clauses.map { $0.map(inRuns) }
        /// Clause `i`'s postings when they are one word's in one range.
        func single(_ i: Int) -> Range<Int>? {
            guard clauses[i].count == 1, !Self.isPrefix(clauses[i][0]), within[i][0].count <= 1 else { return nil }
            return within[i][0].first ?? 0..<0
        }
        let estimates = within.map { $0.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
        let tests = clauses.map(\.count)
        let allTests = tests.reduce(0, +)
        var driver: Int? = clauses.indices.min {
            estimates[$0] * (1 + allTests - tests[$0]) < estimates[$1] * (1 + allTests - tests[$1])
        }
        // The runs' own documents, each tested in every clause, when that
        // costs less (a prefix of many words in a small block).
        let documents = runs?.reduce(0) { $0 + $1.count } ?? 0
        if runs != nil, let d = driver, documents * (1 + allTests) < estimates[d] * (1 + allTests - tests[d]) {
            driver = nil
        }
        // The driver's places, then each other clause keeps those it holds:
        // a single word's postings that are not many more are merged with
        // them (one pass over both); otherwise each place is looked up in
        // its list. A single word's postings in one run are read where
        // they lie until the first clause filters them.
        var places: [UInt32] = []
        var list: UnsafeBufferPointer<UInt32>?
        if let driver {
            if let r = single(driver) {
                list = UnsafeBufferPointer(start: lists.docs + r.lowerBound, count: r.count)
            } else {
                let cut = clauses[driver].contains(where: uncut) ? runs : nil
                places = self.places(within[driver], estimate: estimates[driver], cutTo: cut)
            }
        } else if let runs {
            places.reserveCapacity(documents)
            for r in runs { places += r }
        }
        for i in clauses.indices.sorted(by: { estimates[$0] < estimates[$1] }) where i != driver {
            let filtered = { (from: UnsafeBufferPointer<UInt32>) -> [UInt32] in
                if let r = single(i), r.count <= Self.mergeRatio * from.count { return intersection(from, r) }
                // A prefix tested on many places: a bitmap of the clause's
                // places, where each place's own words would be read at
                // random (on a large index, a cache miss or a page each).
                if clauses[i].contains(where: Self.isPrefix),
                    estimates[i] + lists.placeCount / 256 <= Self.bitmapRatio * from.count
                {
                    let bits = lists.bitmap(within[i].flatMap { $0 })
                    return from.filter { WordLists.contains(bits, $0) }
                }
                var t = Tester()
                var words: [UInt32] = []
                for item in clauses[i] {
                    switch item {
                    case .word(let w): words.append(UInt32(w))
                    case .cell(let w): t.cursors.append(Cursor(lists, w))
                    case .prefix(let r): t.prefixes.append(r)
                    }
                }
                // Several words (a prefix asked as the words it starts):
                // looked for in the place's own words, where a cursor per
                // word would seek in each word's list.
                if words.count >= Self.wordsByPlace {
                    t.words = Array(Set(words)).sorted()
                } else {
                    t.cursors += words.map { Cursor(lists, Int($0)) }
                }
                if t.prefixes.isEmpty && t.words.isEmpty { return from.filter { t.holds($0, lists) } }
                return Self.filter(from, lists) { t.holds($0, lists) }
            }
            if let from = list {
                places = filtered(from)
                list = nil
            } else {
                places = places.withUnsafeBufferPointer(filtered)
            }
            if places.isEmpty { return }
        }
        if let from = list {
            for doc in from where !body(doc) { return }
            return
        }
        for doc in places where !body(doc) { return }
    }

    /// A clause with a prefix is tested through a bitmap of its places
    /// when its postings (and a 256th of the places, for clearing the
    /// bitmap) are at most this many times the places it is tested on.
    static let bitmapRatio = 2

    /// How many places ahead of a test their own words are asked for.
    static let readAhead = 8

    /// The places of `from` that pass `test`, which reads each place's own
    /// words: they are asked for ahead of it (a place's word bounds
    /// 2 x `readAhead` places ahead, then its words `readAhead` ahead), so
    /// that on a large index, where each such read misses the cache, the
    /// reads of several places overlap rather than follow each other.
    private static func filter(
        _ from: UnsafeBufferPointer<UInt32>, _ lists: WordLists, _ test: (UInt32) -> Bool
    ) -> [UInt32] {
        let n = from.count, ahead = readAhead
        for i in 0..<min(n, 2 * ahead) { lists.prefetchWordBounds(from[i]) }
        for i in 0..<min(n, ahead) { lists.prefetchWords(from[i]) }
        var out: [UInt32] = []
        for i in 0..<n {
            if i + 2 * ahead < n { lists.prefetchWordBounds(from[i + 2 * ahead]) }
            if i + ahead < n { lists.prefetchWords(from[i + ahead]) }
            if test(from[i]) { out.append(from[i]) }
        }
        return out
    }

    /// A clause of at least this many words is tested on each place's own
    /// words rather than by seeking in each word's list.
    static let wordsByPlace = 3

    /// A prefix of at most this many words is cut to the runs word by word.
    static let prefixWordsCut = 64

    /// Word `w`'s postings in `runs` (in order): two binary searches a run.
    private func postings(_ w: Int, in runs: [Range<UInt32>]) -> [Range<Int>] {
        let r = lists.postings(w)
        var out: [Range<Int>] = []
        var from = r.lowerBound
        for run in runs {
            let lo = lists.firstPosting(in: from..<r.upperBound, from: run.lowerBound)
            let hi = lists.firstPosting(in: lo..<r.upperBound, from: run.upperBound)
            if hi > lo { out.append(lo..<hi) }
            from = hi
        }
        return out
    }

    private static func isPrefix(_ item: Item) -> Bool {
        if case .prefix = item { return true }
        return false
    }

    /// The union of runs, in order, overlapping or adjacent ones joined.
    static func union(_ runs: [Range<UInt32>]) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        for r in runs.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    /// The documents in both of two ordered sets of runs.
    static func intersection(_ a: [Range<UInt32>], _ b: [Range<UInt32>]) -> [Range<UInt32>] {
        var out: [Range<UInt32>] = []
        var i = 0, j = 0
        while i < a.count && j < b.count {
            let lo = max(a[i].lowerBound, b[j].lowerBound), hi = min(a[i].upperBound, b[j].upperBound)
            if lo < hi { out.append(lo..<hi) }
            if a[i].upperBound < b[j].upperBound { i += 1 } else { j += 1 }
        }
        return out
    }

    /// A list at most this many times longer than the places is merged
    /// with them rather than sought in.
    static let mergeRatio = 16

    /// The places of sorted `a` that the list `postings` holds (one pass
    /// over both, without branches on which moves).
    private func intersection(_ a: UnsafeBufferPointer<UInt32>, _ postings: Range<Int>) -> [UInt32] {
        let b = lists.docs + postings.lowerBound, m = postings.count
        return [UInt32](unsafeUninitializedCapacity: min(a.count, m)) { out, count in
            var i = 0, j = 0, k = 0
            let n = a.count
            while i < n && j < m {
                let x = a[i], y = b[j]
                if x == y {
                    out[k] = x
                    k += 1
                }
                i += x <= y ? 1 : 0
                j += y <= x ? 1 : 0
            }
            count = k
        }
    }

    /// The postings of an item's words (a prefix's are contiguous).
    private func postings(_ item: Item) -> Range<Int> {
        switch item {
        case .word(let w): return lists.postings(w)
        case .prefix(let r): return lists.postings(of: r)
        case .cell(let w): return lists.postings(w)
        }
    }

    /// The documents of any of `postings`, in order, each once, only those
    /// in `runs` if any (the postings of a prefix not cut to them): sorted,
    /// or through a bitmap of every document when they are many.
    private func places(_ postings: [[Range<Int>]], estimate: Int, cutTo runs: [Range<UInt32>]?) -> [UInt32] {
        let all = postings.flatMap { $0 }
        var out: [UInt32]
        if estimate > lists.placeCount / 64 {
            out = lists.places(all)
        } else {
            out = []
            out.reserveCapacity(estimate)
            for r in all {
                for p in r { out.append(lists.docs[p]) }
            }
            out.sort()
            var kept = 0
            for x in out where kept == 0 || out[kept - 1] != x {
                out[kept] = x
                kept += 1
            }
            out.removeLast(out.count - kept)
        }
        guard let runs else { return out }
        var r = 0
        return out.filter { doc in
            while r < runs.count && runs[r].upperBound <= doc { r += 1 }
            return r < runs.count && runs[r].contains(doc)
        }
    }

    /// One clause tested on the driver's places.
    private struct Tester {
        var cursors: [Cursor] = []
        var prefixes: [Range<Int>] = []
        /// Text words looked for in the place's own words (in increasing order).
        var words: [UInt32] = []

        mutating func holds(_ doc: UInt32, _ lists: WordLists) -> Bool {
            for i in cursors.indices where cursors[i].seek(doc) != nil { return true }
            for r in prefixes where lists.holds(doc, anyOf: r) { return true }
            return !words.isEmpty && lists.holds(doc, anyOf: words)
        }
    }

    // MARK: BM25

    /// `bm25_counted`'s score of a matched place (k1 1.2, b 0.75; the
    /// weights are in the lists' frequencies).
    private struct Scorer {
        let lists: WordLists
        var idf: [Double] = []
        /// Per text phrase: its words' cursors, or a prefix's words.
        var cursors: [[Cursor]] = []
        var prefixWords: [Range<Int>?] = []
        /// Whether each text phrase is in a name of the place last scored.
        var named: [Bool] = []
        /// The words of one-word phrases in a clause of several (a prefix
        /// asked as the words it starts), in increasing order, each with
        /// its phrases: their frequencies come from the place's own words
        /// (`WordLists.forEachHeld`), not from a cursor per word.
        var byPlace: [UInt32] = []
        var byPlacePhrases: [[Int]] = []
        /// Per text phrase, its frequency and name bit from the place's
        /// own words (`byPlace`; 0 and false for the others).
        var placeFrequency: [UInt32] = []
        var placeNamed: [Bool] = []
        let avgdl: Double

        init(_ q: WordListQuery, prefixCounts: [Int64]) {
            lists = q.lists
            let rows = Double(q.lists.rowCount)
            avgdl = q.lists.rowCount > 0 ? Double(q.lists.tokenCount) / rows : 1.0
            var prefixes = prefixCounts.makeIterator()
            for p in q.phrases where !p.cell {
                let hits: Int64
                if p.prefix {
                    hits = max(0, prefixes.next() ?? 0)
                } else {
                    hits = Int64(q.lists.postings(of: p.words).count)
                }
                var v = log((rows - Double(hits) + 0.5) / (Double(hits) + 0.5))
                if v <= 0.0 { v = 1e-6 }
                idf.append(v)
                cursors.append(p.prefix ? [] : p.words.map { Cursor(q.lists, $0) })
                prefixWords.append(p.prefix ? p.words : nil)
            }
            named = Array(repeating: false, count: cursors.count)
            // Only the words of a clause of several (an OR): the phrases of
            // an AND each match every place scored, and their cursors move
            // forward through them.
            let ored = Set(q.textClauses.filter { $0.count >= WordListQuery.wordsByPlace }.joined())
            let text = q.phrases.filter { !$0.cell }
            var phrasesOf: [UInt32: [Int]] = [:]
            for i in cursors.indices where prefixWords[i] == nil && cursors[i].count == 1 && ored.contains(i) {
                phrasesOf[UInt32(text[i].words.lowerBound), default: []].append(i)
            }
            if phrasesOf.values.reduce(0, { $0 + $1.count }) >= WordListQuery.wordsByPlace {
                byPlace = phrasesOf.keys.sorted()
                byPlacePhrases = byPlace.map { phrasesOf[$0]! }
                for i in byPlacePhrases.joined() { cursors[i] = [] }
            }
            placeFrequency = Array(repeating: 0, count: cursors.count)
            placeNamed = named
        }

        /// `placeFrequency` and `placeNamed` for `doc`, from its own words.
        private mutating func fromPlaceWords(_ doc: UInt32) {
            for i in placeFrequency.indices {
                placeFrequency[i] = 0
                placeNamed[i] = false
            }
            lists.forEachHeld(doc, of: byPlace) { k in
                let w = lists.frequency(of: Int(byPlace[k]), in: doc)
                for i in byPlacePhrases[k] {
                    placeFrequency[i] += w.frequency
                    placeNamed[i] = placeNamed[i] || w.inName
                }
                return true
            }
        }

        /// Whether every clause (its text phrases) has a phrase in a name or
        /// other name of the place last scored.
        func inNames(_ clauses: [[Int]]) -> Bool {
            clauses.allSatisfy { c in c.isEmpty || c.contains { named[$0] } }
        }

        mutating func score(_ doc: UInt32) -> Double {
            let k1 = 1.2, b = 0.75
            let D = Double(lists.tokens(doc))
            var score = 0.0
            if !byPlace.isEmpty { fromPlaceWords(doc) }
            for i in cursors.indices {
                var f = placeFrequency[i]
                var inName = placeNamed[i]
                if let range = prefixWords[i] {
                    // The place's own words in the range, each counted in its list.
                    let (placeWords, from, end) = lists.placeWords(doc, in: range)
                    var j = from
                    while j < end && Int(placeWords[j]) < range.upperBound {
                        let w = lists.frequency(of: Int(placeWords[j]), in: doc)
                        f += w.frequency
                        inName = inName || w.inName
                        j += 1
                    }
                }
                for j in cursors[i].indices {
                    if let p = cursors[i][j].seek(doc) {
                        f += lists.frequency(p)
                        inName = inName || lists.inName(p)
                    }
                }
                named[i] = inName
                let freq = Double(f)
                score += idf[i] * ((freq * (k1 + 1.0)) / (freq + k1 * (1 - b + b * D / avgdl)))
            }
            return -1.0 * score
        }
    }
}

/// A position in one word's list, moving forward only.
private struct Cursor {
    let docs: UnsafePointer<UInt32>
    var position: Int
    let end: Int
    /// A cursor on `word`'s list; on an empty one without.
    init(_ lists: WordLists, _ word: Int?) {
        let r = word.map { lists.postings($0) } ?? 0..<0
        docs = lists.docs
        position = r.lowerBound
        end = r.upperBound
    }

    /// Moves to the first posting at or past `doc` (galloping, then a
    /// binary search); its index when it is `doc`'s.
    @inline(__always) mutating func seek(_ doc: UInt32) -> Int? {
        guard position < end else { return nil }
        if docs[position] >= doc { return docs[position] == doc ? position : nil }
        var step = 1, lo = position, hi = position + 1
        while hi < end && docs[hi] < doc {
            lo = hi
            step <<= 1
            hi = lo + step
        }
        if hi > end { hi = end }
        // docs[lo] < doc; the answer is in (lo, hi].
        var l = lo + 1, h = hi
        while l < h {
            let mid = (l + h) >> 1
            if docs[mid] < doc { l = mid + 1 } else { h = mid }
        }
        position = l
        return l < end && docs[l] == doc ? l : nil
    }
}

// MARK: Parsing

extension WordListQuery {
    /// `TextMatchExpression`'s syntax: quoted strings (a `*` after one: a
    /// prefix), `(`...`)`, `AND` (binding tighter) and `OR`, and a column
    /// filter (`{...} :` the text columns, `cell :`) before a string or a
    /// group.
    fileprivate struct Parser {
        enum Context { case any, text, cell }

        let bytes: [UInt8]
        let lists: WordLists
        var i = 0
        var phrases: [Phrase] = []

        init(_ bytes: [UInt8], lists: WordLists) {
            self.bytes = bytes
            self.lists = lists
        }

        mutating func parse() -> Node? {
            guard let node = or(.any) else { return nil }
            skipSpaces()
            return i == bytes.count ? node : nil
        }

        mutating func skipSpaces() { while i < bytes.count && bytes[i] == 0x20 { i += 1 } }

        mutating func keyword(_ k: String) -> Bool {
            skipSpaces()
            let k = Array(k.utf8)
            guard i + k.count <= bytes.count, Array(bytes[i..<(i + k.count)]) == k,
                i + k.count == bytes.count || bytes[i + k.count] == 0x20
            else { return false }
            i += k.count
            return true
        }

        mutating func or(_ context: Context) -> Node? {
            var children: [Node] = []
            repeat {
                guard let n = and(context) else { return nil }
                children.append(n)
            } while keyword("OR")
            return children.count == 1 ? children[0] : .or(children)
        }

        mutating func and(_ context: Context) -> Node? {
            var children: [Node] = []
            repeat {
                guard let n = unary(context) else { return nil }
                children.append(n)
            } while keyword("AND")
            return children.count == 1 ? children[0] : .and(children)
        }

        mutating func unary(_ outer: Context) -> Node? {
            skipSpaces()
            guard i < bytes.count else { return nil }
            var context = outer
            if bytes[i] == UInt8(ascii: "{") {
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: "}")),
                    String(decoding: bytes[i...close], as: UTF8.self) == TextMatchExpression.textColumns
                else { return nil }
                i = close + 1
                guard colon() else { return nil }
                context = .text
            } else if keyword("cell") {
                guard colon() else { return nil }
                context = .cell
            }
            skipSpaces()
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: "(") {
                i += 1
                guard let n = or(context) else { return nil }
                skipSpaces()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ")") else { return nil }
                i += 1
                return n
            }
            return phrase(context)
        }

        mutating func colon() -> Bool {
            skipSpaces()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
            i += 1
            return true
        }

        mutating func phrase(_ context: Context) -> Node? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            var word: [UInt8] = []
            while true {
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        word.append(bytes[i])
                        i += 2
                        continue
                    }
                    i += 1
                    break
                }
                word.append(bytes[i])
                i += 1
            }
            skipSpaces()
            var prefix = false
            if i < bytes.count && bytes[i] == UInt8(ascii: "*") {
                prefix = true
                i += 1
            }
            return self.word(word, prefix: prefix, context: context)
        }

        /// The phrase of `word` (a prefix with `prefix`) in `context`, added
        /// to `phrases`; nil where the lists cannot match it as FTS5 would.
        mutating func word(_ word: [UInt8], prefix: Bool, context: Context) -> Node? {
            let isCell = WordLists.hasCellMark(word)
            // Grid-cell words only in `cell :`, typed words only outside it:
            // then a column filter changes nothing and is not checked.
            guard isCell == (context == .cell), !word.isEmpty else { return nil }
            // A word of ASCII lower-case letters and digits is one token as
            // FTS5's tokenizer reads it; any word the lists hold is one too
            // (a token read again is itself), and any prefix of one; and
            // so is a word of characters the index's words hold
            // (`WordLists.isOneToken`). Any other goes to FTS5.
            let plain = word.allSatisfy { WordLists.isPlain(UInt32($0)) }
            let words: Range<Int>
            if prefix {
                words = lists.range(startingWith: word)
                guard plain || !words.isEmpty || lists.isOneToken(word) else { return nil }
            } else if let w = lists.find(word) {
                words = w..<(w + 1)
            } else {
                guard plain || isCell || lists.isOneToken(word) else { return nil }
                words = 0..<0
            }
            phrases.append(Phrase(words: words, prefix: prefix, cell: isCell))
            if isCell && !prefix { return .cell(words.first) }
            return prefix && words.count > 1 ? .prefix(words) : .words(words)
        }
    }
}
