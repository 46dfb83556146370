import Foundation

/// Text as the search index sees it: folded (lower case, diacritics
/// removed) and cut into words the way SQLite's `unicode61` tokenizer with
/// `remove_diacritics 2` cuts it (letters, digits and private-use
/// characters make words; everything else separates them). Pure: no SQL.
public enum TextFolding {
    /// `"Café du Lac"` -> `"cafe du lac"` (words joined by one space).
    public static func fold(_ text: String) -> String {
        words(text).joined(separator: " ")
    }

    /// The folded words of `text`: `"Müller's Café"` -> `["muller", "s", "cafe"]`.
    public static func words(_ text: String) -> [String] {
        if let ascii = asciiWords(text) { return ascii }
        return unicodeWords(text)
    }

    /// `words` by Unicode properties (any text).
    static func unicodeWords(_ text: String) -> [String] {
        var out: [String] = []
        var word = String.UnicodeScalarView()
        func flush() {
            if !word.isEmpty { out.append(String(word)); word.removeAll() }
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            // ASCII and Latin letters without looking up their category.
            if v < 0x80 {
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) {
                    word.append(scalar)
                } else if v >= 0x41 && v <= 0x5A {
                    word.append(Unicode.Scalar(UInt8(v + 32)))
                } else {
                    flush()
                }
                continue
            }
            if isLatinLetter(v) {
                word.append(contentsOf: folded(scalar).unicodeScalars)
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                // A diacritic written apart from its letter: dropped.
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                word.append(contentsOf: folded(scalar).unicodeScalars)
            default:
                flush()
            }
        }
        flush()
        return out
    }

    /// One letter as `unicode61 remove_diacritics 2` folds it: lower case;
    /// a Latin letter with diacritics as its base letter ("é", "ő", "ș",
    /// "Ẳ"); letters of other scripts keep theirs ("й", "ё", "ά" are not
    /// "и", "е", "α" in SQLite's index), as do letters that do not
    /// decompose ("ł", "ø", "đ", "æ", "ß").
    static func folded(_ scalar: Unicode.Scalar) -> String {
        let v = scalar.value
        if v >= 0xC0 && v < 0x250 { return latinFolds[Int(v - 0xC0)] }
        if v >= 0x1E00 && v < 0x1F00 { return latinFolds[Int(v - 0x1E00) + 0x190] }
        return scalar.properties.lowercaseMapping
    }

    /// U+00C0..<U+0250 but × and ÷, and U+1E00..<U+1F00: letters all
    /// (tested), which `latinFolds` and `latinLiterals` hold.
    static func isLatinLetter(_ v: UInt32) -> Bool {
        (v >= 0xC0 && v < 0x250 && v != 0xD7 && v != 0xF7) || (v >= 0x1E00 && v < 0x1F00)
    }

    /// `decomposedFold` of U+00C0..<U+0250 then U+1E00..<U+1F00, computed
    /// once: a search folds every candidate's name, and Foundation's
    /// decomposition costs more than the rest of the folding.
    static let latinFolds: [String] = (Array(0xC0..<0x250) + Array(0x1E00..<0x1F00)).map { (v: UInt32) in
        decomposedFold(Unicode.Scalar(v)!)
    }

    /// `folded` through Foundation's canonical decomposition (the reference
    /// `latinFolds` is computed from; tested equal).
    static func decomposedFold(_ scalar: Unicode.Scalar) -> String {
        let v = scalar.value
        if (0xC0..<0x250).contains(v) || (0x1E00..<0x1F00).contains(v) {
            let parts = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars
            if let base = parts.first, base.isASCII, parts.dropFirst().allSatisfy({
                [.nonspacingMark, .enclosingMark, .spacingMark].contains($0.properties.generalCategory)
            }) {
                return base.properties.lowercaseMapping
            }
        }
        return scalar.properties.lowercaseMapping
    }

    /// `words` of ASCII text without Foundation's normalization (most
    /// names; a search folds every candidate's names): letters and digits
    /// make words, lower-cased; nil when the text is not all ASCII.
    static func asciiWords(_ text: String) -> [String]? {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
            var out: [String] = []
            var start = -1
            var upper = false
            for (i, b) in bytes.enumerated() {
                if b >= 0x80 { return nil }
                let lower = (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                let capital = b >= 0x41 && b <= 0x5A
                if lower || capital {
                    if start < 0 { start = i; upper = false }
                    if capital { upper = true }
                } else if start >= 0 {
                    out.append(word(bytes[start..<i], upper))
                    start = -1
                }
            }
            if start >= 0 { out.append(word(bytes[start...], upper)) }
            return out
        } ?? nil
    }

    private static func word(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ upper: Bool) -> String {
        guard upper else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The text lower-cased without diacritics, its punctuation kept and
    /// its white space collapsed: `"Font d' Aigua"` -> `"font d' aigua"`.
    /// Two names with the same words but other punctuation differ here.
    public static func literal(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: lower-cased, white space collapsed, no normalization.
            var out: [UInt8] = []
            out.reserveCapacity(text.utf8.count)
            var space = false
            for b in text.utf8 {
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    space = !out.isEmpty
                    continue
                }
                if space { out.append(0x20); space = false }
                out.append(b >= 0x41 && b <= 0x5A ? b + 32 : b)
            }
            return String(decoding: out, as: UTF8.self)
        }
        return latinLiteral(text) ?? decomposedLiteral(text)
    }

    /// `literal` of text of ASCII, Latin letters (`isLatinLetter`) and
    /// combining diacritics (U+0300..<U+0370) without Foundation's
    /// normalization (a search compares every candidate's name so), each
    /// letter from `latinLiterals`; nil for other text.
    static func latinLiteral(_ text: String) -> String? {
        var out = String.UnicodeScalarView()
        var space = false
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                if v == 0x20 || (v >= 0x09 && v <= 0x0D) {
                    space = !out.isEmpty
                    continue
                }
                if space { out.append(" "); space = false }
                out.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(UInt8(v + 32)) : scalar)
            } else if v >= 0x300 && v < 0x370 {
                continue
            } else if isLatinLetter(v) {
                let letter = latinLiterals[Int(v >= 0x1E00 ? v - 0x1E00 + 0x190 : v - 0xC0)]
                if letter.isEmpty { continue }
                if space { out.append(" "); space = false }
                out.append(contentsOf: letter.unicodeScalars)
            } else {
                return nil
            }
        }
        return String(out)
    }

    /// `decomposedLiteral` of each Latin letter (`isLatinLetter`; the others
    /// of U+00C0..<U+0250 as they are), computed once.
    static let latinLiterals: [String] = (Array(0xC0..<0x250) + Array(0x1E00..<0x1F00)).map { (v: UInt32) in
        decomposedLiteral(String(Character(Unicode.Scalar(v)!)))
    }

    /// `literal` through Foundation's canonical decomposition (any text;
    /// the reference the fast paths are tested against).
    static func decomposedLiteral(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var space = false
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            if scalar.properties.isWhitespace {
                space = !out.isEmpty
                continue
            }
            if space { out.append(" "); space = false }
            out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return String(out)
    }

    /// `text` with its white space collapsed: its words (split at white
    /// space) joined by one space. Text of printable ASCII and Latin letters
    /// with single spaces between words is returned as it is, without
    /// splitting it.
    public static func collapsed(_ text: String) -> String {
        var space = true
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v == 0x20 {
                if space { return split(text) }
                space = true
            } else if (v > 0x20 && v < 0x7F) || isLatinLetter(v) {
                space = false
            } else {
                return split(text)
            }
        }
        return space && !text.isEmpty ? split(text) : text
    }

    private static func split(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A word's characters in reverse order (for the suffix half of the
    /// typo lookup: `place_word.reversed`).
    public static func reversed(_ word: String) -> String {
        var v = String.UnicodeScalarView()
        v.append(contentsOf: word.unicodeScalars.reversed())
        return String(v)
    }
}

/// Edit distance between words, for typo correction over the index's
/// vocabulary.
public enum EditDistance {
    /// The optimal-string-alignment distance (insertions, deletions,
    /// substitutions and transpositions of neighbours each cost 1) between
    /// `a` and `b`, or nil when it exceeds `limit`. Works on Unicode scalars.
    public static func within(_ a: String, _ b: String, limit: Int) -> Int? {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        if abs(x.count - y.count) > limit { return nil }
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) <= limit ? max(x.count, y.count) : nil }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowMin = current[0]
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] {
                    d = min(d, previous2[j - 2] + 1)
                }
                current[j] = d
                rowMin = min(rowMin, d)
            }
            if rowMin > limit { return nil }
            (previous2, previous, current) = (previous, current, previous2)
        }
        let d = previous[y.count]
        return d <= limit ? d : nil
    }

    /// How many edits a typed word of this length may carry: none for one
    /// character, 1 up to 7, 2 beyond.
    public static func allowance(forLength n: Int) -> Int {
        n < 2 ? 0 : n < 8 ? 1 : 2
    }
}

/// One word of a query as it goes to the index: the word typed, and the
/// vocabulary words it may stand for when it is misspelt.
public struct QueryTerm: Sendable, Equatable {
    public var word: String
    /// Match every word that starts with `word` (the last word of an
    /// autocomplete input, still being typed).
    public var prefix: Bool
    /// Vocabulary words within the typo allowance (empty: matched as typed).
    public var corrections: [String]
    /// For a prefix: the vocabulary's words that start with it, when they
    /// are few (nil: not looked up, or too many). The index is then asked
    /// for these words instead of `"word" *`, which makes FTS5 merge the
    /// postings of every word with that prefix in the whole index (grid
    /// cell words included) before the grid cells can restrict anything.
    public var expansions: [String]?

    public init(word: String, prefix: Bool = false, corrections: [String] = [], expansions: [String]? = nil) {
        self.word = word
        self.prefix = prefix
        self.corrections = corrections
        self.expansions = expansions
    }
}

/// Builds FTS5 query expressions from folded words. Every word is a quoted
/// string, so nothing a user types (`"`, `*`, `NEAR(`, `AND`, `-`, `:`) is
/// ever read as FTS5 syntax.
public enum TextMatchExpression {
    /// The index's searchable columns (all but `cell`).
    public static let textColumns = "{name other_names address types}"

    /// `"word"`, with any `"` doubled.
    public static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One term: `"cafe"`, `"caf" *`, `("cafe" OR "cafeteria")` (a prefix
    /// with its expansions) or `("phrmacy" OR "pharmacy")`.
    public static func term(_ t: QueryTerm) -> String {
        if t.prefix, let words = t.expansions, !words.isEmpty {
            return words.count == 1 ? quoted(words[0]) : "(" + words.map(quoted).joined(separator: " OR ") + ")"
        }
        let own = quoted(t.word) + (t.prefix ? " *" : "")
        if t.corrections.isEmpty { return own }
        return "(" + ([own] + t.corrections.map(quoted)).joined(separator: " OR ") + ")"
    }

    /// Whether a phrase of `t` could match a word of the `cell` column
    /// (`f1234x5678`, `k123x567`): the word or a correction is one, or
    /// the prefix starts one (`f`, `k12x`).
    public static func mayMatchCell(_ t: QueryTerm) -> Bool {
        if t.prefix, let words = t.expansions, !words.isEmpty { return words.contains(where: isCellWord) }
        if t.prefix { return isCellPrefix(t.word) }
        return isCellWord(t.word) || t.corrections.contains(where: isCellWord)
    }

    /// `[fk][0-9]+x[0-9]+`.
    static func isCellWord(_ w: String) -> Bool {
        let b = Array(w.utf8)
        guard b.count >= 4, b[0] == UInt8(ascii: "f") || b[0] == UInt8(ascii: "k"),
              let x = b.firstIndex(of: UInt8(ascii: "x")), x >= 2, x < b.count - 1 else { return false }
        return b[1..<x].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && b[(x + 1)...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A prefix of some `isCellWord` word: `[fk]([0-9]+(x[0-9]*)?)?`.
    static func isCellPrefix(_ w: String) -> Bool {
        let b = Array(w.utf8)
        guard let first = b.first, first == UInt8(ascii: "f") || first == UInt8(ascii: "k") else { return false }
        guard b.count > 1 else { return true }
        let x = b.firstIndex(of: UInt8(ascii: "x")) ?? b.count
        guard x >= 2 else { return false }
        return b[1..<x].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (x == b.count || b[(x + 1)...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 })
    }

    /// The phrases of `terms` as `expression` writes them, in order (one
    /// per quoted string: FTS5 numbers them so; BM25 weighs each by how
    /// many places hold it).
    public static func phrases(_ terms: [QueryTerm]) -> [String] {
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
    public static func expression(_ terms: [QueryTerm], any: Bool = false, cells: [String] = []) -> String? {
        guard !terms.isEmpty else { return nil }
        let filter = terms.contains(where: mayMatchCell) ? "\(textColumns) : " : ""
        let text = filter + "(" + terms.map(term).joined(separator: any ? " OR " : " AND ") + ")"
        if cells.isEmpty { return text }
        return text + " AND cell : (" + cells.map(quoted).joined(separator: " OR ") + ")"
    }
}

/// The grid the index files each place under, so that a search near a
/// point reads only the places around it first: cells of 0.01 degree
/// (`f` words, about 1.1 km north-south) and 0.1 degree (`k` words, about
/// 11 km). The writer stores the fine cell in `place.text_cell`
/// (`key`); migration 9 computes the same numbers in SQL:
/// `CAST((latitude + 90) * 100 AS INTEGER)`.
public enum TextGrid {
    public enum Level: Sendable, CaseIterable {
        case fine, coarse
        var perDegree: Double { self == .fine ? 100 : 10 }
        var letter: String { self == .fine ? "f" : "k" }
        /// The least distance from a point to the edge of its 3x3 block
        /// of cells, in meters, at this latitude.
        public func reach(atLatitude lat: Double) -> Double {
            let degree = Earth.meanRadius * Double.pi / 180
            return min(degree, degree * cos(min(abs(lat) + 1 / perDegree, 90) * Double.pi / 180)) / perDegree
        }
    }

    /// The fine cell's row and column of `c`; a coarse cell is ten of them
    /// (`row / 10`, `column / 10`), so the two levels always nest.
    static func fine(_ c: Coordinate) -> (row: Int, column: Int) {
        (Int((c.latitude + 90) * 100), Int((c.longitude + 180) * 100))
    }

    /// What `place.text_cell` holds for a place at `c`: `row * 100000 + column`
    /// of its fine cell (`TextIndexSQL` turns it into the cell words).
    public static func key(_ c: Coordinate) -> Int64 {
        let f = fine(c)
        return Int64(f.row) * 100_000 + Int64(f.column)
    }

    /// The word of the cell holding `c`.
    public static func cell(_ c: Coordinate, _ level: Level) -> String {
        let f = fine(c), d = level == .fine ? 1 : 10
        return "\(level.letter)\(f.row / d)x\(f.column / d)"
    }

    /// The words of the 3x3 block of cells around `c` (fewer at the poles;
    /// wrapping at the antimeridian).
    public static func block(_ c: Coordinate, _ level: Level) -> [String] {
        blockCells(c, level).map { "\(level.letter)\($0.row)x\($0.column)" }
    }

    /// The rows and columns (at `level`) of the cells `block` names.
    public static func blockCells(_ c: Coordinate, _ level: Level) -> [(row: Int, column: Int)] {
        let f = fine(c), d = level == .fine ? 1 : 10
        let y = f.row / d, x = f.column / d
        let columns = 36_000 / d, rows = 18_000 / d
        var out: [(row: Int, column: Int)] = []
        for dy in -1...1 where y + dy >= 0 && y + dy <= rows {
            for dx in -1...1 {
                out.append((y + dy, ((x + dx) % columns + columns) % columns))
            }
        }
        return out
    }

    /// Whether a place whose `place.text_cell` is `key` holds one of the
    /// cell words of `cells` (`blockCells` at `level`): its cell words
    /// are `key`'s row and column, divided by 10 at the coarse level.
    public static func contains(_ cells: [(row: Int, column: Int)], _ level: Level, key: Int64) -> Bool {
        guard key >= 0 else { return false }
        let d = level == .fine ? 1 : 10
        let row = Int(key / 100_000) / d, column = Int(key % 100_000) / d
        return cells.contains { $0.row == row && $0.column == column }
    }
}

/// How a text search result is ranked: four factors, each in 0...1, summed
/// with weights. `--explain` shows each.
public struct TextRanking: Sendable, Equatable {
    /// BM25 of the match (name words weigh most), as a share of the best
    /// BM25 among the candidates.
    public var textWeight = 0.3
    /// The place's name (or another of its names) is the query as typed
    /// (1), in other case or diacritics (0.95), word for word with other
    /// punctuation (0.9), or starts with it as typed so far (0.5,
    /// autocomplete).
    public var nameWeight = 1.0
    /// Closeness to the bias point: `1 / (1 + d / scale)`.
    public var distanceWeight = 1.0
    /// The distance at which closeness is one half, in meters, when the
    /// request names no bias radius.
    public var distanceScale = 1000.0
    /// Popularity: `log(1 + userRatingCount) / log(1 + 10000)`, at most 1.
    public var popularityWeight = 0.25
    /// Subtracted from a match that needed a typo correction.
    public var correctionPenalty = 0.3
    /// Quality, for a query that lists places of a type in a town ("pizza
    /// in New York", `QueryUnderstanding`): `(rating - 3) / 2` within 0...1.
    public var qualityWeight = 0.5

    public init() {}

    public struct Factors: Sendable, Equatable {
        public var text: Double
        public var name: Double
        public var distance: Double?
        public var popularity: Double
        public var corrected: Bool
        public var score: Double
        /// The rating's share (a listing of a type in a town only).
        public var quality: Double? = nil
    }

    public func factors(bm25: Double, bestBM25: Double, nameMatch: Double, meters: Double?, scale: Double?,
                        ratingCount: Int?, corrected: Bool, rating: Double?? = nil) -> Factors {
        // FTS5's bm25() is negative: more negative is better.
        let text = bestBM25 < 0 ? min(1, max(0, bm25 / bestBM25)) : 1
        let near = meters.map { 1 / (1 + $0 / (scale ?? distanceScale)) }
        let popularity = min(1, log1p(Double(max(0, ratingCount ?? 0))) / log1p(10_000))
        var score = textWeight * text + nameWeight * nameMatch + popularityWeight * popularity
        if let near { score += distanceWeight * near }
        if corrected { score -= correctionPenalty }
        var quality: Double?
        if let rating {
            let q = min(1, max(0, ((rating ?? 3) - 3) / 2))
            quality = q
            score += qualityWeight * q
        }
        return Factors(text: text, name: nameMatch, distance: near, popularity: popularity, corrected: corrected, score: score, quality: quality)
    }

    /// 1 when some name's words are the query's, word for word; 0.5 when a
    /// name starts with them and the last query word is a prefix being
    /// typed (autocomplete); else 0. Each query position may hold several
    /// words (the typed one and its corrections).
    public static func nameMatch(query: [[String]], lastIsPrefix: Bool, names: [[String]]) -> Double {
        guard !query.isEmpty else { return 0 }
        var best = 0.0
        let last = query.count - 1
        for name in names where name.count >= query.count {
            var whole = name.count == query.count, starts = true
            for (i, alternatives) in query.enumerated() {
                let w = name[i]
                if alternatives.contains(w) { continue }
                whole = false
                if i == last && lastIsPrefix && alternatives.contains(where: { w.hasPrefix($0) }) { continue }
                starts = false
                break
            }
            if starts && whole { return 1 }
            if starts && lastIsPrefix { best = 0.5 }
        }
        return best
    }

    public static func nameMatch(query: [String], lastIsPrefix: Bool, names: [[String]]) -> Double {
        nameMatch(query: query.map { [$0] }, lastIsPrefix: lastIsPrefix, names: names)
    }
}
