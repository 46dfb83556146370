/// Did-you-mean for names a user types: option values, field names, place
/// types. One rule for every message that suggests a name.
package enum Typo {
    /// The name among `names` nearest `name` when near enough to be a typo:
    /// the same name in other case first, else the one of least edit
    /// distance (bytes), within `max(2, length / divisor)` of it.
    package static func closest(_ name: String, among names: some Sequence<String>, divisor: Int = 3) -> String? {
        let a = Array(name.utf8)
        guard a.count <= 64 else { return nil }
        let lower = name.lowercased()
        var best: (String, Int)?
        for candidate in names {
            if candidate.lowercased() == lower && candidate != name { return candidate }
            let d = editDistance(a, Array(candidate.utf8))
            if best == nil || d < best!.1 || (d == best!.1 && candidate < best!.0) { best = (candidate, d) }
        }
        guard let (found, d) = best, d <= Swift.max(2, found.count / divisor) else { return nil }
        return found
    }

    /// Levenshtein distance over bytes.
    package static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = Swift.min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
