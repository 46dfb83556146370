import Foundation

/// Weekly ranges in minutes since Sunday 00:00 -> Places API periods.
enum WeeklyRanges {
    package static func periods(fromWeekMinutes input: [(start: Int, end: Int)]) -> [OpeningPeriod] {
        let week = 7 * 1440
        // Normalize into [0, 2 * week) and merge overlapping or touching ranges.
        var ranges = input.filter { $0.end > $0.start }.map { ($0.start % week, $0.start % week + ($0.end - $0.start)) }
            .sorted { $0.0 < $1.0 }
        if ranges.isEmpty { return [] }
        var merged: [(Int, Int)] = []
        for r in ranges {
            if let last = merged.last, r.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, r.1)
            } else {
                merged.append(r)
            }
        }
        // Fold the part past the week's end onto its start.
        if merged.count > 1, let last = merged.last, last.1 >= week + merged[0].0 {
            merged[0] = (last.0, max(last.1, merged[0].1 + week))
            merged.removeLast()
        }
        ranges = merged
        if ranges.count == 1, ranges[0].1 - ranges[0].0 >= week {
            return [OpeningPeriod(open: HoursPoint(day: 0, hour: 0, minute: 0), close: nil)]
        }
        func point(_ m: Int) -> HoursPoint {
            let w = m % week
            return HoursPoint(day: w / 1440, hour: w % 1440 / 60, minute: w % 60)
        }
        return ranges.sorted { $0.0 % week < $1.0 % week }.map { OpeningPeriod(open: point($0.0), close: point($0.1)) }
    }
}
