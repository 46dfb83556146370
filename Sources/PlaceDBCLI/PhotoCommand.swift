import PlaceKit
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// How photo names are matched, shown in both subcommands' help.
let photoNameHelp = """
    A photo is named by its full name places/{placeID}/photos/{reference} (as 'placedb photos'
    lists it), by its reference alone, or by a unique prefix of the reference of at least 12
    characters (a Places API (New) reference is about 430 characters, longer than a file name).
    """

/// `placedb photo add NAME FILE` / `placedb photo add --dir DIR`.
enum PhotoAddCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let dir = OptionSpec(
            "--dir", value: "DIR",
            help:
                "Add every .jpg, .jpeg, .png, .webp and .gif file in DIR (not subdirectories); a file's name without its extension is the photo's reference or a unique prefix of it."
        )
        static let all = [dir]
    }

    static let spec = CommandSpec(
        name: "photo add",
        abstract: "Add a local image for a photo (or a directory of images named by reference) to the database.",
        arguments: [
            ArgumentSpec(
                name: "NAME",
                help: "The photo: places/{id}/photos/{reference}, the reference, or a unique prefix of it.",
                optional: true),
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
            guard args.positionals.isEmpty else {
                throw UsageError(message: "give either NAME FILE or --dir DIR, not both")
            }
            guard !dir.isEmpty else { throw UsageError(message: "--dir needs a directory") }
        } else {
            guard args.positionals.count == 2 else {
                throw UsageError(
                    message: args.positionals.isEmpty
                        ? "missing NAME FILE (or --dir DIR)"
                        : args.positionals.count == 1
                            ? "missing FILE after NAME" : "expected NAME FILE, got \(args.positionals.count) arguments")
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
            let added = try importer.addImage(
                forPhoto: args.positionals[0], file: InputSource(argument: args.positionals[1]))
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
                list.append(
                    .object(
                        JSONObject([
                            ("name", .string(a.name)), ("file", .string(a.source)),
                            ("status", .string(a.outcome.rawValue)),
                            ("format", .string(a.format.rawValue)), ("widthPx", .int(Int64(a.width))),
                            ("heightPx", .int(Int64(a.height))),
                            ("bytes", .int(Int64(a.byteCount))),
                        ])))
                lines.append(
                    "\(a.name): \(a.outcome.rawValue), \(a.width) x \(a.height) \(a.format), \(ImportCommand.formatBytes(Int64(a.byteCount))) (from \(a.source))"
                )
            case .failed(let file, let error):
                counts["failed", default: 0] += 1
                if firstFailure == nil { firstFailure = error }
                list.append(
                    .object(
                        JSONObject([
                            ("file", .string(file)), ("status", "failed"), ("error", .string(error.commandLineMessage)),
                        ])))
            case .ignored(let file):
                counts["ignored", default: 0] += 1
                list.append(.object(JSONObject([("file", .string(file)), ("status", "ignored")])))
            }
        }
        switch context.output {
        case .json:
            var o = JSONObject([("database", .string(importer.databasePath))])
            for key in ["added", "replaced", "unchanged", "failed", "ignored"] {
                o[key] = .int(Int64(counts[key] ?? 0))
            }
            o["images"] = .array(list)
            context.writeJSON(.object(o))
        case .text:
            if let dir {
                lines.append(
                    "\(dir): \(entries.count) file\(entries.count == 1 ? "" : "s"): \(counts["added"]!) added, \(counts["replaced"]!) replaced, \(counts["unchanged"]!) unchanged, \(counts["failed"]!) failed, \(counts["ignored"]!) ignored (not an image file name)"
                )
            }
            console.out(HumanText.lines(lines))
        }
        if let firstFailure { return CommandLineTool.exitCode(for: firstFailure) }
        return .success
    }
}
