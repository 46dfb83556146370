import Foundation

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
