/// An error from placedb's library: the one error type its calls throw
/// (`PlacesClient`'s calls as `throws(PlaceDBError)`), a case for each
/// thing a caller may want to tell apart. `description` is one line: what
/// failed, why, and where. It speaks of files, places and values, never of
/// command-line options (the command line and the server add their own
/// advice).
public enum PlaceDBError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No place has this ID.
    case notFound(PlaceID)
    /// There is no database file at this path.
    case noDatabase(path: String)
    /// The database path is not a file path: empty, `:memory:` or an SQLite
    /// URI (an in-memory database would keep nothing).
    case notADatabasePath(String)
    /// A symbolic link whose target does not exist.
    case danglingSymlink(path: String, target: String)
    /// SQLite cannot open the file (its message). `forReading`: a reader
    /// was opening it.
    case cannotOpen(path: String, sqliteMessage: String, forReading: Bool)
    /// The file is not an SQLite database.
    case notAnSQLiteDatabase(path: String)
    /// The file is an SQLite database but not a placedb one: it has other
    /// tables (`hasOtherTables`, refused by a writer) or no schema version
    /// (an empty file, refused by a reader).
    case notAPlacedbDatabase(path: String, hasOtherTables: Bool)
    /// The schema was written by an older placedb: a writer upgrades it, a
    /// reader cannot.
    case schemaTooOld(path: String, version: Int, supported: Int)
    /// The schema was written by a newer placedb.
    case schemaTooNew(path: String, version: Int, supported: Int)
    /// A reader cannot open the file (SQLite's message) and its `-wal` file
    /// holds changes only a writer can fold in.
    case walNeedsWriter(path: String, sqliteMessage: String)
    /// A writer cannot write the database: the file, or the directory
    /// SQLite writes its journal in, is read-only (`reason` says which).
    case readOnly(path: String, reason: String)
    /// SpatiaLite cannot be loaded (SQLite's message).
    case spatiaLiteMissing(path: String, sqliteMessage: String)
    /// The database has no text index (imported with `textIndex` false, or
    /// its index dropped): text search and autocomplete cannot answer.
    case noTextIndex(path: String)
    /// A stored value placedb cannot read (a corrupt document, geometry,
    /// image format, capture times); the reason names the place or row.
    case corrupt(path: String, reason: String)
    /// SQLite or the file system failed on the database (the reason is
    /// SQLite's or the system's message).
    case database(path: String, reason: String)
    /// An input file is missing or unreadable.
    case input(InputError)
    /// A record or the input's JSON is bad (file, line, record, place ID).
    case badInput(ImportRejection)
    /// A usage mistake in a library call (a bad option, a value out of
    /// range).
    case invalidArgument(String)
    /// A field mask names a field a place does not have.
    case invalidFieldMask(FieldMaskError)
    /// An export filter names a column the place table does not have
    /// (`suggestion`: the nearest one, if any; `columns`: those it has).
    case unknownFilterColumn(column: String, filter: String, suggestion: String?, columns: [String])
    /// A diff side names an import run the database does not have.
    case unknownImportRun(Int)
    /// A diff names a snapshot no completed import has.
    case unknownSnapshot(String)
    /// A diff without a snapshot was given neither side to compare.
    case noRunsToCompare
    /// No photo has this name or reference.
    case photoNotFound(String)
    /// The photo is known (from a place's `photos`) but has no local image.
    case noLocalImage(photo: String)
    /// An image is corrupt, truncated, too large, or in a format placedb
    /// does not read (the message names the file or photo).
    case badImage(String)
    /// A program placedb runs is not installed (`osmium`, to read
    /// OpenStreetMap files): the Debian package that has it, and what
    /// needed it.
    case missingTool(package: String, reason: String)

    public var description: String {
        switch self {
        case .notFound(let id): "NOT_FOUND: no place with ID '\(id)'"
        case .noDatabase(let path): "\(path): no database here"
        case .notADatabasePath(let path):
            path.isEmpty
                ? "the database path is empty: give a file path"
                : "'\(path.prefix(200))' is not a database file path (in-memory databases and SQLite URIs are refused: nothing would be kept); give a file path, ./\(path.prefix(200)) for a file named so"
        case .danglingSymlink(let path, let target):
            "\(path): is a symbolic link to '\(target)', which does not exist (a dangling link); remove the link, or give the path of the database itself"
        case .cannotOpen(let path, let message, let forReading):
            "\(path): cannot open\(forReading ? " for reading" : ""): \(message)"
        case .notAnSQLiteDatabase(let path): "\(path): not an SQLite database"
        case .notAPlacedbDatabase(let path, let hasOtherTables):
            hasOtherTables
                ? "\(path): is an SQLite database but not a placedb one (it has other tables)"
                : "\(path): not a placedb database (no schema version)"
        case .schemaTooOld(let path, let version, let supported):
            "\(path): schema version \(version) is older than this placedb's \(supported); open it once for writing to upgrade"
        case .schemaTooNew(let path, let version, let supported):
            "\(path): schema version \(version) was written by a newer placedb; this one knows up to \(supported)"
        case .walNeedsWriter(let path, let message):
            "\(path): cannot open for reading: \(message), and \(path)-wal holds changes a read-only reader cannot see without the WAL index; open it once where it can be written to fold them in"
        case .readOnly(let path, let reason): "\(path): cannot write to the database: \(reason)"
        case .spatiaLiteMissing(let path, let message):
            "\(path): cannot load SpatiaLite (mod_spatialite: \(message)); install libsqlite3-mod-spatialite (Scripts/setup does)"
        case .noTextIndex(let path): "\(path): this database has no text index (it was imported without one)"
        case .corrupt(let path, let reason): "\(path): \(reason)"
        case .database(let path, let reason): "\(path): \(reason)"
        case .input(let e): e.description
        case .badInput(let r): r.description
        case .invalidArgument(let m): m
        case .invalidFieldMask(let e): e.description
        case .unknownFilterColumn(let column, let filter, let suggestion, let columns):
            "unknown column '\(column.prefix(100))' in the filter '\(filter)'; "
                + (suggestion.map { "did you mean '\($0)'?" } ?? "the columns are \(columns.joined(separator: ", "))")
        case .unknownImportRun(let n): "there is no import run \(n)"
        case .unknownSnapshot(let name): "no completed snapshot import named '\(name)'"
        case .noRunsToCompare: "give the two runs to compare"
        case .photoNotFound(let m): "NOT_FOUND: \(m)"
        case .noLocalImage(let photo): "NOT_FOUND: photo '\(photo)' has no local image"
        case .badImage(let m): m
        case .missingTool(let package, let reason): "\(reason); install \(package) (apt-get install \(package))"
        }
    }

    /// The same error said of another path (a database built under a
    /// temporary name is reported under the name the caller gave).
    package func replacingPath(with name: String) -> PlaceDBError {
        switch self {
        case .noDatabase: .noDatabase(path: name)
        case .danglingSymlink(_, let target): .danglingSymlink(path: name, target: target)
        case .cannotOpen(_, let m, let r): .cannotOpen(path: name, sqliteMessage: m, forReading: r)
        case .notAnSQLiteDatabase: .notAnSQLiteDatabase(path: name)
        case .notAPlacedbDatabase(_, let t): .notAPlacedbDatabase(path: name, hasOtherTables: t)
        case .schemaTooOld(_, let v, let s): .schemaTooOld(path: name, version: v, supported: s)
        case .schemaTooNew(_, let v, let s): .schemaTooNew(path: name, version: v, supported: s)
        case .walNeedsWriter(_, let m): .walNeedsWriter(path: name, sqliteMessage: m)
        case .readOnly(_, let r): .readOnly(path: name, reason: r)
        case .spatiaLiteMissing(_, let m): .spatiaLiteMissing(path: name, sqliteMessage: m)
        case .noTextIndex: .noTextIndex(path: name)
        case .corrupt(_, let r): .corrupt(path: name, reason: r)
        case .database(_, let r): .database(path: name, reason: r)
        default: self
        }
    }
}
