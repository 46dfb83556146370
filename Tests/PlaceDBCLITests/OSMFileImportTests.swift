import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel
import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif

/// A tiny OpenStreetMap extract written here (not taken from the corpus):
/// a named café node with hours, an address-only node, a crossing, a named
/// building (a closed way: osmium writes it as a line and as an area), a
/// named street, and a park drawn as a multipolygon relation.
enum OSMFileFixture {
    static func node(_ id: Int, _ lat: Double, _ lon: Double, _ tags: [(String, String)] = [], version: Int = 1)
        -> String
    {
        "  <node id=\"\(id)\" version=\"\(version)\" timestamp=\"2021-05-0\(version)T10:00:00Z\" lat=\"\(lat)\" lon=\"\(lon)\""
            + (tags.isEmpty
                ? "/>\n" : ">\n" + tags.map { "    <tag k=\"\($0.0)\" v=\"\($0.1)\"/>\n" }.joined() + "  </node>\n")
    }

    static func way(_ id: Int, _ refs: [Int], _ tags: [(String, String)]) -> String {
        "  <way id=\"\(id)\" version=\"2\" timestamp=\"2021-04-01T09:00:00Z\">\n"
            + refs.map { "    <nd ref=\"\($0)\"/>\n" }.joined()
            + tags.map { "    <tag k=\"\($0.0)\" v=\"\($0.1)\"/>\n" }.joined() + "  </way>\n"
    }

    /// The extract; `renamed` gives the café another name and drops the
    /// street (a later snapshot of the same region).
    static func xml(renamed: Bool = false, extraCafeTags: [(String, String)] = []) -> String {
        var s = "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\" generator=\"placedb tests\">\n"
        s += node(
            1, 60.17, 24.94,
            [
                ("amenity", "cafe"), ("name", renamed ? "Kahvila Uusi" : "Kahvila"),
                ("opening_hours", "Mo-Fr 08:00-16:00"),
            ] + extraCafeTags,
            version: renamed ? 4 : 3)
        s += node(2, 60.1698, 24.9386, [("addr:street", "Mannerheimintie"), ("addr:housenumber", "1")])
        s += node(3, 60.1699, 24.9384, [("highway", "crossing")])
        for (i, (lat, lon)) in [(60.1710, 24.9410), (60.1710, 24.9420), (60.1716, 24.9420), (60.1716, 24.9410)]
            .enumerated()
        { s += node(10 + i, lat, lon) }
        for (i, (lat, lon)) in [(60.1690, 24.9370), (60.1700, 24.9390)].enumerated() { s += node(30 + i, lat, lon) }
        for (i, (lat, lon)) in [(60.1750, 24.9500), (60.1750, 24.9530), (60.1765, 24.9530), (60.1765, 24.9500)]
            .enumerated()
        { s += node(50 + i, lat, lon) }
        s += way(20, [10, 11, 12, 13, 10], [("building", "commercial"), ("name", "Liiketalo")])
        if !renamed { s += way(40, [30, 31], [("highway", "residential"), ("name", "Esplanadi")]) }
        s += way(60, [50, 51, 52, 53, 50], [])
        s +=
            "  <relation id=\"70\" version=\"5\" timestamp=\"2021-03-01T08:00:00Z\">\n    <member type=\"way\" ref=\"60\" role=\"outer\"/>\n"
            + "    <tag k=\"type\" v=\"multipolygon\"/>\n    <tag k=\"leisure\" v=\"park\"/>\n    <tag k=\"name\" v=\"Puisto\"/>\n  </relation>\n"
        return s + "</osm>\n"
    }

    /// The `osmium` on the PATH, nil when there is none.
    static let osmium: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/osmium" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Runs osmium with `arguments`; its exit status.
    @discardableResult
    static func run(_ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(osmium))
        p.arguments = arguments
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// The extract as `name` (.osm.pbf, .osm, .osm.bz2: osmium cat tells by the suffix).
    static func write(
        _ dir: TempDirectory, _ name: String, renamed: Bool = false, extraCafeTags: [(String, String)] = []
    ) throws -> String {
        let xml = try dir.write(name + ".source.osm", xml(renamed: renamed, extraCafeTags: extraCafeTags))
        try #require(try run(["cat", xml, "-o", dir.file(name), "-O"]) == 0)
        return dir.file(name)
    }

    /// Every place row, as one comparable line each: ID, name, type,
    /// geometry, document, extras, capture time; and the type rows.
    static func rows(_ path: String) throws -> [String] {
        let db = try Database(path: path, mode: .readOnly)
        var out: [String] = []
        try db.forEachRow(
            """
            SELECT place_id || '|' || quote(name) || '|' || quote(primary_type) || '|' || hex(geom) || '|' || doc || '|' || quote(extra)
                   || '|' || quote(captured_at) || '|' || source || '|' || (SELECT group_concat(type, ',') FROM place_type WHERE place = place.id)
            FROM place ORDER BY place_id
            """
        ) { out.append(try $0.string(0)) }
        return out
    }

    static var osmiumMissing: Bool { osmium == nil }
}

/// The osmium children of this test process (alive or not yet reaped).
private func childProcesses() -> [String] {
    let me = getpid()
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    return entries.compactMap { entry -> String? in
        guard Int32(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Only osmium: other suites run children of their own meanwhile.
        guard fields.count > 2, Int32(fields[1]) == me, stat.contains("(osmium)") else { return nil }
        return String(stat[..<close]) + ") " + fields[0]
    }
}

@Suite(
    "OpenStreetMap files imported directly (osmium export as a child process)", .serialized,
    .enabled(if: !OSMFileFixture.osmiumMissing, "needs osmium (apt-get install osmium-tool; Scripts/setup installs it)")
)
struct OSMFileImportTests {
    @Test(
        "a .osm.pbf imports the same places, IDs, versions and times as its osmium export -a type,id,version,timestamp")
    func pbfAsItsExport() throws {
        let cli = try CLI()
        let pbf = try OSMFileFixture.write(cli.dir, "region.osm.pbf")
        let direct = cli.dir.file("direct.sqlite"), exported = cli.dir.file("exported.sqlite")
        let r = cli.run(["import", pbf, "--db", direct, "--output", "text"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("1 input imported"), "\(r.out)")
        let geojson = cli.dir.file("region.geojsonseq")
        try #require(
            try OSMFileFixture.run([
                "export", "-f", "geojsonseq", "-a", "type,id,version,timestamp", pbf, "-o", geojson,
            ]) == 0)
        let e = cli.run(["import", geojson, "--db", exported, "--output", "text"])
        #expect(e.code == 0, "\(e.err)")
        let a = try OSMFileFixture.rows(direct), b = try OSMFileFixture.rows(exported)
        #expect(a == b)
        let ids = a.map { String($0.prefix { $0 != "|" }) }
        #expect(ids == ["osm:n1", "osm:r70", "osm:w20", "osm:w40"], "\(ids)")
        #expect(
            a.first?.contains("\"version\":3") == true && a.first?.contains("2021-05-03T10:00:00Z") == true,
            "\(a.first ?? "")")
        // The same summary but for the bytes (the file's own size, not its export's).
        let strip: (String) -> String = {
            $0.replacingOccurrences(of: #"\(.* records/s\)"#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #"^[^:]*: "#, with: "", options: .regularExpression)
        }
        #expect(strip(r.out) == strip(e.out))
        // Where it came from, recorded with the run.
        let db = try Database(path: direct, mode: .readOnly)
        #expect(
            try db.scalar("SELECT options FROM import_run")?.string?.contains(
                "osmium export --no-progress -f geojsonseq -a type,id,version,timestamp") == true)
    }

    @Test("OSM XML, bzip2'd XML and a PBF under any name are told by their bytes and give the same places")
    func otherFormsAndNames() throws {
        let cli = try CLI()
        let reference = try OSMFileFixture.write(cli.dir, "region.osm.pbf")
        let r0 = cli.run(["import", reference, "--db", cli.dir.file("reference.sqlite")])
        #expect(r0.code == 0, "\(r0.err)")
        let expected = try OSMFileFixture.rows(cli.dir.file("reference.sqlite"))
        #expect(expected.count == 4)
        let xml = try OSMFileFixture.write(cli.dir, "x.osm")
        let bz2 = try OSMFileFixture.write(cli.dir, "x.osm.bz2")
        let misnamed = cli.dir.file("download.dat")
        try FileManager.default.copyItem(atPath: reference, toPath: misnamed)
        for (i, file) in [xml, bz2, misnamed].enumerated() {
            let db = cli.dir.file("db\(i).sqlite")
            let r = cli.run(["import", file, "--db", db])
            #expect(r.code == 0, "\(file): \(r.err)")
            #expect(try OSMFileFixture.rows(db) == expected, "\(file)")
        }
    }

    @Test("--snapshot of two extracts removes and keeps exactly what it does with their exports")
    func snapshotAsExports() throws {
        let cli = try CLI()
        let old = try OSMFileFixture.write(cli.dir, "old.osm.pbf")
        let new = try OSMFileFixture.write(cli.dir, "new.osm.pbf", renamed: true)
        var exports: [String] = []
        for f in [old, new] {
            let out = f + ".geojsonseq"
            try #require(
                try OSMFileFixture.run(["export", "-f", "geojsonseq", "-a", "type,id,version,timestamp", f, "-o", out])
                    == 0)
            exports.append(out)
        }
        func history(_ files: [String], _ db: String) throws -> (String, [String]) {
            var last = ""
            for f in files {
                let r = cli.run(["import", "--snapshot", "osm-test", f, "--db", db, "--output", "json"])
                #expect(r.code == 0, "\(r.err)")
                let total = try JSONValue(parsing: r.out)["total"]
                last = ["inserted", "updated", "unchanged", "removed", "linked", "duplicates"].map {
                    "\($0) \(total?[$0]?.intValue ?? -1)"
                }.joined(separator: ", ")
            }
            let d = try Database(path: db, mode: .readOnly)
            var rows: [String] = []
            try d.forEachRow(
                "SELECT place_id || ' ' || quote(name) || ' ' || (removed_run IS NOT NULL) FROM place ORDER BY place_id"
            ) { rows.append(try $0.string(0)) }
            return (last, rows)
        }
        let direct = try history([old, new], cli.dir.file("direct.sqlite"))
        let exported = try history(exports, cli.dir.file("exported.sqlite"))
        #expect(direct.0 == exported.0)
        #expect(direct.1 == exported.1)
        #expect(direct.0.contains("removed 1"), "\(direct.0)")
        #expect(direct.1.contains("osm:w40 'Esplanadi' 1"), "\(direct.1)")
        #expect(direct.1.contains("osm:n1 'Kahvila Uusi' 0"), "\(direct.1)")
    }

    @Test("a truncated PBF exits 65 naming the file, osmium's message and the block cut off; nothing of it is kept")
    func truncatedPBF() throws {
        let cli = try CLI()
        let pbf = try OSMFileFixture.write(cli.dir, "region.osm.pbf")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pbf))
        let cut = try cli.dir.write("cut.osm.pbf", bytes: Array(bytes.prefix(bytes.count - 40)))
        // Into a new database: none is left.
        let r = cli.run(["import", cut])
        #expect(r.code == 65, "\(r.err)")
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 1, "\(r.err)")
        #expect(r.err.hasPrefix("placedb import: \(cut): osmium export failed: "), "\(r.err)")
        #expect(r.err.contains(" at byte ") && r.err.contains("is cut off: the file ends"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        // Into a database that holds places: it stays as it was.
        #expect(cli.run(["import", try cli.dir.write("one.ndjson", CLI.sample)]).code == 0)
        let before = try OSMFileFixture.rows(cli.db)
        #expect(cli.run(["import", cut]).code == 65)
        #expect(try OSMFileFixture.rows(cli.db) == before)
        // Skipped under --on-error skip, with the exit code at the end.
        let skip = cli.run(["import", cut, pbf, "--on-error", "skip", "--output", "text"])
        #expect(skip.code == 65, "\(skip.err)")
        #expect(skip.err.contains("placedb import: skipped: \(cut): osmium export failed"), "\(skip.err)")
        #expect(skip.out.contains("1 input imported"), "\(skip.out)")
        #expect(childProcesses().isEmpty, "\(childProcesses())")
    }

    @Test("a record refused mid-export stops the import, keeps nothing, and leaves no osmium running or unreaped")
    func refusedRecordReapsTheChild() throws {
        let cli = try CLI()
        let pbf = try OSMFileFixture.write(cli.dir, "bad.osm.pbf", extraCafeTags: [("website", "javascript:alert(1)")])
        let r = cli.run(["import", pbf])
        #expect(r.code == 65, "\(r.err)")
        #expect(r.err.contains("\(pbf):") && r.err.contains("osm:n1"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.db))
        #expect(childProcesses().isEmpty, "\(childProcesses())")
        // No scratch file (index, messages) is left beside the database.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cli.dir.path).filter { $0.hasPrefix(".placedb-") }
                .isEmpty)
    }

    @Test("osmium export -u type_id imports with the IDs -a type,id gives; a plain export's error names -a type,id")
    func otherOsmiumExports() throws {
        let cli = try CLI()
        let pbf = try OSMFileFixture.write(cli.dir, "region.osm.pbf")
        let typed = cli.dir.file("typed.geojsonseq"), unique = cli.dir.file("unique.geojsonseq"),
            plain = cli.dir.file("plain.geojsonseq")
        try #require(
            try OSMFileFixture.run(["export", "-f", "geojsonseq", "-a", "type,id,version,timestamp", pbf, "-o", typed])
                == 0)
        try #require(
            try OSMFileFixture.run([
                "export", "-f", "geojsonseq", "-u", "type_id", "-a", "version,timestamp", pbf, "-o", unique,
            ]) == 0)
        try #require(try OSMFileFixture.run(["export", "-f", "geojsonseq", pbf, "-o", plain]) == 0)
        #expect(cli.run(["import", typed, "--db", cli.dir.file("typed.sqlite")]).code == 0)
        #expect(cli.run(["import", unique, "--db", cli.dir.file("unique.sqlite")]).code == 0)
        #expect(
            try OSMFileFixture.rows(cli.dir.file("typed.sqlite")) == OSMFileFixture.rows(cli.dir.file("unique.sqlite")))
        let stop = cli.run(["import", plain, "--db", cli.dir.file("plain.sqlite")])
        #expect(stop.code == 65)
        #expect(stop.err.contains("-a type,id"), "\(stop.err)")
        #expect(stop.err.contains("osmium export -f geojsonseq -a type,id,version,timestamp"), "\(stop.err)")
    }
}

@Suite("import: inputs told by their first bytes, osmium missing, inputs with every record rejected")
struct InputSniffingCommandTests {
    /// A PBF file's first bytes (a BlobHeader of type OSMHeader): enough to be told apart.
    static let pbfHead: [UInt8] =
        [0, 0, 0, 14, 0x0A, 9] + Array("OSMHeader".utf8) + [0x18, 0x7B, 0x08, 0x01, 0x10, 0x02]

    @Test("a PBF file with no osmium to run exits 69 saying what to install")
    func missingOsmium() throws {
        let cli = try CLI()
        let pbf = try cli.dir.write("region.osm.pbf", bytes: Self.pbfHead)
        for osmium in ["/nonexistent/osmium", "osmium-not-installed-here"] {
            let r = cli.run(["import", pbf], env: ["PLACEDB_DATABASE": cli.db, "PLACEDB_OSMIUM": osmium])
            #expect(r.code == 69, "\(r.err)")
            #expect(r.err.hasPrefix("placedb import: \(pbf): reading OpenStreetMap PBF needs osmium"), "\(r.err)")
            #expect(r.err.contains("apt-get install osmium-tool"), "\(r.err)")
            #expect(r.err.contains(osmium), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: cli.db))
        }
        // Not skipped under --on-error skip: every other file would fail alike.
        let skip = cli.run(
            ["import", pbf, try cli.dir.write("a.ndjson", CLI.sample), "--on-error", "skip"],
            env: ["PLACEDB_DATABASE": cli.db, "PLACEDB_OSMIUM": "/nonexistent/osmium"])
        #expect(skip.code == 69, "\(skip.err)")
    }

    @Test("CSV, TSV, YAML, images, PDF, zip, SQLite, HTML, gzip'd CSV: 65 with what the file is")
    func notJSON() throws {
        let cli = try CLI()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        let cases: [(String, [UInt8], String)] = [
            ("places.csv", Array("id,name,lat,lon\nc1,Café,46.5,6.6\nc2,Bar,46.6,6.7\n".utf8), "a CSV file"),
            ("places.txt", Array("id\tname\tlat\nc1\tCafé\t46.5\n".utf8), "a tab-separated (TSV) file"),
            ("places.yaml", Array("places:\n  - id: c1\n    name: Café\n".utf8), "a YAML file"),
            ("doc.yml", Array("---\n- id: c1\n".utf8), "a YAML file"),
            ("photo.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8), "a JPEG image"),
            ("image.json", png, "a PNG image"),
            ("doc.pdf", Array("%PDF-1.7\n%âãÏÓ\n".utf8), "a PDF document"),
            ("places.zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], "a zip archive"),
            ("other.sqlite", Array("SQLite format 3\u{0}".utf8) + [0x10, 0x00], "an SQLite database"),
            ("error.json", Array("<!DOCTYPE html>\n<html><body>Not found</body></html>\n".utf8), "an HTML page"),
            (
                "changes.osc", Array("<?xml version='1.0'?>\n<osmChange version=\"0.6\">\n".utf8),
                "an OpenStreetMap change file (osmChange)"
            ),
        ]
        for (name, bytes, what) in cases {
            let file = try cli.dir.write(name, bytes: bytes)
            let r = cli.run(["import", file])
            #expect(r.code == 65, "\(name): \(r.err)")
            #expect(r.err.hasPrefix("placedb import: \(file): this is \(what), not JSON/GeoJSON"), "\(name): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        }
        let gz = try cli.dir.writeGzip("places.csv.gz", "id,name,lat,lon\nc1,Café,46.5,6.6\nc2,Bar,46.6,6.7\n")
        let r = cli.run(["import", gz])
        #expect(r.code == 65)
        #expect(r.err.hasPrefix("placedb import: \(gz): this is a gzip'd CSV file, not JSON/GeoJSON"), "\(r.err)")
        // JSON is still JSON, also when it begins like nothing else.
        let json = cli.run(["import", try cli.dir.write("places.ndjson", CLI.sample)])
        #expect(json.code == 0, "\(json.err)")
        let broken = cli.run(["import", try cli.dir.write("broken.json", "nonsense")])
        #expect(broken.code == 65)
        #expect(broken.err.contains("malformed JSON"), "\(broken.err)")
    }

    @Test("an OpenStreetMap file on standard input is refused with the reason (osmium reads its input twice)")
    func osmOnStandardInput() throws {
        let binary = BuiltProducts.executable("placedb")
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        let pbf = try dir.write("region.osm.pbf", bytes: Self.pbfHead)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["import", "-", "--db", dir.file("places.sqlite")]
        p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: pbf))
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 65, "\(text)")
        #expect(text.hasPrefix("placedb import: <stdin>: this is OpenStreetMap PBF on standard input"), "\(text)")
    }

    @Test("under --on-error skip, an input whose every record is rejected exits 65 and is not counted as imported")
    func everyRecordRejected() throws {
        let cli = try CLI()
        // A plain osmium export: OpenStreetMap tags, no @type/@id.
        let plain =
            "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[24.94,60.17]},\"properties\":{\"amenity\":\"cafe\",\"name\":\"Kahvila\"}}\n"
            + "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[24.95,60.18]},\"properties\":{\"highway\":\"crossing\"}}\n"
        let file = try cli.dir.write("plain.geojsonseq", plain)
        let good = try cli.dir.write("good.ndjson", CLI.sample)
        let r = cli.run(["import", file, good, "--on-error", "skip", "--output", "text"])
        #expect(r.code == 65, "\(r.err)")
        #expect(
            r.err.contains("placedb import: skipped: \(file): nothing imported: all 2 records rejected"), "\(r.err)")
        #expect(r.err.contains("-a type,id"), "\(r.err)")
        #expect(r.out.contains("1 input imported") && r.out.contains("(1 input skipped: see above)"), "\(r.out)")
        // One good record among them: imported, exit 0.
        let mixed = try cli.dir.write(
            "mixed.ndjson", CLI.sample + "{\"id\":\"bad\",\"location\":{\"latitude\":123,\"longitude\":6}}\n")
        let m = cli.run(["import", mixed, "--on-error", "skip"])
        #expect(m.code == 0, "\(m.err)")
    }
}
