import Foundation

/// Turns a place's hours into open intervals on the time line and answers
/// from them.
struct HoursEvaluator {
    package let place: Place
    package let secondary: SecondaryHoursType?

    var regularField: String { secondary == nil ? "regularOpeningHours" : "regularSecondaryOpeningHours" }
    var currentField: String { secondary == nil ? "currentOpeningHours" : "currentSecondaryOpeningHours" }
    package func label(_ field: String) -> String { secondary.map { "\(field)[\($0.rawValue)]" } ?? field }

    package func evaluate(_ time: HoursQueryTime) -> OpenStatus {
        let (clock, clockSource, clockNote) = place.resolveClock()
        var status = decide(time, clock: clock)
        if case .instant(let d) = time { status.at = d }
        if let clock {
            status.timeZone = clock.description
            status.timeZoneSource = clockSource
            let unix = unixTime(time, clock)
            status.localTime = clock.rfc3339(unix: unix)
            if status.at == nil { status.at = Date(timeIntervalSince1970: TimeInterval(unix)) }
            if clockSource == .utcOffset, status.state != .unknown {
                status.notes.append(
                    "read with the fixed offset \(clock) (utcOffsetMinutes): on dates with another offset (daylight saving) the answer may be an hour off"
                )
            }
        }
        if let clockNote { status.notes.append(clockNote) }
        return status
    }

    func unixTime(_ time: HoursQueryTime, _ clock: PlaceClock) -> Int64 {
        switch time {
        case .instant(let d): Int64(d.timeIntervalSince1970.rounded(.down))
        case .local(let wall): clock.unix(at: wall)
        }
    }

    package func decide(_ time: HoursQueryTime, clock: PlaceClock?) -> OpenStatus {
        // Business status first: it needs no clock.
        switch place.businessStatus {
        case .closedPermanently?:
            return OpenStatus(.closed, "the place is permanently closed (businessStatus CLOSED_PERMANENTLY)")
        case .closedTemporarily?:
            return OpenStatus(.closed, "the place is temporarily closed (businessStatus CLOSED_TEMPORARILY)")
        default: break
        }
        var openingDate: LocalDate?
        var futureNote: String?
        if place.businessStatus == .futureOpening {
            guard let date = LocalDate(json: place.document["openingDate"]) else {
                return OpenStatus(
                    .closed, "the place has not opened yet (businessStatus FUTURE_OPENING, no openingDate)")
            }
            // Before the opening date on any clock? (UTC+14 is the earliest.)
            let before: Bool?
            switch (time, clock) {
            case (.local(let wall), _): before = wall.date < date
            case (.instant(let d), let clock?):
                before = clock.local(atUnix: Int64(d.timeIntervalSince1970.rounded(.down))).date < date
            case (.instant(let d), nil):
                let t = Int64(d.timeIntervalSince1970.rounded(.down))
                if t < Int64(date.dayNumber) * 86_400 - 14 * 3600 {
                    before = true
                } else if t >= Int64(date.dayNumber + 1) * 86_400 + 12 * 3600 {
                    before = false
                } else {
                    before = nil
                }
            }
            if before == true {
                var s = OpenStatus(.closed, "the place opens on \(date) (businessStatus FUTURE_OPENING)")
                if let clock, let hours = try? schedule(clock: clock) {
                    let start = clock.unix(at: LocalDateTime(date: date, secondOfDay: 0))
                    let t = Timeline(hours, clock: clock, around: start, days: hours.horizonDays)
                    if t.isOpen(start) {
                        s.nextOpenTime = Date(timeIntervalSince1970: TimeInterval(start))
                        s.nextCloseTime = t.end(ofOpenAt: start).map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    } else if let next = t.nextOpen(after: start) {
                        s.nextOpenTime = Date(timeIntervalSince1970: TimeInterval(next.start))
                        s.nextCloseTime = next.end.map { Date(timeIntervalSince1970: TimeInterval($0)) }
                    }
                }
                return s
            }
            if before == nil && clock == nil {
                return OpenStatus(
                    .unknown,
                    "the place opens on \(date) (FUTURE_OPENING), and without its time zone or UTC offset the local date is unknown"
                )
            }
            openingDate = date
            futureNote = "the source listed the place as opening on \(date) (FUTURE_OPENING)"
        }
        guard let clock else {
            var status = OpenStatus(
                .unknown,
                "the place has no time zone or UTC offset, so its local time is unknown (ImportOptions.timeZone gives one at import)"
            )
            status.lacksClock = true
            return status
        }
        let hours: Schedule
        do throws(ScheduleError) {
            hours = try schedule(clock: clock)
        } catch {
            return OpenStatus(.unknown, error.message)
        }
        let t = unixTime(time, clock)
        var status = answer(hours, clock: clock, at: t)
        if let futureNote, openingDate != nil { status.notes.append(futureNote) }
        return status
    }

    // MARK: Schedules

    /// A place's hours of one kind, ready to lay on the time line.
    package struct Schedule {
        /// Weekly hours (regular periods or OSM rules); nil when absent.
        var base: BaseHours?
        var baseField: String
        /// Current hours placed on the calendar, with the dates they cover.
        var current: CurrentHours?
        var currentField: String
        var notes: [String] = []
        var baseDescriptions: [String] = []
        var currentDescriptions: [String] = []

        var horizonDays: Int {
            if case .osm(let parsed)? = base, parsed.hasDateRanges { return 370 }
            return 8
        }
    }

    enum BaseHours {
        /// Ranges opening on each weekday (0 = Sunday), in minutes.
        case weekly([[(start: Int, end: Int)]])
        case alwaysOpen
        case osm(OSMOpeningHours.Parsed)

        /// The ranges that open on `date` (minutes from its midnight; an end
        /// may pass midnight), and the ranges of that day the hours leave
        /// undecided.
        func day(_ date: LocalDate) -> (open: [(start: Int, end: Int)], unknown: [(start: Int, end: Int)]) {
            switch self {
            case .weekly(let byDay): (byDay[date.weekday], [])
            case .alwaysOpen: ([(0, 1440)], [])
            case .osm(let parsed): parsed.day(date)
            }
        }
    }

    package struct CurrentHours {
        /// First and last date covered.
        var first: LocalDate
        var last: LocalDate
        /// Wall-clock ranges.
        var ranges: [(from: LocalDateTime, to: LocalDateTime)]
        var specialDays: [LocalDate]
    }

    struct ScheduleError: Error { let message: String }

    func schedule(clock: PlaceClock) throws(ScheduleError) -> Schedule {
        let regular: OpeningHours?
        let current: OpeningHours?
        do throws(HoursDataError) {
            if let type = secondary {
                regular = try place.secondary(regularField, type)?.get()
                current = try place.secondary(currentField, type)?.get()
            } else {
                regular = try place.document[regularField]?.objectValue.map { (o) throws(HoursDataError) in
                    try OpeningHours(json: o, path: regularField)
                }
                current = try place.document[currentField]?.objectValue.map { (o) throws(HoursDataError) in
                    try OpeningHours(json: o, path: currentField)
                }
            }
        } catch {
            throw ScheduleError(message: "the hours cannot be read: \(error.message)")
        }
        var s = Schedule(base: nil, baseField: label(regularField), current: nil, currentField: label(currentField))
        s.baseDescriptions = regular?.weekdayDescriptions ?? []
        s.currentDescriptions = current?.weekdayDescriptions ?? []
        if let regular {
            if let osm = regular.osm {
                s.base = .osm(osm)
                s.baseField = label(regularField) + " (OpenStreetMap opening_hours)"
                if osm.mentionsPublicHolidays {
                    s.notes.append(
                        "public holidays are not known offline: the answer assumes a working day (the hours have PH rules)"
                    )
                }
            } else if let periods = regular.periods {
                if periods.count == 1, periods[0].close == nil {
                    s.base = .alwaysOpen
                } else {
                    var byDay = [[(start: Int, end: Int)]](repeating: [], count: 7)
                    for p in periods {
                        guard let length = p.weeklyLength else { continue }
                        byDay[p.open.day].append((p.open.minuteOfDay, p.open.minuteOfDay + length))
                    }
                    s.base = .weekly(byDay)
                }
            }
        }
        if let current, current.periods != nil {
            if let placed = Self.place(current) {
                s.current = placed
            } else if regular?.periods == nil && regular?.osm == nil {
                throw ScheduleError(
                    message:
                        "\(label(currentField)) has no dates, so it cannot be placed in time, and there are no regular hours"
                )
            }
        }
        if s.base == nil && s.current == nil {
            let what =
                secondary.map { "no \($0.rawValue) hours (\(label(regularField)), \(label(currentField)))" }
                ?? "no opening hours (regularOpeningHours, currentOpeningHours)"
            throw ScheduleError(message: "the place has \(what)")
        }
        return s
    }

    /// Current hours on the calendar: the seven days they cover are known
    /// from a truncated start or end (the API cuts periods at the edges of
    /// the seven days), else from the dates they name.
    package static func place(_ hours: OpeningHours) -> CurrentHours? {
        guard let periods = hours.periods else { return nil }
        var dates: [LocalDate] = hours.specialDays
        for p in periods {
            guard let od = p.open.date else { return nil }
            dates.append(od)
            if let close = p.close {
                guard let cd = close.date else { return nil }
                dates.append(cd)
            }
        }
        guard var first = dates.min(), var last = dates.max() else { return nil }
        if let start = periods.first(where: { $0.open.truncated })?.open.date {
            first = min(first, start)
            last = max(last, start.adding(days: 6))
        }
        if let end = periods.first(where: { $0.close?.truncated == true })?.close?.date {
            last = max(last, end)
            first = min(first, end.adding(days: -6))
        }
        var ranges: [(from: LocalDateTime, to: LocalDateTime)] = []
        let windowStart = LocalDateTime(date: first, secondOfDay: 0)
        let windowEnd = LocalDateTime(date: last.adding(days: 1), secondOfDay: 0)
        for p in periods {
            let from =
                p.open.truncated ? windowStart : LocalDateTime(date: p.open.date!, secondOfDay: p.open.minuteOfDay * 60)
            guard let close = p.close else {
                ranges.append((from, windowEnd))
                continue
            }
            var to = close.truncated ? windowEnd : LocalDateTime(date: close.date!, secondOfDay: close.minuteOfDay * 60)
            if to.wallSeconds <= from.wallSeconds { to = LocalDateTime(wallSeconds: to.wallSeconds + 7 * 86_400) }
            ranges.append((from, to))
        }
        return CurrentHours(first: first, last: last, ranges: ranges, specialDays: hours.specialDays)
    }

    // MARK: Answering

    package func answer(_ hours: Schedule, clock: PlaceClock, at t: Int64) -> OpenStatus {
        var timeline = Timeline(hours, clock: clock, around: t, days: 8)
        let local = clock.local(atUnix: t)
        let inWindow = hours.current.map { local.date >= $0.first && local.date <= $0.last } ?? false
        let plainField = inWindow ? hours.currentField : hours.baseField
        var field = plainField
        if !inWindow, let c = hours.current, local.date > c.last.adding(days: Place.staleCurrentHoursDays) {
            // Stale current hours are not served as current: say why the regular ones answer.
            field +=
                "; \(hours.currentField) ended \(c.last), more than \(Place.staleCurrentHoursDays) days before, so it is not used"
        }
        func date(_ u: Int64?) -> Date? { u.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
        func at(_ u: Int64) -> String {
            let l = clock.local(atUnix: u)
            let hm = "\(String(l.secondOfDay / 3600).leftPadded(2)):\(String(l.secondOfDay / 60 % 60).leftPadded(2))"
            return l.date == local.date ? hm : "\(LocalDate.weekdayNames[l.date.weekday]) \(l.date) \(hm)"
        }

        var status: OpenStatus
        guard timeline.isKnown(t) else {
            var s = OpenStatus(.unknown, "")
            if case .osm(let parsed)? = hours.base, !inWindow {
                s.reason =
                    "the OpenStreetMap opening_hours \(quoted(parsed.text)) can be read two ways here: a range past midnight from the day before, which a ';' rule for this day may replace (\(hours.baseField))"
                s.hours = hours.baseField
            } else if let c = hours.current {
                s.reason =
                    "\(local.date) is outside the dates \(hours.currentField) covers (\(c.first) to \(c.last)) and there are no regular hours"
            } else {
                s.reason = "the hours do not cover \(local.date)"
            }
            return s
        }
        if timeline.isOpen(t) {
            var end = timeline.end(ofOpenAt: t)
            if end == nil, hours.horizonDays > 8 {
                timeline = Timeline(hours, clock: clock, around: t, days: hours.horizonDays)
                end = timeline.end(ofOpenAt: t)
            }
            status = OpenStatus(.open, "")
            status.nextCloseTime = date(end)
            if let end {
                let start = timeline.start(ofOpenAt: t)
                let since = start.map { "since \(at($0)) " } ?? ""
                status.reason = "open \(since)until \(at(end)) (\(field))"
                if let next = timeline.nextOpen(after: end) { status.nextOpenTime = date(next.start) }
            } else if timeline.isOpenThroughout {
                status.reason = "open 24 hours (\(field))"
            } else {
                status.reason = "open; the hours do not say until when (\(field))"
            }
        } else {
            status = OpenStatus(.closed, "")
            var next = timeline.nextOpen(after: t)
            if next == nil, hours.horizonDays > 8 {
                timeline = Timeline(hours, clock: clock, around: t, days: hours.horizonDays)
                next = timeline.nextOpen(after: t)
            }
            if let next {
                status.nextOpenTime = date(next.start)
                status.nextCloseTime = date(next.end)
                status.reason = "closed; opens \(at(next.start)) (\(field))"
            } else if timeline.neverOpens {
                status.reason = "closed; the hours list no opening periods (\(field))"
            } else if timeline.knownUntilEnd {
                status.reason = "closed; no opening in the \(timeline.days) days the search looked at (\(field))"
            } else {
                status.reason = "closed; the hours do not say when it opens next (\(field))"
            }
        }
        status.hours = plainField
        status.notes = hours.notes
        status.weekdayDescriptions =
            inWindow && !hours.currentDescriptions.isEmpty ? hours.currentDescriptions : hours.baseDescriptions
        if inWindow, let special = hours.current?.specialDays, special.contains(local.date) {
            status.notes.append("\(local.date) is a special day with exceptional hours (\(hours.currentField))")
        }
        return status
    }
}
