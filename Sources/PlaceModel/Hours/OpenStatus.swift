public import Foundation

/// Whether a place is open at a time: OPEN, CLOSED or UNKNOWN (the data
/// cannot decide: no hours, no time zone or offset, malformed or
/// unsupported hours), with the reason, as the Places SDK's `isOpen`.
public struct OpenStatus: Sendable, Equatable, CustomStringConvertible {
    public enum State: String, Sendable, CaseIterable {
        case open = "OPEN"
        case closed = "CLOSED"
        case unknown = "UNKNOWN"
    }

    public var state: State
    /// Why, in one line.
    public var reason: String
    /// When the place next opens: after `nextCloseTime` when it is open.
    /// Nil when the data does not say (or it never opens again).
    public var nextOpenTime: Date?
    /// When the place next closes: after `nextOpenTime` when it is closed.
    /// Nil when the data does not say (or it never closes).
    public var nextCloseTime: Date?
    /// The hours that decided (`currentOpeningHours`, `regularOpeningHours`,
    /// `currentSecondaryOpeningHours[DELIVERY]`, ...), or nil.
    public var hours: String?
    /// The clock the hours were read with: an IANA zone or `UTC+03:30`.
    public var timeZone: String?
    /// Where that clock came from.
    public var timeZoneSource: ClockSource?
    /// The instant asked about (nil for a wall-clock time at a place whose
    /// clock is unknown).
    public var at: Date?
    /// The time asked about, as the wall clock at the place (RFC 3339 with
    /// the place's offset), when the clock is known.
    public var localTime: String?
    /// Caveats (public holidays not known offline, a fixed UTC offset, ...).
    public var notes: [String] = []
    /// The descriptions of the hours that decided (kept from the source, or
    /// generated in English).
    public var weekdayDescriptions: [String] = []
    /// UNKNOWN because the place has neither a time zone nor an offset
    /// (the command line and the server advise their own way to give one).
    package var lacksClock = false

    /// true, false, or nil when unknown.
    public var isOpen: Bool? {
        switch state {
        case .open: true
        case .closed: false
        case .unknown: nil
        }
    }

    public var description: String { "\(state.rawValue): \(reason)" }

    package init(_ state: State, _ reason: String) {
        self.state = state
        self.reason = reason
    }
}
