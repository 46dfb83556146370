import PlaceKit
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// `placedb photo fetch NAME [--max-width W] [--max-height H] -o FILE`.
enum PhotoFetchCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let maxWidth = OptionSpec(
            "--max-width", value: "W", help: "Maximum width in pixels, 1 to 4800 (default: 4800).")
        static let maxHeight = OptionSpec(
            "--max-height", value: "H", help: "Maximum height in pixels, 1 to 4800 (default: 4800).")
        static let outputFile = OptionSpec(
            "--output-file", short: "o", value: "FILE",
            help: "Where to write the image; - writes it to standard output (not a terminal).", aliases: ["--out"])
        static let format = OptionSpec(
            "--format", value: "FORMAT",
            help: "Image format (default: from FILE's extension, else the stored image's).",
            choices: ImageFormat.allCases.map(\.rawValue))
        static let attributionFile = OptionSpec(
            "--attribution-file", value: "FILE",
            help:
                "Also write the photo's author attributions (and the place's attributions) to FILE as JSON, to show beside the image."
        )
        static let all = [maxWidth, maxHeight, outputFile, format, attributionFile]
    }

    static let spec = CommandSpec(
        name: "photo fetch",
        abstract: "Write a photo's local image scaled down to fit a maximum size (aspect ratio kept, never enlarged).",
        arguments: [
            ArgumentSpec(
                name: "NAME",
                help: "The photo: places/{id}/photos/{reference}, the reference, or a unique prefix of it.")
        ],
        options: Options.all,
        discussion: """
            The image keeps its aspect ratio: the side that limits gets its maximum, the other is
            rounded to the nearest pixel. An image that already fits, in its own format, is written
            as stored, byte for byte. Reads JPEG, PNG, WebP and GIF; writes the same (JPEG and WebP
            at quality 85). With -o FILE the result (size, format) and the photo's author
            attributions are printed on stdout; with -o - the attributions go to stderr. Whoever
            shows the image must show its author attributions (name and link) with it.

            \(photoNameHelp)

            A photo without a local image exits 1 (NOT_FOUND), a size of 0 or above 4800 exits 64,
            a corrupt stored image 65, a FILE (or standard output) that cannot be written 74. FILE
            may not be the database (64); a symbolic link is followed, a device or FIFO written into.
            """,
        examples: [
            "placedb photo fetch AUc7tXXyFr5pJv --max-width 400 -o cafe.jpg",
            "placedb photo fetch AUc7tXXyFr5pJv --max-height 200 --format webp -o - > thumb.webp",
            "placedb photo fetch AUc7tXXyFr5pJv -o cafe.jpg --attribution-file cafe.credits.json",
        ],
        seeAlso: ["photo add", "photos"],
        docs: ["photos.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        guard args.positionals.count == 1 else {
            throw UsageError(
                message: args.positionals.isEmpty
                    ? "missing photo NAME" : "expected one photo NAME, got \(args.positionals.count)")
        }
        let maxWidth = try pixels(args.value(Options.maxWidth), option: Options.maxWidth.name)
        let maxHeight = try pixels(args.value(Options.maxHeight), option: Options.maxHeight.name)
        do {
            try PhotoLimits.checkMaxSize(width: maxWidth, height: maxHeight)
        } catch {
            throw UsageError(message: error.description)
        }
        guard let out = args.value(Options.outputFile), !out.isEmpty else {
            throw UsageError(message: "missing -o FILE (where to write the image; -o - writes to standard output)")
        }
        if out == "-" && context.console.stdoutIsTerminal {
            throw UsageError(
                message: "refusing to write image bytes to a terminal; redirect standard output or give -o FILE")
        }
        var format = args.value(Options.format).flatMap(ImageFormat.init(rawValue:))
        if out != "-" {
            let base = out.split(separator: "/").last.map(String.init) ?? out
            if let dot = base.lastIndex(of: "."), dot != base.startIndex {
                let ext = String(base[base.index(after: dot)...])
                guard let byExtension = ImageFormat(fileExtension: ext) else {
                    if format == nil {
                        throw UsageError(
                            message:
                                "cannot tell the image format from '\(out)' (.jpg, .jpeg, .png, .webp, .gif); pass --format"
                        )
                    }
                    return try fetch(
                        context, name: args.positionals[0], maxWidth: maxWidth, maxHeight: maxHeight, format: format,
                        out: out)
                }
                if let format, format != byExtension {
                    throw UsageError(message: "--format \(format.rawValue) does not match the extension of '\(out)'")
                }
                format = byExtension
            }
        }
        return try fetch(
            context, name: args.positionals[0], maxWidth: maxWidth, maxHeight: maxHeight, format: format, out: out)
    }

    static func fetch(
        _ context: CommandContext, name: String, maxWidth: Int, maxHeight: Int, format: ImageFormat?, out: String
    ) throws -> ExitCode {
        if out != "-" {
            try OutputFile.check(out, option: "-o", databasePath: context.databasePath)
        }
        let attributionFile = context.arguments.value(Options.attributionFile)
        if let path = attributionFile {
            guard !path.isEmpty, path != "-", path != out else {
                throw UsageError(message: "--attribution-file needs a file other than the image's")
            }
            try OutputFile.check(path, option: Options.attributionFile.name, databasePath: context.databasePath)
        }
        let client = try PlaceReader(databasePath: context.databasePath)
        let metadata = try client.photoMetadata(named: name)
        let image = try client.fetchPhoto(metadata, maxSize: (width: maxWidth, height: maxHeight), format: format)
        let attributions = try PhotoAttributions(metadata, client: client)
        if let path = attributionFile {
            var bytes = Array(JSONWriter(pretty: true).string(.object(attributions.json)).utf8)
            bytes.append(0x0A)
            try OutputFile.write(
                bytes, to: path, option: Options.attributionFile.name, databasePath: context.databasePath)
        }
        if out == "-" {
            context.console.outBytes(image.data)
            // Said once the image is out (a failed write is the one line then).
            if context.console.finishOutput() == nil, let line = attributions.text {
                context.console.err("placedb photo fetch: \(line)\n")
            }
            return .success
        }
        try OutputFile.write(image.data, to: out, option: "-o", databasePath: context.databasePath)
        let stored = try client.localImage(for: metadata)
        switch context.output {
        case .json:
            var o = JSONObject([
                ("name", .string(metadata.name)), ("file", .string(out)), ("format", .string(image.format.rawValue)),
                ("widthPx", .int(Int64(image.width))), ("heightPx", .int(Int64(image.height))),
                ("bytes", .int(Int64(image.data.count))),
            ])
            if let stored { o["storedImage"] = PhotosCommand.localImageJSON(stored) }
            for (key, value) in attributions.json where key != "name" { o[key] = value }
            context.writeJSON(.object(o))
        case .text:
            var line =
                "\(out): \(image.width) x \(image.height) \(image.format), \(ImportCommand.formatBytes(Int64(image.data.count)))"
            if let stored { line += " (stored: \(stored.width) x \(stored.height) \(stored.format))" }
            context.console.outLine(line)
            if let text = attributions.text { context.console.outLine("  \(text)") }
        }
        return .success
    }

    static func pixels(_ value: String?, option: String) throws -> Int {
        guard let value else { return PhotoLimits.maxPixelSize }
        guard let n = Int(value) else {
            throw UsageError(
                message: "\(option) needs a whole number of pixels (1 to \(PhotoLimits.maxPixelSize)), got '\(value)'")
        }
        return n
    }
}
