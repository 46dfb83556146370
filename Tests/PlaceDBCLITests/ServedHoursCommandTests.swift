import Foundation
import Testing
import PlaceModel
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport

/// Every command that prints a place serves its hours as `place` does
/// (`Place.served(at:)`): `openNow` inside them computed at the time asked,
/// never the captured value; current hours ended more than 7 days before
/// not served. One test per output path, on an inline fixture
/// (`ServedHoursFixture`, always runs)
/// and on the Tehran captures in ../shared/data/google (skipped, saying so,
/// where absent).
@Suite("Served hours on every output path")
struct ServedHoursCommandTests {
    static let fixture = ServedHoursFixture.ndjson
    static let sunday = ServedHoursFixture.sunday
    static let later = ServedHoursFixture.later

    func imported() throws -> CLI {
        let cli = try CLI()
        let file = try cli.dir.write("hours.ndjson", Self.fixture)
        let r = cli.run(["import", file, "--captured-at", "2025-12-01"])
        #expect(r.code == 0, "\(r.err)")
        return cli
    }

    func batch(_ cli: CLI, _ args: [String], _ input: String) throws -> [JSONValue] {
        let console = CapturedConsole(environment: ["PLACEDB_DATABASE": cli.db], input: input)
        let code = CommandLineTool.main(arguments: args, console: console)
        #expect(code == 0, "\(console.stderr)")
        return try console.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
    }

    /// `place` as served: h1 at `sunday` or `later`, h2 at any time.
    func expectServed(_ p: JSONValue?, at time: String, _ label: String, sub: Bool = false) {
        guard let p, let id = p["id"]?.stringValue else { Issue.record("\(label): no place"); return }
        if id == "h2" {
            #expect(p["regularOpeningHours"]?["openNow"] == true, "\(label) h2: \(p)")
            return
        }
        if time == Self.sunday {
            #expect(p["regularOpeningHours"]?["openNow"] == false, "\(label) h1 regular: \(p)")
            #expect(p["currentOpeningHours"]?["openNow"] == false, "\(label) h1 current: \(p)")
            if !sub {
                #expect(
                    p["regularSecondaryOpeningHours"]?.arrayValue?.first?["openNow"] == false,
                    "\(label) h1 delivery: \(p)")
            }
        } else {
            #expect(p["regularOpeningHours"]?["openNow"] == true, "\(label) h1 regular: \(p)")
            #expect(p["currentOpeningHours"] == nil, "\(label) h1: stale current hours served: \(p)")
        }
    }

    func places(_ json: JSONValue) -> [JSONValue] {
        json["places"]?.arrayValue ?? json["placeLikelihoods"]?.arrayValue?.compactMap { $0["place"] } ?? []
    }

    @Test("place --at serves openNow computed at that time (the reference path)")
    func placeAt() throws {
        let cli = try imported()
        for at in [Self.sunday, Self.later] {
            for id in ["h1", "h2"] {
                let r = cli.run(["place", id, "--at", at, "--output", "json"])
                expectServed(try JSONValue(parsing: r.out), at: at, "place \(id) --at \(at)")
            }
        }
    }

    @Test("nearby --output json (written from the stored documents) serves openNow at --at")
    func nearbyJSON() throws {
        let cli = try imported()
        for at in [Self.sunday, Self.later] {
            let r = cli.run(["nearby", "10,10", "--at", at, "--output", "json"])
            #expect(r.code == 0, "\(r.err)")
            let listed = places(try JSONValue(parsing: r.out))
            #expect(listed.count == 2)
            for p in listed { expectServed(p, at: at, "nearby --at \(at)") }
        }
    }

    @Test("nearby with a field mask that cuts into the hours serves openNow at --at")
    func nearbyMasked() throws {
        let cli = try imported()
        for at in [Self.sunday, Self.later] {
            let r = cli.run([
                "nearby", "10,10", "--at", at, "--fields", "id,regularOpeningHours.openNow,currentOpeningHours",
                "--output", "json",
            ])
            #expect(r.code == 0, "\(r.err)")
            let listed = places(try JSONValue(parsing: r.out))
            #expect(listed.count == 2)
            for p in listed {
                expectServed(p, at: at, "nearby masked --at \(at)", sub: true)
                #expect(p["regularOpeningHours"]?["periods"] == nil, "the mask keeps only openNow: \(p)")
            }
        }
    }

    @Test("nearby --batch serves openNow at --at")
    func nearbyBatch() throws {
        let cli = try imported()
        let line = #"{"locationRestriction":{"circle":{"center":{"latitude":10,"longitude":10},"radius":100}}}"#
        for at in [Self.sunday, Self.later] {
            let answers = try batch(cli, ["nearby", "--batch", "--at", at], line + "\n")
            #expect(answers.count == 1)
            let listed = answers.flatMap(places)
            #expect(listed.count == 2)
            for p in listed { expectServed(p, at: at, "nearby --batch --at \(at)") }
        }
    }

    @Test("nearby without --at serves openNow computed now, never the captured value")
    func nearbyNow() throws {
        let cli = try imported()
        let r = cli.run(["nearby", "10,10", "--output", "json"])
        let listed = places(try JSONValue(parsing: r.out))
        let h2 = try #require(listed.first { $0["id"] == "h2" })
        #expect(h2["regularOpeningHours"]?["openNow"] == true, "\(h2)")
        // h1's current hours (December 2025) are stale by now.
        let h1 = try #require(listed.first { $0["id"] == "h1" })
        #expect(h1["currentOpeningHours"] == nil, "\(h1)")
    }

    @Test("current --at serves openNow at --at")
    func currentAt() throws {
        let cli = try imported()
        for at in [Self.sunday, Self.later] {
            for mask in ["*", "id,regularOpeningHours.openNow,currentOpeningHours"] {
                let r = cli.run([
                    "current", "10.00005,10", "--accuracy", "50", "--at", at, "--fields", mask, "--output", "json",
                ])
                #expect(r.code == 0, "\(r.err)")
                let listed = places(try JSONValue(parsing: r.out))
                #expect(listed.count == 2, "\(r.out)")
                for p in listed { expectServed(p, at: at, "current --at \(at) --fields \(mask)", sub: mask != "*") }
            }
        }
    }

    @Test("current without --at (written from the stored documents) serves openNow computed now")
    func currentNow() throws {
        let cli = try imported()
        for mask in ["*", "id,regularOpeningHours,currentOpeningHours"] {
            let r = cli.run(["current", "10.00005,10", "--accuracy", "50", "--fields", mask, "--output", "json"])
            #expect(r.code == 0, "\(r.err)")
            let listed = places(try JSONValue(parsing: r.out))
            let h2 = try #require(listed.first { $0["id"] == "h2" }, "\(r.out)")
            #expect(h2["regularOpeningHours"]?["openNow"] == true, "\(mask): \(h2)")
            let h1 = try #require(listed.first { $0["id"] == "h1" }, "\(r.out)")
            #expect(h1["currentOpeningHours"] == nil, "\(mask): \(h1)")
        }
    }

    @Test("current --batch serves openNow at each line's time, else now")
    func currentBatch() throws {
        let cli = try imported()
        let fix = #""location":{"latitude":10.00005,"longitude":10},"accuracyMeters":50"#
        let input = "{\(fix),\"time\":\"\(Self.sunday)\"}\n{\(fix),\"time\":\"\(Self.later)\"}\n{\(fix)}\n"
        let answers = try batch(cli, ["current", "--batch"], input)
        #expect(answers.count == 3)
        guard answers.count == 3 else { return }
        for p in places(answers[0]) { expectServed(p, at: Self.sunday, "current --batch at \(Self.sunday)") }
        for p in places(answers[1]) { expectServed(p, at: Self.later, "current --batch at \(Self.later)") }
        let h2 = places(answers[2]).first { $0["id"] == "h2" }
        #expect(h2?["regularOpeningHours"]?["openNow"] == true, "\(String(describing: h2))")
    }

    // MARK: The Tehran captures

    static var tehranFiles: [String] { MergeCommandTests.tehranFiles }

    /// `open ID --at T` as openNow: true, false, or nil (unknown).
    func openNow(_ cli: CLI, _ id: String, at: String) throws -> JSONValue? {
        let status = try JSONValue(parsing: cli.run(["open", id, "--at", at, "--output", "json"]).out)["status"]?
            .stringValue
        return status == "OPEN" ? true : status == "CLOSED" ? false : nil
    }

    /// Each listed place's hours agree with `open` at `at`; the number of
    /// hours members compared.
    func compare(_ cli: CLI, _ listed: [JSONValue], at: String, _ label: String, expected: [String: JSONValue?]? = nil)
        throws -> Int
    {
        var compared = 0
        for p in listed {
            let id = try #require(p["id"]?.stringValue)
            let open = try expected?[id] ?? openNow(cli, id, at: at)
            for key in ["regularOpeningHours", "currentOpeningHours"] {
                guard let hours = p[key] else { continue }
                #expect(
                    hours["openNow"] == open,
                    "\(label): \(id) \(key) at \(at): \(String(describing: hours["openNow"])) vs open \(String(describing: open))"
                )
                compared += 1
            }
        }
        return compared
    }

    @Test(
        "Tehran: nearby, nearby --batch and current serve openNow as 'open' answers, at two times",
        .enabled(if: !tehranFiles.isEmpty, "needs the Tehran captures in ../shared/data"))
    func tehranEveryPath() throws {
        let files = Self.tehranFiles
        let cli = try CLI()
        #expect(cli.run(["import"] + files).code == 0)
        var nearby = 0, batched = 0, current = 0
        var stale = 0
        for file in files {
            let record = try JSONValue(parsing: String(contentsOfFile: file, encoding: .utf8))
            let id = try #require(record["id"]?.stringValue)
            guard record["regularOpeningHours"] != nil || record["currentOpeningHours"] != nil else { continue }
            let lat = try #require(record["location"]?["latitude"]?.doubleValue),
                lng = try #require(record["location"]?["longitude"]?.doubleValue)
            // Within the captured week (a Wednesday night), and half a year later.
            for at in ["2025-12-10T03:00:00+03:30", "2026-06-10T13:00:00+03:30"] {
                let expected = [id: try openNow(cli, id, at: at)]
                let r = cli.run(["nearby", "\(lat),\(lng)", "--radius", "1", "--at", at, "--output", "json"])
                let listed = places(try JSONValue(parsing: r.out)).filter { $0["id"]?.stringValue == id }
                #expect(listed.count == 1, "\(id): \(r.err)")
                nearby += try compare(cli, listed, at: at, "nearby", expected: expected)
                if at.hasPrefix("2026"), record["currentOpeningHours"] != nil {
                    #expect(
                        listed.first?["currentOpeningHours"] == nil, "\(id): current hours of 2025 served in June 2026")
                    stale += 1
                }
                let line =
                    #"{"locationRestriction":{"circle":{"center":{"latitude":\#(lat),"longitude":\#(lng)},"radius":1}}}"#
                let b = try batch(
                    cli, ["nearby", "--batch", "--at", at, "--fields", "id,regularOpeningHours,currentOpeningHours"],
                    line + "\n")
                batched += try compare(
                    cli, b.flatMap(places).filter { $0["id"]?.stringValue == id }, at: at, "nearby --batch",
                    expected: expected)
                let c = cli.run(["current", "\(lat),\(lng)", "--accuracy", "5", "--at", at, "--output", "json"])
                current += try compare(
                    cli, places(try JSONValue(parsing: c.out)).filter { $0["id"]?.stringValue == id }, at: at,
                    "current", expected: expected)
            }
        }
        // 43 Tehran places have hours (both members in December, the regular ones in June).
        #expect(nearby > 100 && batched > 100, "nearby \(nearby), batch \(batched)")
        #expect(current > 50, "current \(current)")
        #expect(stale > 10)
    }
}
