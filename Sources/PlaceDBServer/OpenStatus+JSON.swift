import Foundation
package import PlaceModel

/// The JSON `placedb open --output json` prints for a place's open status;
/// `placedb serve` answers the same object (`/placedb/v1/places/{id}/openStatus`).
extension OpenStatus {
    package static func json(_ place: Place, _ s: OpenStatus, time: HoursQueryTime, secondary: SecondaryHoursType?)
        -> JSONObject
    {
        var o = JSONObject([("id", .string(place.id.rawValue))])
        if let name = place.displayName?.text { o["displayName"] = .string(name) }
        o["status"] = .string(s.state.rawValue)
        o["reason"] = .string(s.answerReason)
        if let at = s.at { o["at"] = .string(at.rfc3339UTC) }
        if let local = s.localTime {
            o["localTime"] = .string(local)
        } else if case .local(let wall) = time {
            o["localTime"] = .string(wall.description)
        }
        if let d = s.nextOpenTime { o["nextOpenTime"] = .string(d.rfc3339UTC) }
        if let d = s.nextCloseTime { o["nextCloseTime"] = .string(d.rfc3339UTC) }
        if let h = s.hours { o["hours"] = .string(h) }
        if let secondary { o["secondaryHoursType"] = .string(secondary.rawValue) }
        if let tz = s.timeZone { o["timeZone"] = .string(tz) }
        if let src = s.timeZoneSource { o["timeZoneSource"] = .string(src.answerName) }
        if let b = place.businessStatus { o["businessStatus"] = .string(b.rawValue) }
        if !s.weekdayDescriptions.isEmpty {
            o["weekdayDescriptions"] = .array(s.weekdayDescriptions.map { .string($0) })
        }
        if !s.notes.isEmpty { o["notes"] = .array(s.notes.map { .string($0) }) }
        return o
    }
}

extension OpenStatus {
    /// The reason as `placedb open` and `placedb serve` say it: with the
    /// import option that gives a place its clock, where it lacks one.
    package var answerReason: String {
        lacksClock
            ? "the place has no time zone or UTC offset, so its local time is unknown (import with --time-zone ZONE)"
            : reason
    }
}

extension ClockSource {
    /// The name `placedb open` and `placedb serve` give the clock's source.
    package var answerName: String {
        switch self {
        case .importOption: "import --time-zone"
        case .timeZone, .utcOffset: rawValue
        }
    }
}
