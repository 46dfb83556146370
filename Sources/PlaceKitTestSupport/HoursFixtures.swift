public import Foundation
import Testing
import PlaceKit
public import PlaceModel

/// Builds places from v1 JSON and instants from RFC 3339, for the hours
/// tests (PlaceModel's and PlaceKit's): a place goes through the Places
/// API (New) decoder, as an import reads it.
public enum HoursFixtures {
    public static func place(_ fields: String, id: String = "h1") throws -> Place {
        let text =
            #"{"id":"\#(id)","location":{"latitude":46.5,"longitude":6.6}\#(fields.isEmpty ? "" : ",")\#(fields)}"#
        let value = try JSONValue(parsing: text)
        return try decodeRecord(SourceRecord(value: value, line: 1, index: 1, container: nil), format: .placesV1).place
    }

    /// A place as a database may hold it without the import's checks (one
    /// written by an earlier placedb): the document as given.
    public static func storedPlace(_ fields: String, id: String = "h1") throws -> Place {
        let doc = try #require(try JSONValue(parsing: "{\(fields)}").objectValue)
        return Place(id: PlaceID(id), coordinate: Coordinate(latitude: 46.5, longitude: 6.6), document: doc)
    }

    public static func at(_ text: String) -> Date {
        guard case .instant(let d)? = HoursQueryTime(parsing: text) else {
            Issue.record("bad test time \(text)")
            return Date(timeIntervalSince1970: 0)
        }
        return d
    }

    public static func local(_ text: String) -> HoursQueryTime {
        guard let t = HoursQueryTime(parsing: text), case .local = t else {
            Issue.record("bad local test time \(text)")
            return .instant(Date(timeIntervalSince1970: 0))
        }
        return t
    }

    /// `{"open":{...},"close":{...}}` for a weekly period.
    public static func period(_ openDay: Int, _ open: String, _ closeDay: Int, _ close: String) -> String {
        func point(_ day: Int, _ hm: String) -> String {
            let p = hm.split(separator: ":").map { Int($0)! }
            return #"{"day":\#(day),"hour":\#(p[0]),"minute":\#(p[1])}"#
        }
        return #"{"open":\#(point(openDay, open)),"close":\#(point(closeDay, close))}"#
    }

    /// Every day `open`-`close` (close on the next day when earlier).
    public static func daily(_ open: String, _ close: String) -> String {
        let wraps = close <= open
        return (0..<7).map { period($0, open, wraps ? ($0 + 1) % 7 : $0, close) }.joined(separator: ",")
    }

    /// A dated point for current hours.
    public static func dated(_ date: String, _ hm: String, truncated: Bool = false) -> String {
        let d = date.split(separator: "-").map { Int($0)! }
        let day = LocalDate(year: d[0], month: d[1], day: d[2])!
        let p = hm.split(separator: ":").map { Int($0)! }
        return
            #"{"date":{"year":\#(d[0]),"month":\#(d[1]),"day":\#(d[2])},"day":\#(day.weekday),"hour":\#(p[0]),"minute":\#(p[1])\#(truncated ? #","truncated":true"# : "")}"#
    }
}
