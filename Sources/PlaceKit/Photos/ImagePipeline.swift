import PlaceModel

/// Checks, decodes, scales and encodes images (the pixels through an
/// `ImageCodec`: libgd's in `PlaceKitGD`).
enum ImagePipeline {
    /// What `inspect` learns from a file: its format and displayed size.
    struct Inspection: Equatable {
        var format: ImageFormat
        var width: Int
        var height: Int
    }

    /// Reads the header and refuses what placedb will not decode.
    static func header(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> ImageHeader {
        let header = try ImageHeader.read(bytes).get()
        // libgd decodes a truncated GIF without a word and says only "cannot
        // allocate temporary buffer" for a truncated WebP: placedb checks
        // both containers itself.
        if header.format == .gif && !ImageHeader.gifIsComplete(bytes) {
            throw ImageError("corrupt GIF image: its blocks end before the trailer (truncated or malformed)")
        }
        if header.format == .webp, let declared = ImageHeader.riffSize(bytes), bytes.count < declared {
            throw ImageError(
                "corrupt WebP image: the file has \(bytes.count) bytes, its RIFF header says \(declared) (truncated)")
        }
        if bytes.count > PhotoLimits.maxFileBytes {
            throw ImageError(
                "the image is \(bytes.count) bytes, more than the \(PhotoLimits.maxFileBytes / 1024 / 1024) MiB placedb stores"
            )
        }
        if header.width * header.height > PhotoLimits.maxSourcePixels {
            let mp = Double(header.width * header.height) / 1e6
            throw ImageError(
                "the \(header.format) image is \(header.width) x \(header.height) (\((mp * 10).rounded() / 10) megapixels), more than the \(PhotoLimits.maxSourcePixels / 1_000_000) megapixels placedb decodes"
            )
        }
        return header
    }

    /// Decodes the whole image (so a corrupt or truncated file is refused
    /// when it is added, not when it is fetched) and returns its format
    /// and its size as displayed.
    static func inspect(_ bytes: UnsafeRawBufferPointer, codec: any ImageCodec) throws(ImageError) -> Inspection {
        let header = try header(bytes)
        let image = try codec.decode(bytes, format: header.format).oriented(header.orientation)
        return Inspection(format: header.format, width: image.width, height: image.height)
    }

    /// The largest size with the aspect ratio of `width` x `height` that
    /// fits in `maxWidth` x `maxHeight`, never larger than the image: the
    /// limiting side gets its maximum exactly, the other is rounded to the
    /// nearest pixel (at least 1).
    static func fittedSize(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        if width <= maxWidth && height <= maxHeight { return (width, height) }
        if maxWidth * height <= maxHeight * width {
            // The width limits: scale = maxWidth / width.
            return (maxWidth, min(maxHeight, max(1, (height * maxWidth + width / 2) / width)))
        }
        return (min(maxWidth, max(1, (width * maxHeight + height / 2) / height)), maxHeight)
    }

    /// The image scaled down to fit `maxWidth` x `maxHeight` (never up), in
    /// `format` (nil: the image's own). An image that already fits, asked
    /// for in its own format, is returned byte for byte.
    /// `codec` is nil when none is installed: only an image returned as
    /// stored can be served then.
    static func render(
        _ bytes: UnsafeRawBufferPointer, maxWidth: Int, maxHeight: Int, format: ImageFormat?,
        codec: (any ImageCodec)?
    ) throws(ImageError) -> PhotoImage {
        let header = try header(bytes)
        let output = format ?? header.format
        let displayed = (header.orientedWidth, header.orientedHeight)
        let target = fittedSize(width: displayed.0, height: displayed.1, maxWidth: maxWidth, maxHeight: maxHeight)
        if target == displayed && output == header.format {
            return PhotoImage(data: Array(bytes), width: target.width, height: target.height, format: output)
        }
        guard let codec else { throw ImageError(ImageScaling.unavailableMessage) }
        var image = try codec.decode(bytes, format: header.format).oriented(header.orientation)
        // The decoded size is the truth (a GIF's first frame may be smaller
        // than its screen): fit that.
        let size = fittedSize(width: image.width, height: image.height, maxWidth: maxWidth, maxHeight: maxHeight)
        if size != (image.width, image.height) {
            image = try image.resampled(width: size.width, height: size.height)
        }
        if output == .jpeg && header.format.hasAlpha {
            image = try image.flattened()
        }
        return PhotoImage(data: try image.encode(output), width: image.width, height: image.height, format: output)
    }
}
