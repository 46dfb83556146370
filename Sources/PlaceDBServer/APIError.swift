import PlaceKit
import PlaceModel

/// An error in the Places API's shape: `{"error": {"code": 400, "message":
/// "...", "status": "INVALID_ARGUMENT"}}`, with its HTTP status.
package struct APIError: Error, Sendable, Equatable {
    package let code: Int
    package let status: String
    package let message: String

    package init(code: Int, status: String, message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    package static func invalidArgument(_ message: String) -> APIError { APIError(code: 400, status: "INVALID_ARGUMENT", message: message) }
    package static func notFound(_ message: String) -> APIError { APIError(code: 404, status: "NOT_FOUND", message: message) }
    static func failedPrecondition(_ message: String) -> APIError { APIError(code: 400, status: "FAILED_PRECONDITION", message: message) }
    static func permissionDenied(_ message: String) -> APIError { APIError(code: 403, status: "PERMISSION_DENIED", message: message) }
    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> APIError {
        APIError(code: 405, status: "METHOD_NOT_ALLOWED", message: "\(method) is not allowed on \(path); use \(allowed.joined(separator: " or "))")
    }
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(code: 413, status: "INVALID_ARGUMENT", message: "the request body is larger than \(limit) bytes")
    }
    static func unimplemented(_ message: String) -> APIError { APIError(code: 501, status: "UNIMPLEMENTED", message: message) }
    static func `internal`(_ message: String) -> APIError { APIError(code: 500, status: "INTERNAL", message: message) }
    static func unavailable(_ message: String) -> APIError { APIError(code: 503, status: "UNAVAILABLE", message: message) }

    /// The error a library failure answers with: a client's mistake is 4xx,
    /// only the server's own trouble (a database that fails, a stored image
    /// that cannot be decoded) is 5xx.
    package init(_ error: any Error) {
        switch error {
        case let e as APIError:
            self = e
        case let e as PlaceDBError:
            switch e {
            case .notFound, .photoNotFound: self = .notFound(e.description)
            case .invalidArgument(let m): self = .invalidArgument(m)
            case .badInput(let r): self = .invalidArgument(r.description)
            case .badImage(let m): self = .internal(m)
            // The database was imported without a text index: searchText and
            // autocomplete need one (the API's status for a system state).
            case .noTextIndex: self = .failedPrecondition("\(e.description); build it with `placedb text-index build`")
            // The served file cannot be read right now (gone, replaced,
            // upgraded by a newer placedb): the service is unavailable.
            case .noDatabase, .notADatabasePath, .danglingSymlink, .cannotOpen, .walNeedsWriter, .spatiaLiteMissing,
                 .schemaTooOld, .schemaTooNew, .input, .missingTool:
                self = .unavailable(e.description)
            // The file is not (or no longer) a sound placedb database.
            case .notAnSQLiteDatabase, .notAPlacedbDatabase, .corrupt, .database:
                self = .internal(e.description)
            }
        case let e as FieldMaskError:
            // The API's wording, without the CLI's option name or the long list.
            self = .invalidArgument("invalid field mask: unknown field '\(e.unknown)'\(e.detail.map { ": \($0)" } ?? "") (see https://developers.google.com/maps/documentation/places/web-service/place-details#fieldmask)")
        default:
            self = .internal("\(error)")
        }
    }

    package var json: JSONValue {
        ["error": ["code": .int(Int64(code)), "message": .string(message), "status": .string(status)]]
    }

    package var response: HTTPResponse {
        var body = Array(JSONWriter(pretty: true).string(json).utf8)
        body.append(0x0A)
        var r = HTTPResponse.json(body, status: code)
        if code == 405 { r.headers.append(("Allow", message.components(separatedBy: "; use ").last?.replacingOccurrences(of: " or ", with: ", ") ?? "GET")) }
        return r
    }
}
