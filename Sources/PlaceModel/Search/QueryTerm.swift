/// One word of a query as it goes to the index: the word typed, and the
/// vocabulary words it may stand for when it is misspelt.
package struct QueryTerm: Sendable, Equatable {
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
