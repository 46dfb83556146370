import Foundation
import Testing
import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// The binary under real failure: SIGKILL at random moments of an import,
/// and readers in another process while an import runs.
@Suite("Crash safety and concurrent readers", .serialized)
struct CrashSafetyTests {
    static let binary = BinaryTests.binary

    static func ndjson(_ count: Int, prefix: String) -> String {
        var text = ""
        text.reserveCapacity(count * 200)
        for i in 0..<count {
            let lat = Double(i % 17_000) / 100 - 85, lng = Double((i * 7) % 36_000) / 100 - 180
            text +=
                #"{"id":"\#(prefix)-\#(i)","displayName":{"text":"Place \#(i)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["cafe","food"],"rating":4.2}"#
                + "\n"
        }
        return text
    }

    /// Starts `placedb` with arguments; returns its pid.
    static func spawn(_ args: [String], cwd: String) throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + args).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let rc = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        try #require(rc == 0, "cannot start \(binary)")
        return pid
    }

    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }

    /// Checks the database is whole: integrity, R*Tree = places, no
    /// duplicate IDs, SpatiaLite's triggers in place. Returns the place count.
    static func checkConsistent(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        let db = try Database(path: path, mode: .readOnly)
        #expect(try db.scalar("PRAGMA integrity_check")?.string == "ok")
        guard try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'place'")?.int == 1 else { return 0 }
        let places = try db.scalar("SELECT count(*) FROM place")?.int ?? -1
        #expect(
            try db.scalar("SELECT count(*) FROM idx_place_geom")?.int == places,
            "the spatial index lost step with the places")
        #expect(try db.scalar("SELECT count(DISTINCT place_id) FROM place")?.int == places)
        #expect(
            try db.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'place' AND name LIKE '%_place_geom'"
            )?.int == 8,
            "SpatiaLite's triggers on place were not restored")
        #expect(try db.scalar("SELECT count(*) FROM import_run WHERE status = 'running'")?.int == 0)
        return places
    }

    @Test("SIGKILL at random moments leaves a consistent database, and rerunning completes it with nothing lost")
    func killAndRerun() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let files = try (0..<3).map { try dir.write("part-\($0).ndjson", Self.ndjson(15_000, prefix: "p\($0)")) }
        let db = dir.file("places.sqlite")
        var rng = SystemRandomNumberGenerator()
        var killed = 0
        for attempt in 0..<6 {
            let pid = try Self.spawn(["import"] + files + ["--db", db], cwd: dir.path)
            let delay = UInt32.random(in: 30_000...1_500_000, using: &rng)
            usleep(delay)
            if kill(pid, SIGKILL) == 0 { killed += 1 }
            _ = Self.wait(pid)
            let count = try Self.checkConsistent(db)
            // Whole files only: each is one transaction.
            #expect(count % 15_000 == 0, "attempt \(attempt): \(count) places after a kill at \(delay / 1000) ms")
        }
        #expect(killed > 0)
        let pid = try Self.spawn(["import"] + files + ["--db", db], cwd: dir.path)
        #expect(Self.wait(pid) == 0)
        #expect(try Self.checkConsistent(db) == 45_000)
        let spatialite = try Tool.run("spatialite", [db, "SELECT CheckSpatialIndex()"])
        if spatialite.status == 0 {
            #expect(spatialite.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        }
        // And once more: nothing changes.
        let again = try Tool.run(Self.binary, ["import"] + files + ["--db", db, "--output", "json"])
        #expect(again.status == 0)
        let summary = try JSONValue(parsing: again.stdout)
        #expect(summary["total"]?["changed"] == .bool(false))
        #expect(summary["total"]?["unchanged"] == .int(45_000))
    }

    @Test("readers in another process keep answering while an import runs")
    func readersDuringImport() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let db = dir.file("places.sqlite")
        let first = try dir.write("first.ndjson", Self.ndjson(10, prefix: "old"))
        #expect(Self.wait(try Self.spawn(["import", first, "--db", db], cwd: dir.path)) == 0)
        let big = try dir.write("big.ndjson", Self.ndjson(60_000, prefix: "new"))
        let pid = try Self.spawn(["import", big, "--db", db], cwd: dir.path)
        var answered = 0
        var whileRunning = 0
        var failures: [String] = []
        while true {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG) == pid
            do {
                let client = try PlaceReader(databasePath: db)
                let place = try client.fetchPlace(id: "old-7")
                if place.displayName?.text == "Place 7" { answered += 1; if !done { whileRunning += 1 } }
            } catch {
                failures.append("\(error)")
            }
            if done { break }
            usleep(20_000)
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        #expect(whileRunning > 0, "no query ran while the import was running")
        #expect(answered > 0)
        #expect(try Self.checkConsistent(db) == 60_010)
    }
}
