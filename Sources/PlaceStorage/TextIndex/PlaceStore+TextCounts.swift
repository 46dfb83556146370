import PlaceModel
import SQLiteDB

/// What `PlaceStore.analyzeTextIndex` stored.
package struct TextIndexAnalysis: Sendable, Equatable {
    /// Words held by at least the threshold's places, stored.
    package var words: Int
    /// Prefixes held by at least the threshold's places, stored.
    package var prefixes: Int
    /// Prefixes counted (`count(*)` of `"prefix" *`), of which `prefixes`
    /// reached the threshold.
    package var counted: Int
}

extension PlaceStore {
    /// The least places a phrase must be held by for `analyzeTextIndex`
    /// to store its count: below it, counting it when asked reads a list
    /// of fewer places (about half a millisecond at 5,000).
    package static let defaultCountThreshold: Int64 = 5_000

    /// Counts, in one write transaction, how many places hold each of the
    /// text index's common words and word prefixes, and stores those that
    /// at least `minPlaces` hold in `place_text_count`, with the state of
    /// the index they hold for (`place_text_counted`). Nil when the
    /// database has no text index.
    ///
    /// Words' counts come from one pass over the vocabulary
    /// (`place_text_vocab`'s `doc`, what `count(*)` of the word gives).
    /// A prefix is counted (`count(*)` of `"prefix" *`, the places holding
    /// any word that starts with it) only where the places of its words
    /// together reach `minPlaces`: fewer can't hold it. A prefix whose
    /// words are those of a longer one ("sto", "stor" before only
    /// "store") is counted once.
    package func analyzeTextIndex(minPlaces: Int64 = defaultCountThreshold) throws -> TextIndexAnalysis? {
        try write {
            guard try TextIndex.exists(db) else { return nil }
            // Migration 19 made the tables with the index; made again if
            // someone dropped them by hand.
            try db.execute(TextIndexSQL.countTables)
            try db.execute(TextIndexSQL.clearCounts)
            func store(_ phrase: String, _ places: Int64) throws {
                try db.run(TextIndexSQL.insertCount, [.text(phrase), .integer(places)])
            }
            var analysis = TextIndexAnalysis(words: 0, prefixes: 0, counted: 0)
            // The open prefixes of the words read so far, shortest first:
            // each with the index of its first word and the places of its
            // words summed (an upper bound on the places holding it).
            var open: [(prefix: String.UnicodeScalarView, first: Int, bound: Int64)] = []
            var candidates: [(prefix: String, first: Int, last: Int)] = []
            var previous = String.UnicodeScalarView()
            var index = 0
            func close(downTo length: Int) {
                while open.count > length {
                    let p = open.removeLast()
                    if p.bound >= minPlaces { candidates.append((String(p.prefix), p.first, index - 1)) }
                }
            }
            let mark = TextGrid.mark.unicodeScalars.first!
            let words = try db.cachedStatement(TextIndexSQL.wordCounts)
            defer { words.reset() }
            while let row = try words.step() {
                let term = try row.string(0).unicodeScalars
                let places = try row.int64(1)
                // Grid cells' words are asked with their own counts (`cellCount`).
                if term.first == mark { continue }
                if places >= minPlaces {
                    try store(TextMatchExpression.quoted(String(term)), places)
                    analysis.words += 1
                }
                var common = 0
                for (a, b) in zip(term, previous) {
                    if a != b { break }
                    common += 1
                }
                close(downTo: common)
                var prefix = String.UnicodeScalarView(term.prefix(open.count))
                for s in term.dropFirst(open.count) {
                    prefix.append(s)
                    open.append((prefix, index, 0))
                }
                for i in open.indices { open[i].bound += places }
                previous = term
                index += 1
            }
            close(downTo: 0)
            // Longer prefixes close first: a shorter one with the same words
            // follows the longer one it equals.
            var last: (first: Int, last: Int, places: Int64)?
            for c in candidates {
                let phrase = TextMatchExpression.quoted(c.prefix) + " *"
                let places: Int64
                if let last, last.first == c.first && last.last == c.last {
                    places = last.places
                } else {
                    places = try db.scalar(TextIndexSQL.phraseCount, [.text(phrase)])?.int64 ?? 0
                    analysis.counted += 1
                }
                last = (c.first, c.last, places)
                if places >= minPlaces {
                    try store(phrase, places)
                    analysis.prefixes += 1
                }
            }
            try db.execute(TextIndexSQL.storeCountedState)
            return analysis
        }
    }
}
