import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import PlaceModel

@Suite("what an input is, from its first bytes")
struct InputKindTests {
    func kind(_ text: String, gzipped: Bool = false) -> InputKind {
        InputKind.classify(Array(text.utf8), gzipped: gzipped)
    }

    func what(_ k: InputKind) -> String? {
        if case .other(let what, _) = k { return what }
        return nil
    }

    @Test(
        "JSON in every layout stays JSON: objects, arrays, NDJSON, GeoJSON-seq, a byte order mark, blank lines, scalars, broken JSON"
    )
    func json() {
        for text in [
            "{\"id\":\"a\"}", "[{\"id\":\"a\"}]", "\n\n  {\"id\":\"a\"}\n{\"id\":\"b\"}\n",
            "\u{1E}{\"type\":\"Feature\"}\n\u{1E}{\"type\":\"Feature\"}\n",
            "\u{FEFF}{\"id\":\"a\"}", "\"text\"", "123", "true", "", "   ", "nonsense", "{\"broken\": ", "[1,2]",
        ] {
            #expect(kind(text) == .json, "\(text.debugDescription)")
        }
    }

    @Test("CSV, TSV, semicolons, YAML are named; a quoted comma does not count")
    func text() {
        #expect(what(kind("id,name,lat,lon\nc1,\"Café, Bar\",46.5,6.6\nc2,Bar,46.6,6.7\n")) == "a CSV file")
        #expect(what(kind("id,name\n")) == "a CSV file")
        #expect(what(kind("1.5,2.5")) == "a CSV file")
        #expect(what(kind("id\tname\nc1\tCafé\n")) == "a tab-separated (TSV) file")
        #expect(what(kind("id;name\nc1;Café\n")) == "a CSV file (';'-separated)")
        #expect(what(kind("# places\nplaces:\n  - id: c1\n")) == "a YAML file")
        #expect(what(kind("---\n- a\n")) == "a YAML file")
        #expect(what(kind("- id: c1\n  name: x\n")) == "a YAML file")
        // Lines with different numbers of commas: not CSV (left to the JSON reader).
        #expect(kind("hello, world\nsecond line\nthird, line, here\n") == .json)
    }

    @Test(
        "OpenStreetMap files: PBF by its BlobHeader, XML by its root element, bzip2, gzip'd XML, o5m; change files refused"
    )
    func openStreetMap() {
        let pbf: [UInt8] = [0, 0, 0, 14, 0x0A, 9] + Array("OSMHeader".utf8) + [0x18, 0x7B]
        #expect(InputKind.classify(pbf, gzipped: false) == .openStreetMap(.pbf))
        #expect(what(InputKind.classify(pbf, gzipped: true)) == "a gzip'd OpenStreetMap PBF file")
        // A length too large for a BlobHeader: not PBF.
        #expect(
            InputKind.classify([0x7F, 0, 0, 14, 0x0A, 9] + Array("OSMHeader".utf8), gzipped: false)
                != .openStreetMap(.pbf))
        #expect(
            kind("<?xml version='1.0' encoding='UTF-8'?>\n<!-- a comment -->\n<osm version=\"0.6\">")
                == .openStreetMap(.xml))
        #expect(kind("<osm version=\"0.6\" generator=\"x\">") == .openStreetMap(.xml))
        #expect(kind("<?xml version='1.0'?><osm>", gzipped: true) == .openStreetMap(.xmlGzip))
        #expect(kind("BZh91AY&SY") == .openStreetMap(.xmlBzip2))
        #expect(InputKind.classify([0xFF, 0xE0, 0x04] + Array("o5m2".utf8), gzipped: false) == .openStreetMap(.o5m))
        #expect(
            what(kind("<?xml version='1.0'?>\n<osmChange version=\"0.6\">"))
                == "an OpenStreetMap change file (osmChange)")
        #expect(what(kind("<?xml version=\"1.0\"?><gpx version=\"1.1\">")) == "a GPX file")
        #expect(what(kind("<!DOCTYPE html><html>")) == "an HTML page")
    }

    @Test("binary formats by their magic numbers; a gzip'd one says so")
    func binary() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xD8, 0xFF, 0xE1], "a JPEG image"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG image"),
            (Array("GIF89a".utf8), "a GIF image"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "a WebP image"),
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), "a HEIF/AVIF image"),
            (Array("%PDF-1.4".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a zip archive"),
            ([0x1F, 0x8B, 0x08], "a gzip file"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "an xz-compressed file"),
            ([0x28, 0xB5, 0x2F, 0xFD], "a zstd-compressed file"),
            (Array("SQLite format 3\u{0}".utf8), "an SQLite database"),
            (Array("PAR1".utf8), "a Parquet file"),
            ([0xFF, 0xFE, 0x7B, 0x00], "UTF-16 text"),
            ([0x00, 0x01, 0x02, 0x7B], "binary data"),
        ]
        for (bytes, name) in cases {
            #expect(what(InputKind.classify(bytes, gzipped: false)) == name, "\(name)")
        }
        #expect(what(InputKind.classify([0xFF, 0xD8, 0xFF, 0xE1], gzipped: true)) == "a gzip'd JPEG image")
        #expect(what(kind("id,name\nc1,x\n", gzipped: true)) == "a gzip'd CSV file")
        // bzip2 inside gzip is not OpenStreetMap XML for osmium.
        #expect(what(kind("BZh91AY&SY", gzipped: true)) == "a gzip'd bzip2-compressed file")
    }

    @Test(
        "osmium export -u type_id IDs: n and w as they are, a area IDs back to their way (even) or relation (odd), negative IDs too"
    )
    func osmiumUniqueIDs() {
        func id(_ s: String) -> String? { GeoJSONDecoders.osmiumUniqueID(.string(s)).map { "\($0.type) \($0.number)" } }
        #expect(id("n123") == "node 123")
        #expect(id("w5203906") == "way 5203906")
        #expect(id("a12331442") == "way 6165721")
        #expect(id("a2954359") == "relation 1477179")
        #expect(id("a-12") == "way -6")
        #expect(id("a-13") == "relation -6")
        #expect(id("r12") == nil)
        #expect(id("n") == nil)
        #expect(id("n12x") == nil)
        #expect(id("cafe") == nil)
        #expect(GeoJSONDecoders.osmiumUniqueID(.int(12)) == nil)
    }

    @Test("a PBF file's damage is located: the block cut off, a header that is not one")
    func pbfDamage() throws {
        let dir = try TempDirectory()
        // One whole block (a raw blob), then a second cut short.
        func block(_ type: String, _ blob: [UInt8]) -> [UInt8] {
            let header: [UInt8] = [0x0A, UInt8(type.utf8.count)] + Array(type.utf8) + [0x18, UInt8(blob.count)]
            return [0, 0, 0, UInt8(header.count)] + header + blob
        }
        let raw: [UInt8] = [0x0A, 3, 1, 2, 3] // Blob.raw = [1, 2, 3]
        let whole = block("OSMHeader", raw) + block("OSMData", raw)
        #expect(PBFBlocks.damage(in: try dir.write("whole.pbf", bytes: whole)) == nil)
        let cut = Array(whole.dropLast(2))
        let damage = try #require(PBFBlocks.damage(in: try dir.write("cut.pbf", bytes: cut)))
        #expect(
            damage.hasPrefix(
                "block 2 at byte \(block("OSMHeader", raw).count) is cut off: the file ends 3 bytes into its 5-byte blob"
            ), "\(damage)")
        let garbage = block("OSMHeader", raw) + [0, 0, 0, 3, 0xFF, 0xFF, 0xFF]
        #expect(
            PBFBlocks.damage(in: try dir.write("garbage.pbf", bytes: garbage))?.contains(
                "is corrupt: its header is not a PBF BlobHeader") == true)
    }
}
