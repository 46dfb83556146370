import CGD
import PlaceKit
import PlaceKitGD
public import PlaceModel

/// Images for the photo tests, made and read with libgd directly (not
/// through PlaceKit's image code, which is what the tests check).
public enum TestImages {
    /// The colour of each quadrant of a `quadrants` image: top left red,
    /// top right green, bottom left blue, bottom right white.
    public static let quadrantColors: [(red: Int, green: Int, blue: Int)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255),
    ]

    /// What to draw.
    public enum Pattern: Sendable {
        /// Four flat quadrants (`quadrantColors`), so orientation and
        /// proportions can be checked after scaling.
        case quadrants
        /// Seeded noise: photo-like entropy, large files.
        case noise(seed: UInt64)
    }

    /// An image `width` x `height` in `format`. `transparent` makes the
    /// left half fully transparent (PNG, WebP); `interlaced` writes an
    /// interlaced PNG (Adam7) or a progressive JPEG.
    public static func make(
        width: Int, height: Int, format: ImageFormat, pattern: Pattern = .quadrants, transparent: Bool = false,
        interlaced: Bool = false
    ) -> [UInt8] {
        // The code under test scales with libgd, as the command line does.
        GDImageCodec.install()
        guard let im = gdImageCreateTrueColor(Int32(width), Int32(height)) else {
            fatalError("gdImageCreateTrueColor failed")
        }
        defer { gdImageDestroy(im) }
        gdImageAlphaBlending(im, 0)
        var state = 0x9E37_79B9_7F4A_7C15 as UInt64
        if case .noise(let seed) = pattern { state ^= seed }
        for y in 0..<height {
            for x in 0..<width {
                var (r, g, b): (Int, Int, Int)
                switch pattern {
                case .quadrants:
                    let q = (y < (height + 1) / 2 ? 0 : 2) + (x < (width + 1) / 2 ? 0 : 1)
                    (r, g, b) = quadrantColors[q]
                case .noise:
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    let v = Int(state >> 40)
                    (r, g, b) = (
                        (x * 255 / max(1, width - 1) + (v & 63)) & 255,
                        (y * 255 / max(1, height - 1) + (v >> 6 & 63)) & 255, (v >> 12) & 255
                    )
                }
                let alpha = transparent && x < width / 2 ? 127 : 0
                gdImageSetPixel(im, Int32(x), Int32(y), cgd_truecolor(Int32(r), Int32(g), Int32(b), Int32(alpha)))
            }
        }
        gdImageSaveAlpha(im, transparent ? 1 : 0)
        gdImageInterlace(im, interlaced ? 1 : 0)
        var size: Int32 = 0
        let buffer: UnsafeMutableRawPointer? =
            switch format {
            case .jpeg: gdImageJpegPtr(im, &size, 92)
            case .png: gdImagePngPtr(im, &size)
            case .webp: gdImageWebpPtrEx(im, &size, 90)
            case .gif: gdImageGifPtr(im, &size)
            }
        guard let buffer, size > 0 else { fatalError("libgd could not encode the test image") }
        defer { gdFree(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    /// `png` with a chunk of `type` holding `data` put right after its
    /// IHDR, with its CRC right or (`badCRC`) zero: ancillary chunks that
    /// libpng warns about (a CRC error, a malformed iCCP profile).
    public static func insertingChunk(into png: [UInt8], type: String, data: [UInt8], badCRC: Bool = false) -> [UInt8] {
        let ihdrEnd = 8 + 4 + 4 + 13 + 4
        precondition(png.count > ihdrEnd && Array(png[12..<16]) == Array("IHDR".utf8), "not a PNG with its IHDR first")
        let body = Array(type.utf8) + data
        let crc = badCRC ? 0 : crc32(body)
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return Array(png[..<ihdrEnd]) + be(UInt32(data.count)) + body + be(crc) + Array(png[ihdrEnd...])
    }

    /// The CRC-32 of PNG chunks (and zlib, gzip).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    /// A decoded image: its size and pixels.
    public struct Decoded {
        public let width: Int
        public let height: Int
        let pixels: [Int32]
        /// (red, green, blue, alpha 0 opaque...127 clear) at (x, y).
        public func pixel(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int, alpha: Int) {
            let c = pixels[y * width + x]
            return (Int(cgd_red(c)), Int(cgd_green(c)), Int(cgd_blue(c)), Int(cgd_alpha(c)))
        }
        /// The mean colour of the centre of a quadrant (0 top left, 1 top
        /// right, 2 bottom left, 3 bottom right).
        public func quadrantCentre(_ q: Int) -> (red: Int, green: Int, blue: Int) {
            let x = (q % 2 == 0 ? width / 4 : width * 3 / 4)
            let y = (q < 2 ? height / 4 : height * 3 / 4)
            let p = pixel(min(x, width - 1), min(y, height - 1))
            return (p.red, p.green, p.blue)
        }
    }

    /// Decodes `bytes` in `format` with libgd, or nil when libgd cannot
    /// (warnings count as failures for JPEG).
    public static func decode(_ bytes: [UInt8], as format: ImageFormat) -> Decoded? {
        var copy = bytes
        let im: gdImagePtr? = copy.withUnsafeMutableBytes { raw in
            let size = Int32(raw.count)
            return switch format {
            case .jpeg: gdImageCreateFromJpegPtrEx(size, raw.baseAddress, 0)
            case .png: gdImageCreateFromPngPtr(size, raw.baseAddress)
            case .webp: gdImageCreateFromWebpPtr(size, raw.baseAddress)
            case .gif: gdImageCreateFromGifPtr(size, raw.baseAddress)
            }
        }
        guard let im else { return nil }
        defer { gdImageDestroy(im) }
        let w = Int(cgd_width(im)), h = Int(cgd_height(im))
        var pixels = [Int32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { pixels[y * w + x] = gdImageGetTrueColorPixel(im, Int32(x), Int32(y)) }
        }
        return Decoded(width: w, height: h, pixels: pixels)
    }

    /// `jpeg` with an EXIF APP1 segment giving `orientation` (1...8)
    /// inserted after its start-of-image marker.
    public static func withOrientation(_ jpeg: [UInt8], _ orientation: Int) -> [UInt8] {
        // "Exif\0\0", then a little-endian TIFF header with one IFD0 entry:
        // tag 0x0112 (Orientation), type 3 (SHORT), count 1, the value.
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,
            0x01, 0x00,
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, UInt8(orientation), 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,
        ]
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }
}
