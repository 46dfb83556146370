import Foundation

/// Open intervals and the spans the hours decide, in Unix seconds, over
/// some days around a time.
struct Timeline {
    package private(set) var open: [(start: Int64, end: Int64)] = []
    package private(set) var known: [(start: Int64, end: Int64)] = []
    package let days: Int
    private let rangeEnd: Int64
    let neverOpens: Bool

    init(_ s: HoursEvaluator.Schedule, clock: PlaceClock, around t: Int64, days: Int) {
        self.days = days
        let today = clock.local(atUnix: t).date
        // Start far enough back for periods up to a week long to reach t.
        let first = today.adding(days: -8), last = today.adding(days: days)
        let rangeStart = clock.unix(at: LocalDateTime(date: first, secondOfDay: 0))
        rangeEnd = clock.unix(at: LocalDateTime(date: last.adding(days: 1), secondOfDay: 0))
        var window: (start: Int64, end: Int64)?
        if let c = s.current {
            window = (
                clock.unix(at: LocalDateTime(date: c.first, secondOfDay: 0)),
                clock.unix(at: LocalDateTime(date: c.last.adding(days: 1), secondOfDay: 0))
            )
        }
        var intervals: [(Int64, Int64)] = []
        if let base = s.base {
            known.append((rangeStart, rangeEnd))
            var d = first
            var undecided: [(Int64, Int64)] = []
            while d <= last {
                let day = base.day(d)
                for (list, isOpen) in [(day.open, true), (day.unknown, false)] {
                    for r in list {
                        let a = clock.unix(at: LocalDateTime(date: d, secondOfDay: r.start * 60))
                        let b = clock.unix(at: LocalDateTime(date: d, secondOfDay: r.end * 60))
                        guard b > a else { continue }
                        // Regular hours give way to current hours inside their dates.
                        var pieces: [(Int64, Int64)] = [(a, b)]
                        if let w = window {
                            pieces = [(a, min(b, w.start)), (max(a, w.end), b)].filter { $0.1 > $0.0 }
                        }
                        if isOpen { intervals += pieces } else { undecided += pieces }
                    }
                }
                d = d.adding(days: 1)
            }
            for u in undecided { known = Timeline.subtract(u, from: known) }
        }
        if let c = s.current, let w = window {
            if s.base == nil { known.append(w) }
            for r in c.ranges {
                let a = max(clock.unix(at: r.from), w.start), b = min(clock.unix(at: r.to), w.end)
                if b > a { intervals.append((a, b)) }
            }
        }
        let end = rangeEnd
        intervals = intervals.map { (max($0.0, rangeStart), min($0.1, end)) }.filter { $0.1 > $0.0 }
        intervals.sort { $0.0 < $1.0 }
        for iv in intervals {
            if let last = open.last, iv.0 <= last.end {
                open[open.count - 1].end = max(last.end, iv.1)
            } else {
                open.append((iv.0, iv.1))
            }
        }
        known.sort { $0.start < $1.start }
        neverOpens = open.isEmpty
    }

    package static func subtract(_ hole: (Int64, Int64), from spans: [(start: Int64, end: Int64)]) -> [(
        start: Int64, end: Int64
    )] {
        spans.flatMap { s -> [(start: Int64, end: Int64)] in
            guard hole.1 > s.start && hole.0 < s.end else { return [s] }
            return [(s.start, hole.0), (hole.1, s.end)].filter { $0.1 > $0.0 }.map { (start: $0.0, end: $0.1) }
        }
    }

    func isKnown(_ t: Int64) -> Bool { known.contains { $0.start <= t && t < $0.end } }
    package func isOpen(_ t: Int64) -> Bool { open.contains { $0.start <= t && t < $0.end } }

    /// The end of the open interval holding `t`, when the hours decide it
    /// (not the edge of what they cover).
    package func end(ofOpenAt t: Int64) -> Int64? {
        guard let iv = open.first(where: { $0.start <= t && t < $0.end }) else { return nil }
        return isKnown(iv.end) && iv.end < rangeEnd ? iv.end : nil
    }

    /// The start of the open interval holding `t`, when it starts in the
    /// span the hours decide.
    package func start(ofOpenAt t: Int64) -> Int64? {
        guard let iv = open.first(where: { $0.start <= t && t < $0.end }) else { return nil }
        return known.contains(where: { $0.start < iv.start && iv.start < $0.end }) ? iv.start : nil
    }

    /// The next opening after `t`, when every moment between is decided.
    func nextOpen(after t: Int64) -> (start: Int64, end: Int64?)? {
        guard let iv = open.first(where: { $0.start > t }) else { return nil }
        guard let span = known.first(where: { $0.start <= t && t < $0.end }), iv.start < span.end else { return nil }
        let end: Int64? = isKnown(iv.end) && iv.end < rangeEnd ? iv.end : nil
        return (iv.start, end)
    }

    /// Open over the whole range looked at (always open).
    var isOpenThroughout: Bool {
        open.count == 1 && known.count == 1 && open[0].start <= known[0].start && open[0].end >= known[0].end
    }

    /// The hours decide everything up to the end of the range.
    var knownUntilEnd: Bool { known.last.map { $0.end >= rangeEnd } ?? false }
}
