/// One end of an opening period, in the place's local time: a weekday and
/// a time, and (in current hours) the concrete date.
public struct HoursPoint: Sendable, Hashable {
    /// 0 = Sunday ... 6 = Saturday.
    public var day: Int
    /// 0...23 (24 only as `24:00`, the end of the day).
    public var hour: Int
    public var minute: Int
    /// The date, in current hours (`currentOpeningHours`).
    public var date: LocalDate?
    /// The point was cut at the edge of the seven days current hours cover;
    /// the real opening or closing is beyond it.
    public var truncated: Bool

    public init(day: Int, hour: Int, minute: Int, date: LocalDate? = nil, truncated: Bool = false) {
        self.day = day
        self.hour = hour
        self.minute = minute
        self.date = date
        self.truncated = truncated
    }

    /// Minutes since the local midnight.
    public var minuteOfDay: Int { hour * 60 + minute }
    /// Minutes since Sunday 00:00.
    var minuteOfWeek: Int { day * 1440 + minuteOfDay }

    /// The point as Places API (New) JSON.
    public var json: JSONValue {
        var o = JSONObject()
        if let date { o["date"] = date.json }
        o["day"] = .int(Int64(day))
        o["hour"] = .int(Int64(hour))
        o["minute"] = .int(Int64(minute))
        if truncated { o["truncated"] = true }
        return .object(o)
    }
}
