import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

/// Places around (46.52, 6.63) for the query commands.
let queryPlaces = """
    {"id":"cafe","displayName":{"text":"Café du Lac"},"location":{"latitude":46.5201,"longitude":6.6301},"types":["cafe","food"],"primaryType":"cafe","userRatingCount":10}
    {"id":"bar","displayName":{"text":"Bar"},"location":{"latitude":46.5205,"longitude":6.6305},"types":["bar"],"primaryType":"bar","userRatingCount":500}
    {"id":"park","displayName":{"text":"Parc"},"location":{"latitude":46.521,"longitude":6.631},"types":["park"],"primaryType":"park","viewport":{"low":{"latitude":46.5205,"longitude":6.6302},"high":{"latitude":46.5215,"longitude":6.6318}}}
    {"id":"far","displayName":{"text":"Far"},"location":{"latitude":46.6,"longitude":6.7},"types":["cafe"]}

    """

@Suite("placedb nearby and current")
struct QueryCommandTests {
    @Test("nearby prints the places nearest first with their distances")
    func nearbyJSON() throws {
        let cli = try CLI.withQueryPlaces()
        let r = cli.run(["nearby", "46.52,6.63", "--limit", "3", "--fields", "id,displayName"])
        #expect(r.code == 0, "\(r.err)")
        let places = try #require(try JSONValue(parsing: r.out)["places"]?.arrayValue)
        #expect(places.compactMap { $0["id"]?.stringValue } == ["cafe", "bar", "park"])
        let d = places.compactMap { $0["distanceMeters"]?.doubleValue }
        #expect(d == d.sorted() && d.count == 3 && d[0] > 10 && d[0] < 20)
        #expect(places[0]["displayName"]?["text"] == "Café du Lac")
        #expect(places[0]["location"] == nil)
    }

    @Test("nearby filters by radius and type, and ranks by popularity")
    func nearbyOptions() throws {
        let cli = try CLI.withQueryPlaces()
        func ids(_ args: [String]) throws -> [String] {
            let r = cli.run(["nearby", "46.52,6.63", "--fields", "id"] + args)
            #expect(r.code == 0, "\(r.err)")
            return try JSONValue(parsing: r.out)["places"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        #expect(try ids(["--radius", "100"]) == ["cafe", "bar"])
        #expect(try ids(["--type", "food", "--type", "park"]) == ["cafe", "park"])
        #expect(try ids(["--exclude-type", "cafe"]) == ["bar", "park"])
        #expect(try ids(["--radius", "1000", "--rank", "popularity"]) == ["bar", "cafe", "park"])
        let text = cli.run(["nearby", "46.52,6.63", "--limit", "1", "--output", "text"])
        #expect(text.out == "     13 m  Café du Lac (cafe)  cafe\n")
    }

    @Test("current prints likelihoods that sum to at most 1, with every factor under --explain")
    func currentJSON() throws {
        let cli = try CLI.withQueryPlaces()
        let r = cli.run(["current", "46.5201,6.6301", "--accuracy", "10", "--fields", "id", "--explain"])
        #expect(r.code == 0, "\(r.err)")
        let json = try JSONValue(parsing: r.out)
        let items = try #require(json["placeLikelihoods"]?.arrayValue)
        #expect(items.first?["place"]?["id"] == "cafe")
        let ps = items.compactMap { $0["likelihood"]?.doubleValue }
        #expect(ps.reduce(0, +) <= 1 && ps.allSatisfy { (0...1).contains($0) } && ps == ps.sorted(by: >))
        let explain = try #require(items.first?["explain"]?.objectValue)
        for key in ["distanceMeters", "footprint", "densityPerSquareMeter", "factors", "prior", "weight"] {
            #expect(explain[key] != nil, "\(key)")
        }
        for key in ["type", "popularity", "source", "businessStatus", "hours"] {
            #expect(explain["factors"]?[key] != nil, "\(key)")
        }
        #expect(json["explain"]?["noneLikelihood"]?.doubleValue != nil)
        #expect(json["noneLikelihood"]?.doubleValue == json["explain"]?["noneLikelihood"]?.doubleValue)
        #expect(json["explain"]?["sigmaMeters"]?.doubleValue.map { abs($0 - 10 / 1.5096) < 0.01 } == true)
        let text = cli.run(["current", "46.5201,6.6301", "--accuracy", "10", "--output", "text"])
        #expect(text.out.hasPrefix("0.9"))
        #expect(text.out.contains("Café du Lac (cafe, 0 m)  cafe"))
        #expect(text.out.contains("(none of these)"))
        #expect(cli.run(["current", "46.5201,6.6301", "--at", "2026-05-01T12:00:00+02:00"]).code == 0)
        #expect(cli.run(["current", "46.5201,6.6301", "--at", "now"]).code == 0)
    }

    @Test(
        "bad query arguments are usage errors (64), a missing database 66",
        arguments: [
            (["nearby"], 64, "missing LAT,LNG"),
            (["nearby", "91,0"], 64, "invalid coordinate '91,0'"),
            (["nearby", "1,2", "--radius", "-5"], 64, "expected a positive number of meters"),
            (["nearby", "1,2", "--limit", "0"], 64, "expected an integer in 1...1000"),
            (["nearby", "1,2", "--rank", "popularity"], 64, "needs a radius"),
            (["nearby", "1,2", "--rank", "nearest"], 64, "expected one of: distance, popularity"),
            (["current", "1,2", "--accuracy", "0"], 64, "expected a positive number of meters"),
            (["current", "1,2", "--at", "yesterday"], 64, "invalid time 'yesterday' for '--at'"),
            (["current", "1,2", "--batch"], 64, "--batch reads its queries from standard input"),
            (["nearby", "--batch", "--radius", "5"], 64, "--radius belongs in each request line"),
            (["nearby", "--batch", "--output", "text"], 64, "--output text is not available"),
        ])
    func usageErrors(args: [String], code: Int32, message: String) throws {
        let cli = try CLI.withQueryPlaces()
        let r = cli.run(args)
        #expect(r.code == code)
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.out.isEmpty)
        let missing = try CLI().run(["nearby", "1,2"])
        #expect(missing.code == 66)
    }

    @Test("a batch stores the spatial index; a damaged one is built again, with one warning and the same answers")
    func storedIndexWarning() throws {
        let cli = try CLI.withQueryPlaces()
        let line =
            #"{"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63}}},"maxResultCount":3}"#
        let first = cli.run(["nearby", "--batch", "--fields", "id"], input: line + "\n")
        #expect(first.code == 0)
        #expect(first.err.isEmpty, "\(first.err)")
        let index = cli.db + ".placeidx"
        var bytes = try #require(FileManager.default.contents(atPath: index))
        // The first section (the slots' records) starts where the header's word 14 says.
        let slots = Int(
            bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8 * 14, as: UInt64.self)) })
        #expect(slots >= 48 * 8 && slots + 8 < bytes.count)
        bytes[slots + 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: index))
        let again = cli.run(["nearby", "--batch", "--fields", "id"], input: line + "\n")
        #expect(again.code == 0)
        #expect(again.out == first.out)
        #expect(
            again.err.hasPrefix(
                "placedb nearby: warning: the stored spatial index \(index) is corrupt: checksum of section"),
            "\(again.err)")
        #expect(again.err.split(separator: "\n").count == 1)
        // Rewritten whole: the next run is quiet.
        let third = cli.run(
            ["current", "--batch", "--fields", "id"], input: #"{"location":{"latitude":46.52,"longitude":6.63}}"# + "\n"
        )
        #expect(third.code == 0)
        #expect(third.err.isEmpty, "\(third.err)")
    }

    @Test("a batch longer than a group (lines answered in one snapshot) answers every line, in order")
    func batchGroups() throws {
        let cli = try CLI.withQueryPlaces()
        let good =
            #"{"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":100}},"maxResultCount":1,"rankPreference":"DISTANCE"}"#
        let count = 2 * Batch.groupSize + 7
        let bad = Batch.groupSize + 3
        let input = (1...count).map { $0 == bad ? "{" : good }.joined(separator: "\n") + "\n"
        let r = cli.run(["nearby", "--batch", "--fields", "id"], input: input)
        #expect(r.code == 65)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == count)
        #expect(
            lines.enumerated().allSatisfy { i, l in
                i + 1 == bad ? l.contains("line \(bad): not JSON") : l.contains(#""id":"cafe""#)
            })
    }

    @Test("--batch answers each line in order; a bad line gets an error line and exit 65")
    func batch() throws {
        let cli = try CLI.withQueryPlaces()
        let nearby = cli.run(
            ["nearby", "--batch", "--fields", "id"],
            input: """
                {"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63},"radius":100}},"maxResultCount":1,"rankPreference":"DISTANCE"}
                {"locationRestriction":{"circle":{"center":{"latitude":46.52,"longitude":6.63}}},"includedTypes":["park"]}
                not json
                {"locationRestriction":{"circle":{"center":{"latitude":146.52,"longitude":6.63}}}}
                \u{1E}{"locationRestriction":{"circle":{"center":{"latitude":46.6,"longitude":6.7},"radius":10}},"rankPreference":"POPULARITY"}

                """)
        #expect(nearby.code == 65)
        let lines = nearby.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 5)
        let meters =
            (Coordinate(latitude: 46.52, longitude: 6.63).distance(to: Coordinate(latitude: 46.5201, longitude: 6.6301))
            * 100).rounded() / 100
        #expect(lines[0] == #"{"places":[{"id":"cafe","distanceMeters":\#(meters)}]}"#)
        #expect(try JSONValue(parsing: lines[1])["places"]?.arrayValue?.first?["id"] == "park")
        #expect(lines[2].hasPrefix(#"{"error":{"code":400,"message":"line 3: not JSON"#))
        #expect(lines[3].contains("line 4: center 146.52,6.63 is out of range"))
        #expect(try JSONValue(parsing: lines[4])["places"]?.arrayValue?.first?["id"] == "far")
        #expect(nearby.err == "placedb nearby: 2 of 5 request lines failed; each has an error line in the output\n")

        let current = cli.run(
            ["current", "--batch", "--fields", "id"],
            input: """
                {"location":{"latitude":46.5201,"longitude":6.6301},"accuracyMeters":10}
                {"location":{"latitude":46.5201,"longitude":6.6301},"accuracyMeters":10,"time":"2026-05-01T12:00:00Z","maxResultCount":1}
                {"location":{"latitude":46.5201,"longitude":6.6301},"accuracy":10}

                """)
        #expect(current.code == 65)
        let out = current.out.split(separator: "\n").map(String.init)
        #expect(out.count == 3)
        #expect(try JSONValue(parsing: out[0])["placeLikelihoods"]?.arrayValue?.first?["place"]?["id"] == "cafe")
        #expect(try JSONValue(parsing: out[1])["placeLikelihoods"]?.arrayValue?.count == 1)
        #expect(out[2].contains("line 3: unknown field 'accuracy'"))

        let clean = cli.run(["current", "--batch"], input: #"{"location":{"latitude":1,"longitude":1}}"# + "\n")
        #expect(clean.code == 0)
        // Far from every place: no candidates, all the mass on none of these.
        #expect(clean.out == #"{"placeLikelihoods":[],"noneLikelihood":1}"# + "\n")
    }

    @Test(
        "--batch longer than its lookahead: each line's answer is the one it gets alone, error lines keep their numbers",
        arguments: ["nearby", "current"])
    func batchLookahead(command: String) throws {
        let cli = try CLI.withQueryPlaces()
        var g = TestRandom(seed: 36)
        let bad: Set<Int> = [5, Batch.lookahead, Batch.lookahead + 1, 2 * Batch.lookahead + 3]
        var lines: [String] = []
        for n in 1...(2 * Batch.lookahead + 8) {
            if bad.contains(n) {
                lines.append(n % 2 == 0 ? "not json \(n)" : #"{"location":{"latitude":95,"longitude":0}, "x": 1}"#)
                continue
            }
            let lat = 46.52 + Double.random(in: -0.002...0.002, using: &g)
            let lng = 6.63 + Double.random(in: -0.002...0.002, using: &g)
            lines.append(
                command == "nearby"
                    ? #"{"locationRestriction":{"circle":{"center":{"latitude":\#(lat),"longitude":\#(lng)}}},"maxResultCount":3}"#
                    : #"{"location":{"latitude":\#(lat),"longitude":\#(lng)},"accuracyMeters":\#(5 + n)}"#)
        }
        let all = cli.run([command, "--batch", "--fields", "id"], input: lines.joined(separator: "\n") + "\n")
        #expect(all.code == 65)
        let out = all.out.split(separator: "\n").map(String.init)
        #expect(out.count == lines.count)
        for (i, line) in lines.enumerated() where i < out.count {
            if bad.contains(i + 1) {
                #expect(out[i].hasPrefix(#"{"error":{"code":400,"message":"line \#(i + 1): "#), "\(out[i])")
            } else {
                let alone = cli.run([command, "--batch", "--fields", "id"], input: line + "\n")
                #expect(alone.code == 0)
                #expect(out[i] + "\n" == alone.out, "line \(i + 1)")
                #expect(!out[i].contains("error"))
            }
        }
        #expect(all.err.contains("\(bad.count) of \(lines.count) request lines failed"))
    }

    @Test("current lists 5 places by default (a --batch line too, or its maxResultCount), and noneLikelihood always")
    func currentLimits() throws {
        let cli = try CLI()
        // Twelve cafes 10 m apart on a line.
        let cafes =
            (0..<12).map { i in
                #"{"id":"c\#(i)","location":{"latitude":46.52,"longitude":\#(6.63 + Double(i) * 0.00013)},"types":["cafe"]}"#
            }.joined(separator: "\n") + "\n"
        #expect(cli.run(["import", try cli.dir.write("cafes.ndjson", cafes)]).code == 0)
        func count(_ json: String) throws -> Int? {
            try JSONValue(parsing: json)["placeLikelihoods"]?.arrayValue?.count
        }
        let single = cli.run(["current", "46.52,6.6307", "--accuracy", "300", "--fields", "id"])
        #expect(single.code == 0, "\(single.err)")
        #expect(try count(single.out) == 5)
        let none = try #require(try JSONValue(parsing: single.out)["noneLikelihood"]?.doubleValue)
        #expect(none > 0 && none < 0.5)
        #expect(try count(cli.run(["current", "46.52,6.6307", "--accuracy", "300", "--limit", "8"]).out) == 8)
        let text = cli.run(["current", "46.52,6.6307", "--accuracy", "300", "--output", "text"])
        // 12 cafes share the mass of a 300 m fix: the approximate line follows.
        #expect(
            text.out.split(separator: "\n").count == 7, "five places, the none-of-these line and the approximate line")
        #expect(text.out.split(separator: "\n").last?.hasPrefix("approximate:") == true)
        let batch = cli.run(
            ["current", "--batch", "--fields", "id"],
            input: """
                {"location":{"latitude":46.52,"longitude":6.6307},"accuracyMeters":300}
                {"location":{"latitude":46.52,"longitude":6.6307},"accuracyMeters":300,"maxResultCount":12}

                """)
        let lines = batch.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(try count(lines[0]) == 5)
        #expect(try count(lines[1]) == 12)
        #expect(try lines.allSatisfy { try JSONValue(parsing: $0)["noneLikelihood"]?.doubleValue != nil })
    }
}
