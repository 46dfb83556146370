import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

/// Runs a program (a shell, groff, the placedb binary) and collects its output.
private func runProgram(
    _ path: String, _ args: [String], env: [String: String] = [:], removing: [String] = [], directory: URL? = nil
) throws -> (code: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    var environment = ProcessInfo.processInfo.environment
    for name in removing { environment[name] = nil }
    environment.merge(env) { $1 }
    p.environment = environment
    if let directory { p.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    // Read both to their ends (a full pipe would block the program).
    final class Box: @unchecked Sendable { var data = Data() }
    let errBox = Box()
    let handle = err.fileHandleForReading
    let reader = Thread { errBox.data = handle.readDataToEndOfFile() }
    reader.start()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    while !reader.isFinished { usleep(1000) }
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: errBox.data, as: UTF8.self))
}

private func which(_ name: String) -> String? {
    for dir in ["/usr/bin", "/bin", "/usr/local/bin"]
    where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
    return nil
}

@Suite("help fits the terminal")
struct HelpLayoutTests {
    @Test(
        "every help text is wrapped to the width: no line longer, continuation lines under the description column",
        arguments: [50, 80, 100, 120, 200])
    func wrapped(width: Int) throws {
        for topic in CommandLineToolTests.helpTopics {
            let r = CommandLineToolTests.help(topic, columns: width)
            #expect(r.code == 0, "\(topic)")
            let layout = HelpLayout(width: width, docDirectory: "")
            var section = ""
            for line in r.out.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(line.count <= width, "\(topic) at \(width): '\(line)' has \(line.count) columns")
                if line.hasSuffix(":") && !line.hasPrefix(" ") { section = String(line) }
                if ["OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:", "COMMANDS:"].contains(section), line.hasPrefix("   ") {
                    // A continuation line starts at the description column.
                    let indent = line.prefix { $0 == " " }.count
                    #expect(indent == layout.column, "\(topic) at \(width): '\(line)'")
                }
            }
        }
    }

    @Test("wrapping never breaks a word: help at 60 columns has the words of help at 1000")
    func wordsKept() throws {
        for topic in CommandLineToolTests.helpTopics {
            func words(_ columns: Int) -> [String] {
                CommandLineToolTests.help(topic, columns: columns).out.split(whereSeparator: { $0 == " " || $0 == "\n" }
                ).map(String.init).filter { $0 != "\\" }
            }
            #expect(words(60) == words(1000), "\(topic)")
        }
    }

    @Test("a long example is broken between shell words with a backslash, a quoted argument kept whole")
    func examples() {
        let layout = HelpLayout(width: 50, docDirectory: "")
        let lines = layout.example("placedb export -o cafes.geojson --where \"primary_type = 'cafe'\" --tombstones")
        #expect(
            lines == ["  placedb export -o cafes.geojson --where \\", "      \"primary_type = 'cafe'\" --tombstones"])
        #expect(
            HelpLayout.wrap(
                "a bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb c", first: "", rest: "  ", width: 40
            ).allSatisfy { $0.count <= 40 })
    }

    @Test(
        "the binary wraps to $COLUMNS, else 80 when stdout is not a terminal, and to the terminal's width through ioctl"
    )
    func binaryWidth() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first")
        let wide = try runProgram(BinaryTests.binary, ["import", "--help"], env: ["COLUMNS": "100"])
        let widest = wide.out.split(separator: "\n").map(\.count).max() ?? 0
        #expect(widest <= 100 && widest > 80, "\(widest)")
        let plain = try runProgram(BinaryTests.binary, ["import", "--help"], removing: ["COLUMNS"])
        #expect((plain.out.split(separator: "\n").map(\.count).max() ?? 0) <= 80)
    }

    @Test(
        "on a terminal, help is wrapped to its width (ioctl TIOCGWINSZ), whatever $COLUMNS says",
        .enabled(if: which("script") != nil, "script (util-linux) is not installed"))
    func terminalWidth() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first")
        // A terminal of 132 columns: script(1) gives placedb a pseudo-terminal.
        let script = try #require(which("script"))
        let tty = try runProgram(
            script, ["-qec", "stty cols 132 rows 50; \(BinaryTests.binary) import --help", "/dev/null"],
            env: ["COLUMNS": "60"])
        let lines = tty.out.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(\.count)
        #expect((lines.max() ?? 0) <= 132 && (lines.max() ?? 0) > 120, "\(lines.max() ?? 0)")
    }

    @Test("help speaks to users: no implementation or test-data detail, no repository paths")
    func userFacing() throws {
        for topic in CommandLineToolTests.helpTopics {
            let text = CommandLineToolTests.help(topic, columns: 1000).out
            for word in ["Tehran", "scraper", "CPU", "FTS5", "docs/", "Tests/", "helper", "PID", "h35"] {
                #expect(!text.contains(word), "\(topic) help says '\(word)'")
            }
            #expect(text.contains("\nSEE ALSO:\n"), "\(topic)")
        }
        // alias is a group whose subcommand is listed, not an argument.
        let alias = CommandLineToolTests.help("alias", columns: 80).out
        #expect(alias.contains("SUBCOMMANDS:\n  import "))
        #expect(!alias.contains("The action"))
        #expect(
            CommandLineToolTests.help("import", columns: 80).out.contains("/usr/local/share/doc/placedb/formats.md"))
    }

    @Test("an unknown help topic is a usage error with the nearest command")
    func unknownTopic() throws {
        let r = try CLI().run(["help", "nearbi"])
        #expect(r.code == 64)
        #expect(r.err.contains("did you mean 'nearby'?"), "\(r.err)")
    }
}

@Suite("man page and shell completions")
struct ManAndCompletionTests {
    static func generated(_ args: [String]) throws -> String {
        let r = try CLI().run(args, env: ["PLACEDB_DOC_DIR": "/usr/local/share/doc/placedb"])
        #expect(r.code == 0, "\(r.err)")
        return r.out
    }

    @Test("placedb help --man covers every command and option, the exit codes and SEE ALSO")
    func manPage() throws {
        let page = try Self.generated(["help", "--man"])
        #expect(page.hasPrefix(".\\\""))
        #expect(page.contains(".TH PLACEDB 1 "))
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES",
            "SEE ALSO",
        ] {
            #expect(page.contains(".SH \(section)\n"), "\(section)")
        }
        for entry in CommandLineTool.commands {
            #expect(page.contains(".SS \"\(ManPage.escape(entry.spec.usage))\""), "\(entry.spec.name)")
            for o in entry.spec.options {
                #expect(page.contains("\\fB\(ManPage.escape(o.name))\\fR"), "\(entry.spec.name) \(o.name)")
            }
        }
        for (code, _) in ExitCode.documented { #expect(page.contains(".TP\n.B \(code.rawValue)\n"), "\(code)") }
        #expect(page.contains("/usr/local/share/doc/placedb"))
    }

    @Test(
        "groff formats the man page without a warning",
        .enabled(if: which("groff") != nil, "groff is not installed (apt-get install groff-base)"))
    func manPageFormats() throws {
        let page = try Self.generated(["help", "--man"])
        let groff = try #require(which("groff"))
        let dir = try TempDirectory()
        let file = try dir.write("placedb.1", page)
        let r = try runProgram(groff, ["-man", "-Tutf8", "-ww", "-z", file])
        #expect(r.code == 0)
        #expect(r.err.isEmpty, "groff warns: \(r.err)")
        let text = try runProgram(groff, ["-man", "-Tutf8", "-P", "-cbou", file])
        #expect(text.out.contains("EXIT STATUS"))
        #expect(text.out.contains("placedb nearby [LAT,LNG] [options]"))
    }

    @Test("the bash completion parses and completes commands, subcommands, options and their values")
    func bash() throws {
        let script = try Self.generated(["completion", "bash"])
        let dir = try TempDirectory()
        let file = try dir.write("placedb.bash", script)
        let bash = try #require(which("bash"))
        #expect(try runProgram(bash, ["-n", file]).code == 0)
        let cases: [([String], String)] = [
            (["placedb", "imp"], "import"),
            (["placedb", "--db", "x.sqlite", "nea"], "nearby"),
            (["placedb", "photo", "f"], "fetch"),
            (["placedb", "alias", "i"], "import"),
            (["placedb", "nearby", "--ra"], "--radius --rank"),
            (["placedb", "place", "x", "--output", "j"], "json"),
            (["placedb", "export", "--format", "geojsons"], "geojsonseq"),
            (["placedb", "nearby", "1,2", "--type", "restaura"], "restaurant"),
            (["placedb", "place", "x", "--fields", "id,displayN"], "id,displayName"),
            (["placedb", "completion", "fi"], "fish"),
            (["placedb", "help", "--m"], "--man"),
        ]
        for (words, expected) in cases {
            let call =
                "source \(file); COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1); _placedb; echo \"${COMPREPLY[*]}\""
            let r = try runProgram(bash, ["-c", call])
            #expect(r.out == expected + "\n", "\(words): \(r.out) \(r.err)")
        }
        // A file argument and --db complete to files.
        _ = try dir.write("places.sqlite", "")
        let files = try runProgram(
            bash,
            [
                "-c",
                "source \(file); COMP_WORDS=(placedb import --db places); COMP_CWORD=3; _placedb; echo \"${COMPREPLY[*]}\"",
            ], directory: dir.url)
        #expect(files.out == "places.sqlite\n", "\(files.out)")
    }

    @Test(
        "the zsh completion parses and completes (zsh's completion functions stubbed)",
        .enabled(if: which("zsh") != nil, "zsh is not installed"))
    func zsh() throws {
        let script = try Self.generated(["completion", "zsh"])
        #expect(script.hasPrefix("#compdef placedb\n"))
        let zsh = try #require(which("zsh"))
        let dir = try TempDirectory()
        let file = try dir.write("_placedb", script)
        #expect(try runProgram(zsh, ["-n", file]).code == 0)
        let stubs =
            "compadd(){ print -r -- \"compadd $*\"; }; _describe(){ local n=${@[-1]}; print -r -- \"describe ${(@P)n}\"; }; _files(){ print files; }; compset(){ :; }; compdef(){ :; }; source \(file)"
        for (words, expected) in [
            (["placedb", "nea"], "describe import:"), (["placedb", "nearby", "--ra"], "describe --radius:"),
            (["placedb", "place", "x", "--output", "j"], "compadd -- json text"),
            (["placedb", "import", "x"], "files"),
        ] {
            let r = try runProgram(
                zsh,
                [
                    "-c",
                    stubs
                        + "; words=(\(words.map { "'\($0)'" }.joined(separator: " "))); CURRENT=\(words.count); _placedb",
                ])
            #expect(r.out.hasPrefix(expected), "\(words): \(r.out.prefix(200)) \(r.err)")
        }
    }

    @Test("the fish completion parses and completes", .enabled(if: which("fish") != nil, "fish is not installed"))
    func fish() throws {
        let script = try Self.generated(["completion", "fish"])
        let fish = try #require(which("fish"))
        let dir = try TempDirectory()
        let file = try dir.write("placedb.fish", script)
        #expect(try runProgram(fish, ["-n", file]).code == 0)
        for (line, expected) in [
            ("placedb imp", "import\t"), ("placedb nearby --ra", "--radius\t"), ("placedb --db x nea", "nearby\t"),
            ("placedb place x --output j", "json\t"), ("placedb photo f", "fetch\t"),
        ] {
            let r = try runProgram(fish, ["-c", "source \(file); complete -C '\(line)'"])
            #expect(r.out.hasPrefix(expected), "\(line): \(r.out.prefix(200)) \(r.err)")
        }
    }

    @Test("an unknown shell is a usage error with the nearest")
    func unknownShell() throws {
        let r = try CLI().run(["completion", "bsh"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown shell 'bsh'; did you mean 'bash'?"), "\(r.err)")
    }
}

@Suite("typos in values, far points, progress")
struct ValueTypoTests {
    @Test(
        "every value typo gets a did-you-mean and exits 64",
        arguments: [
            (
                ["nearby", "46.52,6.63", "--type", "resturant"],
                "unknown place type 'resturant' in --type; did you mean 'restaurant'?"
            ),
            (["current", "46.52,6.63", "--type", "resturant"], "did you mean 'restaurant'?"),
            (
                ["place", "c1", "--fields", "displayname"],
                "unknown field 'displayname' in --fields; did you mean 'displayName'?"
            ),
            (
                ["export", "--where", "nmae = 'x'"],
                "unknown column 'nmae' in --where 'nmae = 'x''; did you mean 'name'?"
            ),
            (["export", "--where", "primary_typ = 'cafe'"], "did you mean 'primary_type'?"),
            (["place", "c1", "--output", "jsno"], "invalid value 'jsno' for '--output'; did you mean 'json'?"),
            (["nearby", "46.52,6.63", "--feilds", "id"], "unknown option '--feilds'; did you mean '--fields'?"),
        ])
    func typo(args: [String], message: String) throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("in.ndjson", CLI.sample)]).code == 0)
        let r = cli.run(args)
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 2, "the message and the usage line: \(r.err)")
    }

    @Test("export --where id = '...' selects the place of that ID (not the row number)")
    func whereID() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("in.ndjson", CLI.sample)]).code == 0)
        func exported(_ filter: String) throws -> [String] {
            let out = cli.dir.file("out.ndjson")
            let r = cli.run(["export", "--where", filter, "-o", out])
            #expect(r.code == 0, "\(r.err)")
            return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
                try JSONValue(parsing: String($0))["id"]?.stringValue ?? ""
            }
        }
        #expect(try exported("id = 'c2'") == ["c2"])
        #expect(try exported("place_id = 'c1'") == ["c1"])
        #expect(try exported("id IN ('c1', 'c2') AND rating > 4") == ["c1"])
        #expect(try exported("id = 1").isEmpty, "the row number is not the id")
    }

    /// Places around Lausanne only (46.51..46.53, 6.62..6.64).
    static func lausanne() throws -> CLI {
        let cli = try CLI()
        let places = (0..<5).map { i in
            #"{"id":"l\#(i)","displayName":{"text":"Place \#(i)"},"location":{"latitude":46.51\#(i),"longitude":6.62\#(i)},"types":["cafe"]}"#
        }.joined(separator: "\n")
        #expect(cli.run(["import", try cli.dir.write("in.ndjson", places + "\n")]).code == 0)
        return cli
    }

    @Test(
        "a point given LNG,LAT gets one warning naming the distance and the swapped point; the answer is still given",
        arguments: ["nearby", "current"])
    func swapped(command: String) throws {
        let cli = try Self.lausanne()
        let r = cli.run([command, "6.622,46.512", "--limit", "1"])
        #expect(r.code == 0, "\(r.err)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 1, "\(r.err)")
        #expect(r.err.hasPrefix("placedb \(command): warning: the point 6.622,46.512 is "), "\(r.err)")
        #expect(r.err.contains(" km from the places of the database (latitude 46.51 to 46.51"), "\(r.err)")
        #expect(r.err.contains("did you mean 46.512,6.622?"), "\(r.err)")
        // The distance given is the distance to the box around the places.
        let km = Int(
            r.err.split(separator: " is ")[1].split(separator: " km")[0].replacingOccurrences(of: ",", with: ""))!
        let expected =
            Coordinate(latitude: 6.622, longitude: 46.512).distance(to: Coordinate(latitude: 46.51, longitude: 6.624))
            / 1000
        #expect(abs(Double(km) - expected) < 30, "\(km) vs \(expected)")
        #expect(!r.out.isEmpty)
    }

    @Test(
        "a far point whose swap is no better gets the warning without a suggestion; a near one none; search --near too")
    func far() throws {
        let cli = try Self.lausanne()
        let far = cli.run(["nearby", "40.7,-74.0", "--limit", "1"])
        #expect(far.code == 0)
        #expect(far.err.hasPrefix("placedb nearby: warning: the point 40.7,-74.0 is 6,"), "\(far.err)")
        #expect(!far.err.contains("did you mean"))
        // 50 km away: within the 100 km a database is taken to cover beyond its places.
        #expect(cli.run(["nearby", "46.9,6.9", "--limit", "1"]).err.isEmpty)
        #expect(cli.run(["current", "46.513,6.623"]).err.isEmpty)
        let search = cli.run(["search", "place", "--near", "6.62,46.51"])
        #expect(search.err.contains("did you mean 46.51,6.62?"), "\(search.err)")
        // A database with no places warns of nothing.
        #expect(
            FarPoint.warning(point: Coordinate(latitude: 6.62, longitude: 46.51), text: "6.62,46.51", extent: nil)
                == nil)
    }

    @Test("the extent comes from the spatial index's root: the box around every place")
    func extent() throws {
        let cli = try Self.lausanne()
        let reader = try PlaceReader(databasePath: cli.db)
        let box = try #require(try reader.placesExtent())
        #expect(abs(box.south - 46.510) < 1e-4 && abs(box.north - 46.514) < 1e-4, "\(box)")
        #expect(abs(box.west - 6.620) < 1e-4 && abs(box.east - 6.624) < 1e-4, "\(box)")
    }

    @Test(
        "--progress shows progress lines on a stderr that is not a terminal; --no-progress none on a terminal; the default follows the terminal"
    )
    func progress() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let forced = cli.run(["import", file, "--progress"])
        #expect(forced.code == 0)
        #expect(forced.err.contains("placedb import: progress: \(file): 2 records"), "\(forced.err)")
        #expect(!forced.err.contains("\r"))
        let quiet = cli.run(["import", file, "--no-progress", "--output", "text"], terminal: true)
        #expect(quiet.code == 0)
        #expect(quiet.err.isEmpty, "\(quiet.err)")
        let tty = cli.run(["import", file, "--output", "text"], terminal: true)
        #expect(tty.err.contains("\r\u{1B}[K\(file): 2 records"), "\(tty.err)")
        #expect(cli.run(["import", file]).err.isEmpty, "no progress by default when stderr is not a terminal")
        let both = cli.run(["import", file, "--progress", "--no-progress"])
        #expect(both.code == 64)
        #expect(both.err.contains("--progress and --no-progress contradict each other"))
    }

    @Test(
        "export --progress says how much is written; none by default off a terminal, nor when the places go to the terminal"
    )
    func exportProgress() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("in.ndjson", CLI.sample)]).code == 0)
        let out = cli.dir.file("out.ndjson")
        let forced = cli.run(["export", "-o", out, "--progress"])
        #expect(forced.code == 0, "\(forced.err)")
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        #expect(forced.err.hasPrefix("placedb export: progress: \(size) B written in "), "\(forced.err)")
        #expect(forced.err.split(separator: "\n").count == 1, "\(forced.err)")
        #expect(cli.run(["export", "-o", out]).err.isEmpty)
        #expect(cli.run(["export", "-o", out, "--no-progress", "--output", "text"], terminal: true).err.isEmpty)
        // On a terminal the line is rewritten, then cleared.
        let tty = cli.run(["export", "-o", out, "--output", "text"], terminal: true)
        #expect(tty.err.hasPrefix("\r\u{1B}[K\(size) B written"), "\(tty.err)")
        #expect(tty.err.hasSuffix("\r\u{1B}[K"), "\(tty.err)")
        // The places on the terminal's standard output: no progress beside them.
        let console = CapturedConsole(terminal: true, environment: ["PLACEDB_DATABASE": cli.db])
        #expect(CommandLineTool.main(arguments: ["export"], console: console) == 0)
        #expect(console.stderr.isEmpty, "\(console.stderr)")
    }
}

@Suite("Scripts/install")
struct InstallScriptTests {
    @Test(
        "installs the binary, the man page, the completions and the docs under DESTDIR/PREFIX; the installed binary runs and finds its docs"
    )
    func install() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first")
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let dir = try TempDirectory()
        let r = try runProgram(
            repo.appendingPathComponent("Scripts/install").path, ["--binary", BinaryTests.binary],
            env: ["DESTDIR": dir.path, "PREFIX": "/opt/placedb"])
        #expect(r.code == 0, "\(r.err)")
        let root = dir.path + "/opt/placedb"
        for file in [
            "bin/placedb", "share/man/man1/placedb.1", "share/bash-completion/completions/placedb",
            "share/zsh/site-functions/_placedb",
            "share/fish/vendor_completions.d/placedb.fish", "share/doc/placedb/README.md",
            "share/doc/placedb/commands.md", "share/doc/placedb/reliability.md",
        ] {
            #expect(FileManager.default.fileExists(atPath: "\(root)/\(file)"), "\(file)")
        }
        let version = try runProgram("\(root)/bin/placedb", ["--version"])
        #expect(version.code == 0)
        #expect(version.out == "placedb \(CommandLineTool.version)\n")
        // The man page names the installed documentation (PREFIX, not DESTDIR).
        let man = try String(contentsOfFile: "\(root)/share/man/man1/placedb.1", encoding: .utf8)
        #expect(man.replacingOccurrences(of: "\\:", with: "").contains("/opt/placedb/share/doc/placedb"))
        // Installed, help points at the docs beside it.
        let help = try runProgram(
            "\(root)/bin/placedb", ["import", "--help"], env: ["COLUMNS": "300"], removing: ["PLACEDB_DOC_DIR"])
        #expect(help.out.contains("\(root)/share/doc/placedb/formats.md"), "\(help.out)")
        let bad = try runProgram(repo.appendingPathComponent("Scripts/install").path, ["--bogus"])
        #expect(bad.code == 64)
    }
}
