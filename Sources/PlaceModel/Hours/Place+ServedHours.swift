import Foundation

extension Place {
    /// The document members whose `openNow` depends on the time of asking.
    public static let hoursMembers: Set<String> = ["regularOpeningHours", "currentOpeningHours",
                                                   "regularSecondaryOpeningHours", "currentSecondaryOpeningHours"]

    /// The document members `served(at:)` reads: the hours, and what the
    /// hours engine needs besides them (business status, opening date,
    /// time zone, UTC offset).
    static let servingMembers: Set<String> = hoursMembers.union(["businessStatus", "openingDate", "timeZone", "utcOffsetMinutes"])

    /// Current hours whose last covered day ended more than this many days
    /// before the query are stale: not served as current.
    public static let staleCurrentHoursDays = 7

    /// The place as it is served at `time`: nothing in it is the capture's
    /// answer to a question that depends on when it is asked.
    ///
    /// - `openNow` inside `regularOpeningHours` and `currentOpeningHours` is
    ///   whether the place is open at `time` (the same answer as
    ///   `isOpen(at:)` and `placedb open`), and inside each secondary hours
    ///   entry whether those hours are active; it is left out when the hours
    ///   engine cannot decide. The captured value is never served.
    /// - `currentOpeningHours` (and each `currentSecondaryOpeningHours`
    ///   entry) whose days all ended more than `staleCurrentHoursDays` days
    ///   before `time` is left out: the regular hours answer instead.
    public func served(at time: HoursQueryTime) -> Place {
        guard document.keys.contains(where: { Place.hoursMembers.contains($0) }) else { return self }
        var place = self
        var doc = document
        if let current = doc["currentOpeningHours"]?.objectValue, isStale(current, at: time) {
            doc["currentOpeningHours"] = nil
        }
        if let list = doc["currentSecondaryOpeningHours"]?.arrayValue {
            let kept = list.filter { entry in entry.objectValue.map { !isStale($0, at: time) } ?? true }
            doc["currentSecondaryOpeningHours"] = kept.isEmpty ? nil : .array(kept)
        }
        place.document = doc
        let open = (doc["regularOpeningHours"] != nil || doc["currentOpeningHours"] != nil) ? place.isOpen(at: time).isOpen : nil
        for key in ["regularOpeningHours", "currentOpeningHours"] {
            guard var o = doc[key]?.objectValue else { continue }
            o["openNow"] = open.map(JSONValue.bool)
            doc[key] = .object(o)
        }
        for key in ["regularSecondaryOpeningHours", "currentSecondaryOpeningHours"] {
            guard let list = doc[key]?.arrayValue else { continue }
            doc[key] = .array(list.map { entry in
                guard var o = entry.objectValue else { return entry }
                let type = o["secondaryHoursType"]?.stringValue.map(SecondaryHoursType.init(rawValue:))
                let active = type.flatMap { place.isOpen(at: time, secondaryHoursType: $0).isOpen }
                o["openNow"] = active.map(JSONValue.bool)
                return .object(o)
            })
        }
        place.document = doc
        return place
    }

    /// The date at the place at `time` (UTC without a clock).
    func localDate(at time: HoursQueryTime) -> LocalDate {
        switch time {
        case .local(let wall): return wall.date
        case .instant(let d):
            let unix = Int64(d.timeIntervalSince1970.rounded(.down))
            if let clock { return clock.local(atUnix: unix).date }
            return LocalDate(dayNumber: Int((unix - 14 * 3600).floorDiv(86_400)))
        }
    }

    /// True when `hours` are dated and their last day ended more than
    /// `staleCurrentHoursDays` days before `time`.
    func isStale(_ hours: JSONObject, at time: HoursQueryTime) -> Bool {
        guard let parsed = try? OpeningHours(json: hours, path: "currentOpeningHours"),
              let placed = HoursEvaluator.place(parsed) else { return false }
        return localDate(at: time) > placed.last.adding(days: Place.staleCurrentHoursDays)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
