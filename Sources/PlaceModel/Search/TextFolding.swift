import Foundation

/// Text as the search index sees it: folded (lower case, diacritics
/// removed) and cut into words the way SQLite's `unicode61` tokenizer with
/// `remove_diacritics 2` cuts it (letters, digits and private-use
/// characters make words; everything else separates them). Pure: no SQL.
package enum TextFolding {
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
            if let base = parts.first, base.isASCII,
                parts.dropFirst().allSatisfy({
                    [.nonspacingMark, .enclosingMark, .spacingMark].contains($0.properties.generalCategory)
                })
            {
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
