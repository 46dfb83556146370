#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// The documented exit codes (README "Exit codes"), after BSD sysexits.
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// Not found, or a runtime failure.
    case failure = 1
    /// The command was called wrongly (EX_USAGE).
    case usage = 64
    /// The input data is bad (EX_DATAERR).
    case dataError = 65
    /// An input file is missing or unreadable (EX_NOINPUT).
    case noInput = 66
    /// A program placedb runs is not installed: `osmium` for an
    /// OpenStreetMap file (EX_UNAVAILABLE).
    case unavailable = 69
    /// An output could not be written: stdout, `--rejects`, `-o FILE`,
    /// `--svg FILE` (EX_IOERR).
    case ioError = 74
    /// The database cannot be written: the file or its directory is
    /// read-only (EX_NOPERM).
    case noPermission = 77
}

extension ExitCode: CaseIterable {
    /// Every exit status with what it means, for help and the man page
    /// (the table in docs/reliability.md).
    static let documented: [(ExitCode, String)] = [
        (.success, "Success."),
        (.failure, "Not found (NOT_FOUND), or a runtime failure such as a database error."),
        (
            .usage,
            "Usage: an unknown command or option, a bad option value (a misspelt place type, field name or --where column), a --db that is not a file path."
        ),
        (
            .dataError,
            "Bad input data: a record that fails validation, malformed JSON, a file placedb does not read, a corrupt image."
        ),
        (.noInput, "Missing input: an input file or the database does not exist or cannot be read."),
        (.unavailable, "A program placedb runs is not installed: osmium (osmium-tool) for an OpenStreetMap file."),
        (.ioError, "An output could not be written: standard output, --rejects FILE, -o FILE, --svg FILE."),
        (.noPermission, "The database cannot be written: the file, or its directory, is read-only."),
    ]
}
