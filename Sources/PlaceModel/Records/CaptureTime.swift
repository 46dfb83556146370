import Foundation

/// Capture times: Unix seconds, from an option or the record. A capture
/// nothing dates is stored as a negative key (`unordered`), below every
/// dated capture.
public enum CaptureTime {
    /// The order key of a capture nothing dates: negative (older than any
    /// dated capture); by the time of the import that brought it (a later
    /// `placedb import` is a later capture: `importedAt`, milliseconds),
    /// then by the record's content (`hash`), so the files of one import
    /// are unordered: which of two such captures gives a member depends
    /// neither on the order of the files nor on their modification times.
    public static func unordered(importedAt: Int64, contentHash hash: Int64) -> Int64 {
        let at = min(max(importedAt, 0), (1 << 42) - 1)
        return -(1 << 62) + (at << 20) + (hash & ((1 << 20) - 1))
    }

    /// True when neither capture is dated and one import brought both:
    /// nothing orders them (their content keys decide).
    public static func areUnordered(_ a: Int64, _ b: Int64) -> Bool {
        a < 0 && b < 0 && a >> 20 == b >> 20
    }

    /// True for a real capture time; false for `unordered` keys and the 0
    /// of places imported before capture times were kept.
    public static func isKnown(_ t: Int64) -> Bool { t > 0 }

    /// `t` when it is a real capture time, else nil (`isKnown`).
    public static func known(_ t: Int64?) -> Int64? { t.flatMap { isKnown($0) ? $0 : nil } }

    /// 2000-01-01T00:00:00Z: a record timestamp before it is taken for a
    /// mistake (a zero, a date field misread), not a capture.
    public static let earliest: Int64 = 946_684_800
    /// How far in the future a record timestamp may be (clock skew).
    public static let allowedSkew: Int64 = 86_400

    /// Parses an RFC 3339 instant (`2025-12-07T10:53:52Z`,
    /// `2015-09-23T10:00:00+10:00`, fractions allowed) or a date
    /// (`2015-09-23`, read as midnight UTC). Nil when it is neither.
    public static func parse(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let b = Array(t.utf8)
        if b.count == 10, b[4] == 0x2D, b[7] == 0x2D, let y = Int(t.prefix(4)), let m = Int(t.dropFirst(5).prefix(2)),
            let d = Int(t.suffix(2)), t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }),
            let date = LocalDate(year: y, month: m, day: d)
        {
            return Int64(date.dayNumber) * 86_400
        }
        guard case .instant(let d)? = HoursQueryTime(parsing: t) else { return nil }
        return Int64(d.timeIntervalSince1970.rounded(.down))
    }

    /// A record's own timestamp as Unix seconds: an integer (seconds, or
    /// milliseconds when it is too large for seconds) or an RFC 3339 string.
    package static func value(_ v: JSONValue?) -> Int64? {
        guard let v else { return nil }
        if let n = v.intValue { return n > 100_000_000_000 ? Int64(n / 1000) : Int64(n) }
        if let d = v.doubleValue, d.isFinite, abs(d) < 1e15 { return d > 1e11 ? Int64(d / 1000) : Int64(d) }
        if let s = v.stringValue { return parse(s) }
        return nil
    }

    /// True when a record timestamp is plausible at `now`.
    package static func isPlausible(_ t: Int64, now: Int64) -> Bool {
        t >= earliest && t <= now + allowedSkew
    }

    /// RFC 3339 in UTC, to the second.
    /// (A time outside years 1-9999 cannot be written so: it prints as its Unix seconds.)
    public static func string(_ t: Int64) -> String { RFC3339.string(fromUnixSeconds: t) ?? String(t) }
}
