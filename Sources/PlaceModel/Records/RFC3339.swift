package import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// RFC 3339 timestamps, written (UTC) and read, without Foundation's
/// formatter cost.
package enum RFC3339 {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants RFC 3339's
    /// four-digit years can write.
    static let representable: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    /// Unix seconds as RFC 3339 in UTC; nil outside `representable` (a
    /// timestamp of -2^63 in a dump is data to keep as it is, not a date).
    package static func string(fromUnixSeconds t: Int64) -> String? {
        guard representable.contains(t) else { return nil }
        let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
        let secs = t - days * 86_400
        let date = LocalDate(dayNumber: Int(days))
        func two(_ v: Int64) -> String { String(v).leftPadded(2) }
        return "\(date)T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))Z"
    }

    package static func now() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return string(fromUnixSeconds: Int64(ts.tv_sec))!
    }

    /// Now with milliseconds: distinct per import run, and ordered as text.
    package static func nowMilliseconds() -> String {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let base = string(fromUnixSeconds: Int64(ts.tv_sec))!
        return String(base.dropLast()) + "." + String(ts.tv_nsec / 1_000_000).leftPadded(3) + "Z"
    }

    /// A time as written: the wall clock, the fraction of a second, and the
    /// offset from UTC in seconds when one is written (`Z` is 0).
    package struct Parsed: Equatable, Sendable {
        package var wall: LocalDateTime
        package var fraction: Double
        package var offsetSeconds: Int?

        /// The instant, with the fraction; nil without an offset.
        package var date: Date? {
            offsetSeconds.map { Date(timeIntervalSince1970: Double(wall.wallSeconds - Int64($0)) + fraction) }
        }
    }

    /// The one reader of RFC 3339 times: `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]`,
    /// `T` also `t` or a space, `Z` also `z`. The date must exist (no
    /// February 30th); a leap second (`:60`) reads as `:59`, in the same
    /// minute. Without seconds or an offset it is still read (the CLI's
    /// `--at 2026-03-29T10:00` is the wall clock at the place); `date`
    /// needs the offset. Nil when malformed.
    package static func parse(_ text: String) -> Parsed? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for i in at..<(at + n) {
                guard (0x30...0x39).contains(b[i]) else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard b.count >= 16, let y = digits(0, 4), b[4] == 0x2D, let mo = digits(5, 2), b[7] == 0x2D,
            let d = digits(8, 2),
            [0x54, 0x74, 0x20].contains(b[10]), let h = digits(11, 2), b[13] == 0x3A, let mi = digits(14, 2),
            let date = LocalDate(year: y, month: mo, day: d), h <= 23, mi <= 59
        else { return nil }
        var i = 16
        var s = 0
        var fraction = 0.0
        if i < b.count, b[i] == 0x3A {
            guard let sec = digits(i + 1, 2), sec <= 60 else { return nil }
            s = min(sec, 59)
            i += 3
            if i < b.count, b[i] == 0x2E {
                i += 1
                let start = i
                var scale = 0.1
                while i < b.count, (0x30...0x39).contains(b[i]) {
                    fraction += Double(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
            }
        }
        let wall = LocalDateTime(date: date, secondOfDay: h * 3600 + mi * 60 + s)
        guard i < b.count else { return Parsed(wall: wall, fraction: fraction, offsetSeconds: nil) }
        if b[i] == 0x5A || b[i] == 0x7A { // Z
            guard i + 1 == b.count else { return nil }
            return Parsed(wall: wall, fraction: fraction, offsetSeconds: 0)
        }
        guard b[i] == 0x2B || b[i] == 0x2D, i + 6 == b.count, let oh = digits(i + 1, 2), b[i + 3] == 0x3A,
            let om = digits(i + 4, 2), oh <= 23, om <= 59
        else { return nil }
        return Parsed(wall: wall, fraction: fraction, offsetSeconds: (oh * 60 + om) * 60 * (b[i] == 0x2D ? -1 : 1))
    }

    /// An RFC 3339 instant (`parse` with an offset), the fraction of a
    /// second kept. Nil when malformed or without an offset.
    package static func date(_ text: String) -> Date? { parse(text)?.date }
}
