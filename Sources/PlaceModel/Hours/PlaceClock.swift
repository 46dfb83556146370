package import Foundation

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
