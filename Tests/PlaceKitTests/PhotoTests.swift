import Foundation
import Testing
@testable import PlaceKit
import PlaceKitGD
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// A database holding places with photos, for one test.
struct PhotoDB {
    let dir: TempDirectory
    var path: String { dir.file("places.sqlite") }

    static let refs = ["refAlpha-0123456789abcdef", "refBeta-0123456789abcdef", "refBetaTwo-0123456789abcd"]

    /// A Places API (New) place listing photos with these references.
    static func place(_ id: String, refs: [String], name: String = "Photo Place") -> String {
        let photos = refs.enumerated().map { i, ref in
            #"{"name":"places/\#(id)/photos/\#(ref)","widthPx":\#(4000 + i),"heightPx":3000,"authorAttributions":[{"displayName":"Author \#(i)","uri":"https://maps.google.com/maps/contrib/\#(i)","photoUri":"https://lh3.example/\#(i)"}]}"#
        }
        return
            #"{"id":"\#(id)","displayName":{"text":"\#(name)"},"location":{"latitude":46.5,"longitude":6.6},"photos":[\#(photos.joined(separator: ","))]}"#
    }

    init(places: [String] = [PhotoDB.place("P1", refs: PhotoDB.refs)]) throws {
        dir = try TempDirectory("placedb-photos")
        let file = try dir.write("in.ndjson", places.joined(separator: "\n") + "\n")
        _ = try PlaceImporter(databasePath: path).importInput(.file(file))
    }

    @discardableResult
    func add(_ photo: String, _ bytes: [UInt8], source: String = "test-image") throws -> AddedPhotoImage {
        try PhotoImporter(databasePath: path).addImage(forPhoto: photo, data: bytes, source: source)
    }

    func fetch(_ photo: String, _ width: Int, _ height: Int, format: ImageFormat? = nil) throws -> PhotoImage {
        let client = try PlaceReader(databasePath: path)
        return try client.fetchPhoto(
            client.photoMetadata(named: photo), maxSize: (width: width, height: height), format: format)
    }

    func imageCount() throws -> Int {
        try PhotoImporter(databasePath: path).store.db.scalar("SELECT count(*) FROM photo_image")?.int ?? -1
    }
}

/// One scaling case: the source size, the maximum asked for, the size expected.
struct ScaleCase: Sendable, CustomTestStringConvertible {
    let width, height, maxWidth, maxHeight, expectedWidth, expectedHeight: Int
    init(_ w: Int, _ h: Int, max mw: Int, _ mh: Int, expect ew: Int, _ eh: Int) {
        (width, height, maxWidth, maxHeight, expectedWidth, expectedHeight) = (w, h, mw, mh, ew, eh)
    }
    var testDescription: String { "\(width)x\(height) in \(maxWidth)x\(maxHeight)" }

    // Expected sizes worked out by hand: the limiting side gets its maximum,
    // the other side is the source's scaled and rounded to the nearest pixel.
    static let all: [ScaleCase] = [
        ScaleCase(400, 300, max: 200, 200, expect: 200, 150),
        ScaleCase(401, 301, max: 100, 100, expect: 100, 75), // 301 * 100 / 401 = 75.06
        ScaleCase(300, 400, max: 200, 200, expect: 150, 200),
        ScaleCase(641, 480, max: 640, 480, expect: 640, 479), // 480 * 640 / 641 = 479.25
        ScaleCase(333, 777, max: 4800, 50, expect: 21, 50), // 333 * 50 / 777 = 21.43
        ScaleCase(250, 250, max: 100, 4800, expect: 100, 100),
        ScaleCase(1000, 10, max: 100, 100, expect: 100, 1),
        ScaleCase(3000, 1, max: 50, 50, expect: 50, 1), // very wide: the height stays 1
        ScaleCase(1, 3000, max: 50, 50, expect: 1, 50), // very tall
        ScaleCase(999, 3, max: 998, 4800, expect: 998, 3), // 3 * 998 / 999 = 2.997
        ScaleCase(1, 1, max: 1, 1, expect: 1, 1),
        ScaleCase(1, 1, max: 4800, 4800, expect: 1, 1), // never enlarged
        ScaleCase(640, 480, max: 640, 480, expect: 640, 480), // fits exactly
        ScaleCase(17, 13, max: 4800, 4800, expect: 17, 13),
    ]
}

@Suite("Photo images: scaling, formats, orientation")
struct PhotoImageTests {
    @Test(
        "fits the maximum size, keeps the aspect ratio, never enlarges", arguments: ScaleCase.all,
        [ImageFormat.png, .jpeg])
    func scales(c: ScaleCase, format: ImageFormat) throws {
        let db = try PhotoDB()
        let source = TestImages.make(width: c.width, height: c.height, format: format)
        let added = try db.add(PhotoDB.refs[0], source)
        #expect(added.width == c.width && added.height == c.height && added.format == format)

        let image = try db.fetch(PhotoDB.refs[0], c.maxWidth, c.maxHeight)
        #expect(image.format == format)
        #expect((image.width, image.height) == (c.expectedWidth, c.expectedHeight))
        let decoded = try #require(TestImages.decode(image.data, as: format), "the output does not decode as \(format)")
        #expect((decoded.width, decoded.height) == (c.expectedWidth, c.expectedHeight), "decoded pixel size")
        #expect(decoded.width <= c.maxWidth && decoded.height <= c.maxHeight)
        #expect(decoded.width <= c.width && decoded.height <= c.height, "enlarged")
        // The aspect ratio: the side that did not limit is within half a
        // pixel of the exact scaled size (or 1 when that is below 1).
        let scale = min(Double(c.maxWidth) / Double(c.width), Double(c.maxHeight) / Double(c.height), 1)
        for (out, exact) in [(decoded.width, Double(c.width) * scale), (decoded.height, Double(c.height) * scale)] {
            #expect(abs(Double(out) - exact) <= 0.5 || (out == 1 && exact < 1), "side \(out) for exact \(exact)")
        }
        if decoded.width >= 8 && decoded.height >= 8 {
            for q in 0..<4 {
                expectColor(decoded.quadrantCentre(q), TestImages.quadrantColors[q], tolerance: 40, "quadrant \(q)")
            }
        }
    }

    @Test(
        "an image that already fits comes back byte for byte in its own format",
        arguments: [ImageFormat.jpeg, .png, .webp, .gif])
    func passThrough(format: ImageFormat) throws {
        let db = try PhotoDB()
        let source = TestImages.make(width: 120, height: 80, format: format, pattern: .noise(seed: 7))
        try db.add(PhotoDB.refs[1], source)
        for size in [(120, 80), (4800, 4800), (120, 4800)] {
            let image = try db.fetch(PhotoDB.refs[1], size.0, size.1)
            #expect(image.data == source)
            #expect((image.width, image.height, image.format) == (120, 80, format))
        }
        let shrunk = try db.fetch(PhotoDB.refs[1], 119, 4800)
        #expect(shrunk.data != source)
        #expect((shrunk.width, shrunk.height) == (119, 79))
    }

    @Test(
        "converts between JPEG, PNG, WebP and GIF",
        arguments: [
            (ImageFormat.png, ImageFormat.jpeg), (.jpeg, .png), (.png, .webp), (.webp, .png), (.jpeg, .gif),
            (.gif, .jpeg), (.png, .png),
        ])
    func converts(from source: ImageFormat, to output: ImageFormat) throws {
        let db = try PhotoDB()
        try db.add(PhotoDB.refs[0], TestImages.make(width: 200, height: 100, format: source))
        for (max, expected) in [((100, 100), (100, 50)), ((4800, 4800), (200, 100))] {
            let image = try db.fetch(PhotoDB.refs[0], max.0, max.1, format: output)
            #expect(image.format == output)
            #expect(image.data.withUnsafeBytes { ImageFormat(sniffing: $0) } == output, "the bytes are not \(output)")
            let decoded = try #require(TestImages.decode(image.data, as: output))
            #expect((decoded.width, decoded.height) == expected)
            for q in 0..<4 {
                expectColor(decoded.quadrantCentre(q), TestImages.quadrantColors[q], tolerance: 60, "quadrant \(q)")
            }
        }
    }

    @Test("transparency is kept in PNG and composed over white in JPEG")
    func transparency() throws {
        let db = try PhotoDB()
        try db.add(PhotoDB.refs[0], TestImages.make(width: 40, height: 20, format: .png, transparent: true))
        let png = try #require(TestImages.decode(try db.fetch(PhotoDB.refs[0], 20, 20).data, as: .png))
        #expect((png.width, png.height) == (20, 10))
        #expect(png.pixel(2, 2).alpha >= 120, "the left half stays transparent")
        #expect(png.pixel(17, 2).alpha == 0, "the right half stays opaque")
        let jpeg = try #require(TestImages.decode(try db.fetch(PhotoDB.refs[0], 20, 20, format: .jpeg).data, as: .jpeg))
        let left = jpeg.pixel(2, 2)
        #expect(left.red >= 235 && left.green >= 235 && left.blue >= 235, "transparent became \(left), not white")
    }

    /// Quadrant colours (indices into `quadrantColors`, top left, top right,
    /// bottom left, bottom right) once each EXIF orientation is applied.
    static let orientations: [(Int, [Int])] = [
        (1, [0, 1, 2, 3]), (2, [1, 0, 3, 2]), (3, [3, 2, 1, 0]), (4, [2, 3, 0, 1]),
        (5, [0, 2, 1, 3]), (6, [2, 0, 3, 1]), (7, [3, 1, 2, 0]), (8, [1, 3, 0, 2]),
    ]

    @Test("turns a JPEG upright by its EXIF orientation", arguments: orientations)
    func orientation(orientation: Int, quadrants: [Int]) throws {
        let db = try PhotoDB()
        let source = TestImages.withOrientation(TestImages.make(width: 240, height: 120, format: .jpeg), orientation)
        let added = try db.add(PhotoDB.refs[0], source)
        let upright = orientation >= 5 ? (120, 240) : (240, 120)
        #expect((added.width, added.height) == upright, "stored size as displayed")

        let image = try db.fetch(PhotoDB.refs[0], 60, 60)
        let decoded = try #require(TestImages.decode(image.data, as: .jpeg))
        #expect((decoded.width, decoded.height) == (orientation >= 5 ? (30, 60) : (60, 30)))
        for q in 0..<4 {
            expectColor(
                decoded.quadrantCentre(q), TestImages.quadrantColors[quadrants[q]], tolerance: 40, "quadrant \(q)")
        }

        let asPNG = try #require(
            TestImages.decode(try db.fetch(PhotoDB.refs[0], 4800, 4800, format: .png).data, as: .png))
        #expect((asPNG.width, asPNG.height) == upright)
        let same = try db.fetch(PhotoDB.refs[0], 4800, 4800)
        #expect(same.data == source, "an upright fit is returned as stored, EXIF and all")
        #expect((same.width, same.height) == upright)
    }

    @Test(
        "the Places photo example JPEG scales to the sizes asked for",
        .enabled(
            if: CorpusData.has("google/legacy/openapi-spec-examples/maps_http_places_photo_binary_response.jpg"),
            "needs ../shared/data"))
    func realJPEG() throws {
        let dir = try #require(CorpusData.url("google/legacy/openapi-spec-examples"))
        let jpegPath = dir.appendingPathComponent("maps_http_places_photo_binary_response.jpg").path
        let details = dir.appendingPathComponent("maps_http_places_details_response.json").path
        try #require(FileManager.default.fileExists(atPath: details), "\(details) is missing from the corpus")
        let temp = try TempDirectory()
        let path = temp.file("places.sqlite")
        _ = try PlaceImporter(databasePath: path).importInput(.file(details))
        let client = try PlaceReader(databasePath: path)
        let photos = try client.lookUpPhotos(placeID: "ChIJN1t_tDeuEmsRUsoyG83frY4")
        #expect(photos.count == 10)
        let first = try #require(photos.first)
        #expect(first.authorAttributions.first?.displayName == "Cynthia Wei")

        let added = try PhotoImporter(databasePath: path).addImage(forPhoto: first.name, file: .file(jpegPath))
        #expect((added.width, added.height, added.format, added.outcome) == (400, 300, .jpeg, .added))
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: jpegPath)))
        #expect(try client.fetchPhoto(first, maxSize: (4800, 4800)).data == original)
        for (max, expected) in [
            ((200, 200), (200, 150)), ((100, 300), (100, 75)), ((4800, 30), (40, 30)), ((399, 4800), (399, 299)),
        ] {
            let image = try client.fetchPhoto(first, maxSize: max)
            let decoded = try #require(TestImages.decode(image.data, as: .jpeg))
            #expect((decoded.width, decoded.height) == expected, "max \(max)")
            #expect((image.width, image.height) == expected)
        }
        let png = try client.fetchPhoto(first, maxSize: (4800, 4800), format: .png)
        #expect(TestImages.decode(png.data, as: .png).map { ($0.width, $0.height) } ?? (0, 0) == (400, 300))
        // Truncated, the same photo is refused.
        let truncated = Array(original.prefix(original.count / 2))
        #expect(throws: PlaceDBError.self) {
            try PhotoImporter(databasePath: path).addImage(forPhoto: first.name, data: truncated)
        }
    }

    /// Bad images, each refused when added.
    static func corruptImages() -> [(String, [UInt8], String)] {
        var rng = TestRandom(seed: 42)
        let jpeg = TestImages.make(width: 300, height: 200, format: .jpeg, pattern: .noise(seed: 1))
        let png = TestImages.make(width: 300, height: 200, format: .png, pattern: .noise(seed: 2))
        let webp = TestImages.make(width: 300, height: 200, format: .webp, pattern: .noise(seed: 3))
        let gif = TestImages.make(width: 300, height: 200, format: .gif, pattern: .noise(seed: 4))
        var damagedPNG = png
        for i in stride(from: png.count / 2, to: png.count / 2 + 64, by: 1) { damagedPNG[i] ^= 0x5A }
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bomb += [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 6, 0, 0, 0, 0, 0, 0, 0] // 30000 x 30000
        return [
            ("a truncated JPEG", Array(jpeg.prefix(jpeg.count * 6 / 10)), "Premature end of JPEG file"),
            ("a JPEG cut inside its header", Array(jpeg.prefix(60)), "header is truncated"),
            ("random bytes", rng.bytes(5000), "not a JPEG, PNG, WebP or GIF image"),
            (
                "random bytes behind a JPEG signature", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + rng.bytes(5000),
                "corrupt JPEG"
            ),
            ("random bytes behind a PNG header", Array(png.prefix(33)) + rng.bytes(5000), "corrupt PNG"),
            ("a PNG with damaged pixel data", damagedPNG, "corrupt PNG image: libgd cannot decode it (libpng"),
            (
                "a truncated WebP", Array(webp.prefix(webp.count / 2)),
                "corrupt WebP image: the file has \(webp.count / 2) bytes, its RIFF header says \(webp.count)"
            ),
            (
                "a WebP with damaged data", Array(webp.prefix(40)) + rng.bytes(webp.count - 40),
                "corrupt WebP image: libgd cannot decode it (libwebp cannot decode the data)"
            ),
            (
                "a truncated GIF", Array(gif.prefix(gif.count * 9 / 10)),
                "corrupt GIF image: its blocks end before the trailer"
            ),
            ("a GIF without its trailer", Array(gif.dropLast()), "corrupt GIF"),
            ("an empty file", [], "empty"),
            ("a header announcing 30000 x 30000 pixels", bomb, "900.0 megapixels"),
            ("text", Array("hello, world\n".utf8), "not a JPEG, PNG, WebP or GIF image"),
        ]
    }

    @Test("a corrupt, truncated, unknown or oversized image is refused with one line", arguments: corruptImages())
    func corrupt(label: String, bytes: [UInt8], reason: String) throws {
        let db = try PhotoDB()
        do {
            try db.add(PhotoDB.refs[0], bytes, source: "bad.img")
            Issue.record("\(label) was accepted")
        } catch let error as PlaceDBError {
            guard case .badImage(let message) = error else {
                Issue.record("\(label): expected a bad-image error, got \(error)")
                return
            }
            #expect(message.hasPrefix("bad.img: "), "\(message)")
            #expect(message.contains(reason), "\(label): \(message)")
            #expect(!message.contains("\n"))
        }
        #expect(try db.imageCount() == 0)
    }

    @Test("damaged images are refused or decode, never crash (seeded mutations)", arguments: ImageFormat.allCases)
    func mutations(format: ImageFormat) throws {
        let db = try PhotoDB()
        let source = TestImages.make(width: 120, height: 80, format: format, pattern: .noise(seed: 9))
        var rng = TestRandom(seed: 2026)
        var refused = 0
        for round in 0..<40 {
            var bytes = source
            let pick = rng.bytes(4).map(Int.init)
            switch round % 3 {
            case 0: bytes = Array(bytes.prefix(pick[0] * bytes.count / 256))
            case 1:
                for (i, b) in rng.bytes(8).enumerated() { bytes[(pick[i % 4] * 131 + i * 977) % bytes.count] = b }
            default:
                let start = pick[1] * bytes.count / 256
                let run = rng.bytes(min(64, bytes.count - start))
                bytes.replaceSubrange(start..<start + run.count, with: run)
            }
            do {
                try db.add(PhotoDB.refs[0], bytes)
                // Accepted: it must then fetch and scale.
                let image = try db.fetch(PhotoDB.refs[0], 30, 30)
                #expect(image.width <= 30 && image.height <= 30)
            } catch PlaceDBError.badImage {
                refused += 1
            }
        }
        #expect(refused > 0, "no mutation was refused: the corrupt-image checks are not running")
    }

    @Test(
        "a maximum of 0, below 0 or above 4800 is a usage error",
        arguments: [(0, 100), (100, 0), (4801, 100), (100, 4801), (-5, 10), (Int.max, 1)])
    func badMaxSize(width: Int, height: Int) throws {
        let db = try PhotoDB()
        try db.add(PhotoDB.refs[0], TestImages.make(width: 10, height: 10, format: .png))
        #expect {
            _ = try db.fetch(PhotoDB.refs[0], width, height)
        } throws: { error in
            guard case PlaceDBError.invalidArgument(let m) = error else { return false }
            return m.contains("out of range") && m.contains("4800")
        }
        #expect(try db.fetch(PhotoDB.refs[0], 4800, 1).height == 1)
    }

    @Test("a photo without a local image is NOT_FOUND")
    func noLocalImage() throws {
        let db = try PhotoDB()
        let client = try PlaceReader(databasePath: db.path)
        let photo = try client.photoMetadata(named: PhotoDB.refs[2])
        #expect(photo.name == "places/P1/photos/\(PhotoDB.refs[2])")
        #expect(try client.localImage(for: photo) == nil)
        #expect {
            _ = try client.fetchPhoto(photo, maxSize: (100, 100))
        } throws: { error in
            guard case PlaceDBError.noLocalImage = error else { return false }
            return "\(error)" == "NOT_FOUND: photo 'places/P1/photos/\(PhotoDB.refs[2])' has no local image"
        }
        #expect {
            _ = try client.fetchPhoto(PhotoMetadata(name: "places/P9/photos/nothing"), maxSize: (100, 100))
        } throws: { error in
            "\(error)".hasPrefix("NOT_FOUND: no photo 'places/P9/photos/nothing'")
        }
    }

    @Test("without an image codec, scaling fails with one line and an image that fits is served as stored")
    func noCodec() throws {
        let jpeg = TestImages.make(width: 200, height: 100, format: .jpeg)
        try jpeg.withUnsafeBytes { bytes in
            #expect(throws: ImageError(ImageScaling.unavailableMessage)) {
                _ = try ImagePipeline.render(bytes, maxWidth: 100, maxHeight: 100, format: nil, codec: nil)
            }
            #expect(throws: ImageError(ImageScaling.unavailableMessage)) {
                _ = try ImagePipeline.render(bytes, maxWidth: 400, maxHeight: 400, format: .png, codec: nil)
            }
            let stored = try ImagePipeline.render(bytes, maxWidth: 400, maxHeight: 400, format: nil, codec: nil)
            #expect(stored.data == jpeg && (stored.width, stored.height) == (200, 100))
        }
        #expect(
            !ImageScaling.unavailableMessage.contains("\n")
                && ImageScaling.unavailableMessage.hasPrefix("image scaling is not available in this build"))
        // With libgd's codec the same request scales.
        let scaled = try jpeg.withUnsafeBytes {
            try ImagePipeline.render($0, maxWidth: 100, maxHeight: 100, format: nil, codec: GDImageCodec())
        }
        #expect((scaled.width, scaled.height, scaled.format) == (100, 50, .jpeg))
    }

    @Test("fitted sizes match the worked examples", arguments: ScaleCase.all)
    func fittedSize(c: ScaleCase) {
        let size = ImagePipeline.fittedSize(
            width: c.width, height: c.height, maxWidth: c.maxWidth, maxHeight: c.maxHeight)
        #expect(size == (c.expectedWidth, c.expectedHeight))
    }

    @Test("reads sizes from headers without decoding", arguments: [ImageFormat.jpeg, .png, .webp, .gif])
    func headers(format: ImageFormat) throws {
        for (w, h) in [(1, 1), (37, 5), (300, 1001)] {
            let bytes = TestImages.make(width: w, height: h, format: format)
            let header = try bytes.withUnsafeBytes { try ImageHeader.read($0).get() }
            #expect((header.format, header.width, header.height) == (format, w, h))
        }
    }
}

func expectColor(
    _ got: (red: Int, green: Int, blue: Int), _ want: (red: Int, green: Int, blue: Int), tolerance: Int,
    _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let ok =
        abs(got.red - want.red) <= tolerance && abs(got.green - want.green) <= tolerance
        && abs(got.blue - want.blue) <= tolerance
    #expect(ok, "\(label): got \(got), want \(want)", sourceLocation: sourceLocation)
}

extension TestRandom {
    /// Seeded bytes, so a failing case can be replayed.
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

@Suite("Photo metadata and the local photo store")
struct PhotoStoreTests {
    @Test("lists a place's photos in order with their attributions")
    func lookUp() throws {
        let db = try PhotoDB()
        let photos = try PlaceReader(databasePath: db.path).lookUpPhotos(placeID: "P1")
        #expect(photos.map(\.name) == PhotoDB.refs.map { "places/P1/photos/\($0)" })
        #expect(photos.map(\.widthPx) == [4000, 4001, 4002])
        #expect(
            photos[1].authorAttributions == [
                AuthorAttribution(
                    displayName: "Author 1", uri: "https://maps.google.com/maps/contrib/1",
                    photoUri: "https://lh3.example/1")
            ])
        #expect(throws: PlaceDBError.self) { try PlaceReader(databasePath: db.path).lookUpPhotos(placeID: "nope") }
        #expect(try PlaceReader(databasePath: db.path).lookUpPhotos(placeID: PlaceID(parsing: "places/P1")).count == 3)
    }

    @Test("an ID that moved lists the photos of the place it resolves to")
    func followsAliases() throws {
        let old =
            #"{"id":"old","location":{"latitude":1,"longitude":2},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"P1","photos":[{"name":"places/old/photos/oldPhotoReference-1"}]}"#
        let db = try PhotoDB(places: [PhotoDB.place("P1", refs: PhotoDB.refs), old])
        let client = try PlaceReader(databasePath: db.path)
        #expect(try client.lookUpPhotos(placeID: "old").map(\.name) == PhotoDB.refs.map { "places/P1/photos/\($0)" })
        // The old place's own photo is still named and stored by its name.
        #expect(
            try db.add("oldPhotoReference-1", TestImages.make(width: 2, height: 2, format: .png)).name
                == "places/old/photos/oldPhotoReference-1")
    }

    @Test("import keeps the first 10 photos of a place in either format, and indexes them")
    func capAtImport() throws {
        let refs = (1...12).map { String(format: "capReference%02d-abcdef", $0) }
        let legacyPhotos = refs.map { #"{"photo_reference":"\#($0)","width":10,"height":10,"html_attributions":[]}"# }
        let legacy =
            #"{"place_id":"L1","geometry":{"location":{"lat":1,"lng":2}},"photos":[\#(legacyPhotos.joined(separator: ","))]}"#
        let db = try PhotoDB(places: [PhotoDB.place("V1", refs: refs), legacy])
        let client = try PlaceReader(databasePath: db.path)
        for id in ["V1", "L1"] {
            #expect(
                try client.lookUpPhotos(placeID: PlaceID(id)).map(\.name)
                    == refs.prefix(10).map { "places/\(id)/photos/\($0)" })
        }
        let store = try PhotoImporter(databasePath: db.path).store
        #expect(try store.db.scalar("SELECT count(*) FROM place_photo")?.int == 20)
        #expect(try store.db.scalar("SELECT max(position) FROM place_photo")?.int == 9)
        let png = TestImages.make(width: 2, height: 2, format: .png)
        #expect(throws: PlaceDBError.self) { try db.add("places/V1/photos/\(refs[10])", png) }
        #expect(try db.add("places/L1/photos/\(refs[9])", png).outcome == .added)
        // The same reference under two places is ambiguous.
        #expect {
            try db.add(refs[9], png)
        } throws: { error in
            guard case PlaceDBError.invalidArgument(let m) = error else { return false }
            return m.contains("matches several photos")
        }
    }

    @Test("names a photo by full name, reference, unique reference prefix or media name")
    func naming() throws {
        let db = try PhotoDB()
        let png = TestImages.make(width: 3, height: 2, format: .png)
        let full = "places/P1/photos/\(PhotoDB.refs[0])"
        #expect(try db.add(full, png).name == full)
        #expect(try db.add(PhotoDB.refs[0], png).outcome == .unchanged)
        #expect(try db.add(String(PhotoDB.refs[0].prefix(12)), png).name == full)
        #expect(try db.add(full + "/media", png).name == full)
        #expect(try db.fetch(String(PhotoDB.refs[0].prefix(14)), 10, 10).width == 3)

        // refBeta- and refBetaTwo- share "refBeta": a short prefix is too short,
        // a 12-character one that fits only refBeta-... is unique, the exact
        // reference wins over longer ones it is a prefix of.
        #expect {
            try db.add("refBeta", png)
        } throws: { error in
            guard case PlaceDBError.photoNotFound(let m) = error else { return false }
            return m.contains("at least 12 characters")
        }
        #expect(try db.add("refBeta-0123", png).name == "places/P1/photos/\(PhotoDB.refs[1])")
        let two = try PhotoDB(places: [
            PhotoDB.place("P1", refs: ["sharedPrefix-0000000001", "sharedPrefix-0000000002"])
        ])
        #expect {
            try two.add("sharedPrefix-000", png)
        } throws: { error in
            guard case PlaceDBError.invalidArgument(let m) = error else { return false }
            return m.contains("matches several photos")
        }
        for bad in ["", "places/P1", "places//photos/x", "places/P1/photos/", "a/b"] {
            #expect(throws: PlaceDBError.self, "\(bad)") { try db.add(bad, png) }
        }
        #expect {
            try db.add("places/P2/photos/\(PhotoDB.refs[0])", png)
        } throws: { error in
            "\(error)".hasPrefix("NOT_FOUND: no photo 'places/P2/photos/\(PhotoDB.refs[0])'")
        }
    }

    @Test("adding another image replaces it; the same bytes change nothing")
    func replace() throws {
        let db = try PhotoDB()
        let a = TestImages.make(width: 30, height: 20, format: .png)
        let b = TestImages.make(width: 20, height: 30, format: .jpeg)
        #expect(try db.add(PhotoDB.refs[0], a).outcome == .added)
        #expect(try db.add(PhotoDB.refs[0], a).outcome == .unchanged)
        #expect(try db.add(PhotoDB.refs[0], b).outcome == .replaced)
        let info = try #require(
            try PlaceReader(databasePath: db.path).localImage(
                for: PhotoMetadata(name: "places/P1/photos/\(PhotoDB.refs[0])")))
        #expect((info.format, info.width, info.height, info.byteCount) == (.jpeg, 20, 30, b.count))
        #expect(try db.fetch(PhotoDB.refs[0], 4800, 4800).data == b)
        #expect(try db.imageCount() == 1)
    }

    @Test("re-importing a place re-indexes its photos")
    func reimport() throws {
        let db = try PhotoDB()
        let file = try db.dir.write("new.ndjson", PhotoDB.place("P1", refs: ["replacementRef-000000"]) + "\n")
        let summary = try PlaceImporter(databasePath: db.path).importInput(.file(file))
        #expect(summary.updated == 1)
        let png = TestImages.make(width: 2, height: 2, format: .png)
        #expect(throws: PlaceDBError.self) { try db.add(PhotoDB.refs[0], png) }
        #expect(try db.add("replacementRef-000000", png).outcome == .added)
    }

    @Test("adds a directory whose file names are references, reporting each file")
    func directory() throws {
        let db = try PhotoDB()
        let images = try TempDirectory()
        try images.write("\(PhotoDB.refs[0]).png", bytes: TestImages.make(width: 5, height: 5, format: .png))
        try images.write(
            "\(PhotoDB.refs[1].prefix(13)).JPG", bytes: TestImages.make(width: 6, height: 4, format: .jpeg))
        try images.write("unknownReference-123.jpg", bytes: TestImages.make(width: 6, height: 4, format: .jpeg))
        try images.write("\(PhotoDB.refs[2]).gif", bytes: Array("not a gif".utf8))
        try images.write("notes.txt", "hello")
        try images.write(".hidden.png", "x")
        var seen = 0
        let results = try PhotoImporter(databasePath: db.path).addImages(inDirectory: images.path) { _ in seen += 1 }
        #expect(seen == results.count)
        #expect(results.count == 5)
        var added: [String] = [], failed: [String: PlaceDBError] = [:], ignored: [String] = []
        for r in results {
            switch r {
            case .added(let a): added.append(a.name)
            case .failed(let file, let error): failed[URL(fileURLWithPath: file).lastPathComponent] = error
            case .ignored(let file): ignored.append(URL(fileURLWithPath: file).lastPathComponent)
            }
        }
        #expect(Set(added) == Set(PhotoDB.refs.prefix(2).map { "places/P1/photos/\($0)" }))
        #expect(ignored == ["notes.txt"])
        guard case .photoNotFound? = failed["unknownReference-123.jpg"] else {
            Issue.record("unknown reference: \(String(describing: failed))"); return
        }
        guard case .badImage(let m)? = failed["\(PhotoDB.refs[2]).gif"] else {
            Issue.record("bad gif: \(String(describing: failed))"); return
        }
        #expect(m.hasSuffix("\(PhotoDB.refs[2]).gif: not a JPEG, PNG, WebP or GIF image (unknown signature)"))
        #expect(try db.imageCount() == 2)
        #expect(throws: PlaceDBError.self) {
            try PhotoImporter(databasePath: db.path).addImages(inDirectory: images.file("absent"))
        }
    }

    @Test("a missing or directory image file, or a missing database, is missing input")
    func missingFile() throws {
        let db = try PhotoDB()
        let absent = db.dir.file("absent.sqlite")
        #expect {
            _ = try PhotoImporter(databasePath: absent)
        } throws: { error in
            guard case PlaceDBError.noDatabase = error else { return false }
            return !FileManager.default.fileExists(atPath: absent)
        }
        let importer = try PhotoImporter(databasePath: db.path)
        for path in [db.dir.file("absent.jpg"), db.dir.path] {
            #expect {
                try importer.addImage(forPhoto: PhotoDB.refs[0], file: .file(path))
            } throws: { error in
                guard case PlaceDBError.input = error else { return false }
                return "\(error)".hasPrefix(path + ": ")
            }
        }
    }

    @Test("the migration indexes the photos of places imported before it")
    func migrationBackfill() throws {
        // Import refuses photo names the photo commands could not serve, but
        // a database from before it may hold them: P2's are written in below.
        let p2 = #"{"id":"P2","location":{"latitude":1,"longitude":2},"photos":[{"name":"places/P2/photos/x"}]}"#
        let db = try PhotoDB(places: [PhotoDB.place("P1", refs: PhotoDB.refs), p2])
        let query =
            "SELECT p.place_id, f.position, f.name, f.reference FROM place_photo f JOIN place p ON p.id = f.place ORDER BY 1, 2"
        func rows(_ store: PlaceStore) throws -> [[DatabaseValue]] {
            var out: [[DatabaseValue]] = []
            try store.db.forEachRow(query) { row in out.append((0..<4).map { row[$0] }) }
            return out
        }
        let imported = try rows(PhotoImporter(databasePath: db.path).store)
        #expect(imported.count == 4)
        #expect(imported.contains([.text("P2"), .integer(0), .text("places/P2/photos/x"), .text("x")]))
        let written =
            imported.filter { $0[0] != .text("P2") } + [
                [.text("P2"), .integer(0), .text("not-a-photo-name"), .text("not-a-photo-name")],
                [.text("P2"), .integer(2), .text("places/P2/photos/x/photos/y"), .text("x/photos/y")],
            ]
        // Back to schema version 1, as a database from before photos.
        do {
            let store = try PhotoImporter(databasePath: db.path).store
            try store.db.execute(
                SchemaRollback.indexGeneration
                    + "DROP TABLE place_link; DROP TABLE link_rule; DROP TABLE place_group; DROP TABLE link_setting; DROP INDEX place_by_group; ALTER TABLE place DROP COLUMN group_id; ALTER TABLE import_run DROP COLUMN data_time; DROP TABLE photo_image; DROP TABLE place_photo; DELETE FROM schema_migration WHERE version >= 2; PRAGMA user_version = 1"
            )
            // Undo the later migrations too (9: place_document reads the
            // columns dropped below).
            // (10: the text index.)
            try store.db.execute(TextIndexTests.dropTextIndex)
            try store.db.execute(
                "DROP VIEW place_document; DELETE FROM views_geometry_columns WHERE view_name = 'place_document'")
            try store.db.execute("DROP TRIGGER place_change_before; DROP TABLE place_change")
            // (3: time_zone_source.)
            try store.db.execute("ALTER TABLE place DROP COLUMN time_zone_source")
            // (5: doc_layout; this test reads only the photos.)
            try store.db.execute("ALTER TABLE place DROP COLUMN doc_layout")
            // (4: place_extent and its triggers.)
            try store.db.execute(
                "DROP TRIGGER IF EXISTS place_extent_insert; DROP TRIGGER IF EXISTS place_extent_update; DROP TRIGGER IF EXISTS place_extent_delete; DROP TABLE place_extent; DROP VIEW place_viewport"
            )
            // (6: place_footprint.)
            try store.db.execute("DROP TABLE place_footprint")
            try store.db.run(
                "UPDATE place SET doc = json_set(doc, '$.photos', json(?)) WHERE place_id = 'P2'",
                [.text(#"[{"name":"not-a-photo-name"},{"widthPx":3},{"name":"places/P2/photos/x/photos/y"}]"#)])
            // (7: capture times.)
            try store.db.execute(
                "ALTER TABLE place DROP COLUMN captured_at; ALTER TABLE place DROP COLUMN member_captured; ALTER TABLE import_run DROP COLUMN older"
            )
        }
        #expect(throws: PlaceDBError.self, "a read-only client refuses the old version") {
            try PlaceReader(databasePath: db.path)
        }
        #expect(try rows(PhotoImporter(databasePath: db.path).store) == written)
    }
}

/// Every photo in the Google corpus imports with its name, size, order and
/// attributions (Foundation's JSON parser reads the expected values).
@Suite(
    "Google corpus photos (../shared/data/google)",
    .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
struct GoogleCorpusPhotoTests {
    static let files = GoogleCorpusTests.files.filter {
        (try? String(contentsOf: $0, encoding: .utf8).contains("\"photos\"")) == true
    }

    @Test("the corpus has photos to check")
    func present() {
        #expect(Self.files.count >= 10)
    }

    /// `&#39;` and `&amp;` are the entities the corpus uses.
    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("each place's photos import in order with sizes and attributions", arguments: files)
    func file(_ url: URL) throws {
        let records = GoogleCorpusTests.records(try JSONSerialization.jsonObject(with: Data(contentsOf: url)))
        guard !records.isEmpty, records.allSatisfy({ GoogleCorpusTests.expected($0) != nil }) else {
            return // not importable as a whole (field-masked records): GoogleCorpusTests covers it
        }
        let dir = try TempDirectory()
        let path = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: path).importInput(.file(url.path))
        let client = try PlaceReader(databasePath: path)
        let anchor = try NSRegularExpression(pattern: #"^<a href="([^"]*)">(.*)</a>$"#)
        var checked = 0
        for r in records {
            guard let photos = r["photos"] as? [[String: Any]], !photos.isEmpty else { continue }
            let legacy = r["place_id"] != nil
            let id = (r["place_id"] ?? r["id"]) as! String
            let got = try client.lookUpPhotos(placeID: PlaceID(id))
            #expect(got.count == min(10, photos.count))
            for (p, photo) in zip(photos, got) {
                checked += 1
                if legacy {
                    #expect(photo.name == "places/\(id)/photos/\(p["photo_reference"] as! String)")
                    #expect(photo.widthPx == p["width"] as? Int && photo.heightPx == p["height"] as? Int)
                    let html = p["html_attributions"] as? [String] ?? []
                    #expect(photo.authorAttributions.count == html.count)
                    for (h, a) in zip(html, photo.authorAttributions) {
                        if let m = anchor.firstMatch(in: h, range: NSRange(h.startIndex..., in: h)) {
                            #expect(a.uri == String(h[Range(m.range(at: 1), in: h)!]))
                            #expect(a.displayName == Self.unescape(String(h[Range(m.range(at: 2), in: h)!])))
                        } else {
                            #expect(a.displayName == h && a.uri == nil)
                        }
                    }
                } else {
                    #expect(photo.name == p["name"] as? String)
                    #expect(photo.widthPx == p["widthPx"] as? Int && photo.heightPx == p["heightPx"] as? Int)
                    let authors = p["authorAttributions"] as? [[String: Any]] ?? []
                    #expect(photo.authorAttributions.map(\.displayName) == authors.map { $0["displayName"] as? String })
                    #expect(photo.authorAttributions.map(\.uri) == authors.map { $0["uri"] as? String })
                    #expect(photo.authorAttributions.map(\.photoUri) == authors.map { $0["photoUri"] as? String })
                }
            }
        }
        #expect(checked > 0, "\(url.lastPathComponent) has photos but none were checked")
    }
}
