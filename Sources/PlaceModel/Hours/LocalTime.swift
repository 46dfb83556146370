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
              day <= LocalDate.daysInMonth(year: year, month: month) else { return nil }
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
        guard let json, let y = json["year"]?.intValue, let m = json["month"]?.intValue, let d = json["day"]?.intValue else { return nil }
        self.init(year: y, month: m, day: d)
    }

    package var json: JSONValue {
        ["year": .int(Int64(year)), "month": .int(Int64(month)), "day": .int(Int64(day))]
    }

    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}

/// A wall-clock time at a place: a date and seconds since its midnight.
public struct LocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public var date: LocalDate
    /// Seconds since local midnight, 0..<86400.
    public var secondOfDay: Int

    public init(date: LocalDate, secondOfDay: Int) {
        self.date = date.adding(days: secondOfDay >= 0 ? secondOfDay / 86_400 : (secondOfDay - 86_399) / 86_400)
        let s = secondOfDay % 86_400
        self.secondOfDay = s < 0 ? s + 86_400 : s
    }

    /// Seconds since 1970-01-01T00:00 of the wall clock (as if it were UTC).
    package var wallSeconds: Int64 { Int64(date.dayNumber) * 86_400 + Int64(secondOfDay) }

    package init(wallSeconds: Int64) {
        let days = wallSeconds >= 0 ? wallSeconds / 86_400 : (wallSeconds - 86_399) / 86_400
        self.init(date: LocalDate(dayNumber: Int(days)), secondOfDay: Int(wallSeconds - days * 86_400))
    }

    public var description: String {
        let h = secondOfDay / 3600, m = secondOfDay / 60 % 60, s = secondOfDay % 60
        return "\(date)T\(String(h).leftPadded(2)):\(String(m).leftPadded(2)):\(String(s).leftPadded(2))"
    }
}

/// The clock a place keeps: an IANA zone (daylight saving included, on any
/// date) or a fixed UTC offset (the source's `utcOffsetMinutes`, right only
/// while the offset it was captured at holds).
package struct PlaceClock: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// An IANA time zone (`Europe/Zurich`).
        case zone(String)
        /// A fixed offset from UTC, in minutes (`210` for +03:30).
        case fixedOffset(minutes: Int)
    }

    public let kind: Kind
    private let zone: TimeZone?

    /// An IANA zone; nil when Foundation does not know it.
    public init?(zoneIdentifier: String) {
        guard let tz = TimeZone(identifier: zoneIdentifier) else { return nil }
        kind = .zone(zoneIdentifier)
        zone = tz
    }

    /// A fixed offset; nil when outside ±18 hours.
    public init?(utcOffsetMinutes: Int) {
        // A range test, not abs(): abs(Int.min) traps, and a stored value
        // may be anything.
        guard (-18 * 60...18 * 60).contains(utcOffsetMinutes) else { return nil }
        kind = .fixedOffset(minutes: utcOffsetMinutes)
        zone = nil
    }

    /// `Europe/Zurich`, or `UTC+03:30` for a fixed offset.
    public var description: String {
        switch kind {
        case .zone(let id): id
        case .fixedOffset(let minutes): "UTC" + PlaceClock.offsetText(seconds: minutes * 60)
        }
    }

    /// `+03:30`, `-05:00`, `+00:00`.
    static func offsetText(seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let m = seconds.magnitude / 60
        return "\(sign)\(String(m / 60).leftPadded(2)):\(String(m % 60).leftPadded(2))"
    }

    /// The offset from UTC in seconds at the instant `unix`.
    package func offset(atUnix unix: Int64) -> Int {
        switch kind {
        case .fixedOffset(let minutes): return minutes * 60
        case .zone: return zone!.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(unix)))
        }
    }

    /// The wall-clock time at the instant `unix`.
    package func local(atUnix unix: Int64) -> LocalDateTime {
        LocalDateTime(wallSeconds: unix + Int64(offset(atUnix: unix)))
    }

    /// The instant a wall-clock time happens. A time skipped by a daylight
    /// saving change (02:30 on a spring-forward night) is read with the
    /// offset before the change, which lands as far past the change as it
    /// was past the skipped hour (03:30); a time that happens twice (02:30
    /// on a fall-back night) is its first occurrence.
    package func unix(at wall: LocalDateTime) -> Int64 { unix(wallSeconds: wall.wallSeconds) }

    package func unix(wallSeconds w: Int64) -> Int64 {
        switch kind {
        case .fixedOffset(let minutes): return w - Int64(minutes * 60)
        case .zone:
            // Offsets a day either side bracket any single transition.
            let before = offset(atUnix: w - 86_400)
            let after = offset(atUnix: w + 86_400)
            if before == after { return w - Int64(before) }
            let t1 = w - Int64(before), t2 = w - Int64(after)
            let ok1 = offset(atUnix: t1) == before, ok2 = offset(atUnix: t2) == after
            switch (ok1, ok2) {
            case (true, true): return min(t1, t2)
            case (true, false): return t1
            case (false, true): return t2
            case (false, false): return t1 // in the gap: read with the offset before it
            }
        }
    }

    /// The instant as the wall clock at the place, RFC 3339 with the
    /// place's offset then (`2026-03-29T03:30:00+02:00`).
    public func localTimeString(_ date: Date) -> String {
        rfc3339(unix: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Writes the instant as RFC 3339 with the place's offset at that instant.
    func rfc3339(unix: Int64) -> String {
        let offset = self.offset(atUnix: unix)
        let local = LocalDateTime(wallSeconds: unix + Int64(offset))
        return local.description + PlaceClock.offsetText(seconds: offset)
    }
}

/// Where a place's time zone came from.
package enum TimeZoneSource: String, Sendable, CaseIterable {
    /// The source's own `timeZone`.
    case data
    /// `placedb import --time-zone ZONE` (the record had neither `timeZone`
    /// nor `utcOffsetMinutes`).
    case importOption = "import-option"
}

/// A time to evaluate opening hours at: an instant, or a wall-clock time at
/// the place (read in the place's own zone).
public enum HoursQueryTime: Sendable, Equatable {
    case instant(Date)
    case local(LocalDateTime)

    /// Parses RFC 3339: `2026-03-29T10:00:00+02:00` or `...Z` is an instant;
    /// without an offset (`2026-03-29T10:00`, seconds optional) it is the
    /// wall-clock time at the place. `T` may be `t` or a space; a fraction
    /// of a second is accepted and dropped. `now` is the current instant.
    /// Nil when malformed. Read by `RFC3339.parse`, the one parser of
    /// times (`open`, `place` and `current` `--at`, a `current --batch`
    /// line's `time`, a request's `time`, `CurrentPlaceRequest.parseTime`).
    public init?(parsing text: String) {
        if text == "now" {
            self = .instant(Date())
            return
        }
        guard let parsed = RFC3339.parse(text) else { return nil }
        guard let offset = parsed.offsetSeconds else {
            self = .local(parsed.wall)
            return
        }
        self = .instant(Date(timeIntervalSince1970: TimeInterval(parsed.wall.wallSeconds - Int64(offset))))
    }
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
