import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Issue 15: values that crashed, and inputs that were accepted silently.
@Suite("Reliability")
struct ReliabilityTests {
    // MARK: UTC offsets, time zones and rating counts

    @Test(
        "a fixed offset outside ±18 hours is no clock, and Int.min does not trap",
        arguments: [Int.min, Int.max, -18 * 60 - 1, 18 * 60 + 1])
    func offsetOutOfRange(minutes: Int) {
        #expect(PlaceClock(utcOffsetMinutes: minutes) == nil)
    }

    @Test("the edges of ±18 hours are clocks")
    func offsetEdges() throws {
        #expect(try #require(PlaceClock(utcOffsetMinutes: -18 * 60)).description == "UTC-18:00")
        #expect(try #require(PlaceClock(utcOffsetMinutes: 18 * 60)).description == "UTC+18:00")
    }

    @Test("hours evaluation is total on a stored offset of Int64.min (a database written before the import checked it)")
    func storedMinimumOffset() throws {
        let doc = try #require(
            try JSONValue(
                parsing:
                    #"{"utcOffsetMinutes":-9223372036854775808,"regularOpeningHours":{"periods":[{"open":{"day":0,"hour":0,"minute":0}}]}}"#
            ).objectValue)
        let place = Place(id: PlaceID("p"), coordinate: Coordinate(latitude: 1, longitude: 2), document: doc)
        let status = place.isOpen(at: Date(timeIntervalSince1970: 1_780_000_000))
        #expect(status.timeZone == nil)
    }

    static let badMembers: [(record: String, message: String)] = [
        (
            #"{"id":"a","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":-9223372036854775808}"#,
            "utcOffsetMinutes -9223372036854775808 is out of range [-1080, 1080]"
        ),
        (
            #"{"id":"b","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":1e18}"#,
            "utcOffsetMinutes 1e+18 is out of range [-1080, 1080]"
        ),
        (
            #"{"id":"c","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":1081}"#,
            "utcOffsetMinutes 1081 is out of range [-1080, 1080]"
        ),
        (
            #"{"place_id":"d","geometry":{"location":{"lat":1,"lng":2}},"utc_offset":-9223372036854775808}"#,
            "utc_offset -9223372036854775808 is out of range [-1080, 1080]"
        ),
        (
            #"{"id":"e","location":{"latitude":1,"longitude":2},"timeZone":{"id":"Mars/Base"}}"#,
            "timeZone.id 'Mars/Base' is not a time zone this system knows"
        ),
        (
            #"{"id":"f","location":{"latitude":1,"longitude":2},"timeZone":{"version":"2024a"}}"#,
            "timeZone.id is missing, expected a string"
        ),
        (
            #"{"id":"g","location":{"latitude":1,"longitude":2},"userRatingCount":9223372036854775807}"#,
            "userRatingCount 9223372036854775807 is out of range [0, 2147483647]"
        ),
        (
            #"{"id":"h","location":{"latitude":1,"longitude":2},"userRatingCount":-1}"#,
            "userRatingCount -1 is out of range [0, 2147483647]"
        ),
        (
            #"{"place_id":"i","geometry":{"location":{"lat":1,"lng":2}},"user_ratings_total":2147483648}"#,
            "user_ratings_total 2147483648 is out of range [0, 2147483647]"
        ),
        (
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2,1]},"properties":{"id":"j","userRatingCount":-5}}"#,
            "userRatingCount -5 is out of range [0, 2147483647]"
        ),
    ]

    @Test("an offset, zone or rating count out of range rejects the record, saying which", arguments: badMembers)
    func outOfRangeMembersReject(record: String, message: String) throws {
        let source = SourceRecord(value: try JSONValue(parsing: record), line: 1, index: 1, container: nil)
        #expect {
            _ = try decodeRecord(source, format: nil)
        } throws: { error in
            let e = error as? DecodeError
            return e?.message.hasPrefix(message) == true && e?.placeID != nil
        }
    }

    @Test("real offsets, zones (Asia/Kolkata, a link ICU does not list) and counts import")
    func validMembersImport() throws {
        for record in [
            #"{"id":"a","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":-600,"timeZone":{"id":"Pacific/Honolulu"},"userRatingCount":2147483647}"#,
            #"{"id":"b","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":840,"timeZone":{"id":"UTC"},"userRatingCount":0}"#,
            #"{"id":"c","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":330,"timeZone":{"id":"Asia/Kolkata"}}"#,
        ] {
            let source = SourceRecord(value: try JSONValue(parsing: record), line: 1, index: 1, container: nil)
            #expect(throws: Never.self) { _ = try decodeRecord(source, format: nil) }
        }
    }

    @Test("with --on-error skip the bad records are rejected and the good ones kept")
    func importSkipsBadMembers() throws {
        let dir = try TempDirectory()
        let lines =
            Self.badMembers.map(\.record).filter { !$0.contains("Feature") } + [
                #"{"id":"ok","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":60}"#
            ]
        let file = try dir.write("in.ndjson", lines.joined(separator: "\n") + "\n")
        var reasons: [String] = []
        let summary = try PlaceImporter(databasePath: dir.file("p.sqlite"), options: ImportOptions(onError: .skip))
            .importInput(.file(file), reject: { reasons.append($0.reason) })
        #expect(summary.inserted == 1)
        #expect(summary.rejected == lines.count - 1)
        #expect(reasons.count == lines.count - 1)
    }

    // MARK: Popularity

    @Test("the popularity factor stops growing at popularityCap ratings")
    func popularityCap() {
        let model = LikelihoodModel()
        let top = model.popularityFactor(model.popularityCap)
        #expect(model.popularityFactor(Int(Int32.max)) == top)
        #expect(model.popularityFactor(Int.max) == top)
        #expect(top < 10)
        #expect(model.popularityFactor(120_959) < top)
    }

    @Test("one place with 2^31 ratings does not take a neighbourhood's likelihood")
    func popularityNeighbourhood() throws {
        var records = (0..<10).map {
            record("n\($0)", east: Double($0 % 5) * 4 - 8, north: Double($0 / 5) * 4 - 2, ratings: 100)
        }
        records.append(record("huge", east: 0, ratings: Int(Int32.max)))
        let (dir, path) = try placesDatabase(records)
        _ = dir
        let r = try PlaceReader(databasePath: path).findPlaceLikelihoods(
            location: origin, accuracy: 10, limit: 20, explain: true)
        let huge = try #require(r.placeLikelihoods.first { $0.place.id == "huge" })
        #expect(huge.likelihood < 0.5, "likelihood \(huge.likelihood)")
        #expect(try #require(huge.explanation).popularityFactor < 10)
    }

    // MARK: Alias chains and alias files

    @Test(
        "a chain of 200 hops resolves to the live place at its end, and a stored ID is never NOT_FOUND",
        arguments: [65, 200])
    func longChain(hops: Int) throws {
        let dir = try TempDirectory()
        let db = dir.file("p.sqlite")
        let places = try dir.write("p.ndjson", #"{"id":"end","location":{"latitude":1,"longitude":2}}"# + "\n")
        _ = try PlaceImporter(databasePath: db).importInput(.file(places))
        var csv = "old_id,new_id,reason\n"
        for i in 0..<hops { csv += "a\(i),\(i == hops - 1 ? "end" : "a\(i + 1)"),moved\n" }
        _ = try PlaceImporter(databasePath: db).importAliases(.file(try dir.write("a.csv", csv)))
        let client = try PlaceReader(databasePath: db)
        let r = try client.resolvePlaceID(PlaceID("a0"))
        #expect(r.status == .moved)
        #expect(r.placeID == "end")
        #expect(r.chain.count == hops)
        let batch = try client.resolvePlaceIDs([PlaceID("a0"), PlaceID("a\(hops / 2)")])
        #expect(batch.allSatisfy { $0.status == .moved && $0.placeID == "end" })
    }

    @Test("a long chain that loops reports the cycle, not NOT_FOUND for where it went")
    func longCycle() throws {
        let dir = try TempDirectory()
        let db = dir.file("p.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("p.ndjson", #"{"id":"x","location":{"latitude":1,"longitude":2}}"# + "\n")))
        var csv = "old_id,new_id\n"
        for i in 0..<100 { csv += "c\(i),c\((i + 1) % 100)\n" }
        _ = try PlaceImporter(databasePath: db).importAliases(.file(try dir.write("a.csv", csv)))
        let r = try PlaceReader(databasePath: db).resolvePlaceID(PlaceID("c0"))
        #expect(r.status == .notFound)
        #expect(r.cycle.count == 101)
    }

    static func aliasError(_ input: InputSource, dir: TempDirectory) throws -> String {
        var message = ""
        #expect {
            _ = try PlaceImporter(databasePath: dir.file("p.sqlite")).importAliases(input)
        } throws: { error in
            message = "\(error)"
            guard case PlaceDBError.badInput = error else { return false }
            return true
        }
        return message
    }

    @Test("an alias line is capped at 64 KiB and the error quotes none of it")
    func aliasLineCap() throws {
        let dir = try TempDirectory()
        let long = try dir.write("long.csv", "old_id,new_id\n" + String(repeating: "a", count: 200_000) + ",b\n")
        let m = try Self.aliasError(.file(long), dir: dir)
        #expect(m.contains("long.csv:2: a line is longer than 64 KiB"))
        #expect(m.count < 300)
    }

    @Test("/dev/zero as an alias file fails at once on its first line")
    func aliasDevZero() throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/zero"))
        let dir = try TempDirectory()
        let m = try Self.aliasError(.file("/dev/zero"), dir: dir)
        #expect(m.hasPrefix("/dev/zero:1:"))
        #expect(m.count < 300)
    }

    @Test("echoed values in alias errors are short and on one line")
    func aliasEchoExcerpt() throws {
        let dir = try TempDirectory()
        let header = try dir.write("h.csv", "x\u{1B}[31m," + String(repeating: "y", count: 5000) + "\n")
        let reason = try dir.write(
            "r.csv", "old_id,new_id,reason\na,b,\u{1B}]0;pwned\u{07}" + String(repeating: "z", count: 5000) + "\n")
        for file in [header, reason] {
            let m = try Self.aliasError(.file(file), dir: dir)
            #expect(m.count < 400, "\(m.count)")
            #expect(!m.unicodeScalars.contains { $0.properties.generalCategory == .control })
        }
    }
}

/// The probe's hang: `current --accuracy 1e308 --svg` never ended. Every
/// number a query takes is bounded where it enters the library.
@Suite("Bounded query inputs")
struct BoundedQueryInputTests {
    static let fix = Coordinate(latitude: 46.5, longitude: 6.6)

    @Test(
        "an accuracy of 1e308, infinity, NaN, 0 or just over 50 km is refused; 50 km is accepted",
        arguments: [1e308, Double.infinity, Double.nan, 0, -1, 50_000.001, 1e9])
    func accuracyOutOfBounds(accuracy: Double) {
        #expect(throws: PlaceDBError.self) {
            try CurrentPlaceRequest(location: Self.fix, accuracyMeters: accuracy).validate()
        }
    }

    @Test("the largest accuracy and maxResultCount accepted")
    func accuracyEdges() throws {
        try CurrentPlaceRequest(location: Self.fix, accuracyMeters: 50_000).validate()
        try CurrentPlaceRequest(location: Self.fix, accuracyMeters: 50_000, maxResultCount: 1000).validate()
        #expect(throws: PlaceDBError.self) {
            try CurrentPlaceRequest(location: Self.fix, accuracyMeters: 20, maxResultCount: 1001).validate()
        }
        #expect(throws: PlaceDBError.self) {
            try CurrentPlaceRequest(location: Self.fix, accuracyMeters: 20, maxResultCount: Int.max).validate()
        }
    }

    @Test("a request body with accuracyMeters 1e308 is refused (the server answers 400)")
    func accuracyInJSON() throws {
        let body = try #require(
            try JSONValue(parsing: #"{"location":{"latitude":46.5,"longitude":6.6},"accuracyMeters":1e308}"#)
                .objectValue)
        #expect(throws: PlaceDBError.self) { try CurrentPlaceRequest(json: body) }
    }

    @Test(
        "a nearby radius, a text-search and an autocomplete circle are at most 50 km",
        arguments: [50_000.5, 1e308, Double.infinity])
    func radiusOutOfBounds(radius: Double) {
        #expect(throws: PlaceDBError.self) {
            try NearbySearchRequest(center: Self.fix, radiusMeters: radius).validate()
        }
        #expect(throws: PlaceDBError.self) {
            try TextSearchRequest(textQuery: "cafe", locationBias: .circle(center: Self.fix, radiusMeters: radius))
                .validate()
        }
        #expect(throws: PlaceDBError.self) {
            try TextSearchRequest(
                textQuery: "cafe", locationRestriction: .circle(center: Self.fix, radiusMeters: radius)
            ).validate()
        }
        #expect(throws: PlaceDBError.self) {
            try AutocompleteRequest(input: "ca", locationRestriction: .circle(center: Self.fix, radiusMeters: radius))
                .validate()
        }
    }

    @Test("a radius of 50 km is accepted")
    func radiusEdge() throws {
        try NearbySearchRequest(center: Self.fix, radiusMeters: 50_000).validate()
        try TextSearchRequest(textQuery: "cafe", locationBias: .circle(center: Self.fix, radiusMeters: 50_000))
            .validate()
        try AutocompleteRequest(input: "ca", locationBias: .circle(center: Self.fix, radiusMeters: 50_000)).validate()
    }
}
