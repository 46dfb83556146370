public import Foundation

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
