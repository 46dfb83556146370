import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

/// Importing the same places again (docs/merging.md), on the real Google
/// files in ../shared/data/google: full then field-masked then older
/// captures of the same places; the Tehran files carry their own timestamps.
/// The tests that read it are reported skipped where it is absent.
@Suite("Merging repeated imports (../shared/data/google)")
struct MergeCommandTests {
    /// A file under google/ in the corpus (the tests that call this run
    /// only where the corpus is).
    static func shared(_ relative: String) throws -> String {
        try #require(CorpusData.url("google/" + relative), "google/\(relative) is missing from the corpus").path
    }

    static let persist = "v1/third-party-captures/persist-mn/places_detail_api_response"
    static let legacyCurrent = "legacy/java-client-fixtures/PlaceDetailsResponse.json"
    static let legacy2015 = "legacy/java-client-fixtures/history/PlaceDetailsResponse@2015-09-23.json"
    static let nearbyLegacy = "legacy/openapi-spec-examples/maps_http_places_nearbysearch_response.json"
    static let tehran = "v1/third-party-captures/tehran-restaurants"

    static var tehranFiles: [String] {
        CorpusData.files(under: "google/" + tehran, extension: "json").map(\.path)
    }

    func place(_ cli: CLI, _ id: String, _ extra: [String] = []) throws -> JSONObject {
        let r = cli.run(["place", id, "--output", "json"] + extra)
        #expect(r.code == 0, "\(r.err)")
        return try #require(try JSONValue(parsing: r.out).objectValue)
    }

    @Test(
        "a field-masked response after a full one updates only the members it carries",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func maskedAfterFull() throws {
        let full = try Self.shared(Self.persist + ".full.json"),
            masked = try Self.shared(Self.persist + ".fieldmask.json")
        let cli = try CLI()
        #expect(cli.run(["import", full, "--captured-at", "2026-01-01"]).code == 0)
        let id = "ChIJj61dQgK6j4AR4GeTYWZsKWw"
        // Within the week its currentOpeningHours covers (January 2026).
        let at = ["--at", "2026-01-28T12:00:00-08:00"]
        let before = try place(cli, id, at)
        let r = cli.run(["import", masked, "--captured-at", "2026-02-01", "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        #expect(try JSONValue(parsing: r.out)["total"]?["updated"]?.intValue == 1)
        let after = try place(cli, id, at)
        // Nothing the full response knew is lost (34 members, not 12).
        // (`--at` adds the computed top-level openNow.)
        #expect(
            after.keys == before.keys && before.keys.filter { $0 != "openNow" }.count == 34,
            "\(before.count) -> \(after.count)")
        for key in ["rating", "regularOpeningHours", "reviews", "currentOpeningHours", "editorialSummary"] {
            #expect(after[key] != nil, "\(key) was dropped")
        }
        // The members the masked response carries are its values.
        let maskedJSON = try JSONValue(parsing: String(contentsOfFile: masked, encoding: .utf8))
        #expect(after["photos"] == maskedJSON["photos"])
        #expect(after["types"] == maskedJSON["types"])
        // Each member remembers its capture.
        let provenance = try place(cli, id, ["--provenance"])["provenance"]
        #expect(provenance?["members"]?["rating"] == "2026-01-01T00:00:00Z")
        #expect(provenance?["members"]?["photos"] == "2026-02-01T00:00:00Z")
        #expect(provenance?["capturedAt"] == "2026-02-01T00:00:00Z")
    }

    /// `place ID --fields '*'` without the openNow members (computed at query time).
    func details(_ cli: CLI, _ id: String) throws -> JSONValue {
        var o = try place(cli, id, ["--fields", "*", "--at", "2026-01-15T12:00:00Z"])
        for key in Place.hoursMembers {
            if let v = o[key] { o[key] = Self.withoutOpenNow(v) }
        }
        return .object(o)
    }

    static func withoutOpenNow(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(var o): o["openNow"] = nil; return .object(o)
        case .array(let a): return .array(a.map(withoutOpenNow))
        default: return v
        }
    }

    @Test(
        "every Google place: a re-import masked to id,displayName,location gives the same details, member for member",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func wholeCorpusMaskedReimport() throws {
        let files = CorpusData.files(under: "google", extension: "json").map(\.path).filter { !$0.contains("/schema/") }
        try #require(!files.isEmpty, "too few files in the corpus")
        let cli = try CLI()
        let first = cli.run(["import", "--on-error", "skip", "--output", "json"] + files)
        #expect(first.code == 65, "some files hold no places (autocomplete, errors): \(first.err)")
        let ids = try Self.storedIDs(cli.db)
        #expect(ids.count > 150, "\(ids.count) places")
        var before: [String: JSONValue] = [:]
        var masked: [String] = []
        for id in ids {
            before[id] = try details(cli, id)
            let r = cli.run(["place", id, "--fields", "id,displayName,location", "--output", "json"])
            masked.append(try JSONWriter().string(JSONValue(parsing: r.out)))
        }
        let file = try cli.dir.write("masked.ndjson", masked.joined(separator: "\n") + "\n")
        let again = cli.run(["import", file, "--output", "json"])
        #expect(again.code == 0, "\(again.err)")
        #expect(try JSONValue(parsing: again.out)["total"]?["records"]?.intValue == ids.count)
        var same = 0
        for id in ids {
            let after = try details(cli, id)
            #expect(after == before[id], "\(id) changed")
            #expect(after.objectValue?.keys == before[id]?.objectValue?.keys, "\(id): member order")
            if after == before[id] { same += 1 }
        }
        #expect(same == ids.count)
    }

    static func storedIDs(_ db: String) throws -> [String] {
        let r = try Tool.run("sqlite3", [db, "SELECT place_id FROM place WHERE removed_run IS NULL ORDER BY place_id"])
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test(
        "a v1 record after legacy data of the same place keeps what it does not carry (photos, hours)",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func v1AfterLegacy() throws {
        let legacy = try Self.shared(Self.nearbyLegacy)
        let cli = try CLI()
        #expect(cli.run(["import", legacy, "--captured-at", "2023-10-03"]).code == 0)
        let ids = try #require(
            try JSONValue(parsing: String(contentsOfFile: legacy, encoding: .utf8))["results"]?.arrayValue
        )
        .compactMap { $0["place_id"]?.stringValue }
        var before: [String: JSONObject] = [:]
        var lines: [String] = []
        for id in ids {
            before[id] = try place(cli, id)
            // A v1 searchNearby record of the same place, with a narrow mask.
            let r = cli.run(["place", id, "--fields", "id,displayName,location,types", "--output", "json"])
            lines.append(r.out.replacingOccurrences(of: "\n", with: ""))
        }
        let v1 = try cli.dir.write("v1.ndjson", lines.joined(separator: "\n") + "\n")
        #expect(cli.run(["import", v1, "--captured-at", "2026-12-01"]).code == 0)
        var withPhotos = 0
        for id in ids {
            let after = try place(cli, id)
            #expect(after.keys == before[id]!.keys, "\(id): members changed")
            #expect(after["photos"] == before[id]!["photos"])
            #expect(after["regularOpeningHours"] == before[id]!["regularOpeningHours"])
            if after["photos"] != nil { withPhotos += 1 }
        }
        #expect(withPhotos > 0)
        let cruise = try place(cli, "ChIJi6C1MxquEmsR9-c-3O48ykI")
        #expect(cruise["displayName"]?["text"] == "Cruise Bar")
        #expect(cruise["photos"]?.arrayValue?.count == 1)
        #expect(cruise["businessStatus"] == "OPERATIONAL")
    }

    @Test(
        "an older capture imported after a newer one changes nothing it knows, and is counted",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func olderAfterNewer() throws {
        let current = try Self.shared(Self.legacyCurrent), old = try Self.shared(Self.legacy2015)
        let id = "ChIJN1t_tDeuEmsRUsoyG83frY4"
        let cli = try CLI()
        #expect(cli.run(["import", current, "--captured-at", "2024-10-21"]).code == 0)
        let before = try place(cli, id)
        let r = cli.run(["import", old, "--captured-at", "2015-09-23", "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        let total = try JSONValue(parsing: r.out)["total"]
        #expect(total?["older"]?.intValue == 1)
        let after = try place(cli, id)
        #expect(after["displayName"]?["text"] == "Google Workplace 6")
        #expect(after["userRatingCount"]?.intValue == 973)
        // Members only the old capture has are added (better than nothing) ...
        #expect(Set(after.keys).isSuperset(of: before.keys))
        // ... but nothing the newer one knows changed.
        for (key, value) in before { #expect(after[key] == value, "\(key) changed") }
        let text = cli.run(["import", old, "--captured-at", "2015-09-23", "--output", "text"])
        #expect(text.out.contains("1 older than stored"), "\(text.out)")
        // The other order: the newer capture replaces what the older one said.
        let cli2 = try CLI()
        #expect(cli2.run(["import", old, "--captured-at", "2015-09-23"]).code == 0)
        #expect(try place(cli2, id)["displayName"]?["text"] == "Google")
        let r2 = cli2.run(["import", current, "--captured-at", "2024-10-21", "--output", "json"])
        #expect(try JSONValue(parsing: r2.out)["total"]?["updated"]?.intValue == 1)
        let merged = try place(cli2, id)
        #expect(merged["displayName"]?["text"] == "Google Workplace 6")
        #expect(merged["userRatingCount"]?.intValue == 973)
    }

    @Test(
        "the Tehran files' own timestamps are their capture times",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func recordTimestamps() throws {
        let files = Self.tehranFiles
        try #require(!files.isEmpty, "too few files in the corpus")
        let cli = try CLI()
        let r = cli.run(["import", "--output", "json"] + files)
        #expect(r.code == 0, "\(r.err)")
        let total = try JSONValue(parsing: r.out)["total"]
        #expect(total?["captureTimes"]?["record timestamp"]?.intValue == files.count)
        #expect(total?["captureTimes"]?["no time"] == nil)
        for file in files.prefix(5) {
            let json = try JSONValue(parsing: String(contentsOfFile: file, encoding: .utf8))
            let id = try #require(json["id"]?.stringValue)
            let stamp = try #require(json["timestamp"]?.intValue)
            let provenance = try place(cli, id, ["--provenance"])["provenance"]
            #expect(provenance?["capturedAt"]?.stringValue == CaptureTime.string(Int64(stamp)))
        }
        // Text summary says where the times came from.
        let again = cli.run(["import", "--output", "text"] + files)
        #expect(again.out.contains("captured: \(files.count) record timestamp"), "\(again.out)")
    }

    @Test(
        "OpenStreetMap's @timestamp is the capture time: an older extract after a newer one keeps the newer edits",
        .enabled(if: CorpusData.has("osm"), "needs ../shared/data/osm"))
    func osmTimestamps() throws {
        let root = try #require(CorpusData.root)
        let new = root.appendingPathComponent("osm/poi/liechtenstein-2021-10-28.poi.geojsonseq").path
        let old = root.appendingPathComponent("osm/poi/liechtenstein-2015-07-27.poi.geojsonseq").path
        try #require(
            FileManager.default.fileExists(atPath: new) && FileManager.default.fileExists(atPath: old),
            "the Liechtenstein extracts are missing from the corpus")
        let cli = try CLI()
        let first = cli.run(["import", new, "--output", "json"])
        #expect(first.code == 0, "\(first.err)")
        let total = try JSONValue(parsing: first.out)["total"]
        #expect(total?["captureTimes"]?["record timestamp"]?.intValue == total?["records"]?.intValue)
        let second = cli.run(["import", old, "--output", "json"])
        let older = try JSONValue(parsing: second.out)["total"]?["older"]?.intValue ?? 0
        #expect(older > 0, "objects edited between 2015 and 2021 keep their 2021 values")
        // An object edited since 2015 keeps its 2021 name.
        let lines2021 = try String(contentsOfFile: new, encoding: .utf8).split(separator: "\n")
        let lines2015 = try String(contentsOfFile: old, encoding: .utf8).split(separator: "\n")
        func features(_ lines: [Substring]) throws -> [String: JSONValue] {
            var out: [String: JSONValue] = [:]
            for line in lines {
                let f = try JSONValue(parsing: String(line.drop { $0 == "\u{1E}" }))
                if let type = f["properties"]?["@type"]?.stringValue, let id = f["properties"]?["@id"]?.intValue {
                    out["osm:\(type)/\(id)"] = f
                }
            }
            return out
        }
        let a = try features(lines2021), b = try features(lines2015)
        var checked = 0
        for (id, f) in a {
            guard let g = b[id], let n1 = f["properties"]?["name"]?.stringValue,
                let n0 = g["properties"]?["name"]?.stringValue, n1 != n0
            else { continue }
            #expect(try place(cli, id)["displayName"]?["text"]?.stringValue == n1, "\(id): \(n0) -> \(n1)")
            checked += 1
        }
        #expect(checked > 0, "some objects were renamed between the extracts")
    }

    @Test(
        "a newer OpenStreetMap feature replaces the place whole (a deleted tag is gone); an older one changes nothing")
    func completeRecords() throws {
        let cli = try CLI()
        func feature(_ tags: String, _ timestamp: Int) -> String {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[9.52,47.14]},"properties":{"@type":"node","@id":42,"@timestamp":\#(timestamp),\#(tags)}}"#
        }
        let v1 = try cli.dir.write(
            "v1.geojsonseq", feature(#""amenity":"cafe","name":"Alt","phone":"+423 1""#, 1_500_000_000) + "\n")
        let v2 = try cli.dir.write("v2.geojsonseq", feature(#""amenity":"cafe","name":"Neu""#, 1_600_000_000) + "\n")
        #expect(cli.run(["import", v1]).code == 0)
        #expect(try place(cli, "osm:n42")["internationalPhoneNumber"] == "+423 1")
        #expect(cli.run(["import", v2]).code == 0)
        let p = try place(cli, "osm:n42")
        #expect(p["displayName"]?["text"] == "Neu")
        #expect(p["internationalPhoneNumber"] == nil, "the phone tag was deleted in the newer feature")
        let r = cli.run(["import", v1, "--output", "json"])
        #expect(try JSONValue(parsing: r.out)["total"]?["older"]?.intValue == 1)
        #expect(try place(cli, "osm:n42")["displayName"]?["text"] == "Neu")
    }

    @Test("a record timestamp out of range is not used, and is counted")
    func timestampOutOfRange() throws {
        let cli = try CLI()
        let file = try cli.dir.write(
            "odd.ndjson",
            """
            {"id":"a","displayName":{"text":"A"},"location":{"latitude":1,"longitude":2},"timestamp":5}
            {"id":"b","displayName":{"text":"B"},"location":{"latitude":1,"longitude":2},"timestamp":4102444800}
            {"id":"c","displayName":{"text":"C"},"location":{"latitude":1,"longitude":2},"timestamp":1765104832}

            """)
        let r = cli.run(["import", file, "--output", "json"])
        #expect(r.code == 0, "\(r.err)")
        let total = try JSONValue(parsing: r.out)["total"]
        #expect(total?["timestampsOutOfRange"]?.intValue == 2)
        #expect(total?["captureTimes"]?["no time"]?.intValue == 2)
        #expect(total?["captureTimes"]?["record timestamp"]?.intValue == 1)
    }

    @Test("--captured-at that does not parse, or lies in the future, exits 64 naming the value")
    func badCapturedAt() throws {
        let cli = try CLI()
        let file = try cli.dir.write("a.ndjson", #"{"id":"a","location":{"latitude":1,"longitude":2}}"# + "\n")
        for bad in ["yesterday", "2025-13-01", "2025-12-07T10:00"] {
            let r = cli.run(["import", file, "--captured-at", bad])
            #expect(r.code == 64)
            #expect(r.err.contains("'\(bad)'") && r.err.contains("--captured-at"), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        // A capture cannot postdate its import: a time in the future is refused.
        let tomorrow = CaptureTime.string(Int64(Date().timeIntervalSince1970) + 2 * 86_400)
        for future in [tomorrow, "2999-01-01"] {
            let r = cli.run(["import", file, "--captured-at", future])
            #expect(r.code == 64, "\(future)")
            #expect(r.err.contains("in the future") && r.err.contains(future), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        // Today (a date, midnight UTC) and a moment ago are not.
        let today = String(CaptureTime.string(Int64(Date().timeIntervalSince1970)).prefix(10))
        #expect(cli.run(["import", file, "--captured-at", today]).code == 0)
    }

    @Test(
        "openNow inside the hours is computed for the time asked, as 'open' answers; stale current hours are not served",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func nothingStale() throws {
        let files = Self.tehranFiles
        try #require(!files.isEmpty, "too few files in the corpus")
        let cli = try CLI()
        #expect(cli.run(["import"] + files).code == 0)
        var checked = 0, stale = 0
        for file in files {
            let id = try #require(
                try JSONValue(parsing: String(contentsOfFile: file, encoding: .utf8))["id"]?.stringValue)
            // Within the captured week, and half a year later.
            for at in ["2025-12-08T13:00:00+03:30", "2025-12-10T03:00:00+03:30", "2026-06-10T13:00:00+03:30"] {
                let p = try place(cli, id, ["--at", at])
                let o = cli.run(["open", id, "--at", at, "--output", "json"])
                let status = try JSONValue(parsing: o.out)["status"]?.stringValue
                let expected: JSONValue? = status == "OPEN" ? true : status == "CLOSED" ? false : nil
                for key in ["regularOpeningHours", "currentOpeningHours"] {
                    guard let hours = p[key] else { continue }
                    #expect(
                        hours["openNow"] == expected,
                        "\(id) \(key) at \(at): \(String(describing: hours["openNow"])) vs open \(status ?? "?")")
                    checked += 1
                }
                if at.hasPrefix("2026-06"), p["currentOpeningHours"] == nil,
                    try JSONValue(parsing: String(contentsOfFile: file, encoding: .utf8))["currentOpeningHours"] != nil
                {
                    stale += 1
                    let reason = try JSONValue(parsing: o.out)["reason"]?.stringValue ?? ""
                    if status != "UNKNOWN" { #expect(reason.contains("currentOpeningHours ended"), "\(reason)") }
                }
            }
        }
        #expect(checked > 50)
        #expect(stale > 10, "current hours half a year old must not be served")
    }

    @Test(
        "place --at and open --at agree on every Tehran place at 100 random times",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func placeAndOpenAgree() throws {
        let files = Self.tehranFiles
        try #require(!files.isEmpty, "too few files in the corpus")
        let cli = try CLI()
        #expect(cli.run(["import"] + files).code == 0)
        var generator = TestRandom(seed: 14)
        var compared = 0
        for file in files {
            let id = try #require(
                try JSONValue(parsing: String(contentsOfFile: file, encoding: .utf8))["id"]?.stringValue)
            for _ in 0..<100 {
                // Between 2025-11-01 and 2026-02-01 (the captures are of December 2025).
                let t = Int64.random(in: 1_761_955_200..<1_769_904_000, using: &generator)
                let at = CaptureTime.string(t)
                let p = try place(cli, id, ["--at", at, "--fields", "*,openNow"])
                let status = try JSONValue(parsing: cli.run(["open", id, "--at", at, "--output", "json"]).out)[
                    "status"]?.stringValue
                let expected: JSONValue? = status == "OPEN" ? true : status == "CLOSED" ? false : nil
                #expect(p["openNow"] == expected, "\(id) at \(at)")
                for key in ["regularOpeningHours", "currentOpeningHours"] where p[key] != nil {
                    #expect(p[key]?["openNow"] == expected, "\(id) \(key) at \(at)")
                }
                compared += 1
            }
        }
        #expect(compared == files.count * 100)
    }

    @Test(
        "a response for A that returned B: A resolves to B and A's own record is a tombstone",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func requestedReturned() throws {
        let files = Self.tehranFiles
        try #require(files.count >= 2, "too few files in the corpus")
        let cli = try CLI()
        let a = try JSONValue(parsing: String(contentsOfFile: files[0], encoding: .utf8))
        let b = try JSONValue(parsing: String(contentsOfFile: files[1], encoding: .utf8))
        let idA = try #require(a["id"]?.stringValue), idB = try #require(b["id"]?.stringValue)
        #expect(cli.run(["import", files[0]]).code == 0)
        #expect(try JSONValue(parsing: cli.run(["resolve", idA, "--output", "json"]).out)["status"] == "CURRENT")
        let response = try cli.dir.write(
            "requested.json", #"{"requestedId":"\#(idA)","place":\#(JSONWriter().string(b))}"#)
        #expect(cli.run(["import", response]).code == 0)
        let resolved = try JSONValue(parsing: cli.run(["resolve", idA, "--output", "json"]).out)
        #expect(resolved["status"] == "MOVED", "\(resolved)")
        #expect(resolved["placeId"]?.stringValue == idB)
        #expect(resolved["chain"]?.arrayValue?.first?["reason"] == "requested-returned")
        // A's record is kept, as a tombstone: nearby no longer lists it.
        let lat = try #require(a["location"]?["latitude"]?.doubleValue),
            lng = try #require(a["location"]?["longitude"]?.doubleValue)
        let nearby = try JSONValue(
            parsing: cli.run(["nearby", "\(lat),\(lng)", "--radius", "50", "--fields", "id", "--output", "json"]).out)
        #expect(!(nearby["places"]?.arrayValue ?? []).contains { $0["id"]?.stringValue == idA })
        // Importing A's own (older) record again keeps it a tombstone.
        #expect(cli.run(["import", files[0]]).code == 0)
        #expect(try JSONValue(parsing: cli.run(["resolve", idA, "--output", "json"]).out)["status"] == "MOVED")
    }

    @Test(
        "--on-error skip skips a file that holds no places and imports the next ones, exit 65 at the end",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func skipWholeFiles() throws {
        let autocomplete = try Self.shared("legacy/java-client-fixtures/PlacesApiPlaceAutocompleteResponse.json"),
            details = try Self.shared(Self.legacyCurrent)
        let cli = try CLI()
        let r = cli.run(["import", "--on-error", "skip", autocomplete, details, "--output", "text"])
        #expect(r.code == 65)
        #expect(
            r.err.split(separator: "\n").count == 1 && r.err.contains("skipped")
                && r.err.contains("PlacesApiPlaceAutocompleteResponse.json"), "\(r.err)")
        #expect(r.out.contains("1 input skipped"), "\(r.out)")
        #expect(cli.run(["place", "ChIJN1t_tDeuEmsRUsoyG83frY4", "--output", "json"]).code == 0)
        // Without skip, the first such file stops the import.
        let cli2 = try CLI()
        let r2 = cli2.run(["import", autocomplete, details])
        #expect(r2.code == 65)
        #expect(cli2.run(["place", "ChIJN1t_tDeuEmsRUsoyG83frY4"]).code != 0)
    }

    @Test(
        "legacy html_attributions become the place's attributions",
        .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
    func attributions() throws {
        let details = try Self.shared(Self.legacyCurrent)
        let cli = try CLI()
        var json = try #require(try JSONValue(parsing: String(contentsOfFile: details, encoding: .utf8)).objectValue)
        json["html_attributions"] = [#"Listings by <a href="https://example.com/listings">Example &amp; Co</a>"#]
        let file = try cli.dir.write("details.json", JSONWriter().string(.object(json)))
        #expect(cli.run(["import", file]).code == 0)
        let p = try place(cli, "ChIJN1t_tDeuEmsRUsoyG83frY4", ["--fields", "attributions"])
        #expect(p["attributions"] == [["provider": "Example & Co", "providerUri": "https://example.com/listings"]])
    }

    @Test("the SDK's field names that --fields rejected are accepted")
    func sdkFieldNames() throws {
        let mask = try FieldMask(
            parsing:
                "secondaryOpeningHours,latLng,address,utcOffset,photoMetadatas,iconURL,wheelchairAccessibleEntrance")
        #expect(
            mask.includes("currentSecondaryOpeningHours") && mask.includes("location")
                && mask.includes("formattedAddress"))
        #expect(
            mask.includes("utcOffsetMinutes") && mask.includes("photos") && mask.includes("iconMaskBaseUri")
                && mask.includes("accessibilityOptions"))
    }
}
