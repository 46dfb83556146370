import PlaceKit
import PlaceModel

extension PlaceDBError {
    /// The message as the command line says it: the library's, with the
    /// option or command that helps where one does (the library speaks of
    /// files and places, never of `--db` or `placedb import`).
    var commandLineMessage: String {
        switch self {
        case .noDatabase: "\(description) (import something first, or pass --db PATH)"
        case .notADatabasePath(let path) where path.isEmpty: "\(description) (--db places.sqlite)"
        case .danglingSymlink(let path, let target):
            "\(path): is a symbolic link to '\(target)', which does not exist (a dangling link); remove the link, or pass the path of the database itself with --db"
        case .notAPlacedbDatabase(let path, let hasOtherTables):
            hasOtherTables
                ? "\(description); choose another --db"
                : "\(path): not a placedb database (no schema version; run 'placedb import' to create one)"
        case .schemaTooOld(let path, let version, let supported):
            "\(path): schema version \(version) is older than this placedb's \(supported); open it once for writing (placedb import) to upgrade"
        case .walNeedsWriter(let path, let message):
            "\(path): cannot open for reading: \(message), and \(path)-wal holds changes a read-only reader cannot see without the WAL index; open it once where it can be written (any placedb import) to fold them in"
        case .noTextIndex:
            "\(description); build it with `placedb text-index build`"
        case .missingTool(let package, _) where package == "osmium-tool":
            "\(description), or set PLACEDB_OSMIUM to the osmium to run"
        case .input(let e): e.commandLineMessage
        case .invalidFieldMask(let e): e.commandLineMessage
        case .unknownFilterColumn(let column, let filter, let suggestion, let columns):
            "unknown column '\(column.prefix(100))' in --where '\(filter)'; "
                + (suggestion.map { "did you mean '\($0)'?" } ?? "the columns are \(columns.joined(separator: ", "))")
        case .unknownImportRun, .noRunsToCompare: "\(description) (placedb info lists the runs)"
        case .unknownSnapshot: "\(description) (placedb info lists the snapshots)"
        case .noLocalImage: "\(description) (add one with 'placedb photo add')"
        default: description
        }
    }
}

extension InputError {
    /// The message with the command that reads such an input, where placedb
    /// reads it another way.
    var commandLineMessage: String {
        let advice =
            switch found {
            case .image: "; photos go in with placedb photo add"
            case .sqliteDatabase:
                "; a placedb database is opened with --db FILE; placedb export writes one's places as NDJSON"
            case .directory: " (use --dir to add a directory)"
            case nil: ""
            }
        return "\(source): \(reason)\(advice)"
    }
}

extension FieldMaskError {
    /// The message naming the option the mask came from.
    var commandLineMessage: String { message(mask: "--fields") }
}

/// How the command line says any error: a `PlaceDBError` (or a field
/// mask's) with its advice (`commandLineMessage`), anything else as it
/// describes itself.
func commandLineMessage(_ error: any Error) -> String {
    switch error {
    case let e as PlaceDBError: e.commandLineMessage
    case let e as FieldMaskError: e.commandLineMessage
    default: "\(error)"
    }
}
