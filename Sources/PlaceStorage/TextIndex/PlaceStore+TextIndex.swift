package import SQLiteDB
package import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

/// A place the text index matched, with what ranking needs first (no
/// JSON is read for it: its other names are read only when they can
/// change its rank, `textOtherNames`).
package struct TextCandidate {
    package var rowid: Int64
    package var coordinate: Coordinate
    package var name: String?
    /// The place has an `extra` (where other names are).
    package var hasExtra: Bool
    package var ratingCount: Int?
    package var primaryType: String?
    /// The `rating` column (searchText's `minRating` is checked on it).
    package var rating: Double?
    /// The row is not read yet (`textMatches` with `unread`): `coordinate`
    /// is the word lists' point (within `RankInputs.pointError` meters of
    /// the row's), `ratingCount` theirs (capped where popularity is),
    /// `rating` the row's, and `name`, `hasExtra` and `primaryType` are
    /// unknown; `matchedCandidate` reads it.
    package var unread = false
    /// Whether a name of the place may hold the query's words (false:
    /// none of its names can be the query; `WordListQuery.best`).
    package var inNames = true
    /// Of an unread match: its name's number of words (FTS5's tokens, as
    /// many as `TextFolding.words` gives; `nameWordsCap` for that many or
    /// more; -1 unknown), and whether it has other names.
    package var nameWords = -1
    package var otherNames = true
    /// Of an unread match of an autocomplete: whether its names may hold
    /// the prefix as typed, as a word of its own (false: no name of the
    /// place can be the input's words whole, only start with them).
    package var prefixInNames = true
    /// Of an unread match: its document in the word lists (which grid
    /// cells hold it: `cellDocuments`).
    package var doc: UInt32?
}

extension PlaceStore {
    /// The places matching `expression` (built by `TextMatchExpression`, so
    /// never user syntax), or the `best` ones by BM25, each with its
    /// candidate row (read in the same statement) and weighted BM25
    /// (negative; lower is better). `phrases` are the text phrases of the
    /// expression in order (`TextMatchExpression.phrases`), then `cells`
    /// grid-cell phrases: BM25 takes the number of places holding each
    /// phrase from `textStatistics` (counted once per phrase while the file
    /// does not change) instead of counting them on every query as FTS5's
    /// bm25() does; the score is the same.
    ///
    /// With `prefix`, the places matching `expression` that also hold a
    /// word starting with it, scored as if the expression also held the
    /// prefix phrase `"prefix" *` (AND, after its phrases), read from their
    /// text (`TextIndexSQL.prefixedBM25`).
    ///
    /// With `unread`, where the word lists answer and their rank inputs
    /// hold, a match they have those for is given unread
    /// (`TextCandidate.unread`; `matchedCandidate` reads it), and with
    /// `typedPrefix` (an autocomplete's last word), whether its names hold
    /// that word (`TextCandidate.prefixInNames`).
    ///
    /// The matches come best first (ties by rowid), or, when not `ordered`
    /// and the word lists answer, in no order (for a caller that keeps
    /// them by place).
    package func textMatches(
        _ expression: String, phrases: [String], cells: Int, best: Int? = nil, prefix: String? = nil,
        unread: Bool = false, typedPrefix: String? = nil, ordered: Bool = true
    ) throws -> [(candidate: TextCandidate, bm25: Double)] {
        var out: [(candidate: TextCandidate, bm25: Double)] = []
        do {
            if let query = try wordListQuery(expression, prefix: prefix, phrases: phrases) {
                let lists = unread && textStatistics.ranksHold ? textStatistics.wordLists : nil
                let word = lists != nil ? typedPrefix.map { Array($0.utf8) } : nil
                for m in query.query.best(best, prefixCounts: query.prefixCounts, word: word, ordered: ordered) {
                    if let lists, let c = unreadCandidate(m, lists) {
                        out.append((c, m.bm25))
                        continue
                    }
                    if var c = try matchedCandidate(m.rowid)?.candidate {
                        c.inNames = m.inNames
                        out.append((c, m.bm25))
                    }
                }
                return out
            }
            var counts = try phrases.map { String(try phraseCount($0)) }
            // The cell column weighs 0 in BM25: any count gives the same score.
            counts += repeatElement("0", count: cells)
            let statement = try db.cachedStatement(TextIndexSQL.bestMatches(recordView, prefixed: prefix != nil))
            try statement.bind(.text(expression), at: 1)
            try statement.bind(.text(counts.joined(separator: " ")), at: 2)
            try statement.bind(.integer(Int64(best ?? -1)), at: 3)
            try bindPrefix(prefix, statement)
            defer { statement.reset() }
            while let row = try statement.step() {
                let rowid = try row.int64(0)
                out.append((try candidate(row, from: 2, rowid: rowid), try row.double(1)))
            }
        } catch let e as SQLiteError {
            throw textIndexError(e)
        }
        return out
    }

    /// Every place matching `expression` (text terms only, no grid
    /// cells), each with its candidate row, weighted BM25 and fine grid
    /// cell (`place.text_cell`, what its cell words are made of), in rowid
    /// order; nil when more than `limit` match (FTS5 stops reading after
    /// `limit + 1`; the connection remembers it until the file changes,
    /// as it does the phrase counts).
    /// (`prefix`: as in `textMatches`.)
    /// (`unread`, `typedPrefix`: as in `textMatches`, where the lists'
    /// grid cells are runs of documents as well; an unread match's cell is
    /// -1, its `doc` says which cells hold it: `cellDocuments`.)
    package func allTextMatches(
        _ expression: String, phrases: [String], limit: Int, prefix: String? = nil, unread: Bool = false,
        typedPrefix: String? = nil
    ) throws -> [(candidate: TextCandidate, bm25: Double, cell: Int64)]? {
        var out: [(candidate: TextCandidate, bm25: Double, cell: Int64)] = []
        do {
            let counts = try phrases.map { String(try phraseCount($0)) }
            // Known to match more (words that go together: "costa coffee").
            let key = prefix.map { expression + " AND " + TextMatchExpression.quoted($0) + " *" } ?? expression
            if let known = textStatistics.crowded[key], known >= limit { return nil }
            if let query = try wordListQuery(expression, prefix: prefix, phrases: phrases) {
                let stats = textStatistics
                let lists = unread && stats.ranksHold && stats.wordLists?.cellRuns == true ? stats.wordLists : nil
                let word = lists != nil ? typedPrefix.map { Array($0.utf8) } : nil
                guard let all = query.query.first(limit: limit, prefixCounts: query.prefixCounts, word: word) else {
                    textStatistics.crowded[key] = limit
                    return nil
                }
                for m in all {
                    if let lists, let c = unreadCandidate(m, lists) {
                        out.append((c, m.bm25, -1))
                    } else if var c = try matchedCandidate(m.rowid) {
                        c.candidate.inNames = m.inNames
                        out.append((c.candidate, m.bm25, c.cell))
                    }
                }
                return out
            }
            let statement = try db.cachedStatement(TextIndexSQL.firstMatches(recordView, prefixed: prefix != nil))
            try statement.bind(.text(expression), at: 1)
            try statement.bind(.text(counts.joined(separator: " ")), at: 2)
            try statement.bind(.integer(Int64(limit + 1)), at: 3)
            try bindPrefix(prefix, statement)
            defer { statement.reset() }
            while let row = try statement.step() {
                if out.count == limit {
                    textStatistics.crowded[key] = limit
                    return nil
                }
                let rowid = try row.int64(0)
                out.append((try candidate(row, from: 2, rowid: rowid), try row.double(1), row.optionalInt64(8) ?? -1))
            }
        } catch let e as SQLiteError {
            throw textIndexError(e)
        }
        return out
    }

    /// `expression` over the stored word lists, when they hold for the
    /// index as it is and can answer it as FTS5 would (`WordListQuery`),
    /// with the counts of its prefix phrases (`phrases`: its text phrases).
    private func wordListQuery(_ expression: String, prefix: String?, phrases: [String]) throws
        -> (query: WordListQuery, prefixCounts: [Int64])?
    {
        let stats = textStatistics
        if !stats.checked { try checkTextStatistics() }
        guard stats.wordListsHold, let lists = stats.wordLists,
            let query = WordListQuery(expression, prefix: prefix, lists: lists)
        else { return nil }
        let text = query.textPhrases
        let all = phrases + (prefix.map { [TextMatchExpression.quoted($0) + " *"] } ?? [])
        guard text.count == all.count else { return nil }
        var counts: [Int64] = []
        for (p, phrase) in zip(text, all) where p.prefix { counts.append(try phraseCount(phrase)) }
        stats.answeredFromWordLists += 1
        return (query, counts)
    }

    /// A match of the word lists given unread, from their rank inputs; nil
    /// where its row must be read (`RankInputs.readsRow`).
    private func unreadCandidate(_ m: WordListQuery.Match, _ lists: WordLists) -> TextCandidate? {
        guard let inputs = lists.rankInputs(m.doc) else { return nil }
        textStatistics.unreadMatches += 1
        return TextCandidate(
            rowid: m.rowid, coordinate: inputs.point, name: nil, hasExtra: false, ratingCount: inputs.ratingCount,
            primaryType: nil, rating: inputs.rating, unread: true, inNames: m.inNames, nameWords: inputs.nameWords,
            otherNames: inputs.otherNames, prefixInNames: m.wordInNames, doc: m.doc)
    }

    /// The documents of the word lists in any of the grid cells `cells`
    /// (cell words), as runs; nil where the lists do not hold, or their
    /// cells are not runs (then no match is given unread with a `doc`).
    package func cellDocuments(_ cells: [String]) -> [Range<UInt32>]? {
        let stats = textStatistics
        guard stats.wordListsHold, let lists = stats.wordLists, lists.cellRuns else { return nil }
        return cells.compactMap { cell in lists.find(Array(cell.utf8)).map { lists.cellRun($0) } }
    }

    /// A place the word lists matched, as `bestMatches` joins it: its
    /// candidate row (its group's canonical row when merged) and fine grid
    /// cell; nil when there is no such row.
    package func matchedCandidate(_ rowid: Int64) throws -> (candidate: TextCandidate, cell: Int64)? {
        textStatistics.matchedRowsRead += 1
        let statement = try db.cachedStatement(TextIndexSQL.matchedCandidate(recordView))
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        return (try candidate(row, from: 1, rowid: try row.int64(0)), row.optionalInt64(7) ?? -1)
    }

    /// Binds `prefixedBM25`'s prefix (`?4`) and the number of places
    /// holding a word with it (`?5`).
    private func bindPrefix(_ prefix: String?, _ statement: Statement) throws {
        guard let prefix else { return }
        try statement.bind(.text(prefix), at: 4)
        try statement.bind(.integer(try phraseCount(TextMatchExpression.quoted(prefix) + " *")), at: 5)
    }

    /// How many places are in any of the grid cells `cells` (cell words),
    /// kept as the phrase counts are.
    package func cellCount(_ cells: [String]) throws -> Int64 {
        if !textStatistics.checked { try checkTextStatisticsAsError() }
        var total: Int64 = 0
        for cell in cells {
            let key = "cell : " + TextMatchExpression.quoted(cell)
            if let n = textStatistics.counts[key] {
                total += n
                continue
            }
            if textStatistics.wordListsHold, let lists = textStatistics.wordLists {
                let n = Int64(lists.find(Array(cell.utf8)).map { lists.postings($0).count } ?? 0)
                textStatistics.counts[key] = n
                total += n
                continue
            }
            let statement = try db.cachedStatement(TextIndexSQL.phraseCount)
            try statement.bind(.text(key), at: 1)
            defer { statement.reset() }
            let n: Int64
            do { n = try statement.step()?.optionalInt64(0) ?? 0 } catch let e as SQLiteError {
                throw textIndexError(e)
            }
            textStatistics.counts[key] = n
            total += n
        }
        return total
    }

    /// An upper bound on the number of places (the largest `place.id`),
    /// for estimates.
    package func placeRowBound() throws -> Int64 {
        if !textStatistics.checked { try checkTextStatisticsAsError() }
        if let known = textStatistics.placeRowBound { return known }
        let bound = try db.scalar("SELECT max(id) FROM place")?.int64 ?? 0
        textStatistics.placeRowBound = bound
        return bound
    }

    /// How many places hold `phrase` in their text columns, from
    /// `textStatistics` while the file is unchanged.
    package func phraseCount(_ phrase: String) throws -> Int64 {
        do {
            return try countPhrase(phrase)
        } catch let e as SQLiteError {
            throw textIndexError(e)
        }
    }

    /// Runs `body` (one text query, inside a read transaction, writing
    /// nothing) with the phrase counts checked against the file once, not
    /// on every phrase (`PRAGMA data_version` costs a statement).
    package func withTextStatistics<T>(_ body: () throws -> T) throws -> T {
        let stats = textStatistics
        if stats.checked { return try body() }
        do {
            try checkTextStatistics()
        } catch let e as SQLiteError {
            throw textIndexError(e)
        }
        stats.checked = true
        defer { stats.checked = false }
        return try body()
    }

    private func checkTextStatisticsAsError() throws {
        do { try checkTextStatistics() } catch let e as SQLiteError { throw textIndexError(e) }
    }

    /// Registers `bm25_counted` on first use; forgets the counts when the
    /// file changed (or there are too many).
    private func checkTextStatistics() throws {
        let stats = textStatistics
        let version = (data: try db.dataVersion(), changes: db.totalChanges)
        if !stats.registered {
            try db.registerCountedBM25()
            stats.registered = true
        }
        if version != stats.version || stats.counts.count + stats.crowded.count >= TextIndexStatistics.capacity {
            stats.counts.removeAll(keepingCapacity: true)
            stats.crowded.removeAll(keepingCapacity: true)
            stats.placeRowBound = nil
            stats.version = version
            stats.stored = try textCountState() == .current
            try checkWordLists(stats)
        }
        if !stats.wordListsHold {
            let file = WordLists.path(for: path)
            let version = FileVersion(path: file)
            if stats.wordListsFile != .some(version) {
                stats.wordListsFile = .some(version)
                stats.wordLists = version == nil ? nil : try? WordLists.open(file).get()
                try checkWordLists(stats)
            }
        }
    }

    /// Whether the word lists hold for the index as it is, and their rank
    /// inputs for the places.
    private func checkWordLists(_ stats: TextIndexStatistics) throws {
        stats.wordListsHold = try stats.wordLists?.holds(for: db) ?? false
        stats.ranksHold = try stats.wordListsHold && stats.wordLists?.ranksHold(rankMarker()) == true
    }

    /// Whether `place_text_count` was counted on the index as it is now
    /// (`current`), on another state of it (`stale`), or never
    /// (`unanalyzed`): `TextCountState.of`. `placedb info` shows it as
    /// `textCounts`.
    package func textCountState() throws -> TextCountState { try TextCountState.of(db) }

    /// The places holding `phrase` in their text columns. Only a phrase
    /// with `TextGrid.mark` can match a grid cell's word, so only that one
    /// is counted with the column filter: without it FTS5 reads rowids
    /// alone, not each row's columns (at 10M places, `"s" *` in 224 ms
    /// against 355 ms).
    private func countPhrase(_ phrase: String) throws -> Int64 {
        let stats = textStatistics
        if !stats.checked { try checkTextStatistics() }
        if let n = stats.counts[phrase] { return n }
        // Stored counts first: a common prefix's count is one row there,
        // where the lists merge its words' places.
        if stats.stored, let n = try db.scalar(TextIndexSQL.storedCount, [.text(phrase)])?.int64 {
            stats.counts[phrase] = n
            return n
        }
        if stats.wordListsHold, let lists = stats.wordLists, let n = WordListQuery.count(phrase, lists: lists) {
            stats.counts[phrase] = n
            return n
        }
        let statement = try db.cachedStatement(TextIndexSQL.phraseCount)
        let asked = phrase.contains(TextGrid.mark) ? TextMatchExpression.textColumns + " : " + phrase : phrase
        try statement.bind(.text(asked), at: 1)
        defer { statement.reset() }
        let n = try statement.step()?.optionalInt64(0) ?? 0
        stats.counts[phrase] = n
        return n
    }

    /// `TextIndexSQL.candidateColumns`, starting at column `first` of `row`.
    private func candidate(_ row: Row, from first: Int, rowid: Int64) throws -> TextCandidate {
        guard let c = row.withBytes(first, { SpatiaLiteBlob.coordinate($0) }) else {
            throw PlaceDBError.database(path: path, reason: "place row \(rowid) has no readable point geometry")
        }
        return TextCandidate(
            rowid: rowid, coordinate: c, name: row.optionalString(first + 1), hasExtra: try row.int64(first + 2) != 0,
            ratingCount: row.optionalInt64(first + 3).map { Int($0) }, primaryType: row.optionalString(first + 4),
            rating: row.optionalDouble(first + 5))
    }

    /// A place's other names (`TextIndexSQL.otherNames`), one by one.
    package func textOtherNames(rowid: Int64) throws -> [String] {
        let statement = try db.cachedStatement(TextIndexSQL.otherNamesOfRow)
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return [] }
        var names: [String] = []
        if let text = row.optionalString(0) {
            names = text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().compactMap {
                $0.offset % 2 == 1 ? String($0.element) : nil
            }
        }
        if !row.isNull(1), let localized = try? row.withBytes(1, { try JSONParser.parse($0) }) {
            for n in NameLanguage.names(localized) where !names.contains(n.text) { names.append(n.text) }
        }
        return names
    }

    /// Whether the place has `type` among its types.
    package func placeHasType(rowid: Int64, _ type: String) throws -> Bool {
        let statement = try db.cachedStatement("SELECT 1 FROM place_type WHERE type = ?1 AND place = ?2")
        try statement.bind(.text(type), at: 1)
        try statement.bind(.integer(rowid), at: 2)
        defer { statement.reset() }
        return try statement.step() != nil
    }

    /// The place's ID, its `types` and its address, for autocomplete suggestions.
    package func idTypesAndAddress(rowid: Int64) throws -> (id: String, types: [String], address: String?)? {
        let statement = try db.cachedStatement(TextIndexSQL.suggestion)
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step(), let id = row.optionalString(0) else { return nil }
        var types: [String] = []
        if !row.isNull(1), let parsed = try? row.withBytes(1, { try JSONParser.parse($0) }), let a = parsed.arrayValue {
            types = a.compactMap(\.stringValue)
        }
        return (id, types, row.optionalString(2))
    }

    /// Whether the index holds `word` (folded) in a place's text.
    package func indexHasWord(_ word: String) throws -> Bool {
        let statement = try db.cachedStatement(TextIndexSQL.wordExists)
        try statement.bind(.text(word), at: 1)
        defer { statement.reset() }
        return try statement.step() != nil
    }

    /// The vocabulary's words that start with `prefix` (folded), or nil
    /// when there are more than `limit`. The vocabulary is `place_word`
    /// (words that imports wrote; see docs/search.md).
    package func wordsStarting(with prefix: String, limit: Int) throws -> [String]? {
        let statement = try db.cachedStatement(TextIndexSQL.wordsStartingWith)
        try statement.bind(.text(prefix), at: 1)
        try statement.bind(.integer(Int64(limit + 1)), at: 2)
        defer { statement.reset() }
        var out: [String] = []
        while let row = try statement.step() {
            guard let w = row.optionalString(0) else { continue }
            out.append(w)
            if out.count > limit { return nil }
        }
        return out
    }

    /// The index's words within the typo allowance of `word`
    /// (`EditDistance.allowance`), closest first, then the most frequent:
    /// at most `limit`. A word `k` edits away keeps one of `k + 1` parts
    /// of the word intact; the first and the last part are looked up
    /// (`place_word` and its reversed index), so a word with edits in both
    /// its first and last third is not found.
    package func wordCorrections(_ word: String, limit: Int = 16) throws -> [String] {
        let n = word.unicodeScalars.count
        let k = EditDistance.allowance(forLength: n)
        guard k > 0 else { return [] }
        let prefixLength = k == 1 ? n / 2 : n / 3
        let suffixLength = k == 1 ? n - n / 2 : n / 3
        // Each half reads at most 500 words (TextIndexSQL): a one-letter
        // half of a short word may leave some candidates out.
        let scalars = Array(word.unicodeScalars)
        var prefix = String.UnicodeScalarView(), suffix = String.UnicodeScalarView()
        prefix.append(contentsOf: scalars[..<prefixLength])
        suffix.append(contentsOf: scalars[(n - suffixLength)...].reversed())
        var found: [String: Int] = [:]
        for (sql, key) in [(TextIndexSQL.wordsByPrefix, String(prefix)), (TextIndexSQL.wordsBySuffix, String(suffix))] {
            let statement = try db.cachedStatement(sql)
            try statement.bind(.text(key), at: 1)
            try statement.bind(.integer(Int64(n - k)), at: 2)
            try statement.bind(.integer(Int64(n + k)), at: 3)
            defer { statement.reset() }
            while let row = try statement.step() {
                guard let w = row.optionalString(0), w != word, found[w] == nil else { continue }
                if let d = EditDistance.within(word, w, limit: k) { found[w] = d }
            }
        }
        guard !found.isEmpty else { return [] }
        var ranked: [(word: String, distance: Int, count: Int64)] = []
        for (w, d) in found { ranked.append((w, d, try documentCount(w))) }
        ranked.sort { a, b in
            a.distance != b.distance
                ? a.distance < b.distance : a.count != b.count ? a.count > b.count : a.word < b.word
        }
        let best = ranked[0].distance
        return ranked.filter { $0.distance == best && $0.count > 0 }.prefix(limit).map(\.word)
    }

    /// How many live places hold `word` (in their text: the count BM25
    /// uses, kept between queries).
    private func documentCount(_ word: String) throws -> Int64 {
        try phraseCount(TextMatchExpression.quoted(word))
    }

    /// An SQLite failure of the text index, as one line.
    package func textIndexError(_ e: SQLiteError) -> PlaceDBError {
        if e.message.contains("no such module: fts5") {
            return TextIndex.noFTS5(path: path)
        }
        return PlaceDBError.database(path: path, reason: "text index: \(e.message)")
    }
}

extension PlaceStore {
    /// The stored word lists beside the database (`placedb info`): their
    /// path, state and why they are not read; nil without a file.
    package func wordListsState() throws -> (path: String, state: String, reason: String?)? {
        let file = WordLists.path(for: path)
        switch WordLists.open(file) {
        case .failure(.missing): return nil
        case .failure(.otherFormat): return (file, "stale", "written by another placedb")
        case .failure(.damaged(let why)): return (file, "damaged", why)
        case .success(let lists):
            guard try lists.holds(for: db) else { return (file, "stale", "the text index changed since") }
            // Current for matching; their rank inputs may not be (`RankInputs`).
            return lists.ranksHold(try rankMarker())
                ? (file, "current", nil) : (file, "current", "its rank inputs are stale: a place changed since")
        }
    }

    /// How many text matches this store answered from the stored word lists.
    package var textMatchesFromWordLists: Int { textStatistics.answeredFromWordLists }

    /// How many matches this store gave unread (their rank inputs from the
    /// word lists).
    package var textMatchesUnread: Int { textStatistics.unreadMatches }

    /// How many matched rows this store read one by one (`matchedCandidate`).
    package var matchedRowsRead: Int { textStatistics.matchedRowsRead }

    /// Whether the database has the text index.
    package func hasTextIndex() throws -> Bool {
        try TextIndex.exists(db)
    }

    /// Throws `noTextIndex` when the database has no text index (search
    /// and autocomplete call it first, so a missing index is never an
    /// SQLite error).
    package func requireTextIndex() throws {
        if try !hasTextIndex() { throw PlaceDBError.noTextIndex(path: path) }
    }

    /// Builds the text index in one write transaction; false when it was there.
    package func buildTextIndex() throws -> Bool {
        try write { try TextIndex.create(db) }
    }

    /// Writes the stored word lists of the text index beside the database
    /// (`WordLists`), from one read transaction; nil when there is no text index.
    package func writeWordLists() throws -> WordLists.Summary? {
        try read {
            guard try TextIndex.exists(db) else { return nil }
            do {
                return try WordLists.build(db, to: WordLists.path(for: path), marker: rankMarker())
            } catch let e as SQLiteError {
                throw textIndexError(e)
            } catch let e as WordListsBuildError {
                throw PlaceDBError.database(path: path, reason: e.description)
            }
        }
    }

    /// Drops the text index in one write transaction: how many places it held,
    /// nil when there was none.
    package func dropTextIndex() throws -> Int? {
        let dropped = try write { try TextIndex.exists(db) ? try TextIndex.drop(db) : nil }
        // The word lists are made of the index: gone with it.
        let lists = WordLists.path(for: path)
        unlink(lists)
        unlink(CheckedRecord.path(lists))
        return dropped
    }
}
