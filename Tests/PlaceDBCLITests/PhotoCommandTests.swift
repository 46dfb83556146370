import Foundation
import Testing
@testable import PlaceDBCLI
import PlaceKit
import PlaceKitTestSupport
import PlaceModel

extension CLI {
    static let refA = "cliPhotoRefA-0123456789"
    static let refB = "cliPhotoRefB-0123456789"

    /// A database with place `c1` listing two photos (the first with two
    /// authors, one name needing no link), and place `c2` with none.
    func withPhotos() throws -> CLI {
        let place = """
            {"id":"c1","displayName":{"text":"Café Un"},"location":{"latitude":-33.8688,"longitude":151.2093},"photos":[\
            {"name":"places/c1/photos/\(CLI.refA)","widthPx":4032,"heightPx":3024,"authorAttributions":[{"displayName":"Jane Doe","uri":"https://maps.google.com/maps/contrib/101","photoUri":"https://lh3.example/a"},{"displayName":"A Google User"}],"googleMapsUri":"https://maps.example/p"},\
            {"name":"places/c1/photos/\(CLI.refB)","widthPx":800,"heightPx":600,"authorAttributions":[]}]}
            {"id":"c2","displayName":{"text":"Two"},"location":{"latitude":46.5,"longitude":6.6}}

            """
        let r = run(["import", try dir.write("photos.ndjson", place)])
        #expect(r.code == 0, "\(r.err)")
        return self
    }
}

@Suite("placedb photos, photo add, photo fetch")
struct PhotoCommandTests {
    @Test("photos lists the photos with their attributions, in text and JSON")
    func photos() throws {
        let cli = try CLI().withPhotos()
        let text = cli.run(["photos", "c1", "--output", "text"])
        #expect(text.code == 0, "\(text.err)")
        #expect(
            text.out == """
                Café Un: 2 photos, 0 with a local image
                  1. places/c1/photos/\(CLI.refA)
                     4032 x 3024 px; no local image
                     by: Jane Doe <https://maps.google.com/maps/contrib/101>
                     by: A Google User
                  2. places/c1/photos/\(CLI.refB)
                     800 x 600 px; no local image
                     by: (no attribution given)

                """)
        #expect(
            cli.run([
                "photo", "add", CLI.refB,
                try cli.dir.write("b.png", bytes: TestImages.make(width: 8, height: 6, format: .png)),
            ]).code == 0)

        let json = try #require(try JSONValue(parsing: cli.run(["photos", "places/c1"]).out).objectValue)
        #expect(json["id"] == "c1")
        let list = try #require(json["photos"]?.arrayValue)
        #expect(list.count == 2)
        #expect(list[0]["googleMapsUri"] == "https://maps.example/p", "stored fields are kept")
        #expect(list[0]["authorAttributions"]?.arrayValue?.first?["photoUri"] == "https://lh3.example/a")
        #expect(list[0]["localImage"] == nil)
        #expect(list[1]["localImage"]?["format"] == "png")
        #expect(list[1]["localImage"]?["widthPx"] == .int(8))
        #expect(cli.run(["photos", "c1", "--output", "text"]).out.contains("800 x 600 px; local image 8 x 6 PNG"))

        let none = cli.run(["photos", "c2", "--output", "text"])
        #expect(none.code == 0 && none.out == "Two: 0 photos\n")
        let unknown = cli.run(["photos", "zzz"])
        #expect(unknown.code == 1 && unknown.err == "placedb photos: NOT_FOUND: no place with ID 'zzz'\n")
        #expect(cli.run(["photos"]).code == 64)
    }

    @Test("photo add then photo fetch writes the scaled image to a file or to stdout")
    func addAndFetch() throws {
        let cli = try CLI().withPhotos()
        let source = try cli.dir.write("a.jpg", bytes: TestImages.make(width: 401, height: 301, format: .jpeg))
        let added = cli.run(["photo", "add", CLI.refA, source, "--output", "text"])
        #expect(added.code == 0, "\(added.err)")
        #expect(added.out.hasPrefix("places/c1/photos/\(CLI.refA): added, 401 x 301 JPEG"))

        let out = cli.dir.file("small.png")
        let fetched = cli.run([
            "photo", "fetch", String(CLI.refA.prefix(12)), "--max-width", "100", "--max-height", "100", "-o", out,
        ])
        #expect(fetched.code == 0, "\(fetched.err)")
        let summary = try #require(try JSONValue(parsing: fetched.out).objectValue)
        #expect(summary["format"] == "png" && summary["widthPx"] == .int(100) && summary["heightPx"] == .int(75))
        #expect(summary["storedImage"]?["widthPx"] == .int(401))
        // The authors travel with the image: printed, and beside it on request.
        #expect(summary["authorAttributions"]?.arrayValue?.first?["displayName"] == "Jane Doe")
        #expect(summary["authorAttributions"]?.arrayValue?.count == 2)
        let credits = cli.dir.file("small.attributions.json")
        #expect(
            cli.run(["photo", "fetch", CLI.refA, "-o", cli.dir.file("b.png"), "--attribution-file", credits]).code == 0)
        let file = try JSONValue(parsing: String(contentsOfFile: credits, encoding: .utf8))
        #expect(file["name"]?.stringValue == "places/c1/photos/\(CLI.refA)")
        #expect(file["authorAttributions"]?.arrayValue?.first?["uri"] == "https://maps.google.com/maps/contrib/101")
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        let decoded = try #require(TestImages.decode(written, as: .png))
        #expect((decoded.width, decoded.height) == (100, 75))
        #expect(!FileManager.default.fileExists(atPath: out + ".placedb-\(getpid()).tmp"))

        let piped = cli.runBytes(["photo", "fetch", "places/c1/photos/\(CLI.refA)", "--max-height=30", "-o", "-"])
        #expect(piped.code == 0)
        let bytes = try #require(TestImages.decode(piped.bytes, as: .jpeg))
        #expect((bytes.width, bytes.height) == (40, 30))
        #expect(piped.err.contains("attribution: by Jane Doe"), "\(piped.err)")
        let webp = cli.runBytes(["photo", "fetch", CLI.refA, "--format", "webp", "-o", "-"])
        #expect(webp.bytes.withUnsafeBytes { ImageFormat(sniffing: $0) } == .webp)
        #expect(TestImages.decode(webp.bytes, as: .webp)?.width == 401)

        let text = cli.run([
            "photo", "fetch", CLI.refA, "--max-width", "50", "--output-file", cli.dir.file("t.jpg"), "--output", "text",
        ])
        #expect(
            text.out
                == "\(cli.dir.file("t.jpg")): 50 x 38 JPEG, \(ImportCommand.formatBytes(Int64(try Data(contentsOf: URL(fileURLWithPath: cli.dir.file("t.jpg"))).count))) (stored: 401 x 301 JPEG)\n"
                + "  attribution: by Jane Doe (https://maps.google.com/maps/contrib/101), A Google User\n")
        let again = cli.run(["photo", "add", CLI.refA, source, "--output", "text"])
        #expect(again.out.contains(": unchanged, "))
    }

    @Test(
        "photo commands exit with the README's codes",
        arguments: [
            (
                ["photo", "fetch", CLI.refB, "-o", "x.jpg"], 1,
                "NOT_FOUND: photo 'places/c1/photos/\(CLI.refB)' has no local image"
            ),
            (["photo", "fetch", "noSuchReference-000", "-o", "x.jpg"], 1, "NOT_FOUND: no photo 'noSuchReference-000'"),
            (["photo", "add", "noSuchReference-000", "IMAGE"], 1, "NOT_FOUND: no photo 'noSuchReference-000'"),
            (["photo", "add", CLI.refA, "CORRUPT"], 65, "corrupt JPEG image (libjpeg: Premature end of JPEG file)"),
            (["photo", "add", CLI.refA, "ABSENT"], 66, "cannot open: no such file or directory"),
            (
                ["photo", "fetch", CLI.refA, "--max-width", "0", "-o", "x.jpg"], 64,
                "maximum width 0 is out of range: photos are fetched at 1 to 4800 pixels"
            ),
            (
                ["photo", "fetch", CLI.refA, "--max-height", "4801", "-o", "x.jpg"], 64,
                "maximum height 4801 is out of range"
            ),
            (
                ["photo", "fetch", CLI.refA, "--max-width", "wide", "-o", "x.jpg"], 64,
                "--max-width needs a whole number of pixels"
            ),
            (["photo", "fetch", CLI.refA], 64, "missing -o FILE"),
            (["photo", "fetch", CLI.refA, "-o", "x.bmp"], 64, "cannot tell the image format from"),
            (
                ["photo", "fetch", CLI.refA, "-o", "x.jpg", "--format", "png"], 64,
                "--format png does not match the extension of"
            ),
            (["photo", "fetch", CLI.refA, "-o", "NODIR/x.jpg"], 74, "cannot write: no such file or directory"),
            (["photo", "add", CLI.refA], 64, "missing FILE after NAME"),
            (["photo", "add", CLI.refA, "IMAGE", "--dir", "."], 64, "give either NAME FILE or --dir DIR, not both"),
            (["photo", "add", "a/b", "IMAGE"], 64, "'a/b' is not a photo name"),
            (["photo"], 64, "missing subcommand (add, fetch)"),
            (["photo", "fecth"], 64, "unknown subcommand 'fecth'; did you mean 'fetch'?"),
        ] as [([String], Int32, String)])
    func exitCodes(args: [String], code: Int32, message: String) throws {
        let cli = try CLI().withPhotos()
        let image = try cli.dir.write(
            "image.jpg", bytes: TestImages.make(width: 20, height: 20, format: .jpeg, pattern: .noise(seed: 5)))
        #expect(cli.run(["photo", "add", CLI.refA, image]).code == 0)
        let corrupt = try cli.dir.write(
            "corrupt.jpg",
            bytes: Array(TestImages.make(width: 200, height: 200, format: .jpeg, pattern: .noise(seed: 6)).prefix(3000))
        )
        let replaced = args.map { a -> String in
            switch a {
            case "IMAGE": image
            case "CORRUPT": corrupt
            case "ABSENT": cli.dir.file("absent.jpg")
            case "x.jpg", "x.bmp": cli.dir.file(a)
            case "NODIR/x.jpg": cli.dir.file("no/such/dir/x.jpg")
            default: a
            }
        }
        let r = cli.run(replaced)
        #expect(r.code == code, "\(r.err)")
        #expect(r.err.contains(message), "\(r.err)")
        #expect(r.err.hasPrefix("placedb photo"), "\(r.err)")
        #expect(
            r.err.split(separator: "\n").count == (code == 64 ? 2 : 1), "one line (and the usage line for 64): \(r.err)"
        )
        #expect(r.out.isEmpty)
    }

    @Test("photo add --dir reports each file and exits with the first failure's code")
    func directory() throws {
        let cli = try CLI().withPhotos()
        let images = try TempDirectory()
        try images.write("\(CLI.refA).png", bytes: TestImages.make(width: 7, height: 3, format: .png))
        try images.write("\(CLI.refB).gif", bytes: [0x47, 0x49, 0x46])
        try images.write("README.txt", "not an image")
        let r = cli.run(["photo", "add", "--dir", images.path, "--output", "text"])
        #expect(r.code == 65, "\(r.err)")
        #expect(
            r.err
                == "placedb photo add: \(images.file("\(CLI.refB).gif")): not a JPEG, PNG, WebP or GIF image (unknown signature)\n"
        )
        #expect(r.out.contains("places/c1/photos/\(CLI.refA): added, 7 x 3 PNG"))
        #expect(
            r.out.hasSuffix(
                "\(images.path): 3 files: 1 added, 0 replaced, 0 unchanged, 1 failed, 1 ignored (not an image file name)\n"
            ))

        try images.write("\(CLI.refB).gif", bytes: TestImages.make(width: 2, height: 9, format: .gif))
        let json = cli.run(["photo", "add", "--dir", images.path])
        #expect(json.code == 0, "\(json.err)")
        let summary = try #require(try JSONValue(parsing: json.out).objectValue)
        #expect(
            summary["added"] == .int(1) && summary["unchanged"] == .int(1) && summary["ignored"] == .int(1)
                && summary["failed"] == .int(0))
        #expect(cli.run(["photo", "add", "--dir", images.file("absent")]).code == 66)
    }

    @Test("-o names the output file (--output-file); the output format is --output, long form only")
    func shortOption() throws {
        let help = try CLI().run(["photo", "fetch", "--help"]).out
        #expect(help.contains("-o, --output-file FILE"))
        #expect(help.contains("  --output FORMAT"))
        #expect(!help.contains("--out FILE"))
        #expect(!help.contains("-o, --output FORMAT"))
        #expect(!(try CLI().run(["place", "--help"]).out.contains("-o,")))
        #expect(
            try CLI().run(["photo", "fetch", "x", "-o", "-"], terminal: true).err.contains(
                "refusing to write image bytes to a terminal"))
        #expect(
            try CLI().run(["photo", "fetch", "x", "--output-file", "-"], terminal: true).err.contains(
                "refusing to write image bytes to a terminal"))
    }

    @Test("--out, the former long form of -o, is still read but not shown")
    func deprecatedOutAlias() throws {
        let cli = try CLI().withPhotos()
        let source = try cli.dir.write("a.png", bytes: TestImages.make(width: 40, height: 30, format: .png))
        #expect(cli.run(["photo", "add", CLI.refA, source]).code == 0)
        let out = cli.dir.file("old.png")
        let r = cli.run(["photo", "fetch", CLI.refA, "--max-width", "20", "--out", out])
        #expect(r.code == 0, "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test("-o FORMAT, the former short form of --output, is refused with a pointer to --output")
    func formerShortOutput() throws {
        let r = try CLI().run(["place", "c1", "-o", "json"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown option '-o'; the output format is '--output json|text'"))
    }

    @Test("photo commands on a database that does not exist exit 66 and create nothing")
    func noDatabase() throws {
        let cli = try CLI()
        let image = try cli.dir.write("i.png", bytes: TestImages.make(width: 2, height: 2, format: .png))
        for args in [
            ["photo", "add", "someReference-0001", image], ["photo", "add", "--dir", cli.dir.path],
            ["photo", "fetch", "someReference-0001", "-o", cli.dir.file("o.png")], ["photos", "c1"],
        ] {
            let r = cli.run(args)
            #expect(r.code == 66, "\(args): \(r.err)")
            #expect(r.err.contains("no database here"))
        }
        #expect(!FileManager.default.fileExists(atPath: cli.db))
    }

    @Test("help reaches the group and its subcommands")
    func groupHelp() throws {
        let cli = try CLI()
        #expect(cli.run(["help", "photo", "fetch"]).out == cli.run(["photo", "fetch", "--help"]).out)
        #expect(cli.run(["help", "photo"]).out.contains("SUBCOMMANDS:"))
        #expect(cli.run(["--help"]).out.contains("photo fetch"))
    }
}

extension CLI {
    /// Runs and returns stdout's raw bytes (images) too.
    func runBytes(_ args: [String]) -> (code: Int32, bytes: [UInt8], err: String) {
        let console = CapturedConsole(terminal: false, environment: ["PLACEDB_DATABASE": db])
        let code = CommandLineTool.main(arguments: args, console: console)
        return (code, console.stdoutBytes, console.stderr)
    }
}

/// The built binary, end to end: image bytes through standard input and output.
@Suite("placedb binary: photos")
struct PhotoBinaryTests {
    func run(_ args: [String], stdin: [UInt8] = [], dir: TempDirectory) throws -> (
        code: Int32, out: [UInt8], err: String
    ) {
        try BinaryTests.run(args, stdin: stdin, dir: dir)
    }

    @Test("photo add - reads the image from stdin; photo fetch -o - writes it to stdout")
    func pipes() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        try dir.write(
            "p.json",
            #"{"id":"b1","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/b1/photos/binaryPhotoRef-01"}]}"#
        )
        #expect(try run(["import", "p.json"], dir: dir).code == 0)
        let png = TestImages.make(width: 90, height: 60, format: .png)
        let added = try run(["photo", "add", "binaryPhotoRef-01", "-", "--output", "text"], stdin: png, dir: dir)
        #expect(added.code == 0, "\(added.err)")
        let line = String(decoding: added.out, as: UTF8.self)
        #expect(
            line.hasPrefix("places/b1/photos/binaryPhotoRef-01: added, 90 x 60 PNG, ")
                && line.hasSuffix(" (from <stdin>)\n"), "\(line)")
        let fetched = try run(
            ["photo", "fetch", "binaryPhotoRef-01", "--max-width", "45", "--format", "jpeg", "-o", "-"], dir: dir)
        #expect(fetched.code == 0, "\(fetched.err)")
        #expect(fetched.err.isEmpty)
        let decoded = try #require(TestImages.decode(fetched.out, as: .jpeg))
        #expect((decoded.width, decoded.height) == (45, 30))
        let corrupt = try run(["photo", "add", "binaryPhotoRef-01", "-"], stdin: Array(png.prefix(40)), dir: dir)
        #expect(corrupt.code == 65)
        #expect(corrupt.err.hasPrefix("placedb photo add: <stdin>: corrupt PNG image"))
        #expect(corrupt.err.split(separator: "\n").count == 1)
    }

    @Test("libgd (and the libraries it needs) is loaded by a run that decodes an image, not by the others")
    func libgdLoadedWhenUsed() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: BinaryTests.binary), "build placedb first (swift build)")
        let dir = try TempDirectory()
        try dir.write(
            "p.json",
            #"{"id":"g1","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/g1/photos/gdRef-01"}]}"#)
        // glibc's loader names each library it loads on stderr.
        let trace = ["LD_DEBUG": "files"]
        let imported = try BinaryTests.run(["import", "p.json"], stdin: [], dir: dir, environment: trace)
        #expect(imported.code == 0)
        #expect(imported.err.contains("libsqlite3.so"), "the trace names the libraries loaded")
        #expect(!imported.err.contains("libgd.so"))
        let place = try BinaryTests.run(["place", "g1"], stdin: [], dir: dir, environment: trace)
        #expect(place.code == 0 && !place.err.contains("libgd.so"))
        let png = TestImages.make(width: 30, height: 20, format: .png)
        let added = try BinaryTests.run(["photo", "add", "gdRef-01", "-"], stdin: png, dir: dir, environment: trace)
        #expect(added.code == 0)
        #expect(added.err.contains("libgd.so"))
    }
}

/// libpng's warnings (a bad ancillary chunk, an interlaced image read
/// through libgd) were printed raw on stderr ("libpng warning: tEXt: CRC
/// error") by libpng's default handler: libgd gives it none. The built
/// binary is run, so its real stderr (file descriptor 2) is what is checked.
@Suite("PNG warnings never reach stderr")
struct PNGWarningTests {
    static let png = TestImages.make(width: 24, height: 16, format: .png)
    /// PNGs libpng 1.6 warns about while libgd decodes them, and why.
    static let cases: [(reference: String, why: String, bytes: [UInt8])] = [
        (
            "warnTextCRC-0001", "a tEXt chunk with a CRC error",
            TestImages.insertingChunk(into: png, type: "tEXt", data: Array("Comment\0hi".utf8), badCRC: true)
        ),
        (
            "warnICCP-000002", "an iCCP chunk too short to hold a profile",
            TestImages.insertingChunk(into: png, type: "iCCP", data: Array("x\0\0".utf8) + [0x78, 0x9C, 0x03, 0x00])
        ),
        (
            "warnInterlaced3", "an interlaced (Adam7) PNG",
            TestImages.make(width: 24, height: 16, format: .png, interlaced: true)
        ),
    ]

    @Test("photo add and photo fetch of PNGs libpng warns about write nothing to stderr, and the images are kept")
    func noRawWarnings() throws {
        let dir = try TempDirectory()
        let photos = Self.cases.map { #"{"name":"places/p/photos/\#($0.reference)","widthPx":24,"heightPx":16}"# }
            .joined(separator: ",")
        let input = try dir.write(
            "p.ndjson",
            #"{"id":"p","displayName":{"text":"P"},"location":{"latitude":1,"longitude":2},"photos":[\#(photos)]}"#
                + "\n")
        let imported = try BinaryTests.run(["import", input, "--db", "p.sqlite"], stdin: [], dir: dir)
        #expect(imported.code == 0, "\(imported.err)")
        for c in Self.cases {
            let file = try dir.write("\(c.reference).png", bytes: c.bytes)
            let added = try BinaryTests.run(
                ["photo", "add", c.reference, file, "--db", "p.sqlite"], stdin: [], dir: dir)
            #expect(added.code == 0, "\(c.why): \(added.err)")
            #expect(added.err.isEmpty, "\(c.why): stderr was \(added.err.debugDescription)")
            let fetched = try BinaryTests.run(
                ["photo", "fetch", c.reference, "-o", "-", "--max-width", "12", "--db", "p.sqlite"], stdin: [], dir: dir
            )
            #expect(fetched.code == 0, "\(c.why): \(fetched.err)")
            #expect(!fetched.out.isEmpty)
            #expect(!fetched.err.contains("libpng"), "\(c.why): stderr was \(fetched.err.debugDescription)")
        }
    }
}
