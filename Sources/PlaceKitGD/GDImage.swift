import CGD
import PlaceKit
import PlaceModel
import Foundation

/// One decoded image, owned: the only code in placedb that calls libgd.
///
/// Every libgd call that can fail is checked (a NULL image or buffer
/// throws `ImageError`, never traps), and libgd's own messages are kept per
/// thread by the handler in `CGD/shim.h` instead of being printed, so a
/// corrupt file gives one line that says what libgd found. libpng's
/// warnings, which libgd lets libpng print ("libpng warning: iCCP: ..."),
/// are dropped by `CGD`: libgd decodes such images all the same.
final class GDImage: DecodedImage {
    private let image: gdImagePtr

    private init(_ image: gdImagePtr) { self.image = image }

    deinit { gdImageDestroy(image) }

    var width: Int { Int(cgd_width(image)) }
    var height: Int { Int(cgd_height(image)) }

    /// Installs the quiet error handler once per process (libpng's
    /// warnings are quiet by `CGD`, linked with PlaceKitGD).
    private static let installHandler: Void = {
        cgd_install_error_handler()
        _ = cpng_warnings_dropped()
    }()

    /// Runs a libgd call with the thread's last message cleared, returning
    /// the result and what libgd said (empty when nothing).
    private static func call<T>(_ body: () -> T) -> (T, String) {
        _ = installHandler
        cgd_clear_error()
        let result = body()
        return (result, cleanMessage(String(cString: cgd_last_error())))
    }

    /// libgd's message without its module prefixes and trailing newline:
    /// "gd-jpeg, libjpeg: recoverable error: Premature end of JPEG file\n"
    /// becomes "libjpeg: Premature end of JPEG file", "gd-png: fatal libpng
    /// error: IDAT: CRC error" becomes "libpng: IDAT: CRC error".
    static func cleanMessage(_ raw: String) -> String {
        var s = Substring(raw)
        while let last = s.last, last == "\n" || last == " " || last == "\r" { s.removeLast() }
        for prefix in ["gd-jpeg, ", "gd-png ", "gd-png: ", "gd-webp ", "gd-gif "] where s.hasPrefix(prefix) {
            s = s.dropFirst(prefix.count)
        }
        var text = String(s)
        for (noise, replacement) in [
            ("fatal libpng error: ", "libpng: "), ("recoverable error: ", ""), ("fatal error: ", ""), ("error: ", ""),
        ] {
            text = text.replacingOccurrences(of: noise, with: replacement)
        }
        return text
    }

    /// Decodes `bytes`, which the header says are `format`. JPEG warnings
    /// (a truncated file, corrupt data) are errors: libgd would otherwise
    /// fill the missing part with grey and return the image.
    static func decode(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) throws(ImageError) -> GDImage {
        if let reason = cgd_load() {
            throw ImageError(
                "libgd cannot be loaded (\(String(cString: reason))); install libgd3 (apt-get install libgd3)")
        }
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(Int32.max) else {
            throw ImageError("the file is empty")
        }
        let data = UnsafeMutableRawPointer(mutating: base)
        let size = Int32(bytes.count)
        let (decoded, libgdMessage) = call { () -> gdImagePtr? in
            switch format {
            case .jpeg: gdImageCreateFromJpegPtrEx(size, data, 0) // 0: report warnings
            case .png: gdImageCreateFromPngPtr(size, data)
            case .gif: gdImageCreateFromGifPtr(size, data)
            case .webp: gdImageCreateFromWebpPtr(size, data)
            }
        }
        // libgd says "cannot allocate temporary buffer" when libwebp
        // refuses the data (WebPDecodeARGB returned NULL): say what happened.
        let message =
            format == .webp && libgdMessage.contains("cannot allocate temporary buffer")
            ? "libwebp cannot decode the data" : libgdMessage
        guard let decoded else {
            throw ImageError(
                "corrupt \(format) image: libgd cannot decode it" + (message.isEmpty ? "" : " (\(message))"))
        }
        let image = GDImage(decoded)
        // libjpeg's warnings (a truncated file, bad Huffman codes, a data
        // segment cut short) leave the missing part grey and libgd returns
        // the image anyway: placedb refuses it. The one warning kept is
        // extraneous bytes between segments, common in camera files and
        // harmless (everything decodes). libjpeg reports only the first.
        if format == .jpeg, !message.isEmpty, !message.contains("extraneous bytes") {
            throw ImageError("corrupt \(format) image (\(message))")
        }
        guard image.width > 0, image.height > 0 else {
            throw ImageError("corrupt \(format) image: it decodes to no pixels")
        }
        return image
    }

    /// The image turned upright for an EXIF orientation (2...8; 1 is as is).
    func oriented(_ orientation: Int) throws(ImageError) -> any DecodedImage {
        switch orientation {
        case 2: gdImageFlipHorizontal(image); return self
        case 3: gdImageFlipBoth(image); return self
        case 4: gdImageFlipVertical(image); return self
        case 5: let r = try rotated(clockwise: true); gdImageFlipHorizontal(r.image); return r
        case 6: return try rotated(clockwise: true)
        case 7: let r = try rotated(clockwise: true); gdImageFlipVertical(r.image); return r
        case 8: return try rotated(clockwise: false)
        default: return self
        }
    }

    /// A quarter turn. libgd turns counter-clockwise for positive angles.
    private func rotated(clockwise: Bool) throws(ImageError) -> GDImage {
        let (result, message) = Self.call { gdImageRotateInterpolated(image, clockwise ? 270 : 90, 0) }
        guard let result else {
            throw ImageError("cannot rotate the image (libgd: \(message.isEmpty ? "out of memory" : message))")
        }
        return GDImage(result)
    }

    /// True when some pixel is not fully opaque.
    var hasTransparency: Bool {
        if cgd_is_truecolor(image) == 0 {
            // A palette image: libgd reports each entry's alpha (and the
            // transparent entry as clear) through gdImageGetTrueColorPixel.
            for y in 0..<height {
                for x in 0..<width where cgd_alpha(gdImageGetTrueColorPixel(image, Int32(x), Int32(y))) != 0 {
                    return true
                }
            }
            return false
        }
        for y in 0..<height {
            guard let row = image.pointee.tpixels[y] else { continue }
            for x in 0..<width where cgd_alpha(row[x]) != 0 { return true }
        }
        return false
    }

    /// A true-colour copy scaled to `width` x `height` with libgd's
    /// area-averaging resampler (`gdImageCopyResampled`), which keeps
    /// detail when shrinking by large factors.
    func resampled(width: Int, height: Int) throws(ImageError) -> any DecodedImage {
        let (created, message) = Self.call { gdImageCreateTrueColor(Int32(width), Int32(height)) }
        guard let created else {
            throw ImageError(
                "cannot allocate a \(width) x \(height) image (libgd: \(message.isEmpty ? "out of memory" : message))")
        }
        let result = GDImage(created)
        gdImageAlphaBlending(created, 0)
        gdImageSaveAlpha(created, 1)
        gdImageCopyResampled(
            created, image, 0, 0, 0, 0, Int32(width), Int32(height), Int32(self.width), Int32(self.height))
        return result
    }

    /// The image composed over white, for formats without transparency.
    func flattened() throws(ImageError) -> any DecodedImage {
        let (created, message) = Self.call { gdImageCreateTrueColor(Int32(width), Int32(height)) }
        guard let created else {
            throw ImageError(
                "cannot allocate a \(width) x \(height) image (libgd: \(message.isEmpty ? "out of memory" : message))")
        }
        let result = GDImage(created)
        gdImageAlphaBlending(created, 0)
        gdImageFilledRectangle(created, 0, 0, Int32(width) - 1, Int32(height) - 1, cgd_truecolor(255, 255, 255, 0))
        gdImageAlphaBlending(created, 1)
        gdImageCopy(created, image, 0, 0, 0, 0, Int32(width), Int32(height))
        return result
    }

    /// Encodes the image. JPEG and WebP at quality 85 (what photo services
    /// commonly serve), PNG at zlib's default level, GIF through libgd's
    /// palette conversion.
    func encode(_ format: ImageFormat) throws(ImageError) -> [UInt8] {
        try encode(format, quality: 85)
    }

    func encode(_ format: ImageFormat, quality: Int) throws(ImageError) -> [UInt8] {
        // Keep an alpha channel only when some pixel needs it (an opaque
        // PNG is smaller as RGB).
        gdImageSaveAlpha(image, format.hasAlpha && hasTransparency ? 1 : 0)
        var size: Int32 = 0
        let (buffer, message) = Self.call { () -> UnsafeMutableRawPointer? in
            switch format {
            case .jpeg: gdImageJpegPtr(image, &size, Int32(quality))
            case .png: gdImagePngPtrEx(image, &size, -1)
            case .webp: gdImageWebpPtrEx(image, &size, Int32(quality))
            case .gif: gdImageGifPtr(image, &size)
            }
        }
        guard let buffer else {
            throw ImageError(
                "cannot encode a \(width) x \(height) \(format) image (libgd: \(message.isEmpty ? "no output" : message))"
            )
        }
        defer { gdFree(buffer) }
        guard size > 0 else {
            throw ImageError("cannot encode a \(width) x \(height) \(format) image (libgd wrote nothing)")
        }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(size)))
    }

    /// The pixel at (x, y) as (red, green, blue, alpha 0 opaque...127 clear).
    func pixel(x: Int, y: Int) -> (red: Int, green: Int, blue: Int, alpha: Int) {
        let c = gdImageGetTrueColorPixel(image, Int32(x), Int32(y))
        return (Int(cgd_red(c)), Int(cgd_green(c)), Int(cgd_blue(c)), Int(cgd_alpha(c)))
    }
}
