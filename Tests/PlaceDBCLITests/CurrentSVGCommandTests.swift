import Foundation
import Glibc
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("placedb current --svg")
struct CurrentSVGCommandTests {
    func cli() throws -> CLI {
        let cli = try CLI()
        let r = cli.run(["import", try cli.dir.write("places.ndjson", queryPlaces)])
        #expect(r.code == 0, "\(r.err)")
        return cli
    }

    func fileType(_ path: String) -> mode_t? {
        var s = stat()
        return lstat(path, &s) == 0 ? s.st_mode & S_IFMT : nil
    }

    func checksum(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test("--svg writes the picture and leaves the answer on stdout as it was")
    func writesThePicture() throws {
        let cli = try cli()
        let plain = cli.run(["current", "46.52,6.63", "--accuracy", "30", "--output", "json"])
        let out = cli.dir.file("fix.svg")
        let r = cli.run(["current", "46.52,6.63", "--accuracy", "30", "--output", "json", "--svg", out])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == plain.out)
        #expect(r.err.isEmpty)
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml"))
        let listed = try #require(try JSONValue(parsing: r.out)["placeLikelihoods"]?.arrayValue)
        #expect(svg.components(separatedBy: #"class="footprint "#).count - 1 == listed.count)
        for item in listed {
            let id = try #require(item["place"]?["id"]?.stringValue)
            #expect(svg.contains(#"data-place-id="\#(id)""#))
        }
        // A second run replaces the file, leaving no temporary file behind.
        try "old".write(toFile: out, atomically: true, encoding: .utf8)
        #expect(cli.run(["current", "46.52,6.63", "--svg=\(out)", "--output", "text"]).code == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("<?xml"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).filter { $0.contains(".tmp") }.isEmpty)
    }

    @Test("through a symbolic link, the file it names is replaced and the link kept")
    func symbolicLink() throws {
        let cli = try cli()
        let target = try cli.dir.write("target.svg", "old")
        let link = cli.dir.file("link.svg")
        #expect(symlink(target, link) == 0)
        let r = cli.run(["current", "46.52,6.63", "--svg", link])
        #expect(r.code == 0, "\(r.err)")
        #expect(fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<?xml"))
    }

    @Test("an output that cannot be written exits 74 with one line and writes nothing to stdout")
    func cannotWrite() throws {
        let cli = try cli()
        let missing = cli.dir.file("no-such-dir/fix.svg")
        let r = cli.run(["current", "46.52,6.63", "--svg", missing, "--output", "json"])
        #expect(r.code == 74)
        #expect(r.err == "placedb current: \(missing): cannot write: no such file or directory\n")
        #expect(r.out.isEmpty)

        // A directory is not replaced.
        let dir = cli.dir.file("pictures")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let d = cli.run(["current", "46.52,6.63", "--svg", dir])
        #expect(d.code == 74)
        #expect(d.err == "placedb current: \(dir): cannot write: is a directory\n")
        #expect(fileType(dir) == S_IFDIR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// Whether /dev/full is there (a character device failing every write).
    static var hasDevFull: Bool {
        var s = stat()
        return lstat("/dev/full", &s) == 0 && s.st_mode & S_IFMT == S_IFCHR
    }

    @Test(
        "a device that fails the write (/dev/full) exits 74 and is not replaced",
        .enabled(if: hasDevFull, "needs /dev/full"))
    func deviceFull() throws {
        let cli = try cli()
        let r = cli.run(["current", "46.52,6.63", "--svg", "/dev/full"])
        #expect(r.code == 74)
        #expect(r.err == "placedb current: /dev/full: cannot write: no space left on device\n")
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    /// A Unix socket bound at `path` (its descriptor, open), or nil when it
    /// cannot be (a path too long for sun_path: a deep temporary directory).
    static func boundSocket(at path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer -> Bool in
            guard path.utf8.count < buffer.count else { return false }
            for (i, b) in path.utf8.enumerated() { buffer[i] = b }
            return true
        }
        let bound =
            fits
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            } == 0
        if !bound { close(fd) }
        return bound ? fd : nil
    }

    /// Whether a socket can be bound where the CLI tests write their files.
    static let canBindSocket: Bool = {
        guard let dir = try? TempDirectory("placedb-cli"), let fd = boundSocket(at: dir.file("s.sock")) else {
            return false
        }
        close(fd)
        return true
    }()

    @Test(
        "a socket (neither a regular file, a FIFO nor a device) is refused, not replaced",
        .enabled(if: canBindSocket, "needs a Unix socket bound in the temporary directory (its path fits sun_path)"))
    func socketRefused() throws {
        let cli = try cli()
        let path = cli.dir.file("s.sock")
        let fd = try #require(Self.boundSocket(at: path))
        defer { close(fd) }
        let r = cli.run(["current", "46.52,6.63", "--svg", path])
        #expect(r.code == 74)
        #expect(r.err.contains("not a regular file"))
        #expect(fileType(path) == S_IFSOCK)
    }

    @Test("the database (or its -wal file) as the output is a usage error and leaves it unchanged")
    func databaseRefused() throws {
        let cli = try cli()
        let before = try checksum(cli.db)
        let r = cli.run(["current", "46.52,6.63", "--svg", cli.db])
        #expect(r.code == 64)
        #expect(r.err.hasPrefix("placedb current: --svg '\(cli.db)' is the database; give another file\n"))
        #expect(try checksum(cli.db) == before)
        // The same file under another name.
        let other = cli.dir.file("alias.sqlite")
        #expect(link(cli.db, other) == 0)
        #expect(cli.run(["current", "46.52,6.63", "--svg", other]).code == 64)
        #expect(try checksum(cli.db) == before)
    }

    @Test("--svg is refused with --batch and needs a file name")
    func usage() throws {
        let cli = try cli()
        let b = cli.run(["current", "--batch", "--svg", cli.dir.file("x.svg")])
        #expect(b.code == 64)
        #expect(b.err.hasPrefix("placedb current: --svg draws one query; it cannot be used with --batch\n"))
        let e = cli.run(["current", "46.52,6.63", "--svg="])
        #expect(e.code == 64)
        #expect(e.err.hasPrefix("placedb current: --svg needs a file name\n"))
    }

    /// One line on stderr, the usage line aside.
    func firstLine(_ err: String) -> Substring {
        err.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
    }

    @Test(
        "--accuracy 1e308 (the probe's hang) or over 50 km is a usage error (64) with one line; nothing is drawn",
        arguments: ["1e308", "50000.5", "1e9"])
    func absurdAccuracy(accuracy: String) throws {
        let cli = try cli()
        let out = cli.dir.file("fix.svg")
        let r = cli.run(["current", "46.52,6.63", "--accuracy", accuracy, "--svg", out])
        #expect(r.code == 64, "\(r.err)")
        #expect(
            firstLine(r.err)
                == "placedb current: invalid value '\(accuracy)' for '--accuracy'; expected a positive number of meters, at most 50000"
        )
        #expect(r.out.isEmpty)
        #expect(fileType(out) == nil)
        #expect(cli.run(["current", "46.52,6.63", "--accuracy", "50000", "--svg", out]).code == 0)
        #expect(fileType(out) == S_IFREG)
    }

    @Test(
        "nearby, search and autocomplete --radius over 50 km are usage errors (64) with one line",
        arguments: ["1e308", "50001"])
    func absurdRadius(radius: String) throws {
        let cli = try cli()
        for args in [
            ["nearby", "46.52,6.63", "--radius", radius],
            ["search", "cafe", "--near", "46.52,6.63", "--radius", radius],
            ["autocomplete", "ca", "--near", "46.52,6.63", "--radius", radius],
        ] {
            let r = cli.run(args)
            #expect(r.code == 64, "\(args): \(r.err)")
            #expect(
                firstLine(r.err)
                    == "placedb \(args[0]): invalid value '\(radius)' for '--radius'; expected a positive number of meters, at most 50000",
                "\(args)")
            #expect(r.out.isEmpty)
        }
        #expect(cli.run(["nearby", "46.52,6.63", "--radius", "50000"]).code == 0)
    }

    @Test("a --batch line with accuracyMeters 1e308 is answered with an error, not a hang")
    func absurdAccuracyInBatch() throws {
        let cli = try cli()
        let r = cli.run(
            ["current", "--batch"],
            input: #"{"location":{"latitude":46.52,"longitude":6.63},"accuracyMeters":1e308}"# + "\n")
        #expect(r.code == 65, "\(r.err)")
        #expect(r.out.contains("INVALID_ARGUMENT") && r.out.contains("at most 50000"), "\(r.out)")
    }
}
