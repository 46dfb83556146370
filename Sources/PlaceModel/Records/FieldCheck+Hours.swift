/// The points of opening hours stored in the document (`periods[].open`
/// and `.close` of `regularOpeningHours`, `currentOpeningHours` and the
/// secondary hours), checked for every format as the legacy decoder
/// checks its own: `day` a weekday 0-6, `hour` 0-24, `minute` 0-59, and
/// 24 only as 24:00. A value outside would put the hours on a day or at a
/// time that does not exist (`day` 7 read as Sunday, `hour` 25 as 1:00 the
/// next day), so the record is refused (docs/reliability.md).
extension FieldCheck {
    package static func hours(_ decoded: DecodedPlace) throws(DecodeError) {
        let doc = decoded.place.document
        let pid = decoded.place.id.rawValue
        for key in ["regularOpeningHours", "currentOpeningHours"] {
            if let h = doc[key], h != .null { try openingHours(h, key, placeID: pid) }
        }
        for key in ["regularSecondaryOpeningHours", "currentSecondaryOpeningHours"] {
            guard let list = doc[key], list != .null else { continue }
            guard let items = list.arrayValue else { throw typeError(key, list, .array, placeID: pid) }
            for (i, h) in items.enumerated() where h != .null { try openingHours(h, "\(key)[\(i)]", placeID: pid) }
        }
    }

    private static func openingHours(_ h: JSONValue, _ path: String, placeID: String) throws(DecodeError) {
        guard let object = h.objectValue else { throw typeError(path, h, .object, placeID: placeID) }
        guard let periodsValue = object["periods"], periodsValue != .null else { return }
        guard let periods = periodsValue.arrayValue else {
            throw typeError("\(path).periods", periodsValue, .array, placeID: placeID)
        }
        for (i, period) in periods.enumerated() {
            guard let p = period.objectValue else {
                throw typeError("\(path).periods[\(i)]", period, .object, placeID: placeID)
            }
            for end in ["open", "close"] {
                guard let point = p[end], point != .null else { continue }
                // The path is written only for an error (every point of every record passes here).
                try hoursPoint(point, { "\(path).periods[\(i)].\(end)" }, placeID: placeID)
            }
        }
    }

    private static func hoursPoint(_ point: JSONValue, _ path: () -> String, placeID: String) throws(DecodeError) {
        guard let o = point.objectValue else { throw typeError(path(), point, .object, placeID: placeID) }
        func number(_ key: String, _ range: ClosedRange<Int>, _ what: String) throws(DecodeError) -> Int? {
            guard let v = o[key], v != .null else { return nil }
            guard let n = v.intValue, range.contains(n) else {
                throw DecodeError(
                    "\(path()).\(key) \(JSONWriter().string(v)) is not \(what) \(range.lowerBound)-\(range.upperBound)",
                    placeID: placeID)
            }
            return n
        }
        _ = try number("day", 0...6, "a weekday")
        let hour = try number("hour", 0...24, "an hour")
        let minute = try number("minute", 0...59, "a minute")
        if hour == 24, let minute, minute != 0 {
            throw DecodeError(
                "\(path()) 24:\(minute < 10 ? "0" : "")\(minute) is past the end of the day", placeID: placeID)
        }
    }
}
