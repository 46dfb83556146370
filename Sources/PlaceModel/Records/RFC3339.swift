#if canImport(Glibc)
import Glibc
#endif

/// RFC 3339 UTC timestamps without Foundation's formatter cost.
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
}
