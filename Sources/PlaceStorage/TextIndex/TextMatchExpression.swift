import Foundation
package import PlaceModel

/// Builds FTS5 query expressions from folded words. Every word is a quoted
/// string, so nothing a user types (`"`, `*`, `NEAR(`, `AND`, `-`, `:`) is
/// ever read as FTS5 syntax.
package enum TextMatchExpression {
    /// The index's searchable columns (all but `cell`).
    package static let textColumns = "{name other_names address types}"

    /// `"word"`, with any `"` doubled.
    package static func quoted(_ word: String) -> String {
        // Folded words hold no quote: Foundation's search only where one is.
        guard word.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + word + "\"" }
        return "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One term: `"cafe"`, `"caf" *`, `("cafe" OR "cafeteria")` (a prefix
    /// with its expansions) or `("phrmacy" OR "pharmacy")`.
    package static func term(_ t: QueryTerm) -> String {
        if t.prefix, let words = t.expansions, !words.isEmpty {
            return words.count == 1 ? quoted(words[0]) : "(" + words.map(quoted).joined(separator: " OR ") + ")"
        }
        let own = quoted(t.word) + (t.prefix ? " *" : "")
        if t.corrections.isEmpty { return own }
        return "(" + ([own] + t.corrections.map(quoted)).joined(separator: " OR ") + ")"
    }

    /// Whether a phrase of `t` could match a word of the `cell` column
    /// (`f1234x5678`, `k123x567` after `TextGrid.mark`): the word or a
    /// correction is one (`TextIndexSQL.isCellWord`, which also takes the
    /// rare `f1ax2`: the column filter then costs a little, the matches are
    /// the same), or the prefix starts one (the mark alone, or `k12x` after
    /// it). Typed words never start with the mark, so a query asks for the
    /// text columns by name only where a word has it.
    package static func mayMatchCell(_ t: QueryTerm) -> Bool {
        if t.prefix, let words = t.expansions, !words.isEmpty { return words.contains(where: TextIndexSQL.isCellWord) }
        if t.prefix { return isCellPrefix(t.word) }
        return TextIndexSQL.isCellWord(t.word) || t.corrections.contains(where: TextIndexSQL.isCellWord)
    }

    /// A prefix of some grid cell's word: the mark, then
    /// `([fk]([0-9]+(x[0-9]*)?)?)?`.
    static func isCellPrefix(_ w: String) -> Bool {
        let mark = TextGrid.markUTF8
        let all = Array(w.utf8)
        guard all.starts(with: mark) else { return false }
        let b = Array(all.dropFirst(mark.count))
        guard let first = b.first else { return true }
        guard first == UInt8(ascii: "f") || first == UInt8(ascii: "k") else { return false }
        guard b.count > 1 else { return true }
        let x = b.firstIndex(of: UInt8(ascii: "x")) ?? b.count
        guard x >= 2 else { return false }
        return b[1..<x].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            && (x == b.count || b[(x + 1)...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
    }

    /// The phrases of `terms` as `expression` writes them, in order (one
    /// per quoted string: FTS5 numbers them so; BM25 weighs each by how
    /// many places hold it).
    package static func phrases(_ terms: [QueryTerm]) -> [String] {
        terms.flatMap { t -> [String] in
            if t.prefix, let words = t.expansions, !words.isEmpty { return words.map(quoted) }
            return [quoted(t.word) + (t.prefix ? " *" : "")] + t.corrections.map(quoted)
        }
    }

    /// Every term (AND), or any of them (OR), in the text columns; within
    /// the given grid cells when there are any. Nil when there is no term.
    /// The text columns are named only when a term could match a grid-cell
    /// word (`mayMatchCell`): FTS5 reads the columns of every place
    /// holding a word of a column-filtered query (about a tenth of the
    /// query's time for two common words at 1M places); no other word is
    /// in the cell column, so the matches and their BM25 are the same.
    ///
    /// `columnFilter` decides whether the text columns are named (nil: as
    /// above): a query asked without its prefix term (`PlaceStore.textMatches`'
    /// `prefix`) keeps the filter the whole query has. With no term, the
    /// expression is the cells alone (nil without cells).
    package static func expression(
        _ terms: [QueryTerm], any: Bool = false, cells: [String] = [], columnFilter: Bool? = nil
    ) -> String? {
        let within = cells.isEmpty ? nil : "cell : (" + cells.map(quoted).joined(separator: " OR ") + ")"
        guard !terms.isEmpty else { return within }
        let filter = (columnFilter ?? terms.contains(where: mayMatchCell)) ? "\(textColumns) : " : ""
        let text = filter + "(" + terms.map(term).joined(separator: any ? " OR " : " AND ") + ")"
        return within.map { text + " AND " + $0 } ?? text
    }
}
