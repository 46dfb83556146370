public import Foundation

/// A calendar date at a place, without a time zone (proleptic Gregorian),
/// as in the Places API's `date {year, month, day}`.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Nil when the date does not exist (2026-02-30) or is out of range.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= LocalDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01.
    package init(dayNumber: Int) {
        // Civil-from-days (Howard Hinnant's algorithm).
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before).
    package var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// 0 = Sunday ... 6 = Saturday, as the Places API counts.
    public var weekday: Int {
        let w = (dayNumber + 4) % 7 // 1970-01-01 was a Thursday
        return w < 0 ? w + 7 : w
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// Whole days from `self` to `other`.
    package func days(to other: LocalDate) -> Int { other.dayNumber - dayNumber }

    public var description: String {
        "\(String(year).leftPadded(4))-\(String(month).leftPadded(2))-\(String(day).leftPadded(2))"
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool { a.dayNumber < b.dayNumber }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `{year, month, day}` as the Places API writes a date (google.type.Date).
    package init?(json: JSONValue?) {
        guard let json, let y = json["year"]?.intValue, let m = json["month"]?.intValue, let d = json["day"]?.intValue
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    package var json: JSONValue {
        ["year": .int(Int64(year)), "month": .int(Int64(month)), "day": .int(Int64(day))]
    }

    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}

/// Where a place's time zone came from.
package enum TimeZoneSource: String, Sendable, CaseIterable {
    /// The source's own `timeZone`.
    case data
    /// `placedb import --time-zone ZONE` (the record had neither `timeZone`
    /// nor `utcOffsetMinutes`).
    case importOption = "import-option"
}

extension Date {
    /// RFC 3339 in UTC (`2025-12-07T18:30:00Z`), as the Places API writes times.
    /// Dates before year 1 or after 9999 are written as the nearest end of that range.
    public var rfc3339UTC: String {
        let seconds = timeIntervalSince1970.rounded(.down)
        let range = RFC3339.representable
        let t = seconds.isNaN ? 0 : Int64(min(max(seconds, Double(range.lowerBound)), Double(range.upperBound)))
        return RFC3339.string(fromUnixSeconds: t)!
    }
}
