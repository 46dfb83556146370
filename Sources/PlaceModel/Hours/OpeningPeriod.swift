/// A span the place is open: from `open` to `close`. A period with no
/// close is open around the clock (the API's "always open").
public struct OpeningPeriod: Sendable, Hashable {
    public var open: HoursPoint
    public var close: HoursPoint?

    public init(open: HoursPoint, close: HoursPoint?) {
        self.open = open
        self.close = close
    }

    /// Length in minutes for a weekly period: past midnight and past the
    /// end of the week (Saturday 22:00 to Sunday 02:00) wrap; a close equal
    /// to the open is a whole week.
    var weeklyLength: Int? {
        guard let close else { return nil }
        var length = close.minuteOfWeek - open.minuteOfWeek
        if length <= 0 { length += 7 * 1440 }
        return length
    }

    /// The period as Places API (New) JSON.
    public var json: JSONValue {
        var o = JSONObject([("open", open.json)])
        if let close { o["close"] = close.json }
        return .object(o)
    }
}
