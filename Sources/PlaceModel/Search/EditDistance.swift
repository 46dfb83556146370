/// Edit distance between words, for typo correction over the index's
/// vocabulary.
package enum EditDistance {
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
