import PlaceKit
import PlaceModel

/// `placedb text-index build` and `placedb text-index drop`: make or take
/// away the text index of a database (`import --no-text-index`).
enum TextIndexCommand {
    static let build = CommandSpec(
        name: "text-index build",
        abstract: "Build the text index (search, autocomplete) of a database imported with --no-text-index.",
        arguments: [],
        options: [],
        discussion: """
            Builds the index a new database has, in one transaction: every live place's names,
            address and type words, and the words typos are corrected to. A database that has it already is left as it is (exit 0). Later imports keep it
            current. Waits for an import into the database to finish first.
            """,
        examples: [
            "placedb text-index build",
            "placedb text-index build --db world.sqlite --output json",
        ],
        seeAlso: ["search", "autocomplete", "import"],
        docs: ["search.md"])

    static let drop = CommandSpec(
        name: "text-index drop",
        abstract: "Drop the text index: search and autocomplete then fail until it is built again.",
        arguments: [],
        options: [],
        discussion: """
            Drops the index in one transaction; later imports keep the database without one, and
            are faster. A database without one is left as it is (exit 0). The file does not
            shrink until it is vacuumed (sqlite3 FILE VACUUM).
            """,
        examples: [
            "placedb text-index drop",
            "placedb text-index drop --db world.sqlite",
        ],
        seeAlso: ["text-index build", "search", "import"],
        docs: ["search.md"])

    static func runBuild(_ context: CommandContext) throws -> ExitCode {
        try noArguments(context)
        let built = try TextIndexMaintenance.build(databasePath: context.databasePath, waiting: waiting(context))
        report(
            context, action: "build", changed: built,
            text: built
                ? "\(context.databasePath): text index built"
                : "\(context.databasePath): text index already present; nothing done")
        return .success
    }

    static func runDrop(_ context: CommandContext) throws -> ExitCode {
        try noArguments(context)
        let dropped = try TextIndexMaintenance.drop(databasePath: context.databasePath, waiting: waiting(context))
        report(
            context, action: "drop", changed: dropped != nil,
            text: dropped.map {
                "\(context.databasePath): text index dropped (\($0) place\($0 == 1 ? "" : "s") indexed)"
            }
                ?? "\(context.databasePath): no text index; nothing done")
        return .success
    }

    private static func noArguments(_ context: CommandContext) throws {
        guard context.arguments.positionals.isEmpty else {
            throw UsageError(message: "unexpected argument '\(context.arguments.positionals[0])'")
        }
    }

    private static func waiting(_ context: CommandContext) -> (Int32?) -> Void {
        let console = context.console
        return { pid in
            console.errLine(
                "placedb text-index: waiting for an import\(pid.map { " (process \($0))" } ?? "") into \(context.databasePath) to finish"
            )
        }
    }

    private static func report(_ context: CommandContext, action: String, changed: Bool, text: String) {
        switch context.output {
        case .json:
            context.writeJSON([
                "database": .string(context.databasePath), "action": .string(action), "changed": .bool(changed),
            ])
        case .text:
            context.console.outLine(text)
        }
    }
}
