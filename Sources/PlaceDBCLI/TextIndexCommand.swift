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

    static let minPlaces = OptionSpec(
        "--min-places", value: "N",
        help: "Store the counts of words and prefixes that at least N places hold (default 5000).")

    static let analyze = CommandSpec(
        name: "text-index analyze",
        abstract: "Count the text index's common words and prefixes once, so searches and autocompletes need not.",
        arguments: [],
        options: [minPlaces],
        discussion: """
            Search and autocomplete weigh each word (BM25) by how many places hold it, and a
            prefix ("ha" in "museo ha") by how many hold a word that starts with it. Counting a
            common one reads its whole list: at 10 million places, 80 to 230 ms for a one- or
            two-letter prefix, on every new connection (each one-shot command, each server
            worker). This command counts every word and prefix held by at least --min-places
            places, in one transaction, and stores the counts in the database; the answers are
            the same, without that reading.

            An import brings the counts up to date as it ends (new, changed and removed places).
            A change to the index by other means (an edit in SQL) leaves them aside, and queries
            count as before, until this command runs again. 'placedb info' tells whether they are
            current.
            """,
        examples: [
            "placedb text-index analyze",
            "placedb text-index analyze --db world.sqlite --min-places 20000",
        ],
        seeAlso: ["text-index build", "autocomplete", "search", "info"],
        docs: ["search.md"])

    static let lists = CommandSpec(
        name: "text-index lists",
        abstract: "Store the text index's word lists beside the database (DB.placetext), for fast searches.",
        arguments: [],
        options: [],
        discussion: """
            Writes each word's places, with the word's weighted count in each, and each place's
            words, to a file beside the database, made from the text index itself. The places are
            numbered by grid cell, so that those near a point lie together in every list. Search
            and autocomplete then find the places holding all the words by seeking in those lists,
            where the text index reads each list whole: at 10 million places, up to five times
            faster. The places and their scores are the same. The file holds for the index as it
            was written: after any change to the index (an import), or when an earlier placedb
            wrote it, queries read the index alone again until this command runs again.
            'placedb info' tells whether it is current.
            """,
        examples: [
            "placedb text-index lists",
            "placedb text-index lists --db world.sqlite --output json",
        ],
        seeAlso: ["text-index analyze", "search", "autocomplete", "info"],
        docs: ["search.md"])

    static func runLists(_ context: CommandContext) throws -> ExitCode {
        try noArguments(context)
        guard
            let written = try TextIndexMaintenance.writeLists(
                databasePath: context.databasePath, waiting: waiting(context))
        else {
            throw PlaceDBError.noTextIndex(path: context.databasePath)
        }
        let path = context.databasePath + ".placetext"
        switch context.output {
        case .json:
            context.writeJSON([
                "database": .string(context.databasePath), "action": .string("lists"), "changed": .bool(true),
                "path": .string(path), "words": .int(Int64(written.words)),
                "postings": .int(Int64(written.postings)), "bytes": .int(Int64(written.bytes)),
            ])
        case .text:
            context.console.outLine(
                "\(context.databasePath): word lists written to \(path): \(written.words) words, \(written.postings) postings, \(written.bytes) bytes"
            )
        }
        return .success
    }

    static func runAnalyze(_ context: CommandContext) throws -> ExitCode {
        try noArguments(context)
        let min =
            try ServeCommand.integer(context.arguments, minPlaces, 1...1_000_000_000)
            ?? Int(TextIndexMaintenance.defaultMinPlaces)
        guard
            let analysis = try TextIndexMaintenance.analyze(
                databasePath: context.databasePath, minPlaces: Int64(min), waiting: waiting(context))
        else {
            throw PlaceDBError.noTextIndex(path: context.databasePath)
        }
        switch context.output {
        case .json:
            context.writeJSON([
                "database": .string(context.databasePath), "action": .string("analyze"), "changed": .bool(true),
                "minPlaces": .int(Int64(min)), "words": .int(Int64(analysis.words)),
                "prefixes": .int(Int64(analysis.prefixes)), "prefixesCounted": .int(Int64(analysis.counted)),
            ])
        case .text:
            context.console.outLine(
                "\(context.databasePath): text index analyzed: \(analysis.words) words and \(analysis.prefixes) prefixes held by at least \(min) places stored (\(analysis.counted) prefixes counted)"
            )
        }
        return .success
    }

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
