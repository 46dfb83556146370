import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 15 at the command line: the crash, the ways to destroy data, the
/// database path, alias limits, read-only databases.
@Suite("Reliability at the command line")
struct ReliabilityCommandTests {
    // MARK: Item 1: offsets that trapped

    @Test("an offset of Int64.min is refused on import (65), and nothing is imported")
    func minimumOffsetRefused() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", #"{"id":"x","location":{"latitude":1,"longitude":2},"utcOffsetMinutes":-9223372036854775808,"regularOpeningHours":{"periods":[{"open":{"day":1,"hour":8,"minute":0},"close":{"day":1,"hour":17,"minute":0}}]}}"# + "\n")
        let r = cli.run(["import", file])
        #expect(r.code == 65)
        #expect(r.err.contains("utcOffsetMinutes -9223372036854775808 is out of range"))
        #expect(r.err.contains("(place 'x')"))
        #expect(cli.run(["open", "x", "--at", "2026-03-30T12:00:00Z"]).code != 0)
    }

    // MARK: Item 5: a database path is a file path

    @Test("--db :memory:, a file: URI and an empty path are refused (64) and nothing is written",
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
        #expect(try FileManager.default.contentsOfDirectory(atPath: cwd) == before, "nothing written in the working directory")
        for command in [["place", "c1"], ["nearby", "46.5,6.6"], ["resolve", "c1"]] {
            #expect(cli.run(command + ["--db", path]).code == 64, "\(command)")
        }
    }

    @Test("PLACEDB_DATABASE=:memory: is refused too; an empty one means unset")
    func environmentPath() throws {
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        #expect(cli.run(["import", file], env: ["PLACEDB_DATABASE": ":memory:"]).code == 64)
        #expect(throws: PlaceDBError.self) { _ = try PlacesClient(databasePath: ":memory:") }
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
    static func runUnprivileged(_ args: [String], dir: TempDirectory) throws -> (code: Int32, out: String, err: String)? {
        let p = Process()
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid", "65534", "--regid", "65534", "--clear-groups", BinaryTests.binary] + args
        } else {
            p.executableURL = URL(fileURLWithPath: BinaryTests.binary)
            p.arguments = args
        }
        p.currentDirectoryURL = dir.url
        var env = ProcessInfo.processInfo.environment
        env["PLACEDB_DATABASE"] = nil
        p.environment = env
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
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let cli = try CLI()
        let file = try cli.dir.write("in.ndjson", CLI.sample)
        #expect(cli.run(["import", file]).code == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.db))
        chmod(cli.db, 0o444)
        chmod(cli.dir.path, 0o555)
        defer { chmod(cli.dir.path, 0o755) }
        for args in [["place", "c1"], ["nearby", "46.5,6.6", "--radius", "1000"], ["current", "46.5,6.6", "--accuracy", "20"],
                     ["open", "c1", "--at", "2026-03-30T12:00:00Z"], ["resolve", "c1"], ["photos", "c1"]] {
            guard let r = try Self.runUnprivileged(args + ["--db", "places.sqlite", "--output", "json"], dir: cli.dir) else {
                Issue.record("running as root and setpriv is missing: cannot check a read-only directory")
                return
            }
            #expect(r.code == 0, "\(args): \(r.err)")
            #expect(!r.err.contains("readonly"), "\(args): \(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.db)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).sorted() == ["in.ndjson", "places.sqlite"])
    }
}
