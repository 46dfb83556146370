import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

@Suite("OpenStreetMap opening_hours")
struct OSMOpeningHoursTests {
    typealias F = HoursFixtures

    /// A place with OSM hours, in a zone, as an OSM decoder would build it.
    static func place(_ text: String, zone: String = "UTC") throws -> Place {
        Place(
            id: "osm:n1", coordinate: Coordinate(latitude: 46.5, longitude: 6.6),
            document: JSONObject([
                ("timeZone", ["id": .string(zone)]), ("regularOpeningHours", OSMOpeningHours.regularOpeningHours(text)),
            ]))
    }

    static func state(_ text: String, _ time: String) throws -> OpenStatus.State {
        try place(text).isOpen(at: F.at(time)).state
    }

    // 2026-03-30 is a Monday.
    @Test(
        "common forms evaluate",
        arguments: [
            ("Mo-Fr 08:00-18:00; Sa 09:00-13:00", "2026-03-30T08:00:00Z", OpenStatus.State.open),
            ("Mo-Fr 08:00-18:00; Sa 09:00-13:00", "2026-03-30T18:00:00Z", .closed),
            ("Mo-Fr 08:00-18:00; Sa 09:00-13:00", "2026-04-04T12:59:00Z", .open),
            ("Mo-Fr 08:00-18:00; Sa 09:00-13:00", "2026-04-05T12:00:00Z", .closed),
            ("Mo-Fr 08:00-12:00,13:30-18:30", "2026-03-30T13:00:00Z", .closed),
            ("Mo-Fr 08:00-12:00, 13:30-18:30", "2026-03-30T14:00:00Z", .open),
            ("24/7", "2026-03-29T03:00:00Z", .open),
            ("closed", "2026-03-30T12:00:00Z", .closed),
            ("off", "2026-03-30T12:00:00Z", .closed),
            ("Mo-Su 18:00-03:00", "2026-03-31T02:30:00Z", .open),
            ("Fr 20:00-26:00", "2026-04-04T01:30:00Z", .open),
            ("Fr 20:00-26:00", "2026-04-04T02:30:00Z", .closed),
            ("We-Mo 10:00-12:00", "2026-03-30T11:00:00Z", .open),
            ("We-Mo 10:00-12:00", "2026-03-31T11:00:00Z", .closed),
            ("Mo-Fr 09:00-18:00; We 09:00-12:00", "2026-04-01T13:00:00Z", .closed),
            ("Mo-Fr 09:00-18:00; We 09:00-12:00", "2026-04-02T13:00:00Z", .open),
            ("Mo-Fr 10:00-18:00; Sa,Su,PH off", "2026-04-05T12:00:00Z", .closed),
            ("Mo 10:00-12:00, We 14:00-16:00", "2026-04-01T15:00:00Z", .open),
            ("mo-fr 8:30-12:00", "2026-03-30T08:45:00Z", .open),
            ("Sa, Su 09:00-16:00", "2026-04-04T08:00:00Z", .closed),
            ("Sa, Su 09:00-16:00", "2026-04-04T10:00:00Z", .open),
            ("Apr-Oct 09:00-18:30; Nov-Mar 09:00-17:30", "2026-01-15T18:00:00Z", .closed),
            ("Apr-Oct 09:00-18:30; Nov-Mar 09:00-17:30", "2026-04-15T18:00:00Z", .open),
            ("Mo-Su 10:00-19:00; Dec 25 off", "2026-12-25T12:00:00Z", .closed),
            ("Mo-Su 10:00-19:00; Dec 25,26 off", "2026-12-26T12:00:00Z", .closed),
            ("Mo-Su 10:00-19:00; Dec 25,26 off", "2026-12-27T12:00:00Z", .open),
            ("Jun 15-Sep 15: 10:00-20:00", "2026-09-15T19:00:00Z", .open),
            ("Jun 15-Sep 15: 10:00-20:00", "2026-09-16T12:00:00Z", .closed),
            ("Nov-Feb Mo-Fr 10:00-16:00", "2027-02-01T12:00:00Z", .open),
            ("Nov-Feb Mo-Fr 10:00-16:00", "2026-03-02T12:00:00Z", .closed),
            ("Mo-Su 09:00-18:00; 2026 Jul 1-2026 Aug 8 off", "2026-07-20T12:00:00Z", .closed),
            ("Mo-Su 09:00-18:00; 2026 Jul 1-2026 Aug 8 off", "2027-07-20T12:00:00Z", .open),
            ("01:00-01:00", "2026-03-30T00:30:00Z", .open),
        ])
    func commonForms(text: String, time: String, expected: OpenStatus.State) throws {
        guard case .supported = OSMOpeningHours.parse(text) else {
            Issue.record("'\(text)' should be supported")
            return
        }
        #expect(try Self.state(text, time) == expected, "'\(text)' at \(time)")
    }

    @Test(
        "forms left unevaluated are UNKNOWN with the form named",
        arguments: [
            ("sunrise-sunset", OSMOpeningHours.UnsupportedForm.variableTime),
            ("Mo-Fr 08:00-dusk", .variableTime),
            ("\"by appointment\"", .comment),
            ("Mo-Fr 10:00-18:00 \"lunch\"", .comment),
            ("Mo-Sa 18:00+", .openEnd),
            ("Mo-Fr 08:00-21:00+", .openEnd),
            ("Tu-Sa 13:00-19:00; Su,SH 11:00-17:00", .schoolHolidays),
            ("Mo[1] 10:00-12:00", .nthWeekday),
            ("week 01-53/2 Fr 10:00-12:00", .weekNumbers),
            ("easter off", .easter),
            ("Mo-Fr 10:00-18:00 || \"on appointment\"", .comment),
            ("Tu-Th 19:00-01:00 || Fr-Sa 19:00-03:00", .fallbackRule),
            ("Mo-Fr 10:00-18:00 unknown", .unknownState),
            ("Mo-Su 10:00-01:00, Su 10:00-11:00 off", .offWithTimes),
            ("Mo-Fr", .daysWithoutTimes),
            ("Jun 15-Sep 15", .daysWithoutTimes),
            ("Mo-Fr 10:00-18:00; 11:00-15:00", .ambiguousOrder),
            ("Su 08:30-14:00; Su 16:30-20:00", .ambiguousOrder),
            ("May 29 off; Mo-Fr 09:00-18:00", .ambiguousOrder),
            ("PH off; Mo-Fr 09:00-18:00", .ambiguousOrder),
            ("Nov-Mar Mo-Fr 11:30-17:00, Mo-Su 17:00-01:00", .additionalAfterDates),
            ("Mo-Fr 10:00-18:60", .invalidTime),
            ("Mo-Fr 09:00-20:0", .invalidTime),
            ("0000 Jan 01 off", .invalidTime),
            ("1850 Dec 25 10:00-12:00", .invalidTime),
            ("08:00", .pointInTime),
            ("Mon - Fri 11am - 11pm", .syntax),
            ("15 Jun-15 Sep", .syntax),
            ("Mo-Fr 08:00-18:00 Sa 09:00-12:00", .syntax),
            ("Mo–Fr 08:00-18:00", .syntax),
            ("+423 232 48 18", .syntax),
            ("Jan-Dez", .syntax),
            ("", .empty),
        ])
    func unsupportedForms(text: String, form: OSMOpeningHours.UnsupportedForm) throws {
        guard case .unsupported(let u) = OSMOpeningHours.parse(text) else {
            Issue.record("'\(text)' should be left unevaluated")
            return
        }
        #expect(u.form == form, "'\(text)': \(u.reason)")
        #expect(!u.reason.contains("\n"))
        let s = try Self.place(text).isOpen(at: F.at("2026-03-30T12:00:00Z"))
        #expect(s.state == .unknown)
        #expect(s.reason.contains("is not evaluated"))
        // The text is kept as it came, for the reader.
        #expect(try Self.place(text).document["regularOpeningHours"]?[OSMOpeningHours.jsonKey] == .string(text))
    }

    @Test(
        "a date range in the year 9999 is checked without a year 10000 (a fuzz finding: the rule-order check trapped)")
    func lastYear() throws {
        for text in [
            "9999 Dec 20:00-03:00", "9999 Dec 10:00-12:00; 9999 Dec 25 off", "2026 Jan-9999 Dec Mo-Fr 09:00-17:00",
        ] {
            guard case .supported(let parsed) = OSMOpeningHours.parse(text) else {
                Issue.record("'\(text)' should be supported")
                continue
            }
            let dec30 = try #require(LocalDate(year: 9999, month: 12, day: 30))
            #expect(!parsed.day(dec30).open.isEmpty || text.hasPrefix("2026"), "'\(text)'")
        }
        let weekday = try #require(LocalDate(year: 9999, month: 12, day: 29)) // a Wednesday
        guard case .supported(let range) = OSMOpeningHours.parse("2026 Jan-9999 Dec Mo-Fr 09:00-17:00") else {
            Issue.record("'2026 Jan-9999 Dec Mo-Fr 09:00-17:00' should be supported")
            return
        }
        #expect(range.day(weekday).open.map { [$0.start, $0.end] } == [[540, 1020]])
    }

    @Test("PH rules are parsed; public holidays are not known offline, and the status says so")
    func publicHolidays() throws {
        let place = try Self.place("Mo-Fr 10:00-18:00; PH off")
        let s = place.isOpen(at: F.at("2026-12-25T12:00:00Z"))
        #expect(s.state == .open, "Christmas is a Friday in 2026; holidays are not known")
        #expect(s.notes.contains { $0.contains("public holidays") })
        #expect(try Self.state("PH 10:00-12:00", "2026-12-25T11:00:00Z") == .closed)
        #expect(try Self.state("PH,Mo-Su 08:30-23:00", "2026-03-30T22:00:00Z") == .open)
    }

    @Test("a range past midnight that a ';' rule for the next day may replace is UNKNOWN, not guessed")
    func midnightReadings() throws {
        let text = "Mo-Th 17:00-03:00; Fr-Su 15:00-03:00"
        // Thursday night past midnight: Friday's rule may replace it.
        let friday = try Self.place(text).isOpen(at: F.at("2026-04-03T01:00:00Z"))
        #expect(friday.state == .unknown)
        #expect(friday.reason.contains("two ways"))
        let thursday = try Self.place(text).isOpen(at: F.at("2026-04-02T23:00:00Z"))
        #expect(thursday.state == .open)
        #expect(thursday.nextCloseTime == nil, "it closes at midnight or at 03:00")
        #expect(try Self.state(text, "2026-04-03T04:00:00Z") == .closed)
        // Saturday night into Sunday: the same rule, no doubt.
        #expect(try Self.state(text, "2026-04-05T02:00:00Z") == .open)
        // One rule for every day: no doubt either.
        #expect(try Self.state("Mo-Su 22:00-02:00", "2026-03-31T01:00:00Z") == .open)
        // With ',' the range is added, not replaced.
        #expect(try Self.state("Mo-Th 17:00-03:00, Fr-Su 15:00-03:00", "2026-04-03T01:00:00Z") == .open)
        guard case .supported(let parsed) = OSMOpeningHours.parse(text) else { Issue.record("supported"); return }
        #expect(parsed.weeklyPeriods == nil, "no v1 periods for hours with undecided minutes")
    }

    @Test("weekly hours export as v1 periods that evaluate like the rules")
    func weeklyPeriods() throws {
        let values = [
            "Mo-Fr 08:00-18:00; Sa 09:00-13:00", "Mo-Su 00:00-06:00,18:00-24:00", "24/7", "Tu-Su 10:00-17:30; PH off",
            "Mo-Fr 16:00-01:00, Sa,Su 12:00-01:00", "Fr 20:00-26:00", "We-Mo 10:00-12:00", "closed",
        ]
        for text in values { try Self.periodsMatchRules(text) }
        guard case .supported(let p) = OSMOpeningHours.parse("Mo-Su 00:00-06:00,18:00-24:00") else {
            Issue.record("supported"); return
        }
        // Ranges that meet at midnight join: Monday 18:00 to Tuesday 06:00.
        #expect(p.weeklyPeriods?.count == 7)
        #expect(p.weeklyPeriods?.first { $0.open.day == 1 }?.close == HoursPoint(day: 2, hour: 6, minute: 0))
        guard case .supported(let always) = OSMOpeningHours.parse("24/7") else { Issue.record("supported"); return }
        #expect(always.weeklyPeriods == [OpeningPeriod(open: HoursPoint(day: 0, hour: 0, minute: 0), close: nil)])
        #expect(always.weekdayDescriptions?.first == "Monday: Open 24 hours")
    }

    /// Every half hour of a week (and a bit), the exported periods (read as
    /// Google's periods) and the OSM rules agree. Returns whether the value
    /// had weekly periods to compare (hours that change over the year have
    /// none); `required`: a value without them is a failure.
    @discardableResult
    static func periodsMatchRules(_ text: String, required: Bool = true) throws -> Bool {
        guard case .supported(let parsed) = OSMOpeningHours.parse(text), let periods = parsed.weeklyPeriods else {
            if required { Issue.record("'\(text)': expected supported hours with weekly periods") }
            return false
        }
        let rules = try place(text)
        let plain = Place(
            id: "v1", coordinate: Coordinate(latitude: 0, longitude: 0),
            document: JSONObject([
                ("timeZone", ["id": "UTC"]), ("regularOpeningHours", ["periods": .array(periods.map(\.json))]),
            ]))
        let start = F.at("2026-03-30T00:00:00Z")
        for step in 0..<(8 * 48) {
            let t = start.addingTimeInterval(Double(step) * 1800)
            let a = rules.isOpen(at: t), b = plain.isOpen(at: t)
            #expect(a.state == b.state, "'\(text)' at \(t.rfc3339UTC): rules \(a.state), periods \(b.state)")
            #expect(
                a.nextCloseTime == b.nextCloseTime && a.nextOpenTime == b.nextOpenTime, "'\(text)' at \(t.rfc3339UTC)")
        }
        return true
    }

    @Test("the wiring an OSM decoder uses gives v1 JSON with the text kept")
    func wiring() throws {
        let json = OSMOpeningHours.regularOpeningHours("Mo-Fr 08:00-18:00")
        #expect(json[OSMOpeningHours.jsonKey] == "Mo-Fr 08:00-18:00")
        #expect(json["periods"]?.arrayValue?.count == 5)
        #expect(
            json["weekdayDescriptions"]?.arrayValue?.first
                == .string("Monday: 8:00\u{202F}AM\u{2009}–\u{2009}6:00\u{202F}PM"))
        let seasonal = OSMOpeningHours.regularOpeningHours("Apr-Oct 09:00-18:00")
        #expect(seasonal["periods"] == nil, "hours that change over the year have no single week")
        // Without a zone (an OSM place imported without --time-zone): UNKNOWN.
        let noZone = Place(
            id: "osm:n2", coordinate: Coordinate(latitude: 0, longitude: 0),
            document: JSONObject([("regularOpeningHours", json)]))
        #expect(noZone.isOpen(at: F.at("2026-03-30T10:00:00Z")).state == .unknown)
    }

    @Test(
        "the share of ../shared/data/osm opening_hours values evaluated, and the forms left",
        .enabled(if: CorpusData.has("osm"), "needs ../shared/data/osm"))
    func corpusCoverage() throws {
        let files =
            CorpusData.files(under: "osm/poi", extension: "geojsonseq")
            + CorpusData.files(under: "osm/poi-nwr", extension: "geojsonseq")
        try #require(!files.isEmpty, "no OSM exports in the corpus")
        var coverage = OSMOpeningHours.Coverage()
        var supported: [String] = []
        for url in files {
            for line in try Data(contentsOf: url).split(separator: 0x0A) {
                let bytes = Array(line.drop { $0 == 0x1E })
                guard !bytes.isEmpty, let v = try JSONValue(parsing: bytes)["properties"]?["opening_hours"]?.stringValue
                else { continue }
                coverage.add(v)
                if case .supported = OSMOpeningHours.parse(v) { supported.append(v) }
            }
        }
        print(
            "OSM opening_hours: \(coverage.evaluated) of \(coverage.values) values evaluated (\(String(format: "%.1f", 100 * coverage.share))%), \(coverage.distinctEvaluated) of \(coverage.distinctValues) distinct"
        )
        for f in coverage.leftForms {
            print("  left: \(f.form.rawValue): \(f.count) values (\(f.distinct) distinct), e.g. \(f.examples[0])")
        }
        #expect(coverage.values > 6000)
        #expect(coverage.share > 0.9, "a regression in the parser: \(coverage.share)")
        // Every weekly value's v1 periods evaluate like its rules (a sample).
        var compared = 0
        for text in Set(supported).sorted().enumerated().filter({ $0.offset % 60 == 0 }).map(\.element) {
            if try Self.periodsMatchRules(text, required: false) { compared += 1 }
        }
        #expect(compared >= 10, "the sample compared \(compared) weekly values")
    }

    // MARK: Length (adversarial probe item 4)

    /// The steps `parse` counts for `n` rules made by `rule`, joined by
    /// `separator`, with no length bound.
    static func steps(_ n: Int, separator: String, _ rule: (Int) -> String) -> Int {
        let text = (0..<n).map(rule).joined(separator: separator)
        var steps = 0
        guard case .supported = OSMOpeningHours.parse(text, maxBytes: .max, steps: &steps) else {
            Issue.record("\(n) rules should parse")
            return 0
        }
        return steps
    }

    static let weekdays = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    @Test(
        "parsing does work linear in the number of rules, counted not timed: twice the rules, at most 2.1 times the steps",
        arguments: [", ", "; "])
    func parseIsLinear(separator: String) {
        // ',' rules on every weekday; ';' rules for holidays (the only ';'
        // rules that can follow one another without one wiping out another).
        let rule: (Int) -> String =
            separator == ", "
            ? { "\(Self.weekdays[$0 % 7]) \(8 + $0 % 9):00-\(18 + $0 % 5):30" }
            : { "PH \(8 + $0 % 9):00-\(18 + $0 % 5):30" }
        let a = Self.steps(1_000, separator: separator, rule), b = Self.steps(2_000, separator: separator, rule)
        #expect(a > 1_000)
        #expect(b <= a * 21 / 10, "1,000 rules: \(a) steps; 2,000 rules: \(b)")
    }

    @Test(
        "the one-pass rule-order check refuses what the pairwise one did, naming the same rules",
        arguments: [
            (
                "Mo-Fr 10:00-18:00; Sa 10:00-12:00; Mo-Su 11:00-15:00",
                "the rule 'Mo-Su 11:00-15:00' overrides the earlier rule 'Mo-Fr 10:00-18:00'"
            ),
            (
                "Sa,PH 10:00-12:00; Mo-Fr 09:00-17:00; Sa 08:00-09:00",
                "the holiday rule 'Sa,PH 10:00-12:00' comes before 'Mo-Fr 09:00-17:00'"
            ),
            (
                "Mo 10:00-12:00, Tu 10:00-12:00; Tu-We 09:00-17:00",
                "the rule 'Tu-We 09:00-17:00' overrides the earlier rule 'Tu 10:00-12:00'"
            ),
        ])
    func weeklyOrder(text: String, reason: String) {
        guard case .unsupported(let u) = OSMOpeningHours.parse(text) else {
            Issue.record("'\(text)' should be left unevaluated")
            return
        }
        #expect(u.form == .ambiguousOrder)
        #expect(u.reason.hasPrefix(reason), "\(u.reason)")
    }

    @Test(
        "a value over maxBytes is unsupported as too long, before it is read; the place keeps it and its hours are UNKNOWN"
    )
    func tooLong() throws {
        let rules = (0..<20_000).map { "\(Self.weekdays[$0 % 7]) 08:00-\(10 + $0 % 9):00" }.joined(separator: ", ")
        #expect(rules.utf8.count > 300_000)
        var steps = 0
        guard case .unsupported(let u) = OSMOpeningHours.parse(rules, maxBytes: OSMOpeningHours.maxBytes, steps: &steps)
        else {
            Issue.record("a 20,000-rule value should be refused as too long")
            return
        }
        #expect(u.form == .tooLong)
        #expect(u.reason.hasPrefix("the value is \(rules.utf8.count) bytes long; placedb reads at most 2048"))
        #expect(steps == 0, "nothing is read")
        let place = try Self.place(rules)
        #expect(place.document["regularOpeningHours"]?[OSMOpeningHours.jsonKey] == .string(rules))
        #expect(place.document["regularOpeningHours"]?["periods"] == nil)
        #expect(place.isOpen(at: F.at("2026-03-30T12:00:00Z")).state == .unknown)
        // At the bound, a value is read.
        var atBound = "Mo-Fr 08:00-18:00"
        atBound += String(repeating: " ", count: OSMOpeningHours.maxBytes - atBound.utf8.count)
        guard case .supported = OSMOpeningHours.parse(atBound) else {
            Issue.record("a value of maxBytes should be read"); return
        }
    }
}
