import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

/// Runs placedb in-process with a captured console.
struct CLI {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }

    init() throws { dir = try TempDirectory("placedb-cli") }

    @discardableResult
    func run(_ args: [String], terminal: Bool = false, env: [String: String]? = nil) -> (
        code: Int32, out: String, err: String
    ) {
        let console = CapturedConsole(terminal: terminal, environment: env ?? ["PLACEDB_DATABASE": db])
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdout, console.stderr)
    }

    /// A CLI whose database holds `queryPlaces` (the nearby, current and search suites).
    static func withQueryPlaces() throws -> CLI {
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("places.ndjson", queryPlaces)])
        #expect(r.code == 0, "\(r.err)")
        return cli
    }

    /// Runs placedb with `input` on standard input (the `--batch` modes).
    func run(_ args: [String], input: String) -> (code: Int32, out: String, err: String) {
        let console = CapturedConsole(environment: ["PLACEDB_DATABASE": db], input: input)
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdout, console.stderr)
    }

    static let sample = """
        {"id":"c1","displayName":{"text":"Café Un","languageCode":"fr"},"location":{"latitude":-33.8688,"longitude":151.2093},"types":["cafe","food"],"rating":4.5,"userRatingCount":120,"internationalPhoneNumber":"+61 2 5550 0000","websiteUri":"https://example.org/c1","regularOpeningHours":{"weekdayDescriptions":["Monday: 8:00 AM – 5:00 PM"]}}
        {"id":"c2","displayName":{"text":"Two"},"location":{"latitude":46.5,"longitude":6.6},"types":["park"]}

        """
}

@Suite("placedb command line")
struct CommandLineToolTests {
    @Test("import then place prints the Places API (New) shape")
    func importThenPlace() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let imported = cli.run(["import", file])
        #expect(imported.code == 0, "\(imported.err)")
        let summary = try #require(try JSONValue(parsing: imported.out).objectValue)
        #expect(summary["total"]?["inserted"] == .int(2))
        #expect(summary["total"]?["changed"] == .bool(true))

        let place = cli.run(["place", "c1"])
        #expect(place.code == 0)
        let json = try #require(try JSONValue(parsing: place.out).objectValue)
        #expect(json.keys.prefix(2) == ["name", "id"])
        #expect(json["name"] == .string("places/c1"))
        #expect(json["displayName"]?["text"] == .string("Café Un"))
        #expect(json["location"]?["latitude"] == .double(-33.8688))
        #expect(json["rating"] == .double(4.5))
    }

    @Test("re-import reports that nothing changed")
    func reimport() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        cli.run(["import", file])
        let again = cli.run(["import", file, "--output", "text"])
        #expect(again.code == 0)
        #expect(again.out.contains("0 inserted, 0 updated, 2 unchanged, 0 rejected"))
        #expect(again.out.contains("nothing changed"))
    }

    @Test(
        "--fields takes v1 paths, SDK synonyms and *",
        arguments: [
            ("id,displayName", ["name", "id", "displayName"].filter { $0 != "name" }),
            ("placeID,coordinate,phoneNumber,website", ["id", "location", "internationalPhoneNumber", "websiteUri"]),
            ("name", ["name", "displayName"]),
            ("openingHours,userRatingsTotal", ["regularOpeningHours", "userRatingCount"]),
            ("location.latitude", ["location"]),
        ])
    func fieldMasks(mask: String, keys: [String]) throws {
        let cli = try CLI()
        cli.run(["import", try cli.dir.write("in.ndjson", CLI.sample)])
        let r = cli.run(["place", "c1", "--fields", mask])
        #expect(r.code == 0, "\(r.err)")
        let json = try #require(try JSONValue(parsing: r.out).objectValue)
        #expect(Set(json.keys) == Set(keys))
        if mask == "location.latitude" {
            #expect(json["location"]?.objectValue?.keys == ["latitude"])
        }
        let all = try #require(try JSONValue(parsing: cli.run(["place", "c1", "--fields=*"]).out).objectValue)
        #expect(all.count > 6)
    }

    @Test("exit codes follow the README table")
    func exitCodes() throws {
        let cli = try CLI()
        let good = try cli.dir.write("in.ndjson", CLI.sample)
        #expect(cli.run(["place", "c1"]).code == 66, "no database yet is missing input")
        #expect(cli.run(["import", good]).code == 0)
        let notFound = cli.run(["place", "nope"])
        #expect(notFound.code == 1)
        #expect(notFound.err == "placedb place: NOT_FOUND: no place with ID 'nope'\n")
        #expect(cli.run(["import", cli.dir.file("absent.json")]).code == 66)
        let bad = try cli.dir.write("bad.json", #"{"id":"b","location":{"latitude":95,"longitude":0}}"#)
        let badRun = cli.run(["import", bad])
        #expect(badRun.code == 65)
        #expect(badRun.err.contains("\(bad):1: record 1 (place 'b'): latitude 95 is out of range [-90, 90]"))
        #expect(cli.run(["place"]).code == 64)
        #expect(cli.run(["frobnicate"]).code == 64)
        #expect(cli.run(["place", "c1", "--fields", "bogus"]).code == 64)
        #expect(cli.run(["import", good, "--on-error", "maybe"]).code == 64)
        #expect(cli.run(["--help"]).code == 0)
        #expect(cli.run(["--version"]).code == 0)
    }

    @Test("an unknown option suggests the close one")
    func suggestion() throws {
        let cli = try CLI()
        let r = cli.run(["place", "x", "--feilds", "id"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown option '--feilds'; did you mean '--fields'?"))
        #expect(r.err.contains("Usage: placedb place ID [options]"))
        let c = cli.run(["plcae", "x"])
        #expect(c.err.contains("did you mean 'place'?"))
    }

    @Test("an unknown field lists the valid names")
    func unknownField() throws {
        let cli = try CLI()
        let r = cli.run(["place", "x", "--fields", "id,colour"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown field 'colour'"))
        #expect(r.err.contains("displayName"))
        #expect(r.err.contains("phoneNumber"))
    }

    @Test("negative coordinates are values, not options")
    func negativeNumbers() throws {
        let parsed = try ArgumentParser.parse(["-33.8688,151.2093", "--db=x.sqlite", "-.5"], spec: PlaceCommand.spec)
        #expect(parsed.positionals == ["-33.8688,151.2093", "-.5"])
        #expect(parsed.value(CommandSpec.GlobalOptions.db) == "x.sqlite")
    }

    @Test("-- ends the options")
    func doubleDash() throws {
        let parsed = try ArgumentParser.parse(["--", "--fields"], spec: PlaceCommand.spec)
        #expect(parsed.positionals == ["--fields"])
    }

    @Test("--db and PLACEDB_DATABASE choose the file, --db first")
    func databaseChoice() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let other = cli.dir.file("other.sqlite")
        #expect(cli.run(["import", file, "--db", other]).code == 0)
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        #expect(cli.run(["place", "c1"], env: ["PLACEDB_DATABASE": other]).code == 0)
        #expect(cli.run(["--db", other, "place", "c1"], env: [:]).code == 0, "global option before the command")
    }

    @Test("text on a terminal, JSON when piped, --output overrides")
    func outputFormats() throws {
        let cli = try CLI()
        cli.run(["import", try cli.dir.write("in.ndjson", CLI.sample)])
        let tty = cli.run(["place", "c1"], terminal: true)
        #expect(tty.out.hasPrefix("Café Un\n"))
        #expect(tty.out.contains("-33.8688,151.2093"))
        let forced = cli.run(["place", "c1", "--output", "json"], terminal: true)
        #expect(forced.out.hasPrefix("{"))
        let piped = cli.run(["place", "c1", "--output", "text"])
        #expect(piped.out.hasPrefix("Café Un"))
    }

    @Test("--on-error skip with --rejects keeps the rejected records as NDJSON")
    func rejectsFile() throws {
        let cli = try CLI()
        let input = try cli.dir.write(
            "mixed.ndjson",
            """
            {"id":"ok1","location":{"latitude":1,"longitude":2}}
            {"id":"bad1","location":{"latitude":100,"longitude":2}}
            {broken
            {"id":"ok2","location":{"latitude":3,"longitude":4}}

            """)
        let rejects = cli.dir.file("rejects.ndjson")
        let r = cli.run(["import", input, "--on-error", "skip", "--rejects", rejects, "--output", "text"])
        #expect(r.code == 0)
        #expect(r.out.contains("4 records: 2 inserted, 0 updated, 0 unchanged, 2 rejected"))
        #expect(r.err.contains("mixed.ndjson:2: record 2 (place 'bad1'): latitude 100 is out of range"))
        #expect(r.err.contains("mixed.ndjson:3: record 3: malformed JSON"))
        let kept = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(kept.count == 2)
        #expect(kept[1] == "{broken")
        #expect(try JSONValue(parsing: String(kept[0]))["id"] == .string("bad1"))
    }

    /// Every help text: the overview, each command's and each group's.
    static let helpTopics = [
        "", "import", "place", "open", "resolve", "alias", "alias import", "photos", "photo", "photo add",
        "photo fetch", "nearby", "current", "serve", "export", "info", "diff", "search", "autocomplete", "text-index",
        "text-index build", "text-index drop", "text-index analyze", "text-index lists", "spatial-index",
        "spatial-index build",
        "spatial-index status", "link",
        "completion",
    ]

    /// The help of `topic` at `columns` columns, as `placedb TOPIC --help` prints it.
    static func help(_ topic: String, columns: Int) -> (code: Int32, out: String, err: String) {
        let args = topic.isEmpty ? ["--help"] : topic.split(separator: " ").map(String.init) + ["--help"]
        let console = CapturedConsole(environment: [
            "COLUMNS": String(columns), "PLACEDB_DOC_DIR": "/usr/local/share/doc/placedb",
        ])
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdout, console.stderr)
    }

    @Test(
        "help text matches the golden files, at 80 columns (Fixtures/help-*.txt) and 120 (Fixtures/help-120/)",
        arguments: helpTopics, [80, 120])
    func helpGolden(command: String, columns: Int) throws {
        let r = Self.help(command, columns: columns)
        #expect(r.code == 0)
        #expect(r.err.isEmpty)
        let name = "help\(command.isEmpty ? "" : "-" + command.replacingOccurrences(of: " ", with: "-")).txt"
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let golden = (columns == 80 ? fixtures : fixtures.appendingPathComponent("help-\(columns)"))
            .appendingPathComponent(name).path
        if ProcessInfo.processInfo.environment["PLACEDB_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(
                atPath: (golden as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try r.out.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        #expect(
            r.out == (try String(contentsOfFile: golden, encoding: .utf8)),
            "re-record on purpose: PLACEDB_RECORD_GOLDEN=1 swift test --filter helpGolden")
    }

    @Test("every command is listed under its spec's name, once: a run finds its command by name alone")
    func entryNames() {
        for entry in CommandLineTool.commands { #expect(entry.name == entry.spec.name) }
        #expect(Set(CommandLineTool.commands.map(\.name)).count == CommandLineTool.commands.count)
    }

    @Test(
        "every command's help has two or three examples before SEE ALSO, and each example parses with that command's options"
    )
    func helpExamples() throws {
        for command in CommandLineTool.commands {
            let spec = command.spec
            #expect((2...3).contains(spec.examples.count), "\(spec.name) has \(spec.examples.count) examples")
            // Wide enough that no example is broken.
            let help = spec.help(HelpLayout(width: 1000, docDirectory: "/doc"))
            #expect(
                help.contains("\nEXAMPLES:\n" + spec.examples.map { "  \($0)\n" }.joined() + "\nSEE ALSO:\n"),
                "\(spec.name): examples, then SEE ALSO")
            #expect(help.contains("man placedb"), "\(spec.name)")
            for example in spec.examples {
                // The words after `placedb COMMAND`, up to a shell redirection or pipe.
                var words = example.split(separator: " ").map(String.init)
                let start = try #require(words.firstIndex(of: "placedb"), "\(example)")
                words = Array(words[(start + 1)...].prefix { !["<", ">", "|"].contains($0) })
                let name = spec.name.split(separator: " ").map(String.init)
                #expect(Array(words.prefix(name.count)) == name, "\(example)")
                #expect(throws: Never.self, "\(example)") {
                    try ArgumentParser.parse(Array(words.dropFirst(name.count)), spec: spec)
                }
            }
        }
        let overview = try CLI().run(["--help"]).out
        #expect(overview.contains("\nEXAMPLES:\n  placedb import "))
    }

    @Test(
        "options are read through the command's own table: a value given by its long name, its short name or a former name"
    )
    func typedOptions() throws {
        let spec = PhotoFetchCommand.spec
        for args in [["-o", "a.jpg"], ["--output-file", "a.jpg"], ["--output-file=a.jpg"], ["--out", "a.jpg"]] {
            let parsed = try ArgumentParser.parse(["ref"] + args, spec: spec)
            #expect(parsed.value(PhotoFetchCommand.Options.outputFile) == "a.jpg", "\(args)")
            #expect(parsed.value(CommandSpec.GlobalOptions.output) == nil)
        }
        let both = try ArgumentParser.parse(["ref", "-o", "a.jpg", "--output", "text"], spec: spec)
        #expect(both.value(CommandSpec.GlobalOptions.output) == "text")
        #expect(throws: UsageError.self) {
            try ArgumentParser.parse(["ref", "-o", "a.jpg", "--out", "b.jpg"], spec: spec)
        }
        let repeated = try ArgumentParser.parse(["1,2", "--type", "cafe", "--type=bar"], spec: NearbyCommand.spec)
        #expect(repeated.all(NearbyCommand.Options.type) == ["cafe", "bar"])
        #expect(!repeated.flag(NearbyCommand.Options.batch))
    }
}

/// A few tests run the built binary end to end (stdin, exit status).
@Suite("placedb binary")
struct BinaryTests {
    /// The placedb built with this test bundle (debug, release or any
    /// --scratch-path), not a fixed .build/debug.
    static let binary = BuiltProducts.executable("placedb")

    func run(_ args: [String], stdin: String? = nil, dir: TempDirectory) throws -> (
        code: Int32, out: String, err: String
    ) {
        let r = try Self.run(args, stdin: Array((stdin ?? "").utf8), dir: dir)
        return (r.code, String(decoding: r.out, as: UTF8.self), r.err)
    }

    /// Runs the binary in `dir` with `stdin` (and `environment` added to
    /// this process's); stdout as bytes (images).
    static func run(
        _ args: [String], stdin: [UInt8], dir: TempDirectory, environment: [String: String] = [:]
    ) throws -> (code: Int32, out: [UInt8], err: String) {
        let p = process(Self.binary, args, in: dir, environment: environment)
        let input = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = input
        p.standardOutput = out
        p.standardError = err
        try p.run()
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, [UInt8](o), String(decoding: e, as: UTF8.self))
    }

    /// `executable` with `args`, to run in `dir` with this process's
    /// environment, `environment` added and `PLACEDB_DATABASE` removed.
    static func process(
        _ executable: String, _ args: [String], in dir: TempDirectory, environment: [String: String] = [:]
    ) -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        p.currentDirectoryURL = dir.url
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["PLACEDB_DATABASE"] = nil
        p.environment = env
        return p
    }

    @Test("PLACEDB_PROFILE_SQL writes each statement with its time on stderr; unset or 0, nothing more is written")
    func profileSQL() throws {
        let dir = try TempDirectory("profile-sql")
        let db = dir.file("p.sqlite")
        #expect(
            try Self.run(["import", "--db", db, try dir.write("p.ndjson", queryPlaces)], stdin: [], dir: dir).code == 0)
        let query = ["autocomplete", "caf", "--near", "46.52,6.63", "--db", db]
        let plain = try Self.run(query, stdin: [], dir: dir)
        #expect(plain.code == 0 && plain.err.isEmpty, "\(plain.err)")
        let off = try Self.run(query, stdin: [], dir: dir, environment: ["PLACEDB_PROFILE_SQL": "0"])
        #expect(off.err.isEmpty && off.out == plain.out)
        let on = try Self.run(query, stdin: [], dir: dir, environment: ["PLACEDB_PROFILE_SQL": "1"])
        #expect(on.code == 0 && on.out == plain.out)
        let lines = on.err.split(separator: "\n")
        #expect(lines.count > 5)
        #expect(lines.allSatisfy { $0.hasPrefix("sql ") && $0.contains(" ms: ") }, "\(on.err.prefix(500))")
        // The statements with their values bound: the text index asked for the prefix.
        #expect(lines.contains { $0.contains("MATCH") && $0.contains("caf") }, "\(on.err.prefix(2000))")
    }

    @Test("the binary is the one built next to this test bundle")
    func binaryBesideTests() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "\(Self.binary)")
        #expect(
            FileManager.default.fileExists(
                atPath: BuiltProducts.directory.appendingPathComponent("placedbPackageTests.xctest").path))
        let dir = try TempDirectory()
        let r = try run(["--version"], dir: dir)
        #expect(r.code == 0 && r.out == "placedb \(CommandLineTool.version)\n")
    }

    @Test(
        "a batch answers each line before the next arrives, and a piped file all at once, CRLF and a last line without a newline included"
    )
    func batchConversation() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        #expect(try run(["import", "-"], stdin: CLI.sample, dir: dir).code == 0)
        let line = #"{"locationRestriction":{"circle":{"center":{"latitude":46.5,"longitude":6.6},"radius":5000}}}"#

        // A program that writes a request and waits for its answer.
        let p = Self.process(Self.binary, ["nearby", "--batch", "--fields", "id"], in: dir)
        let input = Pipe(), out = Pipe()
        p.standardInput = input
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        /// The next line of the answers, or nil after 20 s without one.
        var received: [UInt8] = []
        func nextAnswer() -> String? {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if let newline = received.firstIndex(of: 0x0A) {
                    let answer = String(decoding: received[..<newline], as: UTF8.self)
                    received.removeFirst(newline + 1)
                    return answer
                }
                var ready = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 200) > 0 else { continue }
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { return nil }
                received += data
            }
            return nil
        }
        for _ in 0..<3 {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
            let answer = try #require(nextAnswer(), "no answer while the batch waits for the next line")
            #expect(answer.contains(#""id":"c2""#), "\(answer)")
        }
        try input.fileHandleForWriting.close()
        #expect(nextAnswer() == nil)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)

        // A file piped: CRLF, a bad line, a last line without a newline.
        let piped = try run(
            ["nearby", "--batch", "--fields", "id"], stdin: line + "\r\n" + "nope\n" + line, dir: dir)
        let answers = piped.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(answers.count == 4 && answers[3].isEmpty, "\(piped.out)")
        #expect(answers[0] == answers[2] && answers[0].contains(#""id":"c2""#), "\(piped.out)")
        #expect(answers[1].contains("line 2: not JSON"), "\(piped.out)")
        #expect(piped.code == 65)
    }

    @Test("- reads standard input into ./places.sqlite by default")
    func stdinImport() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let r = try run(["import", "-"], stdin: CLI.sample, dir: dir)
        #expect(r.code == 0, "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: dir.file("places.sqlite")))
        let place = try run(["place", "c2", "--fields", "displayName"], dir: dir)
        #expect(place.code == 0)
        #expect(place.out.contains("\"text\": \"Two\""))
        let missing = try run(["place", "zzz"], dir: dir)
        #expect(missing.code == 1)
        #expect(missing.out.isEmpty)
        #expect(missing.err.split(separator: "\n").count == 1)
    }
}
