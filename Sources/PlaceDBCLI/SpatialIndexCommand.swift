import Foundation
import PlaceKit
import PlaceModel

/// `placedb spatial-index build` and `placedb spatial-index status`: the
/// stored spatial index beside a database (docs/spatial-index.md), built
/// ahead of the batches and servers that map it.
enum SpatialIndexCommand {
    /// `--unmerged`: the index of the other record view (each its own file).
    static let unmerged = OptionSpec(
        "--unmerged",
        help:
            "The index that queries with --unmerged map (each record as imported), not the one of merged places: each view has a file of its own."
    )

    static let build = CommandSpec(
        name: "spatial-index build",
        abstract: "Write the spatial index that batches and the server map (DB.placeidx), unless it is current.",
        arguments: [],
        options: [unmerged],
        discussion: """
            Builds the index from every live place and writes it beside the database, as the first
            batch or server that needs it would (about 1.5 times the file's size in memory, once:
            12.6 to 15.1 GiB measured at 100 million places), then reads it once to check it, so
            that the next process maps it at once; a current file is left as it is (its checksums read once if no process read them yet). Run it after an import, before starting 'placedb serve' with PLACEDB_INDEX_MB,
            which does not build it (it answers from the database's R*Trees until the file is
            current). A directory placedb cannot write to fails with exit 77.
            """,
        examples: [
            "placedb spatial-index build",
            "placedb spatial-index build --db world.sqlite --output json",
        ],
        seeAlso: ["spatial-index status", "serve", "nearby"],
        docs: ["spatial-index.md"])

    static let status = CommandSpec(
        name: "spatial-index status",
        abstract:
            "Say whether the stored spatial index is current, stale, missing or damaged (its header alone is read).",
        arguments: [],
        options: [unmerged],
        discussion: """
            Reads the index file's header and compares it with the database: current (and whether
            its checksums were read since it was written), missing, stale (the places changed
            since it was written: any import does), written by another placedb, or damaged.
            Exits 0 when it is current, 1 otherwise.
            """,
        examples: [
            "placedb spatial-index status",
            "placedb spatial-index status --db world.sqlite --unmerged --output json",
        ],
        seeAlso: ["spatial-index build", "info"],
        docs: ["spatial-index.md"])

    static func runBuild(_ context: CommandContext) throws -> ExitCode {
        let (reader, before) = try opened(context, mode: .memory)
        let stats = try reader.loadSpatialIndex()
        guard let after = try reader.storedSpatialIndexStatus(), after.problem == nil else {
            // The note says why it was not stored ("not stored: cannot write ...").
            throw CommandFailure(
                code: .noPermission, message: "\(before.path): not written: \(stats.storedIndex)")
        }
        let built = before.problem != nil
        if !after.checked {
            // Its checksums read once and recorded as read, so that the
            // next server or batch maps it at once. (The record is written
            // once the file's last change is more than a second old.)
            if built { Thread.sleep(forTimeInterval: 1.1) }
            _ = try PlaceReader(
                databasePath: context.databasePath, spatialIndex: .memory, recordView: view(context)
            ).loadSpatialIndex()
        }
        switch context.output {
        case .json:
            let seconds: Double = (stats.loadSeconds * 1000).rounded() / 1000
            let found: String = before.problem?.description ?? "current"
            var o: [(String, JSONValue)] = [("database", .string(context.databasePath)), ("path", .string(after.path))]
            o.append(("action", .string(built ? "built" : before.checked ? "current" : "checked")))
            o.append(("before", .string(found)))
            o.append(("places", .int(Int64(stats.places))))
            o.append(("bytes", .int(Int64(stats.bytes))))
            o.append(("seconds", .double(seconds)))
            context.writeJSON(.object(JSONObject(o)))
        case .text:
            context.console.outLine(
                built
                    ? "\(after.path): built (\(before.problem!)): \(stats.places) places, \(megabytes(stats.bytes)) in \(String(format: "%.1f", stats.loadSeconds)) s"
                    : "\(after.path): current; \(before.checked ? "nothing done" : "its checksums read and recorded") (\(stats.places) places, \(megabytes(stats.bytes)))"
            )
        }
        return .success
    }

    static func runStatus(_ context: CommandContext) throws -> ExitCode {
        let (_, status) = try opened(context, mode: .database)
        let state = status.problem?.state ?? "current"
        switch context.output {
        case .json:
            var o: [String: JSONValue] = [
                "database": .string(context.databasePath), "path": .string(status.path), "state": .string(state),
            ]
            if let problem = status.problem { o["reason"] = .string(problem.description) }
            if status.problem == nil { o["checked"] = .bool(status.checked) }
            context.writeJSON(.object(JSONObject(o.sorted { $0.key < $1.key })))
        case .text:
            context.console.outLine(
                status.problem.map { "\(status.path): \($0); 'placedb spatial-index build' writes it" }
                    ?? "\(status.path): current\(status.checked ? ", checksums read" : ", checksums not read yet")")
        }
        return status.problem == nil ? .success : .failure
    }

    /// The database's reader in `mode`, and the stored index's status.
    private static func opened(_ context: CommandContext, mode: SpatialIndexMode) throws -> (
        reader: PlaceReader, status: (path: String, problem: StoredIndexProblem?, checked: Bool)
    ) {
        try noArguments(context)
        let reader = try PlaceReader(databasePath: context.databasePath, spatialIndex: mode, recordView: view(context))
        guard let status = try reader.storedSpatialIndexStatus() else {
            throw CommandFailure(
                code: .failure,
                message: "\(context.databasePath): the spatial index is not kept in a file for this database")
        }
        return (reader, status)
    }

    private static func view(_ context: CommandContext) -> RecordView {
        context.arguments.flag(unmerged) ? .unmerged : .merged
    }

    private static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    private static func noArguments(_ context: CommandContext) throws {
        guard context.arguments.positionals.isEmpty else {
            throw UsageError(message: "unexpected argument '\(context.arguments.positionals[0])'")
        }
    }
}
