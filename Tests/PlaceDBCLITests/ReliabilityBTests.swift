import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// Issue 15, items 9 to 16 (docs/reliability.md): honest summaries,
/// escaped human text, clear database errors, one parser for times and
/// coordinates, photo names checked on import, corrupt gzip as bad data.
@Suite("reliability: summaries, escaping, contracts")
struct ReliabilityBTests {
    static let twoThenBroken =
        #"[{"id":"k1","location":{"latitude":1,"longitude":2}},{"id":"k2","location":{"latitude":1,"longitude":2}}, {"id": "k3", "loc"#

    @Test("--on-error skip on a broken JSON array reports the places it kept")
    func brokenArraySummary() throws {
        let cli = try CLI()
        let file = try cli.dir.write("broken.json", Self.twoThenBroken)
        let r = cli.run(["import", file, "--on-error", "skip"])
        #expect(r.code == 65)
        #expect(r.err.contains("broken.json:1: malformed JSON"))
        let json = try JSONValue(parsing: r.out)
        #expect(json["total"]?["status"] == "failed")
        #expect(json["total"]?["records"] == .int(2))
        #expect(json["total"]?["inserted"] == .int(2))
        let input = try #require(json["inputs"]?.arrayValue?.first)
        #expect(input["status"] == "partial")
        #expect(input["inserted"] == .int(2))
        #expect(input["bytes"]?.intValue ?? 0 > 0)
        #expect(cli.run(["place", "k2"]).code == 0)
        let text = cli.run(["import", file, "--on-error", "skip", "--output", "text"])
        #expect(text.out.contains("1 input imported, 2 records: 0 inserted, 0 updated, 2 unchanged"), "\(text.out)")
        #expect(text.out.contains("the records before it are kept"))
        // --on-error stop rolls the file back: nothing kept, and it says so.
        let other = try CLI()
        let stop = other.run(["import", try other.dir.write("broken.json", Self.twoThenBroken)])
        #expect(stop.code == 65)
        let stopped = try JSONValue(parsing: stop.out)
        #expect(stopped["inputs"]?.arrayValue?.first?["status"] == "failed")
        #expect(stopped["total"]?["inserted"] == .int(0))
    }

    static let hostile =
        #"{"id":"e\u001b]0;pwned\u0007x","displayName":{"text":"A\nB\u001b[31m"},"location":{"latitude":1,"longitude":2},"types":["cafe"]}"#
        + "\n"

    /// No escape character, no bell, and exactly `lines` lines.
    func expectClean(_ text: String, lines: Int, _ comment: Comment? = nil) {
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, comment)
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == lines + 1, comment)
    }

    @Test("control characters in IDs and names are escaped in text output and error lines, and kept in JSON")
    func escaping() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("esc.ndjson", Self.hostile)]).code == 0)
        let nearby = cli.run(["nearby", "1,2", "--output", "text"])
        expectClean(nearby.out, lines: 1, "nearby")
        #expect(nearby.out.contains(#"A\nB\x1B[31m (cafe)  e\x1B]0;pwned\x07x"#), "\(nearby.out)")
        let place = cli.run(["place", "e\u{1B}]0;pwned\u{07}x", "--output", "text"])
        #expect(place.code == 0)
        expectClean(place.out, lines: place.out.split(separator: "\n").count)
        #expect(place.out.hasPrefix(#"A\nB\x1B[31m"#))
        let current = cli.run(["current", "1,2", "--output", "text"])
        expectClean(current.out, lines: 2, "current")
        let resolve = cli.run(["resolve", "e\u{1B}]0;pwned\u{07}x", "--output", "text"])
        expectClean(resolve.out, lines: 1, "resolve")
        let open = cli.run(["open", "e\u{1B}]0;pwned\u{07}x", "--output", "text"])
        #expect(open.out.hasPrefix(#"A\nB\x1B[31m: UNKNOWN"#))
        // Error lines: one line each, escaped.
        let missing = cli.run(["place", "zz\u{1B}[2J\nsecond line"])
        #expect(missing.code == 1)
        expectClean(missing.err, lines: 1, "error line")
        #expect(missing.err.contains(#"'zz\x1B[2J\nsecond line'"#))
        let usage = cli.run(["nearby", "1,2", "--type", "x", "--limit", "\u{1B}[31m"])
        #expect(usage.code == 64)
        expectClean(usage.err, lines: 2, "usage error")
        let rejected = cli.run([
            "import",
            try cli.dir.write("bad.ndjson", #"{"id":"r\u001b[1mx\n","location":{"latitude":99,"longitude":2}}"# + "\n"),
            "--on-error", "skip",
        ])
        // Its only record rejected: the input is bad data (65), skipped with a line of its own.
        #expect(rejected.code == 65)
        expectClean(rejected.err, lines: 2, "rejection and skipped lines")
        // JSON stays exact.
        let json = try JSONValue(parsing: cli.run(["nearby", "1,2", "--fields", "id,displayName"]).out)
        #expect(json["places"]?.arrayValue?.first?["id"] == .string("e\u{1B}]0;pwned\u{07}x"))
        #expect(json["places"]?.arrayValue?.first?["displayName"]?["text"] == .string("A\nB\u{1B}[31m"))
    }

    @Test("HumanText.escape writes out C0, DEL and C1 controls and line separators, and keeps the rest")
    func escapeFunction() {
        #expect(HumanText.escape("Café du Lac \\ 東京") == "Café du Lac \\ 東京")
        #expect(HumanText.escape("a\tb\r\nc") == #"a\tb\r\nc"#)
        #expect(HumanText.escape("\u{0}\u{1B}\u{7F}\u{9B}") == #"\x00\x1B\x7F\x9B"#)
        #expect(HumanText.escape("x\u{2028}y") == #"x\u{2028}y"#)
    }

    @Test(
        "HumanText.escape writes out the bidirectional embeddings, overrides and isolates, and keeps the directional marks"
    )
    func escapeBidiControls() {
        #expect(HumanText.escape("evil\u{202E}gnp.exe") == #"evil\u{202E}gnp.exe"#)
        let controls: [UInt32] = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        for v in controls {
            let c = String(Character(Unicode.Scalar(v)!))
            #expect(HumanText.escape("a" + c + "b") == "a\\u{\(String(v, radix: 16, uppercase: true))}b")
        }
        // Marks (LRM, RLM, ALM) stay: right-to-left names carry them.
        #expect(HumanText.escape("שלום\u{200F} 12\u{200E}\u{061C}") == "שלום\u{200F} 12\u{200E}\u{061C}")
    }

    @Test("a name with U+202E is escaped in text output and on stderr, and exact in JSON")
    func bidiInOutput() throws {
        let cli = try CLI()
        let file = try cli.dir.write(
            "in.ndjson",
            #"{"id":"rlo\u202Eabc","displayName":{"text":"Caf\u202Ee\u2066x\u2069"},"location":{"latitude":1,"longitude":2},"types":["cafe"]}"#
                + "\n")
        #expect(cli.run(["import", file]).code == 0)
        let text = cli.run(["nearby", "1,2", "--output", "text"])
        #expect(text.code == 0)
        #expect(text.out.contains(#"Caf\u{202E}e\u{2066}x\u{2069}"#), "\(text.out)")
        #expect(text.out.contains(#"rlo\u{202E}abc"#))
        #expect(
            !text.out.unicodeScalars.contains {
                (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            })
        let missing = cli.run(["place", "x\u{202E}y"])
        #expect(missing.err.contains(#"x\u{202E}y"#), "\(missing.err)")
        #expect(!missing.err.unicodeScalars.contains { $0.value == 0x202E })
        let json = try JSONValue(parsing: cli.run(["nearby", "1,2", "--fields", "id,displayName"]).out)
        #expect(json["places"]?.arrayValue?.first?["id"] == .string("rlo\u{202E}abc"))
        #expect(json["places"]?.arrayValue?.first?["displayName"]?["text"] == .string("Caf\u{202E}e\u{2066}x\u{2069}"))
    }

    @Test("a dangling symbolic link as --db says so, and nothing is imported through it")
    func danglingLink() throws {
        let cli = try CLI()
        let link = cli.dir.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "absent/target.sqlite")
        let r = cli.run(["import", try cli.dir.write("p.ndjson", CLI.sample), "--db", link])
        #expect(r.code == 1)
        #expect(
            r.err.contains("link.sqlite: is a symbolic link to 'absent/target.sqlite', which does not exist"),
            "\(r.err)")
        #expect(!r.err.contains("another process"))
        let names = try FileManager.default.contentsOfDirectory(atPath: cli.dir.path)
        #expect(!names.contains { $0.contains(".new-") }, "\(names)")
        let reader = cli.run(["place", "c1", "--db", link])
        #expect(reader.code == 66)
    }

    @Test("open, place and current read --at alike: now, an instant, or the wall clock at the place")
    func oneTimeParser() throws {
        let cli = try CLI()
        let zurich =
            #"{"id":"z","location":{"latitude":47.37,"longitude":8.54},"timeZone":{"id":"Europe/Zurich"},"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":9,"minute":0},"close":{"day":1,"hour":17,"minute":0}}]}}"#
            + "\n"
        #expect(cli.run(["import", try cli.dir.write("z.ndjson", zurich)]).code == 0)
        #expect(cli.run(["open", "z", "--at", "now"]).code == 0)
        #expect(cli.run(["place", "z", "--at", "now", "--fields", "id"]).code == 0)
        // Monday 2026-03-30 12:00 at the place: open; 20:00: closed.
        let open = cli.run(["current", "47.37,8.54", "--at", "2026-03-30T12:00", "--fields", "id", "--explain"])
        #expect(open.code == 0, "\(open.err)")
        #expect(
            try JSONValue(parsing: open.out)["placeLikelihoods"]?.arrayValue?.first?["explain"]?["factors"]?["openNow"]
                == .bool(true))
        let closed = cli.run(["current", "47.37,8.54", "--at", "2026-03-30T20:00", "--fields", "id", "--explain"])
        #expect(
            try JSONValue(parsing: closed.out)["placeLikelihoods"]?.arrayValue?.first?["explain"]?["factors"]?[
                "openNow"] == .bool(false))
        let batch = try Self.runBatch(
            cli, ["current", "--batch", "--fields", "id", "--explain"],
            input: #"{"location":{"latitude":47.37,"longitude":8.54},"time":"2026-03-30T20:00"}"# + "\n")
        #expect(batch.code == 0, "\(batch.err)")
        #expect(
            try JSONValue(parsing: batch.out)["placeLikelihoods"]?.arrayValue?.first?["explain"]?["factors"]?["openNow"]
                == .bool(false))
        for args in [["open", "z"], ["current", "47.37,8.54"], ["place", "z"]] {
            let bad = cli.run(args + ["--at", "tomorrow"])
            #expect(bad.code == 64)
            #expect(bad.err.contains("invalid time 'tomorrow' for '--at'"), "\(args)")
        }
    }

    static func runBatch(_ cli: CLI, _ args: [String], input: String) throws -> (code: Int32, out: String, err: String)
    {
        let console = CapturedConsole(environment: ["PLACEDB_DATABASE": cli.db], input: input)
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdout, console.stderr)
    }

    @Test(
        "coordinates and meters are decimal: 0x10, inf and nan are refused",
        arguments: [
            ["nearby", "0x10,0"], ["nearby", "inf,0"], ["nearby", "nan,0"], ["current", "1,0x1p3"],
            ["nearby", "1,2", "--radius", "0x10"], ["current", "1,2", "--accuracy", "0x10"],
        ])
    func decimalOnly(args: [String]) throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("p.ndjson", CLI.sample)]).code == 0)
        let r = cli.run(args)
        #expect(r.code == 64, "\(args): \(r.out)")
    }

    @Test("Coordinate.decimal reads what people and JSON write, and nothing else")
    func decimalParser() {
        #expect(Coordinate.decimal("-33.8688") == -33.8688)
        #expect(Coordinate.decimal("+5") == 5)
        #expect(Coordinate.decimal(".5") == 0.5)
        #expect(Coordinate.decimal("5.") == 5)
        #expect(Coordinate.decimal("1e3") == 1000)
        for bad in ["0x10", "inf", "nan", "", "-", ".", "1e", " 1", "1 ", "1_0", "١٢"] {
            #expect(Coordinate.decimal(bad) == nil, "\(bad)")
        }
        #expect(Coordinate(parsing: "0x10,0") == nil)
        #expect(Coordinate(parsing: " 46.5 , 6.6 ") == Coordinate(latitude: 46.5, longitude: 6.6))
    }

    @Test(
        "a field mask path the API does not define is a usage error (64), not an empty answer",
        arguments: [
            "location.latitude.foo", "location.altitude", "rating.value", "displayName.text.x", "places.location.foo",
        ])
    func badSubPath(mask: String) throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("p.ndjson", CLI.sample)]).code == 0)
        let r = cli.run(["place", "c1", "--fields", mask])
        #expect(r.code == 64, "\(mask): \(r.out)")
        #expect(r.err.contains("unknown field '\(mask)' in --fields"))
        #expect(cli.run(["nearby", "1,2", "--fields", mask]).code == 64)
    }

    @Test("field mask sub-paths the API defines still work")
    func goodSubPaths() throws {
        for mask in [
            "location.latitude", "displayName.text", "places.location.longitude", "coordinate.latitude",
            "photos.authorAttributions.uri", "regularOpeningHours.periods.open.hour",
        ] {
            #expect(throws: Never.self, "\(mask)") { try FieldMask(parsing: mask) }
        }
        #expect(throws: FieldMaskError.self) { try FieldMask(parsing: "location.latitude.foo") }
        let error = try #require(throws: FieldMaskError.self) { try FieldMask(parsing: "location.latitude.foo") }
        #expect(error.description.contains("location.latitude has no sub-fields"))
    }

    @Test(
        "snapshot matching options without --snapshot are a usage error",
        arguments: [
            ["--match-radius", "50"], ["--match-threshold", "0.5"], ["--no-match"],
        ])
    func matchingNeedsSnapshot(options: [String]) throws {
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("p.ndjson", CLI.sample)] + options)
        #expect(r.code == 64)
        #expect(r.err.contains("\(options[0]) applies to a snapshot import"))
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        #expect(cli.run(["import", try cli.dir.write("q.ndjson", CLI.sample), "--snapshot", "s"] + options).code == 0)
    }

    @Test("resolve --batch answers every line, a blank one with an error line, so answers line up")
    func resolveBatchBlankLines() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("p.ndjson", CLI.sample)]).code == 0)
        let r = try Self.runBatch(cli, ["resolve", "--batch"], input: "c1\n\n  \nc2\nnope\n")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 5)
        #expect(try JSONValue(parsing: String(lines[0]))["requestedId"] == "c1")
        #expect(
            try JSONValue(parsing: String(lines[1]))["error"]?["message"] == "line 2: empty line; expected a place ID")
        #expect(
            try JSONValue(parsing: String(lines[2]))["error"]?["message"] == "line 3: empty line; expected a place ID")
        #expect(try JSONValue(parsing: String(lines[3]))["requestedId"] == "c2")
        #expect(try JSONValue(parsing: String(lines[4]))["status"] == "NOT_FOUND")
        #expect(r.code == 65)
        #expect(r.err.contains("2 of 5 lines were blank"))
        let clean = try Self.runBatch(cli, ["resolve", "--batch"], input: "c1\nc2\n")
        #expect(clean.code == 0)
    }

    @Test(
        "import refuses photo names the photo commands could not serve",
        arguments: [
            #""places/pt/photos/../../x""#, #""""#, #""places/other/photos/abc""#, #""places/pt/photos/""#, "42",
            "null",
        ])
    func photoNames(name: String) throws {
        let cli = try CLI()
        let record =
            #"{"id":"pt","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/pt/photos/good"},{"name":\#(name)}]}"#
            + "\n"
        let r = cli.run(["import", try cli.dir.write("p.ndjson", record)])
        #expect(r.code == 65, "\(name)")
        #expect(r.err.contains("(place 'pt'): photos[1].name"), "\(r.err)")
        let ok = cli.run([
            "import",
            try cli.dir.write(
                "q.ndjson",
                #"{"id":"pt","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/pt/photos/good"}]}"#
                    + "\n"),
        ])
        #expect(ok.code == 0)
        #expect(cli.run(["photos", "pt"]).code == 0)
    }

    @Test("a corrupt or truncated gzip file is bad data (65) and imports nothing")
    func corruptGzip() throws {
        let cli = try CLI()
        let text =
            (1...3000).map { #"{"id":"g\#($0)","location":{"latitude":1,"longitude":2}}"# }.joined(separator: "\n")
            + "\n"
        let gz = try cli.dir.writeGzip("good.ndjson.gz", text)
        let bytes = try #require(FileManager.default.contents(atPath: gz).map(Array.init))
        let truncated = try cli.dir.write("trunc.ndjson.gz", bytes: Array(bytes.prefix(bytes.count / 2)))
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0xFF
        flipped[bytes.count / 2 + 1] ^= 0x55
        let corrupt = try cli.dir.write("corrupt.ndjson.gz", bytes: flipped)
        for (file, word) in [(truncated, "truncated gzip stream"), (corrupt, "corrupt gzip stream")] {
            let r = cli.run(["import", file])
            #expect(r.code == 65, "\(file): \(r.err)")
            #expect(r.err.contains(word), "\(r.err)")
            #expect(cli.run(["place", "g1"]).code != 0)
        }
        #expect(cli.run(["import", cli.dir.file("absent.ndjson.gz")]).code == 66)
        #expect(cli.run(["import", gz]).code == 0)
    }
}

/// Two imports into one database, and a first import on a full disk: the
/// built binary, since these are about processes and files.
@Suite("reliability: concurrent imports and failed first imports", .serialized)
struct ImportConcurrencyTests {
    static let binary = BinaryTests.binary

    static func start(_ args: [String], in dir: TempDirectory, shell: String? = nil) throws -> (
        process: Process, err: Pipe
    ) {
        let p = Process()
        if let shell {
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", shell + " exec \"$0\" \"$@\"", binary] + args
        } else {
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = args
        }
        p.currentDirectoryURL = dir.url
        var env = ProcessInfo.processInfo.environment
        env["PLACEDB_DATABASE"] = nil
        p.environment = env
        let err = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = err
        try p.run()
        return (p, err)
    }

    @Test("a second import waits for the one running, saying which process it waits for, then imports")
    func secondImportWaits() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let first = try dir.write("a.ndjson", CLI.sample)
        #expect(try BinaryTests().run(["import", first], dir: dir).code == 0)
        // Hold the database's import lock as a running import would.
        let fd = open(dir.file("places.sqlite.import-lock"), O_RDWR | O_CREAT, 0o644)
        try #require(fd >= 0)
        #expect(flock(fd, LOCK_EX) == 0)
        _ = "4242\n".withCString { pwrite(fd, $0, 5, 0) }
        let second = try dir.write("b.ndjson", #"{"id":"b1","location":{"latitude":1,"longitude":2}}"# + "\n")
        let (process, err) = try Self.start(["import", second], in: dir)
        // It says what it waits for, and waits.
        var said = ""
        let handle = err.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        while !said.contains("\n"), Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        #expect(
            said.contains("placedb import: waiting for another import (process 4242) into places.sqlite to finish"),
            "\(said)")
        usleep(300_000)
        #expect(process.isRunning)
        flock(fd, LOCK_UN)
        close(fd)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let place = try BinaryTests().run(["place", "b1", "--fields", "id"], dir: dir)
        #expect(place.code == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.file("places.sqlite.import-lock")))
    }

    @Test("two first imports racing into one name both succeed and leave no orphan FILE.new-PID")
    func racingFirstImports() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        for round in 0..<3 {
            let dir = try TempDirectory()
            let a = try dir.write("a.ndjson", CrashSafetyTests.ndjson(3000, prefix: "a"))
            let b = try dir.write("b.ndjson", CrashSafetyTests.ndjson(3000, prefix: "b"))
            let pa = try Self.start(["import", a], in: dir)
            let pb = try Self.start(["import", b], in: dir)
            pa.process.waitUntilExit()
            pb.process.waitUntilExit()
            let errors = [pa.err, pb.err].map {
                String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            }
            #expect(pa.process.terminationStatus == 0 && pb.process.terminationStatus == 0, "round \(round): \(errors)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(
                !names.contains { $0.contains(".new-") || $0.hasSuffix(".import-lock") }, "round \(round): \(names)")
            #expect(try CrashSafetyTests.checkConsistent(dir.file("places.sqlite")) == 6000)
        }
    }

    @Test(
        "a first import that fails on a full disk leaves no database; readers say there is none (66)",
        arguments: [512, 8192])
    func fullDiskFirstImport(blocks: Int) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let big = try dir.write("big.ndjson", CrashSafetyTests.ndjson(40_000, prefix: "f"))
        // A file size limit (writes beyond it fail with EFBIG, as on a full
        // disk): 512 blocks stops the new database's schema, 8192 its places.
        let (process, err) = try Self.start(["import", big], in: dir, shell: "ulimit -f \(blocks); trap '' XFSZ;")
        process.waitUntilExit()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus != 0, "\(message)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!names.contains { $0.hasPrefix("places.sqlite") }, "\(names): \(message)")
        let reader = try BinaryTests().run(["place", "f-1"], dir: dir)
        #expect(reader.code == 66, "\(reader.err)")
        #expect(reader.err.contains("no database here"))
    }
}
