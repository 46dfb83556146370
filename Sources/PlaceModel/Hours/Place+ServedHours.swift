import Foundation

extension Place {
    /// The document members whose `openNow` depends on the time of asking.
    public static let hoursMembers: Set<String> = [
        "regularOpeningHours", "currentOpeningHours",
        "regularSecondaryOpeningHours", "currentSecondaryOpeningHours",
    ]

    /// The document members `served(at:)` reads: the hours, and what the
    /// hours engine needs besides them (business status, opening date,
    /// time zone, UTC offset).
    static let servingMembers: Set<String> = hoursMembers.union([
        "businessStatus", "openingDate", "timeZone", "utcOffsetMinutes",
    ])

    /// Current hours whose last covered day ended more than this many days
    /// before the query are stale: not served as current.
    public static let staleCurrentHoursDays = 7

    /// How far ahead a served `nextOpenTime`/`nextCloseTime` may lie (the
    /// Places API's 7 days).
    public static let servedNextTimeDays = 7

    /// The members of an hours object that depend on the time of asking.
    public static let timeDependentHoursMembers: Set<String> = ["openNow", "nextOpenTime", "nextCloseTime"]

    /// The place as it is served at `time`: nothing in it is the capture's
    /// answer to a question that depends on when it is asked.
    ///
    /// - `openNow` inside `regularOpeningHours` and `currentOpeningHours` is
    ///   whether the place is open at `time` (the same answer as
    ///   `isOpen(at:)` and `placedb open`), and inside each secondary hours
    ///   entry whether those hours are active; it is left out when the hours
    ///   engine cannot decide. The captured value is never served.
    /// - `nextOpenTime` (when closed) and `nextCloseTime` (when open) in the
    ///   same objects are computed for `time` too, as the Places API serves
    ///   them: up to `servedNextTimeDays` days ahead, left out otherwise
    ///   and when the hours engine cannot tell; the captured values (the
    ///   capture's future, now past) are never served.
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
        let status =
            (doc["regularOpeningHours"] != nil || doc["currentOpeningHours"] != nil) ? place.isOpen(at: time) : nil
        for key in ["regularOpeningHours", "currentOpeningHours"] {
            guard var o = doc[key]?.objectValue else { continue }
            Self.setTimeDependent(&o, status)
            doc[key] = .object(o)
        }
        for key in ["regularSecondaryOpeningHours", "currentSecondaryOpeningHours"] {
            guard let list = doc[key]?.arrayValue else { continue }
            doc[key] = .array(
                list.map { entry in
                    guard var o = entry.objectValue else { return entry }
                    let type = o["secondaryHoursType"]?.stringValue.map(SecondaryHoursType.init(rawValue:))
                    Self.setTimeDependent(&o, type.map { place.isOpen(at: time, secondaryHoursType: $0) })
                    return .object(o)
                })
        }
        place.document = doc
        return place
    }

    /// Sets `openNow`, `nextOpenTime` (closed) and `nextCloseTime` (open)
    /// of an hours object from `status`, computed at the time asked (the
    /// members go last, in that order; each left out when unknown).
    static func setTimeDependent(_ o: inout JSONObject, _ status: OpenStatus?) {
        for key in ["openNow", "nextOpenTime", "nextCloseTime"] { o[key] = nil }
        guard let status, let open = status.isOpen else { return }
        o["openNow"] = .bool(open)
        let next = open ? status.nextCloseTime : status.nextOpenTime
        if let next, let at = status.at, next > at,
            next.timeIntervalSince(at) <= TimeInterval(servedNextTimeDays * 86_400)
        {
            o[open ? "nextCloseTime" : "nextOpenTime"] = .string(next.rfc3339UTC)
        }
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
            let placed = HoursEvaluator.place(parsed)
        else { return false }
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
