import PlaceModel
import PlaceStorage

/// Autocomplete's last word, a prefix with too many words in the
/// vocabulary to be asked as those words (`QueryTerm.expansions`) and
/// longer than the index's own prefix lists (`TextIndexSQL.prefixLengths`:
/// one letter), looked for in the rows the other words match instead of
/// by FTS5's prefix query. That query merges the postings of every word
/// with the prefix in the whole index before the other words can skip to a
/// row (30 to 50 ms for one common letter at 1M places, before the index
/// had its lists), where the other words ("grill ha") or the grid cells
/// around the focus often match a few dozen rows: those rows are asked
/// without the prefix and their text read for a word that starts with it
/// (`PlaceStore.textMatches`' `prefix`), which gives the same places with
/// the same BM25.
struct PrefixSplit {
    /// The terms before the prefix (possibly none).
    var others: [QueryTerm]
    /// The prefix, folded.
    var prefix: String
    /// How many places hold a word with the prefix.
    var prefixRows: Int64
    /// How many places the other terms match at most (the fewest of any
    /// one of them; nil: no other term).
    var othersRows: Int64?
    /// Whether the whole query names the text columns
    /// (`TextMatchExpression.mayMatchCell`): the split one keeps that.
    var columnFilter: Bool
    /// Whether the prefix may start a grid-cell word (`f`, `k1`).
    var prefixMayMatchCell: Bool
    /// The places (an upper bound: `PlaceStore.placeRowBound`).
    var places: Int64

    /// Whether reading the rows the other terms match within `cells`
    /// (none: anywhere) likely costs less than the prefix query. A row read
    /// (its text joined and tokenized) costs about as much as `cost`
    /// postings merged; the prefix query merges the postings of the
    /// places holding the prefix, and of every place when the prefix may
    /// start a grid-cell word (`f`, `k1`: each place has one of each
    /// level). The rows read are at most those of the rarest other term
    /// and those in the cells, and likely about as many as if the two were
    /// independent (four times that, for words that gather in places).
    func cheaper(within cells: [String], store: PlaceStore, cost: Double) throws -> Bool {
        guard cost.isFinite else { return false }
        var rows = othersRows.map(Double.init)
        if !cells.isEmpty {
            let inCells = Double(try store.cellCount(cells))
            if let others = rows {
                rows = min(others, inCells, 4 * others * inCells / Double(max(places, 1)))
            } else {
                rows = inCells
            }
        }
        guard let rows else { return false }
        return rows * cost <= Double(prefixRows) + (prefixMayMatchCell ? Double(places) : 0)
    }
}

extension PlaceReader {
    /// The split of `terms` when its last is a prefix asked by FTS5's
    /// prefix query (no expansions: too many) and every term must match;
    /// nil otherwise. Only a prefix of ASCII letters and digits, which the
    /// index's tokenizer reads as that one word, as `"prefix" *` does.
    func prefixSplit(_ terms: [QueryTerm], any: Bool) throws -> PrefixSplit? {
        guard !any, prefixRowCost.isFinite, let last = terms.last, last.prefix, last.expansions == nil,
            last.corrections.isEmpty, !last.word.isEmpty, !TextIndexSQL.indexesPrefix(last.word),
            last.word.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) })
        else { return nil }
        let others = Array(terms.dropLast())
        let othersRows = try others.map { t in
            try TextMatchExpression.phrases([t]).reduce(Int64(0)) { try $0 + store.phraseCount($1) }
        }.min()
        return PrefixSplit(
            others: others, prefix: last.word,
            prefixRows: try store.phraseCount(TextMatchExpression.quoted(last.word) + " *"), othersRows: othersRows,
            columnFilter: terms.contains(where: TextMatchExpression.mayMatchCell),
            prefixMayMatchCell: TextMatchExpression.mayMatchCell(last), places: try store.placeRowBound())
    }
}
