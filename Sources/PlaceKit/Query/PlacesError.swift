import PlaceModel

/// An error from the async client (`PlacesClient`), by what the caller
/// can do about it. `description` is one line: what failed, why, where; it
/// names places, files and values, never a command-line option.
public enum PlacesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No place (or photo) has this ID or name.
    case notFound(String)
    /// The request itself is wrong: a coordinate out of range, a bad
    /// field mask, a radius or a size out of bounds.
    case badRequest(String)
    /// The database cannot answer: not a placedb database, too new,
    /// corrupt, or an SQLite failure.
    case database(path: String, reason: String)
    /// The database has no text index (it was imported with
    /// `ImportOptions.textIndex` false): `searchText` and `autocomplete`
    /// cannot answer until it is built again.
    case noTextIndex(path: String)
    /// A file is missing or cannot be read (the database itself, a photo's
    /// image).
    case io(String)

    public var description: String {
        switch self {
        case .notFound(let m): "NOT_FOUND: \(m)"
        case .badRequest(let m): "INVALID_REQUEST: \(m)"
        case .database(let path, let reason): "\(path): \(reason)"
        case .noTextIndex(let path): "\(PlaceDBError.noTextIndex(path: path)); TextIndexMaintenance.build makes it"
        case .io(let m): m
        }
    }

    /// The error any library call threw, as the client reports it.
    init(_ error: any Error, databasePath: String) {
        switch error {
        case let e as PlacesError: self = e
        case let e as PlaceDBError:
            switch e {
            case .notFound(let id): self = .notFound("no place with ID '\(id)'")
            case .noDatabase(let path): self = .io("\(path): no database here")
            case .database(let path, let reason): self = .database(path: path, reason: reason)
            case .input(let e): self = .io(e.description)
            case .badInput(let r): self = .database(path: databasePath, reason: r.description)
            case .invalidArgument(let m): self = .badRequest(m)
            case .noTextIndex(let path): self = .noTextIndex(path: path)
            case .photoNotFound(let m): self = .notFound(m)
            case .badImage(let m): self = .io(m)
            default:
                // The database's own failures (not a placedb file, a newer
                // schema, corrupt rows, ...): the message already names the file.
                let text = e.description, prefix = "\(databasePath): "
                self = .database(path: databasePath, reason: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
            }
        case let e as FieldMaskError: self = .badRequest(e.description)
        // SQLite's own errors come up through the store as they are.
        default: self = .database(path: databasePath, reason: "\(error)")
        }
    }
}
