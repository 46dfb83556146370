import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// Issue 15 at the command line: the crash, the ways to destroy data, the
/// database path, alias limits, read-only databases.
@Suite("Reliability at the command line")
struct ReliabilityCommandTests {
    // MARK: Item 1: offsets that trapped

    @Test("an offset of Int64.min is refused on import (65), and nothing is imported")
    func minimumOffsetRefused() throws {
        let cli = try CLI()
        let file = try cli.dir.write(
            "in.ndjson",
            #"{"id":"x","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":-9223372036854775808,"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":17,"minute":0}}]}}"#
                + "\n")
        let r = cli.run(["import", file])
        #expect(r.code == 65)
        #expect(r.err.contains("utcOffsetMinutes -9223372036854775808 is out of range"))
        #expect(r.err.contains("(place 'x')"))
        #expect(cli.run(["open", "x", "--at", "2026-03-30T12:00:00Z"]).code != 0)
    }

    @Test(
        "a database holding utcOffsetMinutes Int64.min (stored before the check) answers open, openNow, current --at and all 201 --batch lines"
    )
    func storedMinimumOffsetAnswers() throws {
        let cli = try CLI()
        let file = try cli.dir.write(
            "in.ndjson",
            #"{"id":"old","location":{"latitude":46.5,"longitude":6.6},"types":["cafe"],"utcOffsetMinutes":60,"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":17,"minute":0}}]}}"#
                + "\n")
        #expect(cli.run(["import", file]).code == 0)
        do {
            let db = try Database(path: cli.db, mode: .readWrite)
            try db.execute(
                #"UPDATE place SET doc = replace(doc, '"utcOffsetMinutes":60', '"utcOffsetMinutes":-9223372036854775808'), utc_offset_minutes = -9223372036854775808"#
            )
            #expect(try db.scalar("SELECT count(*) FROM place WHERE doc LIKE '%-9223372036854775808%'")?.int == 1)
        }
        let open = cli.run(["open", "old", "--at", "2026-03-30T12:00:00Z"])
        #expect(open.code == 0, "\(open.err)")
        #expect(open.out.contains("UNKNOWN"))
        #expect(cli.run(["place", "old", "--fields", "openNow"]).code == 0)
        #expect(cli.run(["current", "46.5,6.6", "--accuracy", "20", "--at", "2026-03-30T12:00:00Z"]).code == 0)
        let line = #"{"location":{"latitude":46.5,"longitude":6.6},"accuracyMeters":20,"time":"2026-03-30T12:00:00Z"}"#
        let console = CapturedConsole(
            environment: ["PLACEDB_DATABASE": cli.db],
            input: Array(repeating: line, count: 201).joined(separator: "\n") + "\n")
        #expect(CommandLineTool.main(arguments: ["current", "--batch"], console: console) == 0, "\(console.stderr)")
        #expect(console.stdout.split(separator: "\n").count == 201)
    }

    // MARK: Item 5: a database path is a file path

    @Test(
        "--db :memory:, a file: URI and an empty path are refused (64) and nothing is written",
        arguments: [":memory:", "file:x.db?mode=memory", "FILE:x.db", ""])
    func databasePathRefused(path: String) throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let cwd = FileManager.default.currentDirectoryPath
        let before = try FileManager.default.contentsOfDirectory(atPath: cwd)
        let r = cli.run(["import", file, "--db", path])
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.hasPrefix("placedb import: "))
        #expect(r.err.contains(path.isEmpty ? "the database path is empty" : "is not a database file path"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cwd) == before,
            "nothing written in the working directory")
        for command in [["place", "c1"], ["nearby", "46.5,6.6"], ["resolve", "c1"]] {
            #expect(cli.run(command + ["--db", path]).code == 64, "\(command)")
        }
    }

    @Test("PLACEDB_DATABASE=:memory: is refused too; an empty one means unset")
    func environmentPath() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        #expect(cli.run(["import", file], env: ["PLACEDB_DATABASE": ":memory:"]).code == 64)
        #expect(throws: PlaceDBError.self) { _ = try PlaceReader(databasePath: ":memory:") }
        #expect(throws: PlaceDBError.self) { _ = try PlaceImporter(databasePath: "file:\(cli.db)") }
    }

    @Test("a file named file:x.db is reached as ./file:x.db")
    func dotSlashURIName() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let r = cli.run(["import", file, "--db", cli.dir.path + "/file:x.db"])
        #expect(r.code == 0, "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: cli.dir.file("file:x.db")))
    }

    // MARK: Item 8: read-only databases

    /// Runs the binary as an unprivileged user (root reads through any
    /// permission, so a read-only directory means nothing to it).
    static func runUnprivileged(_ args: [String], dir: TempDirectory) throws -> (code: Int32, out: String, err: String)?
    {
        let p: Process
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
            let nobody = ["--reuid", "65534", "--regid", "65534", "--clear-groups", BinaryTests.binary]
            p = BinaryTests.process("/usr/bin/setpriv", nobody + args, in: dir)
        } else {
            p = BinaryTests.process(BinaryTests.binary, args, in: dir)
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test("a database in a read-only directory, itself read-only, answers every reader and stays unchanged")
    func readOnlyDirectory() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        #expect(cli.run(["import", file]).code == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        chmod(cli.db, 0o444)
        chmod(cli.dir.path, 0o555)
        defer { chmod(cli.dir.path, 0o755) }
        for args in [
            ["place", "c1"], ["nearby", "46.5,6.6", "--radius", "1000"], ["current", "46.5,6.6", "--accuracy", "20"],
            ["open", "c1", "--at", "2026-03-30T12:00:00Z"], ["resolve", "c1"], ["photos", "c1"],
        ] {
            guard let r = try Self.runUnprivileged(args + ["--db", "places.sqlite", "--output", "json"], dir: cli.dir)
            else {
                Issue.record("running as root and setpriv is missing: cannot check a read-only directory")
                return
            }
            #expect(r.code == 0, "\(args): \(r.err)")
            #expect(!r.err.contains("readonly"), "\(args): \(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).sorted() == [
                "in.ndjson", "places.sqlite",
            ])
    }

    @Test(
        "an import into a read-only database, or one in a read-only directory, says which in one line and exits 77; nothing changes"
    )
    func importIntoReadOnly() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        #expect(cli.run(["import", file]).code == 0)
        let more = try cli.dir.write(
            "more.ndjson",
            #"{"id":"ro1","displayName":{"text":"New"},"location":{"latitude":46.5,"longitude":6.6}}"# + "\n")
        chmod(more, 0o644)
        chmod(file, 0o644)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        defer { chmod(cli.dir.path, 0o755); chmod(cli.db, 0o644) }
        for (fileMode, dirMode, cause) in [(0o444, 0o777, "the file is read-only"), (0o666, 0o555, "is not writable")]
            as [(mode_t, mode_t, String)]
        {
            chmod(cli.db, fileMode)
            chmod(cli.dir.path, dirMode)
            guard let r = try Self.runUnprivileged(["import", "more.ndjson", "--db", "places.sqlite"], dir: cli.dir)
            else {
                Issue.record("running as root and setpriv is missing: cannot check a read-only database")
                return
            }
            #expect(r.code == 77, "\(r.err)")
            let lines = r.err.split(separator: "\n")
            #expect(lines.count == 1, "\(r.err)")
            #expect(r.err.hasPrefix("placedb import: places.sqlite: cannot write to the database: "), "\(r.err)")
            #expect(r.err.contains(cause), "\(r.err)")
            #expect(!r.err.contains("SQLite error"), "\(r.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
        }
    }

    // MARK: Items 2 and 3: writing over what must not be replaced

    /// A database whose photo c1/refA has a 40 x 30 PNG.
    static func photoCLI() throws -> CLI {
        let cli = try CLI().withPhotos()
        let image = try cli.dir.write("a.png", bytes: TestImages.make(width: 40, height: 30, format: .png))
        #expect(cli.run(["photo", "add", CLI.refA, image]).code == 0)
        return cli
    }

    @Test("photo fetch -o a FIFO writes into it and leaves it a FIFO")
    func fetchIntoFIFO() throws {
        let cli = try Self.photoCLI()
        let fifo = cli.dir.file("pipe.png")
        try #require(mkfifo(fifo, 0o644) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let r = cli.run(["photo", "fetch", CLI.refA, "-o", fifo])
        #expect(r.code == 0, "\(r.err)")
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = read(reader, &buffer, buffer.count)
        #expect(n > 8 && Array(buffer.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "the image went into the FIFO")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).allSatisfy { !$0.contains(".tmp") })
    }

    @Test("photo fetch -o a symbolic link writes the file it points to; the link stays")
    func fetchThroughSymlink() throws {
        let cli = try Self.photoCLI()
        let sub = cli.dir.file("elsewhere")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let target = try cli.dir.write("elsewhere/real.png", "old")
        chmod(target, 0o600)
        let link = cli.dir.file("link.png")
        try #require(symlink("elsewhere/real.png", link) == 0)
        let r = cli.run(["photo", "fetch", CLI.refA, "-o", link])
        #expect(r.code == 0, "\(r.err)")
        var st = stat()
        #expect(lstat(link, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the link was replaced")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: target)))
        #expect(bytes.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(stat(target, &st) == 0 && st.st_mode & 0o777 == 0o600, "the file keeps its permissions")
    }

    @Test("photo fetch -o a dangling symbolic link is refused (74) and creates nothing")
    func fetchDanglingSymlink() throws {
        let cli = try Self.photoCLI()
        let link = cli.dir.file("dangling.png")
        try #require(symlink("missing/real.png", link) == 0)
        let r = cli.run(["photo", "fetch", CLI.refA, "-o", link])
        #expect(r.code == 74)
        #expect(r.err.contains("symbolic link to a file that does not exist"))
    }

    @Test("--rejects naming an input, by any name, is refused (64) before the input is touched")
    func rejectsIsInput() throws {
        let cli = try CLI()
        let text = CLI.sample + "{broken\n"
        let file = try cli.dir.write("in.ndjson", text)
        try FileManager.default.createDirectory(atPath: cli.dir.file("sub"), withIntermediateDirectories: true)
        try #require(link(file, cli.dir.file("hard.ndjson")) == 0)
        for rejects in [file, cli.dir.path + "/sub/../in.ndjson", cli.dir.file("hard.ndjson")] {
            let r = cli.run(["import", file, "--on-error", "skip", "--rejects", rejects])
            #expect(r.code == 64, "\(rejects): \(r.err)")
            #expect(r.err.contains("is the same file as the input"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == text)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.db), "nothing imported")
    }

    @Test("--rejects or photo fetch -o naming the database is refused (64); the database is unchanged")
    func outputIsDatabase() throws {
        let cli = try Self.photoCLI()
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        let r = cli.run(["import", file, "--rejects", cli.db, "--on-error", "skip"])
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.contains("--rejects '\(cli.db)' is the database; give another file"))
        let f = cli.run(["photo", "fetch", CLI.refA, "-o", cli.db, "--format", "png"])
        #expect(f.code == 64, "\(f.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
        #expect(cli.run(["import", cli.db]).code == 64, "the database as an input")
    }

    /// `path` relative to the working directory (`../../tmp/...`), so a
    /// relative name is tested without changing the process's directory.
    static func relative(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath.split(separator: "/")
        return String(repeating: "../", count: cwd.count) + path.drop { $0 == "/" }
    }

    @Test(
        "an output named after one of the database's own files (-wal, -shm, -journal, .import-lock, .new-PID), existing or not, by any path, is refused (64) by every output option before anything is opened",
        arguments: [
            "places.sqlite-wal", "places.sqlite-shm", "places.sqlite-journal", "places.sqlite.import-lock",
            "places.sqlite.new-12345", "places.sqlite.new-12345-journal",
        ])
    func outputNamesDatabaseFile(name: String) throws {
        let cli = try Self.photoCLI()
        let input = try cli.dir.write(
            "in.ndjson", CLI.sample + #"{"id":"bad","location":{"latitude":99,"longitude":2}}"# + "\n")
        try FileManager.default.createDirectory(atPath: cli.dir.file("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: cli.dir.file("linkdir"), withDestinationPath: cli.dir.path)
        try FileManager.default.createSymbolicLink(atPath: cli.dir.file("link-to-it"), withDestinationPath: name)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        let paths = [
            cli.dir.file(name), cli.dir.path + "/sub/../" + name, cli.dir.file("linkdir") + "/" + name,
            Self.relative(cli.dir.file(name)), "./" + Self.relative(cli.dir.file(name)), cli.dir.file("link-to-it"),
        ]
        for path in paths {
            for args in [
                ["import", input, "--on-error", "skip", "--rejects", path], ["export", "-o", path],
                ["export", "--aliases", path],
                ["photo", "fetch", CLI.refA, "-o", path, "--format", "png"],
                ["photo", "fetch", CLI.refA, "-o", cli.dir.file("x.png"), "--attribution-file", path],
                ["current", "46.5,6.6", "--svg", path],
            ] {
                let r = cli.run(args)
                #expect(r.code == 64, "\(args): \(r.err)")
                #expect(
                    r.err.hasPrefix("placedb \(args[0] == "photo" ? "photo fetch" : args[0]): "), "\(args): \(r.err)")
                #expect(
                    r.err.contains("is the database's") || r.err.contains("is a new database being built"),
                    "\(args): \(r.err)")
                #expect(r.out.isEmpty, "\(args)")
                #expect(!FileManager.default.fileExists(atPath: cli.dir.file(name)), "\(args): \(path) was written")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
        #expect(!FileManager.default.fileExists(atPath: cli.dir.file("x.png")))
    }

    @Test("import --rejects DB-wal (no WAL yet) no longer loses the rejects: refused (64), nothing imported")
    func rejectsAsWAL() throws {
        let cli = try CLI()
        #expect(cli.run(["import", try cli.dir.write("good.ndjson", CLI.sample)]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: cli.db + "-wal"), "a finished import leaves no WAL")
        let input = try cli.dir.write(
            "in.ndjson", CLI.sample + #"{"id":"bad","location":{"latitude":99,"longitude":2}}"# + "\n")
        let r = cli.run(["import", input, "--on-error", "skip", "--rejects", cli.db + "-wal"])
        #expect(r.code == 64, "\(r.err)")
        #expect(
            r.err.hasPrefix(
                "placedb import: --rejects '\(cli.db)-wal' is the database's write-ahead log (-wal); give another file\n"
            ), "\(r.err)")
        // Names like the database's that are not its files are written.
        let near = cli.dir.file("places.sqlite-wal.ndjson")
        let ok = cli.run(["import", input, "--on-error", "skip", "--rejects", near])
        #expect(ok.code == 0, "\(ok.err)")
        #expect(try String(contentsOfFile: near, encoding: .utf8).contains(#""id":"bad""#))
    }

    // MARK: Item 4: every write checked

    @Test("a full stdout exits 74 with one line, for data, help and images")
    func fullStdoutInProcess() throws {
        let cli = try Self.photoCLI()
        for args in [
            ["place", "c1"], ["nearby", "46.5,6.6", "--radius", "1000"], ["--help"],
            ["photo", "fetch", CLI.refA, "-o", "-"],
        ] {
            let console = CapturedConsole(environment: ["PLACEDB_DATABASE": cli.db])
            console.stdoutCapacity = 10
            let code = CommandLineTool.main(arguments: args, console: console)
            #expect(code == 74, "\(args)")
            #expect(
                console.stderr.hasSuffix("cannot write to standard output: no space left on device\n"),
                "\(args): \(console.stderr)")
        }
    }

    /// Runs the binary with stdout on `/dev/full`.
    static func runToFull(_ args: [String], dir: TempDirectory) throws -> (code: Int32, err: String)? {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BinaryTests.binary)
        p.arguments = args
        p.currentDirectoryURL = dir.url
        var env = ProcessInfo.processInfo.environment
        env["PLACEDB_DATABASE"] = nil
        p.environment = env
        let err = Pipe()
        p.standardOutput = full
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    @Test("the binary with stdout on /dev/full exits 74 naming standard output")
    func devFullStdout() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let cli = try Self.photoCLI()
        for args in [
            ["place", "c1"], ["import", try cli.dir.write("more.ndjson", CLI.sample)],
            ["photo", "fetch", CLI.refA, "-o", "-"], ["--version"],
        ] {
            guard
                let r = try Self.runToFull(
                    args + (args[0] == "--version" ? [] : ["--db", "places.sqlite"]), dir: cli.dir)
            else {
                Issue.record("/dev/full is missing: cannot check a full stdout")
                return
            }
            #expect(r.code == 74, "\(args): \(r.err)")
            #expect(r.err.contains("cannot write to standard output: no space left on device"), "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(args): one line")
        }
    }

    @Test("--rejects on a full device exits 74 saying how many rejected records were not written")
    func rejectsOnFullDevice() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else {
            Issue.record("/dev/full is missing")
            return
        }
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample + "{broken\n" + #"{"id":"x"}"# + "\n")
        let link = cli.dir.file("rejects.ndjson")
        try #require(symlink("/dev/full", link) == 0)
        let r = cli.run(["import", file, "--on-error", "skip", "--rejects", link])
        #expect(r.code == 74, "\(r.err)")
        #expect(
            r.err.contains(
                "\(link): cannot write the rejects file: no space left on device (2 rejected records were not written; the input still has them)"
            ))
        #expect(cli.run(["place", "c2"]).code == 0, "the valid records are imported")
    }

    @Test("photo fetch -o through a link to /dev/full exits 74; the link stays")
    func fetchToFullDevice() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else {
            Issue.record("/dev/full is missing")
            return
        }
        let cli = try Self.photoCLI()
        let link = cli.dir.file("full.png")
        try #require(symlink("/dev/full", link) == 0)
        let r = cli.run(["photo", "fetch", CLI.refA, "-o", link])
        #expect(r.code == 74, "\(r.err)")
        #expect(r.err.contains("cannot write: no space left on device"))
        var st = stat()
        #expect(lstat(link, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK)
    }
}
