import PlaceKit
import PlaceModel
import PlaceKitGD
import PlaceStorage

/// placedb's command line. `main` takes the arguments (without the program
/// name) and a console, so tests run it in-process.
public enum CommandLineTool {
    public static let version = "0.1.0"

    /// Every command, by name. A command's spec (options, help) is built
    /// when it is read: a run builds only its own command's, where help,
    /// completion and the manual page read them all.
    static let commands: [CommandEntry] = [
        CommandEntry("import", spec: ImportCommand.spec, run: ImportCommand.run),
        CommandEntry("place", spec: PlaceCommand.spec, run: PlaceCommand.run),
        CommandEntry("open", spec: OpenCommand.spec, run: OpenCommand.run),
        CommandEntry("resolve", spec: ResolveCommand.spec, run: ResolveCommand.run),
        CommandEntry("alias import", spec: AliasCommand.spec, run: AliasCommand.run),
        CommandEntry("photos", spec: PhotosCommand.spec, run: PhotosCommand.run),
        CommandEntry("photo add", spec: PhotoAddCommand.spec, run: PhotoAddCommand.run),
        CommandEntry("photo fetch", spec: PhotoFetchCommand.spec, run: PhotoFetchCommand.run),
        CommandEntry("nearby", spec: NearbyCommand.spec, run: NearbyCommand.run),
        CommandEntry("current", spec: CurrentCommand.spec, run: CurrentCommand.run),
        CommandEntry("search", spec: SearchCommand.spec, run: SearchCommand.run),
        CommandEntry("autocomplete", spec: AutocompleteCommand.spec, run: AutocompleteCommand.run),
        CommandEntry("serve", spec: ServeCommand.spec, run: ServeCommand.run),
        CommandEntry("export", spec: ExportCommand.spec, run: ExportCommand.run),
        CommandEntry("info", spec: InfoCommand.spec, run: InfoCommand.run),
        CommandEntry("text-index build", spec: TextIndexCommand.build, run: TextIndexCommand.runBuild),
        CommandEntry("text-index drop", spec: TextIndexCommand.drop, run: TextIndexCommand.runDrop),
        CommandEntry("text-index analyze", spec: TextIndexCommand.analyze, run: TextIndexCommand.runAnalyze),
        CommandEntry("text-index lists", spec: TextIndexCommand.lists, run: TextIndexCommand.runLists),
        CommandEntry("spatial-index build", spec: SpatialIndexCommand.build, run: SpatialIndexCommand.runBuild),
        CommandEntry("spatial-index status", spec: SpatialIndexCommand.status, run: SpatialIndexCommand.runStatus),
        CommandEntry("diff", spec: DiffCommand.spec, run: DiffCommand.run),
        CommandEntry("link", spec: LinkCommand.spec, run: LinkCommand.run),
        CommandEntry("completion", spec: CompletionCommand.spec, run: CompletionCommand.run),
    ]

    /// The commands of a group (`photo` -> `photo add`, `photo fetch`).
    static func subcommands(of group: String) -> [CommandEntry] {
        commands.filter { $0.name.hasPrefix(group + " ") }
    }

    /// A command group: a word whose subcommands do the work.
    struct Group: Sendable {
        let name: String
        let abstract: String
        var seeAlso: [String] = []
        var docs: [String] = []
    }

    static let groups: [Group] = [
        Group(
            name: "alias",
            abstract:
                "Record which old place IDs stand for which current places, and which records are (or are not) the same place.",
            seeAlso: ["resolve", "link", "export"], docs: ["aliases.md", "linking.md"]),
        Group(
            name: "photo", abstract: "Add places' photos as local images, and write them out scaled.",
            seeAlso: ["photos"], docs: ["photos.md"]),
        Group(
            name: "text-index", abstract: "Build or drop the text index that search and autocomplete read.",
            seeAlso: ["search", "autocomplete", "import"], docs: ["search.md"]),
        Group(
            name: "spatial-index",
            abstract: "Build the spatial index that batches and the server map, or say whether it is current.",
            seeAlso: ["serve", "nearby", "current"], docs: ["spatial-index.md"]),
    ]

    static func groupHelp(_ group: String, _ layout: HelpLayout = .standard) -> String {
        let subs = subcommands(of: group)
        let info = groups.first { $0.name == group }
        var lines =
            layout.paragraph("OVERVIEW: \(info?.abstract ?? "placedb \(group) commands.")") + [""]
            + layout.paragraph("USAGE: placedb \(group) <subcommand> [arguments] [options]", hanging: 7)
        lines += ["", "SUBCOMMANDS:"]
        for sub in subs { lines += layout.row(String(sub.spec.name.dropFirst(group.count + 1)), sub.spec.abstract) }
        lines +=
            [""]
            + layout.paragraph("See 'placedb \(group) <subcommand> --help' for a subcommand's arguments and options.")
        lines += CommandSpec.examplesSection(subs.compactMap(\.spec.examples.first), layout)
        lines += CommandSpec.seeAlso(
            commands: subs.map(\.spec.name) + (info?.seeAlso ?? []), docs: info?.docs ?? [], layout)
        return lines.joined(separator: "\n") + "\n"
    }

    static let abstract =
        "placedb keeps the place dumps you have (Google Places, OpenStreetMap, Overture, GeoJSON) in one SpatiaLite file and answers place queries from it offline, as the Places API does."

    static let overviewExamples = [
        "placedb import places.ndjson.gz --time-zone Europe/Zurich",
        "placedb place ChIJN1t_tDeuEmsRUsoyG83frY4 --fields displayName,location,openNow",
        "placedb current 46.52045,6.62655 --accuracy 10 --explain",
    ]

    /// The commands as help lists them: a group's subcommands under their
    /// full name (`photo add`).
    static var commandRows: [(String, String)] {
        commands.map { ($0.spec.name, $0.spec.abstract) }
            + [
                ("help [COMMAND]", "Show the help of a command (as COMMAND --help does), or this overview."),
                ("help --man", "Print the manual page placedb(1) (roff), which 'man placedb' shows once installed."),
            ]
    }

    static var overview: String { overview(.standard) }

    static func overview(_ layout: HelpLayout) -> String {
        var lines =
            layout.paragraph("OVERVIEW: \(abstract)") + [""]
            + layout.paragraph("USAGE: placedb <command> [arguments] [options]", hanging: 7)
        lines += ["", "COMMANDS:"]
        for (name, abstract) in commandRows { lines += layout.row(name, abstract) }
        lines += ["", "OPTIONS:"]
        lines += layout.row("--version", "Show the version.")
        lines += layout.row("-h, --help", "Show this help; 'placedb <command> --help' shows a command's.")
        lines += ["", "EXIT STATUS:"]
        for (code, meaning) in ExitCode.documented { lines += layout.row(String(code.rawValue), meaning) }
        lines += CommandSpec.examplesSection(overviewExamples, layout)
        lines += CommandSpec.seeAlso(
            commands: ["<command>", "completion"], docs: ["commands.md", "reliability.md"], layout)
        return lines.joined(separator: "\n") + "\n"
    }

    public static func main(arguments: [String], console: any Console = StandardConsole()) -> Int32 {
        // How much of the database file a reader maps (docs/performance.md).
        PlaceStore.readerMapBytes = PlaceStore.mapBytes(console.environment("PLACEDB_MMAP_MB"))
        // How much of the stored spatial index stays resident (docs/spatial-index.md).
        PlaceStore.indexResidentBytes = PlaceStore.indexResidentBytes(console.environment("PLACEDB_INDEX_MB"))
        var name: String?
        var code = run(arguments: arguments, console: console, command: &name)
        if let failure = console.finishOutput() {
            console.errLine("placedb\(name.map { " \($0)" } ?? ""): cannot write to standard output: \(failure)")
            if code == ExitCode.success.rawValue { code = ExitCode.ioError.rawValue }
        }
        return code
    }

    private static func run(arguments: [String], console: any Console, command commandName: inout String?) -> Int32 {
        var args = arguments
        // Global options may come before the command name.
        var leading: [String] = []
        while let first = args.first, first.hasPrefix("-"), first != "-" {
            if first == "--help" || first == "-h" || first == "--version" { break }
            leading.append(args.removeFirst())
            if !leading.last!.contains("="), let next = args.first,
                [CommandSpec.GlobalOptions.db.name, CommandSpec.GlobalOptions.output.name].contains(leading.last!)
            {
                leading.append(next)
                args.removeFirst()
            }
        }
        guard var name = args.first else {
            if leading.isEmpty {
                console.out(overview(HelpLayout(console: console)))
                return ExitCode.success.rawValue
            }
            return usageError("no command given", usage: "placedb <command> [arguments] [options]", console: console)
        }
        args.removeFirst()
        if name == "--help" || name == "-h" || name == "help" {
            let layout = HelpLayout(console: console)
            if name == "help", args.contains("--man") {
                let extra = args.filter { $0 != "--man" }
                guard extra.isEmpty else {
                    return usageError(
                        "unexpected argument '\(extra[0])' after --man", usage: "placedb help --man", console: console,
                        command: "help")
                }
                console.out(ManPage.render(docDirectory: layout.docDirectory))
                return ExitCode.success.rawValue
            }
            let topic = args.prefix(while: { !$0.hasPrefix("-") }).joined(separator: " ")
            if let command = commands.first(where: { $0.name == topic }) {
                console.out(command.spec.help(layout))
            } else if !topic.isEmpty, !subcommands(of: topic).isEmpty {
                console.out(groupHelp(topic, layout))
            } else if !topic.isEmpty {
                var message = "no command '\(topic)'"
                let words = commands.map(\.name) + groups.map(\.name)
                if let s = ArgumentParser.closest(topic, among: words) { message += "; did you mean '\(s)'?" }
                return usageError(
                    message, usage: "placedb help [<command>] | placedb help --man", console: console, command: "help")
            } else {
                console.out(overview(layout))
            }
            return ExitCode.success.rawValue
        }
        if name == "--version" {
            console.out("placedb \(version)\n")
            return ExitCode.success.rawValue
        }
        let group = subcommands(of: name)
        if !group.isEmpty {
            // A command group: the next word names the subcommand.
            let names = group.map { String($0.name.dropFirst(name.count + 1)) }
            guard let sub = args.first, !sub.hasPrefix("-") else {
                if let first = args.first, first == "--help" || first == "-h" {
                    console.out(groupHelp(name, HelpLayout(console: console)))
                    return ExitCode.success.rawValue
                }
                return usageError(
                    "missing subcommand (\(names.joined(separator: ", ")))",
                    usage: "placedb \(name) <subcommand> [arguments] [options]", console: console, command: name)
            }
            guard names.contains(sub) else {
                var message = "unknown subcommand '\(sub)'"
                if let s = ArgumentParser.closest(sub, among: names) { message += "; did you mean '\(s)'?" }
                return usageError(
                    message, usage: "placedb \(name) <subcommand> [arguments] [options] (see 'placedb \(name) --help')",
                    console: console, command: name)
            }
            name += " " + sub
            args.removeFirst()
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            var message = "unknown command '\(name)'"
            let words = commands.map { String($0.name.split(separator: " ")[0]) }
            if let s = ArgumentParser.closest(name, among: Array(Set(words)).sorted()) {
                message += "; did you mean '\(s)'?"
            }
            return usageError(
                message, usage: "placedb <command> [arguments] [options] (see 'placedb --help')", console: console)
        }
        let spec = command.spec
        commandName = spec.name
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(leading + args, spec: spec)
        } catch {
            return usageError(error.message, usage: spec.usage, console: console, command: spec.name)
        }
        if parsed.flag(CommandSpec.GlobalOptions.help) {
            console.out(spec.help(HelpLayout(console: console)))
            return ExitCode.success.rawValue
        }
        // The photo commands scale images with libgd (PlaceKit links none);
        // no other command decodes an image.
        if command.name.hasPrefix("photo ") { GDImageCodec.install() }
        let context = CommandContext(console: console, arguments: parsed, spec: spec)
        do {
            return try command.run(context).rawValue
        } catch let error as UsageError {
            return usageError(error.message, usage: spec.usage, console: console, command: spec.name)
        } catch let error as CommandFailure {
            console.errLine("placedb \(spec.name): \(error.message)")
            return error.code.rawValue
        } catch let error as PlaceDBError where Self.exitCode(for: error) == .usage {
            return usageError(error.commandLineMessage, usage: spec.usage, console: console, command: spec.name)
        } catch let error as PlaceDBError {
            console.errLine("placedb \(spec.name): \(error.commandLineMessage)")
            return exitCode(for: error).rawValue
        } catch {
            console.errLine("placedb \(spec.name): \(commandLineMessage(error))")
            return ExitCode.failure.rawValue
        }
    }

    static func exitCode(for error: PlaceDBError) -> ExitCode {
        switch error {
        case .notFound: .failure
        case .noDatabase: .noInput
        case .notADatabasePath: .usage
        case .danglingSymlink, .cannotOpen, .notAnSQLiteDatabase, .notAPlacedbDatabase, .schemaTooOld, .schemaTooNew,
            .walNeedsWriter, .spatiaLiteMissing, .noTextIndex, .corrupt, .database:
            .failure
        case .input(let e): e.kind == .corrupt ? .dataError : .noInput
        case .badInput: .dataError
        case .invalidArgument, .invalidFieldMask, .unknownFilterColumn, .unknownImportRun, .unknownSnapshot,
            .noRunsToCompare:
            .usage
        case .photoNotFound, .noLocalImage: .failure
        case .badImage: .dataError
        case .missingTool: .unavailable
        case .readOnly: .noPermission
        }
    }

    static func usageError(_ message: String, usage: String, console: any Console, command: String? = nil) -> Int32 {
        console.errLine("placedb\(command.map { " \($0)" } ?? ""): \(message)")
        console.errLine("Usage: \(usage)")
        return ExitCode.usage.rawValue
    }
}

/// A failure with a chosen exit code and a one-line message.
struct CommandFailure: Error {
    let code: ExitCode
    let message: String
}

/// A command's name, its interface and its body. The interface is built
/// when read (`spec`), so finding a command by name builds none.
struct CommandEntry: Sendable {
    /// The command's name (`current`, `photo add`): its spec's (a test
    /// checks every entry).
    let name: String
    private let makeSpec: @Sendable () -> CommandSpec
    let run: @Sendable (CommandContext) throws -> ExitCode

    init(
        _ name: String, spec: @escaping @Sendable @autoclosure () -> CommandSpec,
        run: @escaping @Sendable (CommandContext) throws -> ExitCode
    ) {
        self.name = name
        makeSpec = spec
        self.run = run
    }

    var spec: CommandSpec { makeSpec() }
}

protocol Command {
    static var spec: CommandSpec { get }
    static func run(_ context: CommandContext) throws -> ExitCode
}
