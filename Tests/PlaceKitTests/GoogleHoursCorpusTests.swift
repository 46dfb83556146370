import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// Opening hours on real Google responses from ../shared/data/google. The
/// Tehran captures carry Google's own answer (`openNow`, `nextOpenTime`,
/// `nextCloseTime`) at the scraper's `timestamp`: placedb must give the same
/// from the periods alone.
@Suite(
    "Opening hours on the Google corpus (../shared/data/google)",
    .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
struct GoogleHoursCorpusTests {
    typealias F = HoursFixtures

    static let tehran = CorpusData.files(under: "google/v1/third-party-captures/tehran-restaurants", extension: "json")

    static func decode(_ url: URL) throws -> (place: Place, raw: JSONObject) {
        var value = try JSONValue(parsing: Array(Data(contentsOf: url)))
        if let result = value["result"] { value = result } // a legacy Place Details response
        let decoded = try decodeRecord(SourceRecord(value: value, line: 1, index: 1, container: nil), format: nil)
        return (decoded.place, value.objectValue ?? JSONObject())
    }

    /// Google's answer in `hours` (`openNow`, next times) against ours;
    /// false when `hours` holds no `openNow` to compare with.
    @discardableResult
    static func check(_ place: Place, against hours: JSONObject, at t: Date, _ label: String) -> Bool {
        let s = place.isOpen(at: t)
        guard let openNow = hours["openNow"]?.boolValue else { return false }
        #expect(s.isOpen == openNow, "\(label): Google says openNow \(openNow), placedb \(s)")
        if openNow, let close = hours["nextCloseTime"]?.stringValue {
            #expect(s.nextCloseTime?.rfc3339UTC == close, "\(label): nextCloseTime")
        }
        if !openNow, let open = hours["nextOpenTime"]?.stringValue {
            #expect(s.nextOpenTime?.rfc3339UTC == open, "\(label): nextOpenTime")
        }
        return true
    }

    @Test(
        "every Google capture served at 100 random times: no nextOpenTime or nextCloseTime before the time asked or over 7 days after; on the Tehran places, place's openNow and the open command agree"
    )
    func servedNextTimes() throws {
        let dir = try TempDirectory("placedb-hours-corpus")
        let path = dir.file("places.sqlite")
        let files = CorpusData.files(under: "google", extension: "json").filter { !$0.path.contains("/schema/") }
        do {
            let importer = try PlaceImporter(databasePath: path, options: ImportOptions(onError: .skip))
            // (Files that hold no places, autocomplete predictions, are refused whole.)
            for url in files { _ = try? importer.importInput(.file(url.path)) }
        }
        let reader = try PlaceReader(databasePath: path)
        let db = try Database(path: path, mode: .readOnly)
        var ids: [String] = []
        try db.forEachRow("SELECT place_id FROM place WHERE doc LIKE '%OpeningHours%' ORDER BY place_id") {
            ids.append(try $0.string(0))
        }
        let tehranIDs = Set(try Self.tehran.map { try Self.decode($0).place.id.rawValue })
        try #require(ids.count >= tehranIDs.count && !tehranIDs.isEmpty)
        var random = TestRandom(seed: 31)
        var served = 0, agreed = 0
        let fields = try FieldMask(parsing: "regularOpeningHours,currentOpeningHours")
        for id in ids {
            for _ in 0..<100 {
                // 2023 to 2027, to the second.
                let instant = Date(
                    timeIntervalSince1970: (1_672_531_200 + random.uniform(0, 5 * 365 * 86_400)).rounded(.down))
                let at = HoursQueryTime.instant(instant)
                let details = try JSONValue(
                    parsing: reader.placeDetailsJSON(id: PlaceID(id), fields: fields, openNow: true, at: at))
                for key in ["regularOpeningHours", "currentOpeningHours"] {
                    for name in ["nextOpenTime", "nextCloseTime"] {
                        guard let value = details[key]?[name]?.stringValue else { continue }
                        served += 1
                        let date = try #require(
                            ISO8601DateFormatter().date(from: value), "\(id) \(key).\(name) \(value)")
                        #expect(
                            date > instant && date.timeIntervalSince(instant) <= 7 * 86_400,
                            "\(id) \(key).\(name) \(value) at \(instant.rfc3339UTC)")
                    }
                }
                guard tehranIDs.contains(id) else { continue }
                // What `placedb open` answers: the stored place's status at that time.
                let status = try reader.fetchStoredPlace(id: PlaceID(id)).isOpen(at: at)
                #expect(
                    details["openNow"]?.boolValue == status.isOpen,
                    "\(id) at \(instant.rfc3339UTC): place says \(String(describing: details["openNow"])), open says \(status)"
                )
                if let regular = details["regularOpeningHours"]?.objectValue, details["currentOpeningHours"] == nil {
                    #expect(
                        regular["openNow"]?.boolValue == status.isOpen,
                        "\(id) regularOpeningHours.openNow at \(instant.rfc3339UTC)")
                }
                if details["openNow"]?.boolValue == status.isOpen { agreed += 1 }
            }
        }
        #expect(served > 1000, "the corpus serves next times (\(served))")
        let tehranWithHours = ids.filter(tehranIDs.contains).count
        #expect(tehranWithHours >= 40, "Tehran places with hours: \(tehranWithHours)")
        #expect(agreed == tehranWithHours * 100)
    }

    @Test(
        "Tehran places at +03:30 agree with Google's openNow and next open/close times, from current hours, regular hours, and the offset alone"
    )
    func tehran() throws {
        try #require(!Self.tehran.isEmpty, "no Tehran captures in the corpus")
        var checked = 0, pastMidnight = 0, regularChecked = 0
        for url in Self.tehran {
            let (place, raw) = try Self.decode(url)
            guard let ts = raw["timestamp"]?.intValue, let current = raw["currentOpeningHours"]?.objectValue,
                let regular = raw["regularOpeningHours"]?.objectValue, current["openNow"] != nil
            else { continue }
            let t = Date(timeIntervalSince1970: TimeInterval(ts))
            let name = url.lastPathComponent
            #expect(place.utcOffsetMinutes == 210)
            #expect(Self.check(place, against: current, at: t, "\(name) current"))
            // Regular hours alone, where Google's regular hours say openNow.
            var regularOnly = place
            regularOnly.document["currentOpeningHours"] = nil
            if Self.check(regularOnly, against: regular, at: t, "\(name) regular") { regularChecked += 1 }
            // The half-hour offset alone (Iran keeps +03:30 all year now).
            var offsetOnly = place
            offsetOnly.document["timeZone"] = nil
            let s = offsetOnly.isOpen(at: t)
            #expect(s.timeZone == "UTC+03:30")
            #expect(Self.check(offsetOnly, against: current, at: t, "\(name) utcOffsetMinutes"))
            // The descriptions Google wrote are the ones placedb generates.
            let periods = try #require(place.openingHours?.periods)
            #expect(
                WeekdayDescriptions.generate(periods)
                    == regular["weekdayDescriptions"]?.arrayValue?.compactMap(\.stringValue),
                "\(name) weekdayDescriptions")
            if periods.contains(where: { $0.close != nil && $0.close!.day != $0.open.day }) { pastMidnight += 1 }
            checked += 1
        }
        #expect(checked >= 40, "Tehran places with Google's answer: \(checked)")
        #expect(regularChecked >= 40, "Tehran places whose regular hours Google answered: \(regularChecked)")
        #expect(pastMidnight >= 5, "places open past midnight: \(pastMidnight)")
    }

    @Test("a Tehran place open past midnight closes at 00:15 local, then opens at 12:15")
    func pastMidnight() throws {
        let url = try #require(Self.tehran.first(where: { $0.lastPathComponent == "2017118511925782531.json" }))
        let place = try Self.decode(url).place
        let open = place.isOpen(at: F.at("2025-12-07T20:40:00Z")) // 00:10 on the 8th
        #expect(open.state == .open)
        #expect(open.nextCloseTime == F.at("2025-12-07T20:45:00Z"))
        let closed = place.isOpen(at: F.at("2025-12-07T20:50:00Z"))
        #expect(closed.state == .closed)
        #expect(closed.nextOpenTime == F.at("2025-12-08T08:45:00Z"))
        // Past the seven days of current hours: the regular week.
        let later = place.isOpen(at: F.local("2026-01-10T00:05"))
        #expect(later.state == .open)
        #expect(later.hours == "regularOpeningHours")
        #expect(later.localTime == "2026-01-10T00:05:00+03:30")
    }

    @Test("temporarily closed Tehran places are CLOSED")
    func tehranClosed() throws {
        try #require(!Self.tehran.isEmpty, "no Tehran captures in the corpus")
        var closed = 0
        for url in Self.tehran {
            let (place, raw) = try Self.decode(url)
            guard raw["businessStatus"]?.stringValue == "CLOSED_TEMPORARILY" else { continue }
            #expect(place.isOpen(at: F.at("2025-12-07T12:00:00Z")).state == .closed)
            closed += 1
        }
        #expect(closed >= 3)
    }

    /// A file of the shared corpus (the suite runs only where it is).
    static func shared(_ relative: String) throws -> URL {
        try #require(CorpusData.url(relative), "\(relative) is missing from the corpus")
    }

    @Test("the always-open legacy example is open at any time, with no closing time")
    func alwaysOpenExample() throws {
        let url = try Self.shared(
            "google/legacy/openapi-spec-examples/maps_http_places_details_always_open_response.json")
        let response = try JSONValue(parsing: Array(Data(contentsOf: url)))
        // The example is only the hours: give it an ID, a location and an offset.
        var result = try #require(response["result"]?.objectValue)
        result["place_id"] = "always-open"
        result["geometry"] = ["location": ["lat": 0, "lng": 0]]
        result["utc_offset"] = 600
        let place = try decodeRecord(
            SourceRecord(value: .object(result), line: 1, index: 1, container: nil), format: .placesLegacy
        ).place
        let hours = try #require(place.openingHours)
        #expect(hours.periods == [OpeningPeriod(open: HoursPoint(day: 0, hour: 0, minute: 0), close: nil)])
        #expect(hours.weekdayDescriptionsFromSource)
        #expect(
            hours.weekdayDescriptions == WeekdayDescriptions.generate(hours.periods!),
            "Google's text is what placedb writes")
        for t in ["2026-03-29T01:30:00Z", "2026-07-04T12:00:00Z", "2030-01-01T00:00:00Z"] {
            let s = place.isOpen(at: F.at(t))
            #expect(s.state == .open)
            #expect(s.nextCloseTime == nil)
        }
    }

    @Test("legacy current_opening_hours with dates import as v1 dated periods and decide within their seven days")
    func legacyCurrentHours() throws {
        let url = try Self.shared("google/legacy/java-client-fixtures/PlaceDetailsResponse.json")
        let (place, _) = try Self.decode(url)
        #expect(place.utcOffsetMinutes == 660)
        let current = try #require(place.currentOpeningHours)
        #expect(current.isDated)
        #expect(
            current.periods?.first?.open
                == HoursPoint(day: 1, hour: 8, minute: 30, date: LocalDate(year: 2023, month: 4, day: 3)))
        // Monday 2023-04-03 11:00 at +11:00.
        let s = place.isOpen(at: F.at("2023-04-03T00:00:00Z"))
        #expect(s.state == .open)
        #expect(s.hours == "currentOpeningHours")
        #expect(s.nextCloseTime == F.at("2023-04-03T06:30:00Z"))
        // Saturday 2023-04-01: closed, opens Monday 08:30.
        let weekend = place.isOpen(at: F.at("2023-04-01T01:00:00Z"))
        #expect(weekend.state == .closed)
        #expect(weekend.nextOpenTime == F.at("2023-04-02T21:30:00Z"))
        // A week later the regular hours answer.
        #expect(place.isOpen(at: F.at("2023-04-12T00:00:00Z")).hours == "regularOpeningHours")
    }
}
