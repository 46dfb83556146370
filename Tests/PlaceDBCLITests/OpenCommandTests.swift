import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("placedb open, place --fields openNow, import --time-zone")
struct OpenCommandTests {
    /// A café in Zurich (Mo-Fr 08:00-18:00, delivery 11:00-22:00 daily), an
    /// OSM-like place without a zone, and a closed one.
    static let input: String = {
        func p(_ d: Int, _ o: Int, _ c: Int) -> String {
            #"{"open":{"day":\#(d),"hour":\#(o),"minute":0},"close":{"day":\#(d),"hour":\#(c),"minute":0}}"#
        }
        let week = (1...5).map { p($0, 8, 18) }.joined(separator: ",")
        let delivery = (0...6).map { p($0, 11, 22) }.joined(separator: ",")
        return """
            {"id":"cafe","displayName":{"text":"Café"},"location":{"latitude":47.37,"longitude":8.54},"timeZone":{"id":"Europe/Zurich"},"businessStatus":"OPERATIONAL","regularOpeningHours":{"periods":[\(week)]},"regularSecondaryOpeningHours":[{"secondaryHoursType":"DELIVERY","periods":[\(delivery)]}]}
            {"id":"osm-node-1","displayName":{"text":"Bakery"},"location":{"latitude":47.37,"longitude":8.54},"regularOpeningHours":\(JSONWriter().string(OSMOpeningHours.regularOpeningHours("Mo-Sa 07:00-12:00; PH off")))}
            {"id":"gone","location":{"latitude":47.37,"longitude":8.54},"businessStatus":"CLOSED_PERMANENTLY"}

            """
    }()

    func imported(timeZone: String? = nil) throws -> CLI {
        let cli = try CLI()
        var args = ["import", try cli.dir.write("in.ndjson", Self.input)]
        if let timeZone { args += ["--time-zone", timeZone] }
        let r = cli.run(args)
        #expect(r.code == 0, "\(r.err)")
        return cli
    }

    func json(_ text: String) throws -> JSONObject { try #require(try JSONValue(parsing: text).objectValue) }

    @Test("open prints the status, reason, next times (UTC in JSON), zone and its source")
    func openJSON() throws {
        let cli = try imported()
        // Monday 2026-03-30 09:30 CEST.
        let r = cli.run(["open", "cafe", "--at", "2026-03-30T07:30:00Z"])
        #expect(r.code == 0, "\(r.err)")
        let o = try json(r.out)
        #expect(o["status"] == "OPEN")
        #expect(o["at"] == "2026-03-30T07:30:00Z")
        #expect(o["localTime"] == "2026-03-30T09:30:00+02:00")
        #expect(o["nextCloseTime"] == "2026-03-30T16:00:00Z")
        #expect(o["nextOpenTime"] == "2026-03-31T06:00:00Z")
        #expect(o["timeZone"] == "Europe/Zurich")
        #expect(o["timeZoneSource"] == "timeZone")
        #expect(o["hours"] == "regularOpeningHours")
        #expect(o["weekdayDescriptions"]?.arrayValue?.count == 7)
        #expect(o["reason"]?.stringValue?.contains("until 18:00") == true)
    }

    @Test("a time without an offset is the wall clock at the place")
    func localTime() throws {
        let cli = try imported()
        let o = try json(cli.run(["open", "places/cafe", "--at", "2026-03-30T18:30"]).out)
        #expect(o["status"] == "CLOSED")
        #expect(o["at"] == "2026-03-30T16:30:00Z")
        #expect(o["nextOpenTime"] == "2026-03-31T06:00:00Z")
    }

    @Test("--hours picks secondary hours; a type the place lacks is UNKNOWN")
    func secondaryHours() throws {
        let cli = try imported()
        let d = try json(cli.run(["open", "cafe", "--at", "2026-03-28T19:00:00Z", "--hours", "DELIVERY"]).out)
        #expect(d["status"] == "OPEN")
        #expect(d["secondaryHoursType"] == "DELIVERY")
        #expect(try json(cli.run(["open", "cafe", "--at", "2026-03-28T19:00:00Z"]).out)["status"] == "CLOSED")
        #expect(try json(cli.run(["open", "cafe", "--hours", "TAKEOUT"]).out)["status"] == "UNKNOWN")
        #expect(cli.run(["open", "cafe", "--hours", "SNACKS"]).code == 64)
    }

    @Test("a place without a zone is UNKNOWN until imported with --time-zone, which open then shows")
    func timeZoneOption() throws {
        let without = try imported()
        let u = try json(without.run(["open", "osm-node-1", "--at", "2026-03-30T08:00:00Z"]).out)
        #expect(u["status"] == "UNKNOWN")
        #expect(u["reason"]?.stringValue?.contains("--time-zone") == true)

        let with = try imported(timeZone: "Europe/Zurich")
        let o = try json(with.run(["open", "osm-node-1", "--at", "2026-03-30T08:00:00Z"]).out)
        #expect(o["status"] == "OPEN")
        #expect(o["timeZone"] == "Europe/Zurich")
        #expect(o["timeZoneSource"] == "import --time-zone")
        #expect(o["hours"] == "regularOpeningHours (OpenStreetMap opening_hours)")
        #expect(o["notes"]?.arrayValue?.contains { $0.stringValue?.contains("public holidays") == true } == true)
        let text = with.run(["open", "osm-node-1", "--at", "2026-03-30T08:00:00Z", "--output", "text"])
        #expect(text.out.hasPrefix("Bakery: OPEN\n"))
        #expect(text.out.contains("Europe/Zurich (from import --time-zone)"))
        #expect(text.out.contains("2026-03-30T12:00:00+02:00"), "local next close in text")
    }

    @Test("closed statuses, unknown IDs and bad times")
    func errors() throws {
        let cli = try imported()
        #expect(try json(cli.run(["open", "gone"]).out)["status"] == "CLOSED")
        let missing = cli.run(["open", "nope"])
        #expect(missing.code == 1)
        #expect(missing.err == "placedb open: NOT_FOUND: no place with ID 'nope'\n")
        let bad = cli.run(["open", "cafe", "--at", "tomorrow"])
        #expect(bad.code == 64)
        #expect(bad.err.contains("invalid time 'tomorrow' for '--at'"))
        #expect(bad.err.split(separator: "\n").count == 2, "the error line and the usage line")
        #expect(cli.run(["open"]).code == 64)
        #expect(cli.run(["open", "a", "b"]).code == 64)
    }

    @Test("import --time-zone refuses a zone Foundation does not know with a usage error")
    func badZone() throws {
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("in.ndjson", Self.input), "--time-zone", "Europe/Atlantis"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown time zone 'Europe/Atlantis'"))
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test("place adds openNow when --fields names it or --at is given, and omits it when unknown")
    func placeOpenNow() throws {
        let cli = try imported()
        let only = try json(cli.run(["place", "cafe", "--fields", "openNow", "--at", "2026-03-30T07:30:00Z"]).out)
        #expect(only.keys == ["openNow"])
        #expect(only["openNow"] == .bool(true))
        let some = try json(cli.run(["place", "cafe", "--fields", "id,openNow", "--at", "2026-03-30T17:30:00Z"]).out)
        #expect(some.keys == ["id", "openNow"])
        #expect(some["openNow"] == .bool(false))
        let all = try json(cli.run(["place", "cafe", "--at", "2026-03-30T07:30:00Z"]).out)
        #expect(all["openNow"] == .bool(true))
        #expect(all["regularOpeningHours"] != nil)
        #expect(try json(cli.run(["place", "cafe"]).out)["openNow"] == nil, "not asked")
        #expect(
            try json(cli.run(["place", "osm-node-1", "--fields", "id,openNow"]).out).keys == ["id"], "unknown: omitted")
        #expect(cli.run(["place", "cafe", "--at", "soon"]).code == 64)
    }
}
