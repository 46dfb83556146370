/// Where the words typed match in a suggestion's text: the ranges an app
/// shows in bold (autocomplete's `matches`). Words are cut and folded as the
/// search index cuts and folds them (`TextFolding`: case and Latin
/// diacritics aside, a combining mark part of its letter), so "cafe" is
/// found in "Café" and "CAFÉ", and a range covers the text's own letters,
/// marks included.
package enum TextMatches {
    /// One word of a text: its folded form, where it is, and after which
    /// code point of the text each folded code point ends.
    package struct Word {
        package var folded: [Unicode.Scalar] = []
        package var start = 0
        package var end = 0
        /// For folded code point k, the text offset just after the code point it came from.
        package var ends: [Int] = []
    }

    /// The words of `text` with their offsets (code points).
    package static func words(_ scalars: [Unicode.Scalar]) -> [Word] {
        var out: [Word] = []
        var word: Word?
        func flush() {
            if let w = word, !w.folded.isEmpty { out.append(w) }
            word = nil
        }
        func add(_ folded: some Sequence<Unicode.Scalar>, at i: Int) {
            if word == nil { word = Word(start: i) }
            for s in folded {
                word!.folded.append(s)
                word!.ends.append(i + 1)
            }
            word!.end = i + 1
        }
        for (i, scalar) in scalars.enumerated() {
            let v = scalar.value
            if v < 0x80 {
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) {
                    add(CollectionOfOne(scalar), at: i)
                } else if v >= 0x41 && v <= 0x5A {
                    add(CollectionOfOne(Unicode.Scalar(UInt8(v + 32))), at: i)
                } else {
                    flush()
                }
                continue
            }
            if TextFolding.isLatinLetter(v) {
                add(TextFolding.folded(scalar).unicodeScalars, at: i)
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                // Part of the letter before it: the word reaches over it.
                if word != nil { word!.end = i + 1 }
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                add(TextFolding.folded(scalar).unicodeScalars, at: i)
            default:
                flush()
            }
        }
        flush()
        return out
    }

    /// The ranges of `text` that the query's words match, in increasing
    /// order: each word of `query` (folded, as `TextFolding.words` gives
    /// them) marks the first word of the text it matches that no other
    /// query word marked: the same word, or with `lastIsPrefix` for the
    /// query's last word, a word it starts (only that part is marked, with
    /// the marks of its last letter). With `fuzzy` (a search that corrected
    /// a typo), a word no text word matches marks the first one within its
    /// edit allowance (`EditDistance.allowance`).
    public static func ranges(in text: String, query: [String], lastIsPrefix: Bool, fuzzy: Bool = false) -> [TextRange]
    {
        guard !query.isEmpty else { return [] }
        let scalars = Array(text.unicodeScalars)
        let words = words(scalars)
        var used = [Bool](repeating: false, count: words.count)
        var out: [TextRange] = []
        let last = query.count - 1
        for (qi, q) in query.enumerated() {
            let typed = Array(q.unicodeScalars)
            guard !typed.isEmpty else { continue }
            let prefix = lastIsPrefix && qi == last
            var found: TextRange?
            // The whole word first, then (the last word) a word it starts.
            for (wi, w) in words.enumerated() where !used[wi] && w.folded == typed {
                used[wi] = true
                found = TextRange(start: w.start, end: w.end)
                break
            }
            if found == nil && prefix {
                for (wi, w) in words.enumerated() where !used[wi] && w.folded.starts(with: typed) {
                    used[wi] = true
                    var end = w.ends[typed.count - 1]
                    // The marks of the last letter typed go with it.
                    while end < w.end && isMark(scalars[end]) { end += 1 }
                    found = TextRange(start: w.start, end: end)
                    break
                }
            }
            if found == nil && fuzzy && !prefix {
                let limit = EditDistance.allowance(forLength: typed.count)
                if limit > 0 {
                    for (wi, w) in words.enumerated() where !used[wi] {
                        if EditDistance.within(String(String.UnicodeScalarView(w.folded)), q, limit: limit) != nil {
                            used[wi] = true
                            found = TextRange(start: w.start, end: w.end)
                            break
                        }
                    }
                }
            }
            if let found { out.append(found) }
        }
        return out.sorted { $0.start < $1.start }
    }

    static func isMark(_ s: Unicode.Scalar) -> Bool {
        guard s.value >= 0x300 else { return false }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }

    /// `ranges` of a text made of `main`, then `separator` and `secondary`
    /// when there is a secondary text, split into the ranges of each part
    /// (the secondary's counted from its own start): the
    /// `structuredFormat` of a prediction, consistent with its `text`.
    public static func split(_ ranges: [TextRange], main: String, separator: String)
        -> (main: [TextRange], secondary: [TextRange])
    {
        let mainCount = main.unicodeScalars.count
        let offset = mainCount + separator.unicodeScalars.count
        var m: [TextRange] = [], s: [TextRange] = []
        for r in ranges {
            if r.end <= mainCount {
                m.append(r)
            } else if r.start >= offset {
                s.append(TextRange(start: r.start - offset, end: r.end - offset))
            }
        }
        return (m, s)
    }
}
