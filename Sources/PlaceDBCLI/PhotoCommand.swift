import PlaceKit
#if canImport(Glibc)
import Glibc
#endif
import PlaceModel

/// How photo names are matched, shown in both subcommands' help.
private let photoNameHelp = """
    A photo is named by its full name places/{placeID}/photos/{reference} (as 'placedb photos'
    lists it), by its reference alone, or by a unique prefix of the reference of at least 12
    characters (a Places API (New) reference is about 430 characters, longer than a file name).
    """

/// `placedb photo add NAME FILE` / `placedb photo add --dir DIR`.
enum PhotoAddCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let dir = OptionSpec("--dir", value: "DIR", help: "Add every .jpg, .jpeg, .png, .webp and .gif file in DIR (not subdirectories); a file's name without its extension is the photo's reference or a unique prefix of it.")
        static let all = [dir]
    }

    static let spec = CommandSpec(
        name: "photo add",
        abstract: "Add a local image for a photo (or a directory of images named by reference) to the database.",
        arguments: [
            ArgumentSpec(name: "NAME", help: "The photo: places/{id}/photos/{reference}, the reference, or a unique prefix of it.", optional: true),
            ArgumentSpec(name: "FILE", help: "A JPEG, PNG, WebP or GIF image; - reads standard input.", optional: true),
        ],
        options: Options.all,
        discussion: """
            Images are stored in the database file itself, as the bytes given, so the
            database stays one file. Each image is decoded when added: a corrupt or truncated file
            exits 65. The photo must be listed by an imported place (else NOT_FOUND, exit 1).
            Adding another image for a photo replaces it; the same bytes change nothing.

            \(photoNameHelp)

            With --dir, every file is tried (each in its own transaction); failures are reported
            on stderr, and the exit code is that of the first failing file (0 when none failed).
            """,
        examples: [
            "placedb photo add AUc7tXXyFr5pJv cafe.jpg",
            "placedb photo add --dir ./photos",
        ],
        seeAlso: ["photo fetch", "photos"],
        docs: ["photos.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        let dir = args.value(Options.dir)
        if let dir {
            guard args.positionals.isEmpty else { throw UsageError(message: "give either NAME FILE or --dir DIR, not both") }
            guard !dir.isEmpty else { throw UsageError(message: "--dir needs a directory") }
        } else {
            guard args.positionals.count == 2 else {
                throw UsageError(message: args.positionals.isEmpty ? "missing NAME FILE (or --dir DIR)" : args.positionals.count == 1 ? "missing FILE after NAME" : "expected NAME FILE, got \(args.positionals.count) arguments")
            }
        }
        let importer = try PhotoImporter(databasePath: context.databasePath)
        let console = context.console
        var entries: [PhotoDirectoryEntry] = []
        if let dir {
            entries = try importer.addImages(inDirectory: dir) { entry in
                if case .failed(let file, let error) = entry {
                    let text = error.commandLineMessage
                    let message = text.hasPrefix(file) ? text : "\(file): \(text)"
                    console.errLine("placedb photo add: \(message)")
                }
            }
        } else {
            let added = try importer.addImage(forPhoto: args.positionals[0], file: InputSource(argument: args.positionals[1]))
            entries = [.added(added)]
        }
        var counts: [String: Int] = ["added": 0, "replaced": 0, "unchanged": 0, "failed": 0, "ignored": 0]
        var firstFailure: PlaceDBError?
        var list: [JSONValue] = []
        var lines: [String] = []
        for entry in entries {
            switch entry {
            case .added(let a):
                counts[a.outcome.rawValue, default: 0] += 1
                list.append(.object(JSONObject([
                    ("name", .string(a.name)), ("file", .string(a.source)), ("status", .string(a.outcome.rawValue)),
                    ("format", .string(a.format.rawValue)), ("widthPx", .int(Int64(a.width))), ("heightPx", .int(Int64(a.height))),
                    ("bytes", .int(Int64(a.byteCount))),
                ])))
                lines.append("\(a.name): \(a.outcome.rawValue), \(a.width) x \(a.height) \(a.format), \(ImportCommand.formatBytes(Int64(a.byteCount))) (from \(a.source))")
            case .failed(let file, let error):
                counts["failed", default: 0] += 1
                if firstFailure == nil { firstFailure = error }
                list.append(.object(JSONObject([("file", .string(file)), ("status", "failed"), ("error", .string(error.commandLineMessage))])))
            case .ignored(let file):
                counts["ignored", default: 0] += 1
                list.append(.object(JSONObject([("file", .string(file)), ("status", "ignored")])))
            }
        }
        switch context.output {
        case .json:
            var o = JSONObject([("database", .string(importer.databasePath))])
            for key in ["added", "replaced", "unchanged", "failed", "ignored"] { o[key] = .int(Int64(counts[key] ?? 0)) }
            o["images"] = .array(list)
            context.writeJSON(.object(o))
        case .text:
            if let dir {
                lines.append("\(dir): \(entries.count) file\(entries.count == 1 ? "" : "s"): \(counts["added"]!) added, \(counts["replaced"]!) replaced, \(counts["unchanged"]!) unchanged, \(counts["failed"]!) failed, \(counts["ignored"]!) ignored (not an image file name)")
            }
            console.out(HumanText.lines(lines))
        }
        if let firstFailure { return CommandLineTool.exitCode(for: firstFailure) }
        return .success
    }
}

/// `placedb photo fetch NAME [--max-width W] [--max-height H] -o FILE`.
enum PhotoFetchCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let maxWidth = OptionSpec("--max-width", value: "W", help: "Maximum width in pixels, 1 to 4800 (default: 4800).")
        static let maxHeight = OptionSpec("--max-height", value: "H", help: "Maximum height in pixels, 1 to 4800 (default: 4800).")
        static let outputFile = OptionSpec("--output-file", short: "o", value: "FILE", help: "Where to write the image; - writes it to standard output (not a terminal).", aliases: ["--out"])
        static let format = OptionSpec("--format", value: "FORMAT", help: "Image format (default: from FILE's extension, else the stored image's).", choices: ImageFormat.allCases.map(\.rawValue))
        static let attributionFile = OptionSpec("--attribution-file", value: "FILE", help: "Also write the photo's author attributions (and the place's attributions) to FILE as JSON, to show beside the image.")
        static let all = [maxWidth, maxHeight, outputFile, format, attributionFile]
    }

    static let spec = CommandSpec(
        name: "photo fetch",
        abstract: "Write a photo's local image scaled down to fit a maximum size (aspect ratio kept, never enlarged).",
        arguments: [ArgumentSpec(name: "NAME", help: "The photo: places/{id}/photos/{reference}, the reference, or a unique prefix of it.")],
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
            throw UsageError(message: args.positionals.isEmpty ? "missing photo NAME" : "expected one photo NAME, got \(args.positionals.count)")
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
            throw UsageError(message: "refusing to write image bytes to a terminal; redirect standard output or give -o FILE")
        }
        var format = args.value(Options.format).flatMap(ImageFormat.init(rawValue:))
        if out != "-" {
            let base = out.split(separator: "/").last.map(String.init) ?? out
            if let dot = base.lastIndex(of: "."), dot != base.startIndex {
                let ext = String(base[base.index(after: dot)...])
                guard let byExtension = ImageFormat(fileExtension: ext) else {
                    if format == nil {
                        throw UsageError(message: "cannot tell the image format from '\(out)' (.jpg, .jpeg, .png, .webp, .gif); pass --format")
                    }
                    return try fetch(context, name: args.positionals[0], maxWidth: maxWidth, maxHeight: maxHeight, format: format, out: out)
                }
                if let format, format != byExtension {
                    throw UsageError(message: "--format \(format.rawValue) does not match the extension of '\(out)'")
                }
                format = byExtension
            }
        }
        return try fetch(context, name: args.positionals[0], maxWidth: maxWidth, maxHeight: maxHeight, format: format, out: out)
    }

    static func fetch(_ context: CommandContext, name: String, maxWidth: Int, maxHeight: Int, format: ImageFormat?, out: String) throws -> ExitCode {
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
            try OutputFile.write(bytes, to: path, option: Options.attributionFile.name, databasePath: context.databasePath)
        }
        if out == "-" {
            context.console.outBytes(image.data)
            // Said once the image is out (a failed write is the one line then).
            if context.console.finishOutput() == nil, let line = attributions.text { context.console.err("placedb photo fetch: \(line)\n") }
            return .success
        }
        try OutputFile.write(image.data, to: out, option: "-o", databasePath: context.databasePath)
        let stored = try client.localImage(for: metadata)
        switch context.output {
        case .json:
            var o = JSONObject([
                ("name", .string(metadata.name)), ("file", .string(out)), ("format", .string(image.format.rawValue)),
                ("widthPx", .int(Int64(image.width))), ("heightPx", .int(Int64(image.height))), ("bytes", .int(Int64(image.data.count))),
            ])
            if let stored { o["storedImage"] = PhotosCommand.localImageJSON(stored) }
            for (key, value) in attributions.json where key != "name" { o[key] = value }
            context.writeJSON(.object(o))
        case .text:
            var line = "\(out): \(image.width) x \(image.height) \(image.format), \(ImportCommand.formatBytes(Int64(image.data.count)))"
            if let stored { line += " (stored: \(stored.width) x \(stored.height) \(stored.format))" }
            context.console.outLine(line)
            if let text = attributions.text { context.console.outLine("  \(text)") }
        }
        return .success
    }

    static func pixels(_ value: String?, option: String) throws -> Int {
        guard let value else { return PhotoLimits.maxPixelSize }
        guard let n = Int(value) else { throw UsageError(message: "\(option) needs a whole number of pixels (1 to \(PhotoLimits.maxPixelSize)), got '\(value)'") }
        return n
    }
}

/// The attributions to show with a photo: its authors', and the place's
/// (`attributions`, from a legacy response's `html_attributions`).
struct PhotoAttributions {
    let name: String
    let authors: [AuthorAttribution]
    let place: [JSONValue]

    init(_ metadata: PhotoMetadata, client: PlaceReader) throws {
        name = metadata.name
        authors = metadata.authorAttributions
        var place: [JSONValue] = []
        let parts = metadata.name.split(separator: "/")
        if parts.count >= 2, parts[0] == "places" {
            let fields = try FieldMask(parsing: "attributions")
            if let fetched = try? client.fetchPlace(id: PlaceID(String(parts[1])), fields: fields) {
                place = fetched.document["attributions"]?.arrayValue ?? []
            }
        }
        self.place = place
    }

    var json: JSONObject {
        var o = JSONObject([("name", .string(name))])
        o["authorAttributions"] = .array(authors.map { a in
            var j = JSONObject()
            if let n = a.displayName { j["displayName"] = .string(n) }
            if let u = a.uri { j["uri"] = .string(u) }
            if let p = a.photoUri { j["photoUri"] = .string(p) }
            return .object(j)
        })
        if !place.isEmpty { o["attributions"] = .array(place) }
        return o
    }

    /// "by NAME (URI), ...; place data: PROVIDER (URI)", or nil when there is none.
    var text: String? {
        let people = authors.map { a in [a.displayName, a.uri.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ") }.filter { !$0.isEmpty }
        let providers = place.map { p in [p["provider"]?.stringValue, p["providerUri"]?.stringValue.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ") }.filter { !$0.isEmpty }
        var parts: [String] = []
        if !people.isEmpty { parts.append("by " + people.joined(separator: ", ")) }
        if !providers.isEmpty { parts.append("place data: " + providers.joined(separator: ", ")) }
        return parts.isEmpty ? nil : "attribution: " + parts.joined(separator: "; ")
    }
}
