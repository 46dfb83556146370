public import Foundation

extension Place {
    /// The place's clock: its `timeZone` when Foundation knows it, else its
    /// `utcOffsetMinutes`; nil when it has neither.
    package var clock: PlaceClock? { resolveClock().clock }

    func resolveClock() -> (clock: PlaceClock?, source: ClockSource?, note: String?) {
        var note: String?
        if let id = timeZone {
            if let c = PlaceClock(zoneIdentifier: id) {
                return (c, timeZoneSource == .importOption ? .importOption : .timeZone, nil)
            }
            note = "time zone '\(id)' is unknown to this system"
        }
        if let minutes = utcOffsetMinutes, let c = PlaceClock(utcOffsetMinutes: minutes) {
            return (c, .utcOffset, note)
        }
        return (nil, nil, note)
    }

    /// Whether the place is open at `date`, from its current and regular
    /// opening hours, business status and time zone.
    public func isOpen(at date: Date = Date()) -> OpenStatus {
        HoursEvaluator(place: self, secondary: nil).evaluate(.instant(date))
    }

    /// Whether the secondary hours of `secondaryHoursType` (delivery,
    /// takeout, drive-through, ...) are active at `date`.
    public func isOpen(at date: Date, secondaryHoursType: SecondaryHoursType) -> OpenStatus {
        HoursEvaluator(place: self, secondary: secondaryHoursType).evaluate(.instant(date))
    }

    /// Whether the place (or its secondary hours) is open at an instant or
    /// at a wall-clock time at the place.
    public func isOpen(at time: HoursQueryTime, secondaryHoursType: SecondaryHoursType? = nil) -> OpenStatus {
        HoursEvaluator(place: self, secondary: secondaryHoursType).evaluate(time)
    }
}
