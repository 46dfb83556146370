/// What an image's header says, read without decoding it: its format, its
/// pixel size as stored, and (JPEG) its EXIF orientation. placedb reads it
/// first so a header announcing a huge image is refused before libgd
/// allocates anything.
package struct ImageHeader: Equatable {
    package var format: ImageFormat
    package var width: Int
    package var height: Int
    /// EXIF orientation 1...8 (1: as stored).
    package var orientation: Int = 1

    /// The size once the orientation is applied (5...8 swap the sides).
    package var orientedWidth: Int { orientation >= 5 ? height : width }
    package var orientedHeight: Int { orientation >= 5 ? width : height }

    /// Reads the header, or explains why it cannot.
    package static func read(_ bytes: UnsafeRawBufferPointer) -> Result<ImageHeader, ImageError> {
        guard let format = ImageFormat(sniffing: bytes) else {
            return .failure(
                ImageError(
                    bytes.isEmpty ? "the file is empty" : "not a JPEG, PNG, WebP or GIF image (unknown signature)"))
        }
        let header: ImageHeader?
        switch format {
        case .png: header = png(bytes)
        case .gif: header = gif(bytes)
        case .webp: header = webp(bytes)
        case .jpeg: header = jpeg(bytes)
        }
        guard let header else {
            return .failure(ImageError("corrupt \(format) image: its header is truncated or malformed"))
        }
        guard header.width > 0, header.height > 0 else {
            return .failure(
                ImageError("corrupt \(format) image: its header gives a size of \(header.width) x \(header.height)"))
        }
        return .success(header)
    }

    private static func be16(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func be32(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }
    private static func le24(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int {
        Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16
    }

    /// PNG: the IHDR chunk comes first (width, height as big-endian 32-bit).
    private static func png(_ b: UnsafeRawBufferPointer) -> ImageHeader? {
        guard b.count >= 24, b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 else { return nil }
        return ImageHeader(format: .png, width: be32(b, 16), height: be32(b, 20))
    }

    /// GIF: the logical screen (libgd refuses frames outside it).
    private static func gif(_ b: UnsafeRawBufferPointer) -> ImageHeader? {
        guard b.count >= 10 else { return nil }
        return ImageHeader(format: .gif, width: le16(b, 6), height: le16(b, 8))
    }

    /// WebP: the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended).
    private static func webp(_ b: UnsafeRawBufferPointer) -> ImageHeader? {
        guard b.count >= 30 else { return nil }
        let chunk = String(decoding: UnsafeRawBufferPointer(rebasing: b[12..<16]), as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit sizes.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return ImageHeader(format: .webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ImageHeader(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return ImageHeader(format: .webp, width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        default:
            return nil
        }
    }

    /// JPEG: walks the segments to the first start-of-frame, reading the
    /// EXIF orientation (APP1) on the way.
    private static func jpeg(_ b: UnsafeRawBufferPointer) -> ImageHeader? {
        var i = 2
        var orientation = 1
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue } // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            if marker == 0xD9 || marker == 0xDA { return nil } // end of image or scan before any frame
            let length = be16(b, i + 2)
            guard length >= 2 else { return nil }
            let start = i + 4, end = i + 2 + length
            if [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF].contains(marker) {
                guard start + 5 <= b.count, length >= 7 else { return nil }
                return ImageHeader(
                    format: .jpeg, width: be16(b, start + 3), height: be16(b, start + 1), orientation: orientation)
            }
            if marker == 0xE1, end <= b.count {
                orientation = exifOrientation(UnsafeRawBufferPointer(rebasing: b[start..<end])) ?? orientation
            }
            i = end
        }
        return nil
    }

    /// The size a RIFF (WebP) file says it has: its size field plus the 8
    /// bytes before it.
    package static func riffSize(_ b: UnsafeRawBufferPointer) -> Int? {
        guard b.count >= 8 else { return nil }
        return (Int(b[4]) | Int(b[5]) << 8 | Int(b[6]) << 16 | Int(b[7]) << 24) + 8
    }

    /// True when a GIF's blocks run to its trailer (0x3B). libgd decodes a
    /// truncated GIF without a word, so placedb walks the blocks itself:
    /// extensions and image data are chains of length-prefixed sub-blocks.
    package static func gifIsComplete(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count >= 13 else { return false }
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 0x07) + 1) } // global colour table
        func skipSubBlocks() -> Bool {
            while i < b.count {
                let n = Int(b[i])
                i += 1
                if n == 0 { return true }
                i += n
            }
            return false
        }
        while i < b.count {
            switch b[i] {
            case 0x3B:
                return true
            case 0x21: // extension: introducer, label, sub-blocks
                i += 2
                guard skipSubBlocks() else { return false }
            case 0x2C: // image descriptor, local colour table, LZW code size, sub-blocks
                guard i + 10 <= b.count else { return false }
                let flags = b[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 0x07) + 1) }
                i += 1
                guard skipSubBlocks() else { return false }
            default:
                return false
            }
        }
        return false
    }

    /// The orientation tag (0x0112) of IFD0 in an APP1 `Exif` payload.
    static func exifOrientation(_ p: UnsafeRawBufferPointer) -> Int? {
        guard p.count >= 14, Array(p[0..<6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: p[6...])
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ i: Int) -> Int? {
            guard i >= 0, i + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[i]) | Int(tiff[i + 1]) << 8 : Int(tiff[i]) << 8 | Int(tiff[i + 1])
        }
        func u32(_ i: Int) -> Int? {
            guard let a = u16(i), let b = u16(i + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for n in 0..<count {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }
}
