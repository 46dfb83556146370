import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

@Suite("Open status: isOpen(at:)")
struct OpenStatusTests {
    typealias F = HoursFixtures

    @Test("a period from Saturday night to Sunday morning wraps the end of the week")
    func weekWrap() throws {
        let place = try F.place(
            #""timeZone":{"id":"UTC"},"regularOpeningHours":{"periods":[\#(F.period(6, "22:00", 0, "02:00"))]}"#)
        // 2026-03-28 is a Saturday.
        Self.expect(
            place, at: "2026-03-29T01:00:00Z", .open, close: "2026-03-29T02:00:00Z", open: "2026-04-04T22:00:00Z")
        Self.expect(
            place, at: "2026-03-28T21:59:59Z", .closed, close: "2026-03-29T02:00:00Z", open: "2026-03-28T22:00:00Z")
        // The close time itself is closed.
        Self.expect(
            place, at: "2026-03-29T02:00:00Z", .closed, close: "2026-04-05T02:00:00Z", open: "2026-04-04T22:00:00Z")
    }

    /// The state and both next times at `time` (RFC 3339 instants).
    static func expect(
        _ place: Place, at time: String, _ state: OpenStatus.State, close: String?, open: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let s = place.isOpen(at: F.at(time))
        #expect(s.state == state, "at \(time): \(s)", sourceLocation: sourceLocation)
        #expect(s.nextCloseTime == close.map(F.at), "nextCloseTime at \(time)", sourceLocation: sourceLocation)
        #expect(s.nextOpenTime == open.map(F.at), "nextOpenTime at \(time)", sourceLocation: sourceLocation)
    }

    @Test("several periods a day and one past midnight")
    func severalPeriods() throws {
        let periods = [F.period(1, "11:30", 1, "14:00"), F.period(1, "18:00", 2, "01:30")].joined(separator: ",")
        let place = try F.place(#""utcOffsetMinutes":0,"regularOpeningHours":{"periods":[\#(periods)]}"#)
        // 2026-03-30 is a Monday.
        Self.expect(
            place, at: "2026-03-30T12:00:00Z", .open, close: "2026-03-30T14:00:00Z", open: "2026-03-30T18:00:00Z")
        Self.expect(
            place, at: "2026-03-30T15:00:00Z", .closed, close: "2026-03-31T01:30:00Z", open: "2026-03-30T18:00:00Z")
        Self.expect(
            place, at: "2026-03-31T01:00:00Z", .open, close: "2026-03-31T01:30:00Z", open: "2026-04-06T11:30:00Z")
    }

    @Test("daylight saving in Europe/Zurich: 2026-03-29 loses an hour, 2026-10-25 gains one")
    func daylightSaving() throws {
        let shop = try F.place(
            #""timeZone":{"id":"Europe/Zurich"},"regularOpeningHours":{"periods":[\#(F.daily("08:00", "18:00"))]}"#)
        // 06:30Z is 08:30 CEST on the first summer-time day (07:30 at the winter offset).
        #expect(shop.isOpen(at: F.at("2026-03-29T06:30:00Z")).state == .open)
        #expect(shop.isOpen(at: F.at("2026-03-28T06:30:00Z")).state == .closed, "07:30 CET the day before")
        let sunday = shop.isOpen(at: F.at("2026-03-29T05:00:00Z"))
        #expect(sunday.nextOpenTime == F.at("2026-03-29T06:00:00Z"))
        #expect(sunday.nextCloseTime == F.at("2026-03-29T16:00:00Z"))
        #expect(sunday.localTime == "2026-03-29T07:00:00+02:00")
        #expect(sunday.timeZone == "Europe/Zurich")
        #expect(sunday.timeZoneSource == .timeZone)
        // The same wall-clock question, asked as a local time.
        #expect(shop.isOpen(at: F.local("2026-03-29T08:30")).state == .open)
        #expect(shop.isOpen(at: F.local("2026-10-25T17:59")).state == .open)
        #expect(shop.isOpen(at: F.at("2026-10-25T16:30:00Z")).state == .open, "17:30 CET after the change")

        let bar = try F.place(
            #""timeZone":{"id":"Europe/Zurich"},"regularOpeningHours":{"periods":[\#(F.daily("22:00", "04:00"))]}"#)
        // 22:00 CET (21:00Z) to 04:00 CEST (02:00Z): five hours that night.
        let spring = bar.isOpen(at: F.at("2026-03-29T00:30:00Z"))
        #expect(spring.state == .open)
        #expect(spring.nextCloseTime == F.at("2026-03-29T02:00:00Z"))
        #expect(bar.isOpen(at: F.at("2026-03-28T20:30:00Z")).nextOpenTime == F.at("2026-03-28T21:00:00Z"))
        // 22:00 CEST (20:00Z) to 04:00 CET (03:00Z): seven hours.
        let autumn = bar.isOpen(at: F.at("2026-10-25T02:30:00Z"))
        #expect(autumn.state == .open)
        #expect(autumn.nextCloseTime == F.at("2026-10-25T03:00:00Z"))
        #expect(bar.isOpen(at: F.at("2026-10-24T19:30:00Z")).nextOpenTime == F.at("2026-10-24T20:00:00Z"))
    }

    @Test(
        "a time skipped by the clock change opens as late as it was past the gap; a repeated one at its first occurrence"
    )
    func skippedAndRepeatedTimes() throws {
        let place = try F.place(
            #""timeZone":{"id":"Europe/Zurich"},"regularOpeningHours":{"periods":[\#(F.daily("02:30", "05:00"))]}"#)
        // 02:30 does not exist on 2026-03-29: read as 03:30 CEST (01:30Z).
        #expect(place.isOpen(at: F.at("2026-03-29T00:00:00Z")).nextOpenTime == F.at("2026-03-29T01:30:00Z"))
        // 02:30 happens twice on 2026-10-25: the first is 02:30 CEST (00:30Z).
        #expect(place.isOpen(at: F.at("2026-10-25T00:00:00Z")).nextOpenTime == F.at("2026-10-25T00:30:00Z"))
        #expect(place.isOpen(at: F.local("2026-10-25T02:45")).state == .open)
    }

    @Test("a fixed UTC offset is used without a zone, and says it ignores daylight saving")
    func fixedOffset() throws {
        let place = try F.place(
            #""utcOffsetMinutes":60,"regularOpeningHours":{"periods":[\#(F.daily("08:00", "18:00"))]}"#)
        let s = place.isOpen(at: F.at("2026-03-29T06:30:00Z"))
        #expect(s.state == .closed, "07:30 at +01:00")
        #expect(s.timeZone == "UTC+01:00")
        #expect(s.timeZoneSource == .utcOffset)
        #expect(s.notes.contains { $0.contains("fixed offset") })
        // Import refuses a zone this system does not know; a database built
        // on a system with a newer tz database may still hold one.
        var unknownZone = try F.place(
            #""utcOffsetMinutes":60,"regularOpeningHours":{"periods":[\#(F.daily("08:00", "18:00"))]}"#)
        unknownZone.document["timeZone"] = ["id": "Mars/Olympus_Mons"]
        let u = unknownZone.isOpen(at: F.at("2026-01-05T10:00:00Z"))
        #expect(u.state == .open)
        #expect(u.notes.contains { $0.contains("Mars/Olympus_Mons") })
    }

    @Test("no time zone and no offset is UNKNOWN, never a guess")
    func missingOffset() throws {
        let place = try F.place(#""regularOpeningHours":{"periods":[\#(F.daily("00:00", "23:59"))]}"#)
        let s = place.isOpen(at: F.at("2026-03-30T12:00:00Z"))
        #expect(s.state == .unknown)
        #expect(s.isOpen == nil)
        #expect(s.reason.contains("no time zone or UTC offset"))
        #expect(s.reason.contains("ImportOptions.timeZone") && !s.reason.contains("--"))
        #expect(s.nextOpenTime == nil && s.nextCloseTime == nil)
        // Asked as a wall-clock time, the answer is still unknown.
        #expect(place.isOpen(at: F.local("2026-03-30T12:00")).state == .unknown)
    }

    @Test(
        "no hours is UNKNOWN; an empty period list is never open; malformed hours (stored before the import refused them) are UNKNOWN naming the field"
    )
    func missingOrBadHours() throws {
        let none = try F.place(#""timeZone":{"id":"UTC"}"#)
        #expect(none.isOpen(at: F.at("2026-03-30T12:00:00Z")).state == .unknown)
        #expect(none.isOpen(at: F.at("2026-03-30T12:00:00Z")).reason.contains("no opening hours"))
        let empty = try F.place(#""timeZone":{"id":"UTC"},"regularOpeningHours":{"periods":[]}"#)
        let e = empty.isOpen(at: F.at("2026-03-30T12:00:00Z"))
        #expect(e.state == .closed)
        #expect(e.nextOpenTime == nil)
        // The import refuses hour 25 (RecordValidationTests); a database
        // written before may hold it.
        #expect(throws: DecodeError.self) {
            try F.place(#""regularOpeningHours":{"periods":[{"open":{"day":1,"hour":25,"minute":0}}]}"#)
        }
        let bad = try F.storedPlace(
            #""timeZone":{"id":"UTC"},"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":25,"minute":0},"close":{"day":1,"hour":26,"minute":0}}]}"#
        )
        let b = bad.isOpen(at: F.at("2026-03-30T12:00:00Z"))
        #expect(b.state == .unknown)
        #expect(b.reason.contains("regularOpeningHours.periods[0].open.hour"))
        let wrongDay = try F.place(
            #""timeZone":{"id":"UTC"},"currentOpeningHours":{"periods":[{"open":\#(F.dated("2026-03-30", "09:00").replacingOccurrences(of: "\"day\":1,", with: "\"day\":3,")),"close":\#(F.dated("2026-03-30", "17:00"))}]}"#
        )
        #expect(wrongDay.isOpen(at: F.at("2026-03-30T12:00:00Z")).reason.contains("is a Monday, but day is 3"))
    }

    @Test("an always-open place (an open with no close) is open with no closing time")
    func alwaysOpen() throws {
        let place = try F.place(
            #""utcOffsetMinutes":-300,"regularOpeningHours":{"periods":[{"open":{"day":0,"hour":0,"minute":0}}]}"#)
        for t in ["2026-01-01T00:00:00Z", "2026-03-29T02:30:00Z", "2026-12-31T23:59:59Z"] {
            let s = place.isOpen(at: F.at(t))
            #expect(s.state == .open)
            #expect(s.nextCloseTime == nil)
            #expect(s.reason.contains("open 24 hours"))
        }
        #expect(place.openingHours?.weekdayDescriptions.first == "Monday: Open 24 hours")
    }

    @Test("permanently and temporarily closed places are CLOSED whatever their hours, with or without a clock")
    func closedStatuses() throws {
        for status in ["CLOSED_PERMANENTLY", "CLOSED_TEMPORARILY"] {
            for zone in [#""timeZone":{"id":"UTC"},"#, ""] {
                let place = try F.place(
                    #"\#(zone)"businessStatus":"\#(status)","regularOpeningHours":{"periods":[{"open":{"day":0,"hour":0,"minute":0}}]}"#
                )
                let s = place.isOpen(at: F.at("2026-03-30T12:00:00Z"))
                #expect(s.state == .closed, "\(status)")
                #expect(s.reason.contains(status))
                #expect(s.nextOpenTime == nil)
            }
        }
    }

    @Test("a FUTURE_OPENING place is closed until its opening date, then its hours apply")
    func futureOpening() throws {
        let hours = [1, 2, 3, 4, 5].map { F.period($0, "09:00", $0, "17:00") }.joined(separator: ",")
        let place = try F.place(
            #""timeZone":{"id":"Europe/Zurich"},"businessStatus":"FUTURE_OPENING","openingDate":{"year":2026,"month":5,"day":1},"regularOpeningHours":{"periods":[\#(hours)]}"#
        )
        let before = place.isOpen(at: F.at("2026-04-20T10:00:00Z"))
        #expect(before.state == .closed)
        #expect(before.reason.contains("opens on 2026-05-01"))
        // 2026-05-01 is a Friday: 09:00 CEST.
        #expect(before.nextOpenTime == F.at("2026-05-01T07:00:00Z"))
        #expect(before.nextCloseTime == F.at("2026-05-01T15:00:00Z"))
        #expect(place.isOpen(at: F.at("2026-04-30T21:59:00Z")).state == .closed, "23:59 local the day before")
        let after = place.isOpen(at: F.at("2026-05-04T08:00:00Z"))
        #expect(after.state == .open)
        #expect(after.notes.contains { $0.contains("FUTURE_OPENING") })
        #expect(place.isOpen(at: F.at("2026-05-02T10:00:00Z")).state == .closed, "a Saturday after opening")

        let undated = try F.place(
            #""timeZone":{"id":"UTC"},"businessStatus":"FUTURE_OPENING","regularOpeningHours":{"periods":[\#(hours)]}"#)
        #expect(undated.isOpen(at: F.at("2026-05-04T10:00:00Z")).state == .closed)

        // Without a clock: well before the date is certain, on or after it is not.
        let noClock = try F.place(#""businessStatus":"FUTURE_OPENING","openingDate":{"year":2026,"month":5,"day":1}"#)
        #expect(noClock.isOpen(at: F.at("2026-04-29T12:00:00Z")).state == .closed)
        #expect(noClock.isOpen(at: F.at("2026-05-01T12:00:00Z")).state == .unknown)
        #expect(noClock.isOpen(at: F.local("2026-04-30T23:00")).state == .closed)
    }

    /// Current hours for 2026-12-21 (Monday) to 2026-12-27: open 09:00-17:00,
    /// but 09:00-12:00 on the 24th and closed on the 25th (special days).
    static let christmas: String = {
        var periods: [String] = []
        for day in 21...27 where day != 25 {
            let date = "2026-12-\(day)"
            periods.append(
                #"{"open":\#(F.dated(date, "09:00")),"close":\#(F.dated(date, day == 24 ? "12:00" : "17:00"))}"#)
        }
        let special = #"[{"date":{"year":2026,"month":12,"day":24}},{"date":{"year":2026,"month":12,"day":25}}]"#
        return
            #""timeZone":{"id":"Europe/Zurich"},"regularOpeningHours":{"periods":[\#(F.daily("09:00", "17:00"))]},"currentOpeningHours":{"periods":[\#(periods.joined(separator: ","))],"specialDays":\#(special)}"#
    }()

    @Test("current hours with special days decide inside the seven days they cover; regular hours outside")
    func specialDays() throws {
        let place = try F.place(Self.christmas)
        let christmasDay = place.isOpen(at: F.at("2026-12-25T10:00:00Z"))
        #expect(christmasDay.state == .closed)
        #expect(christmasDay.hours == "currentOpeningHours")
        #expect(christmasDay.notes.contains { $0.contains("special day") })
        #expect(christmasDay.nextOpenTime == F.at("2026-12-26T08:00:00Z"))
        let eve = place.isOpen(at: F.at("2026-12-24T12:30:00Z"))
        #expect(eve.state == .closed, "13:30 on the 24th, though regular hours say open")
        let eveMorning = place.isOpen(at: F.at("2026-12-24T10:00:00Z"))
        #expect(eveMorning.state == .open)
        #expect(eveMorning.nextCloseTime == F.at("2026-12-24T11:00:00Z"))
        #expect(eveMorning.nextOpenTime == F.at("2026-12-26T08:00:00Z"))
        let later = place.isOpen(at: F.at("2026-12-29T10:00:00Z"))
        #expect(later.state == .open)
        #expect(later.hours == "regularOpeningHours")
        let before = place.isOpen(at: F.at("2026-12-18T10:00:00Z"))
        #expect(before.hours == "regularOpeningHours")
        #expect(before.state == .open)
    }

    @Test("a period cut at the edge of the seven days continues in the regular hours")
    func truncatedPeriods() throws {
        // Open 20:00-02:00 every day; current hours for 2026-03-02 (Mon) to 03-08
        // start with the tail of Sunday's night and end cut at 23:59.
        var periods = [
            #"{"open":\#(F.dated("2026-03-02", "00:00", truncated: true)),"close":\#(F.dated("2026-03-02", "02:00"))}"#
        ]
        for day in 2...7 {
            periods.append(
                #"{"open":\#(F.dated("2026-03-0\(day)", "20:00")),"close":\#(F.dated("2026-03-0\(day + 1)", "02:00"))}"#
            )
        }
        periods.append(
            #"{"open":\#(F.dated("2026-03-08", "20:00")),"close":\#(F.dated("2026-03-08", "23:59", truncated: true))}"#)
        let place = try F.place(
            #""utcOffsetMinutes":0,"regularOpeningHours":{"periods":[\#(F.daily("20:00", "02:00"))]},"currentOpeningHours":{"periods":[\#(periods.joined(separator: ","))]}"#
        )
        let last = place.isOpen(at: F.at("2026-03-08T23:30:00Z"))
        #expect(last.state == .open)
        #expect(last.nextCloseTime == F.at("2026-03-09T02:00:00Z"), "the real close, from the regular hours")
        let first = place.isOpen(at: F.at("2026-03-02T01:00:00Z"))
        #expect(first.state == .open)
        #expect(first.nextCloseTime == F.at("2026-03-02T02:00:00Z"))

        // Without regular hours the cut edge is where the knowledge ends.
        let currentOnly = try F.place(
            #""utcOffsetMinutes":0,"currentOpeningHours":{"periods":[\#(periods.joined(separator: ","))]}"#)
        let edge = currentOnly.isOpen(at: F.at("2026-03-08T23:30:00Z"))
        #expect(edge.state == .open)
        #expect(edge.nextCloseTime == nil)
        #expect(edge.reason.contains("do not say until when"))
        let outside = currentOnly.isOpen(at: F.at("2026-03-10T12:00:00Z"))
        #expect(outside.state == .unknown)
        #expect(outside.reason.contains("2026-03-02 to 2026-03-08"))
    }

    @Test("secondary hours are evaluated by type; a type the place lacks is UNKNOWN")
    func secondaryHours() throws {
        let delivery = #"{"secondaryHoursType":"DELIVERY","periods":[\#(F.daily("11:00", "22:00"))]}"#
        let takeout = #"{"secondaryHoursType":"TAKEOUT","periods":[\#(F.daily("07:00", "10:00"))]}"#
        let place = try F.place(
            #""timeZone":{"id":"UTC"},"regularOpeningHours":{"periods":[\#(F.daily("08:00", "20:00"))]},"regularSecondaryOpeningHours":[\#(delivery),\#(takeout)]"#
        )
        let t = F.at("2026-03-30T21:00:00Z")
        #expect(place.isOpen(at: t).state == .closed)
        let d = place.isOpen(at: t, secondaryHoursType: .delivery)
        #expect(d.state == .open)
        #expect(d.hours == "regularSecondaryOpeningHours[DELIVERY]")
        #expect(place.isOpen(at: t, secondaryHoursType: .takeout).state == .closed)
        let none = place.isOpen(at: t, secondaryHoursType: .driveThrough)
        #expect(none.state == .unknown)
        #expect(none.reason.contains("DRIVE_THROUGH"))
        #expect(place.secondaryHoursTypes == [.delivery, .takeout])
    }

    @Test("RFC 3339 times: offsets and Z are instants, no offset is the wall clock at the place")
    func queryTimes() throws {
        #expect(HoursQueryTime(parsing: "2026-03-29T10:00:00+02:00") == .instant(F.at("2026-03-29T08:00:00Z")))
        #expect(HoursQueryTime(parsing: "2026-03-29t08:00:00.250z") == .instant(F.at("2026-03-29T08:00:00Z")))
        #expect(HoursQueryTime(parsing: "2025-12-07 14:23:37+03:30") == .instant(F.at("2025-12-07T10:53:37Z")))
        if case .local(let wall)? = HoursQueryTime(parsing: "2026-03-29T10:00") {
            #expect(wall.description == "2026-03-29T10:00:00")
        } else {
            Issue.record("a time without an offset should be local")
        }
        for bad in [
            "", "2026-03-29", "2026-02-30T10:00", "2026-03-29T24:00", "2026-03-29T10:00+2", "10:00",
            "2026-03-29T10:00:00+02:00x", "next tuesday",
        ] {
            #expect(HoursQueryTime(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("weekday descriptions are kept when given and generated in the API's English when absent")
    func weekdayDescriptions() throws {
        let periods = [
            F.period(1, "12:00", 1, "16:00"), F.period(1, "19:30", 1, "23:00"), F.period(2, "08:00", 2, "22:00"),
            F.period(5, "12:15", 6, "00:15"),
        ].joined(separator: ",")
        let generated = try #require(try F.place(#""regularOpeningHours":{"periods":[\#(periods)]}"#).openingHours)
        #expect(!generated.weekdayDescriptionsFromSource)
        #expect(
            generated.weekdayDescriptions == [
                "Monday: 12:00\u{2009}–\u{2009}4:00\u{202F}PM, 7:30\u{2009}–\u{2009}11:00\u{202F}PM",
                "Tuesday: 8:00\u{202F}AM\u{2009}–\u{2009}10:00\u{202F}PM",
                "Wednesday: Closed", "Thursday: Closed",
                "Friday: 12:15\u{202F}PM\u{2009}–\u{2009}12:15\u{202F}AM",
                "Saturday: Closed", "Sunday: Closed",
            ])
        let kept = try #require(
            try F.place(
                #""regularOpeningHours":{"periods":[\#(periods)],"weekdayDescriptions":["Lundi: 12:00–16:00"]}"#
            ).openingHours)
        #expect(kept.weekdayDescriptionsFromSource)
        #expect(kept.weekdayDescriptions == ["Lundi: 12:00–16:00"])
    }
}
