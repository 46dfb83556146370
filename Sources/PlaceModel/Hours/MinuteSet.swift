import Foundation

/// A set of minutes as sorted, disjoint, non-touching ranges.
package struct MinuteSet: Equatable {
    package private(set) var ranges: [(start: Int, end: Int)] = []

    package init() {}

    /// The ranges clipped to lower..<upper.
    package init(_ input: [(start: Int, end: Int)], within lower: Int, _ upper: Int) {
        self.init(normalizing: input.map { (max($0.start, lower), min($0.end, upper)) })
    }

    package init(normalizing input: [(start: Int, end: Int)]) {
        for r in input.filter({ $0.end > $0.start }).sorted(by: { $0.start < $1.start }) {
            if let last = ranges.last, r.start <= last.end {
                ranges[ranges.count - 1].end = max(last.end, r.end)
            } else {
                ranges.append(r)
            }
        }
    }

    package func shifted(_ by: Int) -> MinuteSet { MinuteSet(normalizing: ranges.map { ($0.start + by, $0.end + by) }) }
    package func union(_ other: MinuteSet) -> MinuteSet { MinuteSet(normalizing: ranges + other.ranges) }

    package func intersection(_ other: MinuteSet) -> MinuteSet {
        var out: [(start: Int, end: Int)] = []
        for a in ranges {
            for b in other.ranges {
                let s = max(a.start, b.start), e = min(a.end, b.end); if e > s { out.append((s, e)) }
            }
        }
        return MinuteSet(normalizing: out)
    }

    package func subtracting(_ other: MinuteSet) -> MinuteSet {
        var out: [(start: Int, end: Int)] = []
        for a in ranges {
            var pieces = [(a.start, a.end)]
            for b in other.ranges {
                pieces = pieces.flatMap { p -> [(Int, Int)] in
                    guard b.end > p.0 && b.start < p.1 else { return [p] }
                    return [(p.0, b.start), (b.end, p.1)].filter { $0.1 > $0.0 }
                }
            }
            out += pieces.map { (start: $0.0, end: $0.1) }
        }
        return MinuteSet(normalizing: out)
    }

    func symmetricDifference(_ other: MinuteSet) -> MinuteSet { subtracting(other).union(other.subtracting(self)) }

    package static func == (a: MinuteSet, b: MinuteSet) -> Bool { a.ranges.elementsEqual(b.ranges) { $0 == $1 } }
}
