import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Legacy `opening_hours`, `current_opening_hours` and
/// `secondary_opening_hours` into the v1 shape the hours model reads.
@Suite("Legacy opening hours normalized to v1")
struct LegacyHoursTests {
    static func decode(_ fields: String) throws(DecodeError) -> Place {
        let text = #"{"place_id":"L1","geometry":{"location":{"lat":-33.86,"lng":151.2}},"utc_offset":600,\#(fields)}"#
        let value = try! JSONValue(parsing: text)
        return try decodeRecord(SourceRecord(value: value, line: 1, index: 1, container: nil), format: .placesLegacy)
            .place
    }

    @Test("current hours keep their dates and truncation; exceptional special days are kept, ordinary ones dropped")
    func currentHours() throws {
        let place = try Self.decode(
            #""current_opening_hours":{"open_now":false,"periods":[{"open":{"day":4,"time":"0000","date":"2023-03-30","truncated":true},"close":{"day":4,"time":"0200","date":"2023-03-30"}}],"special_days":[{"date":"2023-03-30","exceptional_hours":true},{"date":"2023-03-31","exceptional_hours":false}]}"#
        )
        let expected: JSONValue = [
            "openNow": false,
            "periods": [
                [
                    "open": [
                        "date": ["year": 2023, "month": 3, "day": 30], "day": 4, "hour": 0, "minute": 0,
                        "truncated": true,
                    ],
                    "close": ["date": ["year": 2023, "month": 3, "day": 30], "day": 4, "hour": 2, "minute": 0],
                ]
            ],
            "specialDays": [["date": ["year": 2023, "month": 3, "day": 30]]],
        ]
        #expect(place.document["currentOpeningHours"] == expected)
        #expect(place.currentOpeningHours?.specialDays == [LocalDate(year: 2023, month: 3, day: 30)!])
    }

    @Test("secondary hours with dates are v1's current secondary hours; without dates, regular ones")
    func secondaryHours() throws {
        let place = try Self.decode(
            #""secondary_opening_hours":[{"type":"DELIVERY","periods":[{"open":{"day":1,"time":"1100","date":"2023-04-03"},"close":{"day":1,"time":"2200","date":"2023-04-03"}}]},{"type":"TAKEOUT","periods":[{"open":{"day":1,"time":"0800"},"close":{"day":1,"time":"1000"}}]}]"#
        )
        #expect(place.document["currentSecondaryOpeningHours"]?.arrayValue?.first?["secondaryHoursType"] == "DELIVERY")
        #expect(place.document["regularSecondaryOpeningHours"]?.arrayValue?.first?["secondaryHoursType"] == "TAKEOUT")
        #expect(place.currentSecondaryOpeningHours(.delivery)?.isDated == true)
        #expect(place.secondaryOpeningHours(.takeout)?.periods?.count == 1)
        // Monday 2023-04-03 12:00 at +10:00.
        let at = Date(timeIntervalSince1970: 1_680_487_200)
        #expect(place.isOpen(at: at, secondaryHoursType: .delivery).state == .open)
        #expect(place.isOpen(at: at, secondaryHoursType: .takeout).state == .closed)
    }

    @Test(
        "a malformed time, day or date is refused with the field named, never read as midnight",
        arguments: [
            (
                #""opening_hours":{"periods":[{"open":{"day":1,"time":"8:30"}}]}"#,
                "opening_hours.periods[0].open.time \"8:30\" is not a time HHMM"
            ),
            (
                #""opening_hours":{"periods":[{"open":{"day":1,"time":"0830"},"close":{"day":1,"time":"2575"}}]}"#,
                "opening_hours.periods[0].close.time \"2575\" is not a time HHMM"
            ),
            (
                #""opening_hours":{"periods":[{"open":{"day":8,"time":"0830"}}]}"#,
                "opening_hours.periods[0].open.day 8 is not a weekday 0-6"
            ),
            (
                #""opening_hours":{"periods":[{"open":{"time":"0830"}}]}"#,
                "opening_hours.periods[0].open.day (absent) is not a weekday 0-6"
            ),
            (
                #""opening_hours":{"periods":[{"close":{"day":1,"time":"0830"}}]}"#,
                "opening_hours.periods[0] has no open time"
            ),
            (#""opening_hours":{"periods":{}}"#, "opening_hours.periods is an object, expected an array"),
            (
                #""current_opening_hours":{"periods":[{"open":{"day":1,"time":"0830","date":"2023-02-30"}}]}"#,
                "current_opening_hours.periods[0].open.date \"2023-02-30\" is not a date YYYY-MM-DD"
            ),
            (
                #""current_opening_hours":{"special_days":[{"date":"soon"}]}"#,
                "current_opening_hours.special_days[0].date is not a date YYYY-MM-DD"
            ),
            (
                #""secondary_opening_hours":[{"periods":[{"open":{"day":1,"time":"noon"}}]}]"#,
                "secondary_opening_hours[0].periods[0].open.time \"noon\" is not a time HHMM"
            ),
            (#""secondary_opening_hours":{}"#, "secondary_opening_hours is an object, expected an array"),
        ])
    func malformed(fields: String, message: String) throws {
        do {
            _ = try Self.decode(fields)
            Issue.record("accepted: \(fields)")
        } catch {
            #expect(error.message == message)
            #expect(error.placeID == "L1")
        }
    }
}
