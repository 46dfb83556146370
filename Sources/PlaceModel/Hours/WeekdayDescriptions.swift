/// English descriptions of weekly hours in the Places API's style, for hours
/// that came without them: `Monday: 8:00 AM – 5:00 PM`, `Tuesday: 12:00 –
/// 4:00 PM, 7:30 – 11:00 PM`, `Sunday: Closed`, `Monday: Open 24 hours`,
/// Monday first. Like the API, a period is listed on the day it opens, and
/// the first time drops its AM/PM when the second has the same one on the
/// same day (`10:00 AM – 12:00 AM` runs to midnight). The
/// spaces are the API's: U+202F before AM/PM, U+2009 around the dash.
package enum WeekdayDescriptions {
    /// Monday to Sunday, as the API lists them (weekday numbers, 0 = Sunday).
    package static let order = [1, 2, 3, 4, 5, 6, 0]

    public static func generate(_ periods: [OpeningPeriod]) -> [String] {
        if periods.count == 1, periods[0].close == nil {
            return order.map { "\(LocalDate.weekdayNames[$0]): Open 24 hours" }
        }
        var byDay = [[(start: Int, end: Int)]](repeating: [], count: 7)
        for p in periods {
            // Dated periods cut at the start of the seven days are the tail
            // of the day before: the API does not list them.
            if p.open.truncated { continue }
            guard let close = p.close else { continue }
            let length: Int
            if let od = p.open.date, let cd = close.date {
                length = od.days(to: cd) * 1440 + close.minuteOfDay - p.open.minuteOfDay
            } else {
                length = p.weeklyLength ?? 0
            }
            byDay[p.open.day].append((p.open.minuteOfDay, p.open.minuteOfDay + length))
        }
        return order.map { day in
            "\(LocalDate.weekdayNames[day]): " + describe(byDay[day])
        }
    }

    /// One day's ranges (minutes from its midnight; an end may pass midnight).
    package static func describe(_ ranges: [(start: Int, end: Int)]) -> String {
        if ranges.isEmpty { return "Closed" }
        let sorted = ranges.sorted { $0.start < $1.start }
        if sorted.count == 1, sorted[0].start == 0, sorted[0].end >= 1440 { return "Open 24 hours" }
        return sorted.map { r in
            let end = r.end % 1440
            let startPM = r.start % 1440 >= 720, endPM = end >= 720
            // The first AM/PM goes only when both times are in the same half of the same day.
            let start = clock(r.start, meridiem: startPM != endPM || r.end >= 1440)
            return "\(start)\u{2009}–\u{2009}\(clock(end, meridiem: true))"
        }.joined(separator: ", ")
    }

    /// `8:00 AM`, `12:15 PM`, `12:00 AM` (midnight); without AM/PM when asked.
    package static func clock(_ minute: Int, meridiem: Bool) -> String {
        let m = minute % 1440
        let h24 = m / 60
        let h12 = h24 % 12 == 0 ? 12 : h24 % 12
        let text = "\(h12):\(String(m % 60).leftPadded(2))"
        return meridiem ? text + "\u{202F}" + (h24 >= 12 ? "PM" : "AM") : text
    }
}
