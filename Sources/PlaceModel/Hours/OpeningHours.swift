/// Opening hours in one model, whatever the source: Places API (New)
/// `regularOpeningHours` / `currentOpeningHours` and their secondary
/// variants, legacy `opening_hours` (normalized at import), and
/// OpenStreetMap `opening_hours` (parsed at import).
public struct OpeningHours: Sendable {
    /// The periods; nil when the source gave none (the hours are unknown),
    /// empty when it gave an empty list (the place is never open).
    public var periods: [OpeningPeriod]?
    /// The source's descriptions when it gave them, else generated (English).
    public var weekdayDescriptions: [String]
    /// True when `weekdayDescriptions` came from the source.
    public var weekdayDescriptionsFromSource: Bool
    /// For secondary hours: `DELIVERY`, `TAKEOUT`, ...
    public var secondaryHoursType: SecondaryHoursType?
    /// Dates with exceptional hours (current hours only).
    public var specialDays: [LocalDate]
    /// The OpenStreetMap `opening_hours` text these hours were parsed from.
    public var osmOpeningHours: String?
    /// The OpenStreetMap rules, when `osmOpeningHours` parsed.
    package let osm: OSMOpeningHours.Parsed?

    /// Reads a Places API (New) opening hours object. Throws, naming the
    /// field, when it is malformed (the caller then knows nothing from it).
    /// Absent `day`, `hour` and `minute` read as 0, as proto3 JSON omits
    /// zero values.
    package init(json: JSONObject, path: String = "openingHours") throws(HoursDataError) {
        if let osmText = json[OSMOpeningHours.jsonKey] {
            guard let text = osmText.stringValue else {
                throw HoursDataError(
                    "\(path).\(OSMOpeningHours.jsonKey) is \(osmText.kindDescription), expected a string")
            }
            osmOpeningHours = text
            switch OSMOpeningHours.parse(text) {
            case .supported(let parsed): osm = parsed
            case .unsupported(let u):
                throw HoursDataError("OpenStreetMap opening_hours \(quoted(text)) is not evaluated: \(u.reason)")
            }
        } else {
            osmOpeningHours = nil
            osm = nil
        }
        if let p = json["periods"], p != .null {
            guard let list = p.arrayValue else {
                throw HoursDataError("\(path).periods is \(p.kindDescription), expected an array")
            }
            var periods: [OpeningPeriod] = []
            for (i, item) in list.enumerated() {
                let at = "\(path).periods[\(i)]"
                guard let o = item.objectValue else {
                    throw HoursDataError("\(at) is \(item.kindDescription), expected an object")
                }
                guard let open = o["open"], open != .null else { throw HoursDataError("\(at) has no open time") }
                let close = o["close"]
                periods.append(
                    OpeningPeriod(
                        open: try Self.point(open, "\(at).open", isClose: false),
                        close: close == nil || close == .null
                            ? nil : try Self.point(close!, "\(at).close", isClose: true)))
            }
            if periods.contains(where: { $0.close == nil }) && periods.count > 1 {
                throw HoursDataError(
                    "\(path).periods has a period with no close time beside other periods (only a single period may be open around the clock)"
                )
            }
            self.periods = periods
        } else {
            periods = osm?.weeklyPeriods
        }
        if let t = json["secondaryHoursType"]?.stringValue {
            secondaryHoursType = SecondaryHoursType(rawValue: t)
        } else {
            secondaryHoursType = nil
        }
        var special: [LocalDate] = []
        for (i, d) in (json["specialDays"]?.arrayValue ?? []).enumerated() {
            guard let date = LocalDate(json: d["date"]) else {
                throw HoursDataError("\(path).specialDays[\(i)].date is not a valid {year, month, day}")
            }
            special.append(date)
        }
        specialDays = special
        let given = json["weekdayDescriptions"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if !given.isEmpty {
            weekdayDescriptions = given
            weekdayDescriptionsFromSource = true
        } else {
            weekdayDescriptions = osm?.weekdayDescriptions ?? periods.map { WeekdayDescriptions.generate($0) } ?? []
            weekdayDescriptionsFromSource = false
        }
    }

    private static func point(_ v: JSONValue, _ path: String, isClose: Bool) throws(HoursDataError) -> HoursPoint {
        guard let o = v.objectValue else { throw HoursDataError("\(path) is \(v.kindDescription), expected an object") }
        func int(_ key: String, _ range: ClosedRange<Int>) throws(HoursDataError) -> Int {
            guard let value = o[key], value != .null else { return 0 }
            guard let i = value.intValue, range.contains(i) else {
                throw HoursDataError(
                    "\(path).\(key) is \(JSONWriter().string(value)), expected an integer in \(range.lowerBound)...\(range.upperBound)"
                )
            }
            return i
        }
        let day = try int("day", 0...6)
        let hour = try int("hour", 0...24)
        let minute = try int("minute", 0...59)
        if hour == 24 && (minute != 0 || !isClose) {
            throw HoursDataError("\(path) is \(hour):\(minute), past the end of the day")
        }
        var date: LocalDate?
        if let d = o["date"], d != .null {
            guard let parsed = LocalDate(json: d) else {
                throw HoursDataError("\(path).date is not a valid {year, month, day}")
            }
            guard parsed.weekday == day else {
                throw HoursDataError(
                    "\(path).date \(parsed) is a \(LocalDate.weekdayNames[parsed.weekday]), but day is \(day) (\(LocalDate.weekdayNames[day]))"
                )
            }
            date = parsed
        }
        return HoursPoint(
            day: day, hour: hour, minute: minute, date: date, truncated: o["truncated"]?.boolValue ?? false)
    }

    /// True when every period carries a date (current hours can then be
    /// placed on the calendar).
    var isDated: Bool {
        guard let periods, !periods.isEmpty else { return false }
        return periods.allSatisfy { $0.open.date != nil && ($0.close == nil || $0.close?.date != nil) }
    }

    /// The hours as a Places API (New) object (periods, descriptions, type).
    public var json: JSONObject {
        var o = JSONObject()
        if let periods { o["periods"] = .array(periods.map(\.json)) }
        if !weekdayDescriptions.isEmpty { o["weekdayDescriptions"] = .array(weekdayDescriptions.map { .string($0) }) }
        if let secondaryHoursType { o["secondaryHoursType"] = .string(secondaryHoursType.rawValue) }
        if !specialDays.isEmpty { o["specialDays"] = .array(specialDays.map { ["date": $0.json] }) }
        if let osmOpeningHours { o[OSMOpeningHours.jsonKey] = .string(osmOpeningHours) }
        return o
    }
}

/// Why opening hours data cannot be used (one line, naming the field).
package struct HoursDataError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    package init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A value in a one-line message: control characters (a newline in an OSM
/// value) shown as spaces, long values cut.
package func quoted(_ text: String) -> String {
    let flat = String(
        String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    let short = flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
    return "'\(short)'"
}

extension Place {
    /// `regularOpeningHours` read into the model; nil when absent or
    /// malformed (`isOpen(at:)` says why).
    public var openingHours: OpeningHours? { hours(document["regularOpeningHours"], "regularOpeningHours") }
    /// `currentOpeningHours` (the next seven days, with dates and special days).
    public var currentOpeningHours: OpeningHours? { hours(document["currentOpeningHours"], "currentOpeningHours") }
    /// `regularSecondaryOpeningHours` of one type.
    public func secondaryOpeningHours(_ type: SecondaryHoursType) -> OpeningHours? {
        secondary("regularSecondaryOpeningHours", type).flatMap { try? $0.get() }
    }
    /// `currentSecondaryOpeningHours` of one type.
    public func currentSecondaryOpeningHours(_ type: SecondaryHoursType) -> OpeningHours? {
        secondary("currentSecondaryOpeningHours", type).flatMap { try? $0.get() }
    }
    /// The secondary hours types this place has hours for.
    public var secondaryHoursTypes: [SecondaryHoursType] {
        var seen: [SecondaryHoursType] = []
        for field in ["regularSecondaryOpeningHours", "currentSecondaryOpeningHours"] {
            for h in document[field]?.arrayValue ?? [] {
                if let t = h["secondaryHoursType"]?.stringValue.map(SecondaryHoursType.init(rawValue:)),
                    !seen.contains(t)
                {
                    seen.append(t)
                }
            }
        }
        return seen
    }

    private func hours(_ value: JSONValue?, _ path: String) -> OpeningHours? {
        guard let o = value?.objectValue else { return nil }
        return try? OpeningHours(json: o, path: path)
    }

    /// The entry of a secondary hours list with this type: nil when there is
    /// none, a failure when it is malformed.
    package func secondary(_ field: String, _ type: SecondaryHoursType) -> Result<OpeningHours, HoursDataError>? {
        guard let list = document[field]?.arrayValue else { return nil }
        for (i, h) in list.enumerated() where h["secondaryHoursType"]?.stringValue == type.rawValue {
            guard let o = h.objectValue else { continue }
            do { return .success(try OpeningHours(json: o, path: "\(field)[\(i)]")) } catch { return .failure(error) }
        }
        return nil
    }
}

extension FieldMask {
    /// The fields `isOpen(at:)` reads: fetch a place with these (or `*`)
    /// before asking whether it is open.
    public static let openStatusFields = [
        "regularOpeningHours", "currentOpeningHours", "regularSecondaryOpeningHours",
        "currentSecondaryOpeningHours", "utcOffsetMinutes", "timeZone", "businessStatus", "openingDate",
    ]
}
