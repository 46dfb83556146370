/// An error from placedb's library. `description` is one line: what failed,
/// why, and where.
public enum PlaceDBError: Error, Sendable, CustomStringConvertible {
    /// No place has this ID.
    case notFound(PlaceID)
    /// There is no database file at this path.
    case noDatabase(path: String)
    /// The database file is not a placedb database, is too new, or failed.
    case database(path: String, reason: String)
    /// An input file is missing or unreadable.
    case input(InputError)
    /// A record or the input's JSON is bad (file, line, record, place ID).
    case badInput(ImportRejection)
    /// A usage mistake in a library call (a bad mask, a bad option).
    case invalidArgument(String)
    /// No photo has this name or reference, or the photo has no local image.
    case photoNotFound(String)
    /// An image is corrupt, truncated, too large, or in a format placedb
    /// does not read (the message names the file or photo).
    case badImage(String)

    public var description: String {
        switch self {
        case .notFound(let id): "NOT_FOUND: no place with ID '\(id)'"
        case .noDatabase(let path): "\(path): no database here (import something first, or pass --db PATH)"
        case .database(let path, let reason): "\(path): \(reason)"
        case .input(let e): e.description
        case .badInput(let r): r.description
        case .invalidArgument(let m): m
        case .photoNotFound(let m): "NOT_FOUND: \(m)"
        case .badImage(let m): m
        }
    }
}

