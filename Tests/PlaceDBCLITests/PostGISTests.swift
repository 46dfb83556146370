import Foundation
import Testing
@testable import PlaceDBCLI
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceStorage
import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster with PostGIS: initdb into a temporary
/// directory, a free loopback port, stopped (immediately) when released.
/// As root (CI), the server runs as the postgres user, as initdb requires.
final class TemporaryPostgres {
    let dir: TempDirectory
    let bin: String
    let port: Int
    let data: String
    private let asRoot: Bool

    /// The binaries of the newest PostgreSQL with PostGIS installed, or why not.
    /// Whether PostgreSQL with PostGIS is installed: the PostGIS test's condition.
    static var isAvailable: Bool { (try? locate().get()) != nil }

    static func locate() -> Result<String, SkipReason> {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted(
            by: >)
        guard !versions.isEmpty else {
            return .failure(
                SkipReason("PostgreSQL is not installed (/usr/lib/postgresql; Scripts/setup installs postgresql)"))
        }
        for v in versions where FileManager.default.isExecutableFile(atPath: "\(root)/\(v)/bin/initdb") {
            if FileManager.default.fileExists(atPath: "/usr/share/postgresql/\(v)/extension/postgis.control") {
                return .success("\(root)/\(v)/bin")
            }
        }
        return .failure(
            SkipReason(
                "PostGIS is not installed for PostgreSQL \(versions.map(String.init).joined(separator: ", ")) (Scripts/setup installs postgresql-15-postgis-3)"
            ))
    }

    struct SkipReason: Error { let message: String; init(_ m: String) { message = m } }

    init(bin: String) throws {
        self.bin = bin
        dir = try TempDirectory("placedb-pg")
        data = dir.file("data")
        asRoot = getuid() == 0
        port = try Self.freePort()
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        if asRoot {
            chmod(dir.path, 0o755)
            guard chown(data, Self.postgresUID(), Self.postgresGID()) == 0 else {
                throw Failure("cannot give \(data) to the postgres user")
            }
        }
        try run("\(bin)/initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
        // The server outlives pg_ctl: it must hold none of this process's
        // pipes (a Tool.run reading one would wait for it forever), so it
        // starts from a shell with every descriptor past 2 closed and the
        // standard ones on files.
        let start = [
            ("\(bin)/pg_ctl"), "start", "-w", "-D", data, "-l", data + "/server.log",
            "-o",
            "-p \(port) -c listen_addresses=127.0.0.1 -c unix_socket_directories=\(data) -c fsync=off -c synchronous_commit=off",
        ]
        let script =
            #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; exec "$@" </dev/null >"$LOG" 2>&1"#
        let log = dir.file("pg_ctl.log")
        let r = try Tool.run(
            "env",
            ["LOG=\(log)", "bash", "-c", script, "bash"] + (asRoot ? ["runuser", "-u", "postgres", "--"] : []) + start)
        guard r.status == 0 else {
            throw Failure(
                "pg_ctl start: exit \(r.status): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    deinit {
        _ = try? run("\(bin)/pg_ctl", ["stop", "-m", "immediate", "-w", "-D", data])
    }

    struct Failure: Error, CustomStringConvertible { let description: String; init(_ d: String) { description = d } }

    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> Tool.Result {
        let r =
            asRoot && !tool.hasSuffix("/psql")
            ? try Tool.run("runuser", ["-u", "postgres", "--", tool] + arguments) : try Tool.run(tool, arguments)
        guard r.status == 0 else {
            throw Failure("\(tool) \(arguments.first ?? ""): exit \(r.status): \(r.stderr.prefix(2000))")
        }
        return r
    }

    /// The connection string GDAL takes.
    var gdalConnection: String { "PG:host=127.0.0.1 port=\(port) user=postgres dbname=postgres" }

    /// Runs SQL with psql (stops at the first error); unaligned, tuples only.
    @discardableResult
    func psql(_ sql: String) throws -> String {
        try run(
            "\(bin)/psql",
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                "-X", "-q", "-A", "-t", "-c", sql,
            ]
        ).stdout
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Failure("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func postgresUID() -> uid_t { getpwnam("postgres").map { $0.pointee.pw_uid } ?? 0 }
    static func postgresGID() -> gid_t { getpwnam("postgres").map { $0.pointee.pw_gid } ?? 0 }
}

/// `value` with each number rounded to 15 significant digits, as GDAL writes JSON.
func fifteenDigits(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let d): return .double(Double(String(format: "%.15g", d)) ?? d)
    case .array(let a): return .array(a.map(fifteenDigits))
    case .object(let o): return .object(JSONObject(o.members.map { ($0.key, fifteenDigits($0.value)) }))
    default: return value
    }
}

/// docs/postgis.md's path: `placedb export` NDJSON loaded with psql's
/// \copy into a jsonb column, a geography point with a GiST index, and the
/// nearby and by-ID SQL of the page, compared with placedb's answers; and
/// ogr2ogr -f PostgreSQL of the database's layers, without a warning.
@Suite("PostGIS: an export loaded into PostgreSQL answers as placedb does", .serialized)
struct PostGISTests {
    /// The SQL of docs/postgis.md that loads an export (FILE) into `place`.
    static func loadSQL(_ file: String) -> [String] {
        [
            "CREATE EXTENSION IF NOT EXISTS postgis",
            "CREATE TABLE place_import (doc jsonb NOT NULL)",
            #"\copy place_import (doc) FROM '\#(file)' WITH (FORMAT csv, QUOTE E'\x01', DELIMITER E'\x02')"#,
            """
            CREATE TABLE place AS
            SELECT doc ->> 'id' AS place_id, doc,
                   ST_SetSRID(ST_MakePoint((doc -> 'location' ->> 'longitude')::float8, (doc -> 'location' ->> 'latitude')::float8), 4326)::geography AS geog
            FROM place_import
            """,
            "ALTER TABLE place ADD PRIMARY KEY (place_id)",
            "CREATE INDEX place_geog ON place USING gist (geog)",
            "DROP TABLE place_import",
            "ANALYZE place",
        ]
    }

    /// docs/postgis.md's nearby: within R meters of a point, nearest first
    /// (ties by ID), on the sphere placedb measures on.
    static func nearbySQL(latitude: Double, longitude: Double, radius: Double, limit: Int) -> String {
        """
        SELECT place_id, ST_Distance(geog, ST_MakePoint(\(longitude), \(latitude))::geography, false) AS meters
        FROM place
        WHERE ST_DWithin(geog, ST_MakePoint(\(longitude), \(latitude))::geography, \(radius), false)
        ORDER BY meters, place_id
        LIMIT \(limit)
        """
    }

    @Test(
        "nearby and by-ID SQL in PostGIS give placedb's answers",
        .enabled(
            if: TemporaryPostgres.isAvailable,
            "needs PostgreSQL with PostGIS (Scripts/setup installs postgresql-15-postgis-3)"))
    func postgis() throws {
        let bin = try TemporaryPostgres.locate().get()
        let cli = try CLI()
        // Real places where the shared data is, else the small fixture.
        let munich = CorpusData.url("osm/poi/munich-2020-07-20.poi.geojsonseq")?.path
        let input = try munich ?? cli.dir.write("p.ndjson", ExportCommandTests.places)
        #expect(cli.run(["import", input]).code == 0)
        let export = cli.dir.file("places.ndjson")
        #expect(cli.run(["export", "-o", export]).code == 0)
        chmod(cli.dir.path, 0o755)
        chmod(export, 0o644)

        let pg = try TemporaryPostgres(bin: bin)
        for sql in Self.loadSQL(export) { try pg.psql(sql) }
        let answers = try Answers(databasePath: cli.db)
        #expect(
            try pg.psql("SELECT count(*) FROM place").trimmingCharacters(in: .whitespacesAndNewlines)
                == String(answers.places.count))

        // By ID: every place's document is placedb's answer, with the
        // source's extra members beside (OpenStreetMap tags: `osm`).
        let store = try PlaceStore(path: cli.db, writable: false)
        var differing = 0
        for line in try pg.psql("SELECT place_id || E'\\t' || doc::text FROM place").split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            let id = String(parts[0])
            guard var expected = answers.places[id]?.objectValue else { differing += 1; continue }
            for (key, value) in try store.extra(id: id) ?? JSONObject() where expected[key] == nil {
                expected[key] = canonical(value)
            }
            if canonical(try JSONValue(parsing: String(parts[1]))) != canonical(.object(expected)) {
                differing += 1
                if differing <= 2 {
                    Issue.record(
                        "\(id): \(parts[1].prefix(400)) vs \(JSONWriter().string(.object(expected)).prefix(400))")
                }
            }
        }
        #expect(differing == 0, "\(differing) of \(answers.places.count) documents differ in PostGIS")

        // Nearby: the same places, nearest first, around 25 places' points.
        let ids = answers.places.keys.sorted()
        var queries = 0, compared = 0
        for k in stride(from: 0, to: ids.count, by: max(1, ids.count / 25)) {
            guard let location = answers.places[ids[k]]?["location"], let lat = location["latitude"]?.doubleValue,
                let lng = location["longitude"]?.doubleValue
            else { continue }
            // A little off the place, so distances are not all zero.
            let (qlat, qlng, radius) = (lat + 0.0007, lng - 0.0005, 400.0)
            let r = cli.run([
                "nearby", "\(qlat),\(qlng)", "--radius", "400", "--limit", "1000", "--all-features", "--fields", "id",
                "--output", "json",
            ])
            #expect(r.code == 0 || r.code == 1, "\(r.err)")
            let mine =
                (try? JSONValue(parsing: r.out))?["places"]?.arrayValue?.compactMap { p -> (String, Double)? in
                    guard let id = p["id"]?.stringValue, let d = p["distanceMeters"]?.doubleValue else { return nil }
                    return (id, d)
                } ?? []
            let theirs = try pg.psql(Self.nearbySQL(latitude: qlat, longitude: qlng, radius: radius, limit: 1000))
                .split(separator: "\n").map { line -> (String, Double) in
                    let p = line.split(separator: "|")
                    return (String(p[0]), Double(p[1])!)
                }
            // The same places: each one well inside the circle in one answer
            // is in the other (placedb rounds distances to 1 cm; a place on
            // the circle itself may fall on either side), in the same order
            // up to ties within a millimetre.
            let mineIDs = Set(mine.map(\.0)), theirIDs = Set(theirs.map(\.0))
            let wellInside = { (d: Double) in d < radius - 0.05 }
            #expect(
                Set(mine.filter { wellInside($0.1) }.map(\.0)).isSubset(of: theirIDs),
                "nearby \(qlat),\(qlng): placedb \(mine.count), PostGIS \(theirs.count)")
            #expect(
                Set(theirs.filter { wellInside($0.1) }.map(\.0)).isSubset(of: mineIDs),
                "nearby \(qlat),\(qlng): placedb \(mine.count), PostGIS \(theirs.count)")
            compared += mine.count
            let pgDistance = Dictionary(theirs, uniquingKeysWith: { a, _ in a })
            for (a, b) in zip(mine, mine.dropFirst()) {
                if let da = pgDistance[a.0], let db = pgDistance[b.0] {
                    #expect(da <= db + 0.001, "nearby order \(a.0) before \(b.0)")
                }
                #expect(abs((pgDistance[a.0] ?? a.1) - a.1) < 0.01, "distance of \(a.0)")
            }
            queries += 1
        }
        #expect(queries >= 3)
        print(
            "PostGIS: \(answers.places.count) documents by ID identical; \(queries) nearby queries, \(compared) places in the same order at the same distances"
        )
    }

    @Test(
        "ogr2ogr -f PostgreSQL of the database itself: no warning, whole documents",
        .enabled(
            if: TemporaryPostgres.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/ogr2ogr"),
            "needs PostgreSQL with PostGIS and ogr2ogr (Scripts/setup installs postgresql-15-postgis-3 and gdal-bin)"))
    func ogr2ogrLoad() throws {
        let bin = try TemporaryPostgres.locate().get()
        let cli = try CLI()
        let munich = CorpusData.url("osm/poi/munich-2020-07-20.poi.geojsonseq")?.path
        let input = try munich ?? cli.dir.write("p.ndjson", ExportCommandTests.places)
        #expect(cli.run(["import", input]).code == 0)
        let pg = try TemporaryPostgres(bin: bin)
        try pg.psql("CREATE EXTENSION IF NOT EXISTS postgis")
        let answers = try Answers(databasePath: cli.db)
        var differing = 0
        for layer in ["place", "place_document"] {
            let r = try Tool.run(
                "/usr/bin/ogr2ogr", ["-f", "PostgreSQL", pg.gdalConnection, cli.db, layer, "-nln", "gdal_\(layer)"])
            #expect(r.status == 0)
            #expect(r.stderr.isEmpty, "ogr2ogr -f PostgreSQL \(layer): \(r.stderr.prefix(1000))")
        }
        differing = 0
        for line in try pg.psql("SELECT place_id || E'\\t' || document::text FROM gdal_place_document").split(
            separator: "\n")
        {
            let parts = line.split(separator: "\t", maxSplits: 1)
            // GDAL re-writes the JSON with 15 significant digits (%.15g):
            // 46.52030187654321 arrives as 46.5203018765432, 1e-14 of a degree
            // (a nanometre) off. The export path above keeps every digit.
            if fifteenDigits(canonical(try JSONValue(parsing: String(parts[1]))))
                != answers.places[String(parts[0])].map(fifteenDigits)
            {
                differing += 1
                if differing <= 2, let expected = answers.places[String(parts[0])] {
                    Issue.record("\(parts[0]): \(parts[1].prefix(400)) vs \(JSONWriter().string(expected).prefix(400))")
                }
            }
        }
        #expect(differing == 0, "\(differing) documents differ after ogr2ogr -f PostgreSQL of place_document")
        let hashes = try pg.psql(
            "SELECT count(*) FROM gdal_place WHERE content_hash > 2147483647 OR content_hash < -2147483648"
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(hashes)! > 0, "64-bit content hashes arrive whole")
    }
}
