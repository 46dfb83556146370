import Foundation

/// How a text search result is ranked: four factors, each in 0...1, summed
/// with weights. `--explain` shows each.
package struct TextRanking: Sendable, Equatable {
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

    /// The types of places drawn as many ways, that a search answers once
    /// (`StreetSegments`).
    package static let segmentTypes: Set<String> = ["route", "railway", "waterway"]

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

    public func factors(
        bm25: Double, bestBM25: Double, nameMatch: Double, meters: Double?, scale: Double?,
        ratingCount: Int?, corrected: Bool, rating: Double?? = nil
    ) -> Factors {
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
        return Factors(
            text: text, name: nameMatch, distance: near, popularity: popularity, corrected: corrected, score: score,
            quality: quality)
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
