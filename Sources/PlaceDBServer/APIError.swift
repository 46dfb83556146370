import PlaceKit
package import PlaceModel
import Foundation

/// An error in the Places API's shape, with its HTTP status:
///
///     {"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT",
///                "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
///                             "reason": "API_KEY_INVALID", "domain": "googleapis.com",
///                             "metadata": {"service": "places.googleapis.com"}}]}}
///
/// `status` is always a google.rpc code name; `reason` is the ErrorInfo's
/// (docs/server.md#errors lists them). Messages never name a file on the
/// server (`PlacesRouter.respond` takes the database's path out).
package struct APIError: Error, Sendable, Equatable {
    package let code: Int
    package let status: String
    package var message: String
    /// The `ErrorInfo` reason: UPPER_SNAKE_CASE, Google's where placedb
    /// answers as Google does (`API_KEY_INVALID`), else placedb's own.
    package let reason: String
    /// More `ErrorInfo` metadata beside `service` (sorted by key when written).
    package var metadata: [String: String]
    /// The methods a route takes (`Allow`), for a request with another method.
    package var allow: [String]?

    package init(code: Int, status: String, message: String, reason: String? = nil, metadata: [String: String] = [:]) {
        self.code = code
        self.status = status
        self.message = message
        self.reason = reason ?? status
        self.metadata = metadata
    }

    package static func invalidArgument(_ message: String, reason: String = "INVALID_ARGUMENT") -> APIError {
        APIError(code: 400, status: "INVALID_ARGUMENT", message: message, reason: reason)
    }
    package static func notFound(_ message: String, reason: String = "NOT_FOUND") -> APIError {
        APIError(code: 404, status: "NOT_FOUND", message: message, reason: reason)
    }
    static func failedPrecondition(_ message: String, reason: String = "FAILED_PRECONDITION") -> APIError {
        APIError(code: 400, status: "FAILED_PRECONDITION", message: message, reason: reason)
    }
    static func permissionDenied(_ message: String, reason: String) -> APIError {
        APIError(code: 403, status: "PERMISSION_DENIED", message: message, reason: reason)
    }
    /// A key was given and is not the server's: 400, as Google answers a key it does not know.
    static let apiKeyInvalid = APIError(
        code: 400, status: "INVALID_ARGUMENT", message: "API key not valid. Please pass a valid API key.",
        reason: "API_KEY_INVALID")
    /// No key where one is required: 403, as Google answers.
    static let apiKeyMissing = APIError(
        code: 403, status: "PERMISSION_DENIED",
        message: "The request is missing a valid API key (X-Goog-Api-Key header or key= parameter).",
        reason: "API_KEY_MISSING")
    /// A known route asked with another method: Google's front end answers
    /// 404 NOT_FOUND (its routes are method and path together); the `Allow`
    /// header says which methods the path takes.
    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> APIError {
        var e = APIError(
            code: 404, status: "NOT_FOUND",
            message: "Method not found: \(method) \(path); this path takes \(allowed.joined(separator: " or "))",
            reason: "METHOD_NOT_FOUND")
        e.allow = allowed
        return e
    }
    static func payloadTooLarge(limit: Int) -> APIError {
        APIError(
            code: 413, status: "INVALID_ARGUMENT", message: "the request body is larger than \(limit) bytes",
            reason: "REQUEST_TOO_LARGE")
    }
    static func unimplemented(_ message: String) -> APIError {
        APIError(code: 501, status: "UNIMPLEMENTED", message: message)
    }
    static func `internal`(_ message: String) -> APIError { APIError(code: 500, status: "INTERNAL", message: message) }
    static func unavailable(_ message: String) -> APIError {
        APIError(code: 503, status: "UNAVAILABLE", message: message)
    }

    /// The error a library failure answers with: a client's mistake is 4xx,
    /// only the server's own trouble (a database that fails, a stored image
    /// that cannot be decoded) is 5xx.
    package init(_ error: any Error) {
        switch error {
        case let e as APIError:
            self = e
        case let e as PlaceDBError:
            switch e {
            case .notFound: self = .notFound(e.description, reason: "PLACE_NOT_FOUND")
            case .photoNotFound: self = .notFound(e.description, reason: "PHOTO_NOT_FOUND")
            // The server's advice is the command that stores an image.
            case .noLocalImage:
                self = .notFound("\(e.description) (add one with 'placedb photo add')", reason: "PHOTO_NOT_FOUND")
            case .invalidArgument(let m): self = .invalidArgument(m)
            case .invalidFieldMask(let mask): self = APIError(fieldMask: mask)
            case .unknownFilterColumn, .unknownImportRun, .unknownSnapshot, .noRunsToCompare:
                self = .invalidArgument(e.description)
            case .badInput(let r): self = .invalidArgument(r.description)
            case .badImage(let m): self = .internal(m)
            // The database was imported without a text index: searchText and
            // autocomplete need one (the API's status for a system state).
            case .noTextIndex:
                self = .failedPrecondition(
                    "\(e.description); build it with `placedb text-index build`", reason: "NO_TEXT_INDEX")
            // The served file cannot be read right now (gone, replaced,
            // upgraded by a newer placedb): the service is unavailable.
            case .noDatabase, .notADatabasePath, .danglingSymlink, .cannotOpen, .walNeedsWriter, .readOnly,
                .spatiaLiteMissing,
                .schemaTooOld, .schemaTooNew, .input, .missingTool:
                self = .unavailable(e.description)
            // The file is not (or no longer) a sound placedb database.
            case .notAnSQLiteDatabase, .notAPlacedbDatabase, .corrupt, .database:
                self = .internal(e.description)
            }
        case let e as FieldMaskError:
            self = APIError(fieldMask: e)
        default:
            self = .internal("\(error)")
        }
    }

    /// An unknown field in a mask, in the API's wording (without the long
    /// list of fields).
    private init(fieldMask e: FieldMaskError) {
        let near =
            e.detail == nil
            ? Typo.closest(e.unknown, among: FieldMask.validNames).map { "; did you mean '\($0)'?" } ?? "" : ""
        self = .invalidArgument(
            "invalid field mask: unknown field '\(e.unknown)'\(e.detail.map { ": \($0)" } ?? "")\(near) (see https://developers.google.com/maps/documentation/places/web-service/place-details#fieldmask)",
            reason: "FIELD_MASK_INVALID")
    }

    /// The message with every occurrence of `paths` (the database's file,
    /// as given and resolved; longest first) said as "the database": a
    /// client learns nothing of the server's files.
    package func hidingPaths(_ paths: [String]) -> APIError {
        var e = self
        for path in paths where !path.isEmpty && e.message.contains(path) {
            e.message = e.message.replacingOccurrences(of: "'\(path)'", with: "the database").replacingOccurrences(
                of: path, with: "the database")
        }
        return e
    }

    package var json: JSONValue {
        var info: [(String, JSONValue)] = [("service", "places.googleapis.com")]
        for (k, v) in metadata.sorted(by: { $0.key < $1.key }) where k != "service" { info.append((k, .string(v))) }
        let details: JSONValue = [
            [
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": .string(reason),
                "domain": "googleapis.com",
                "metadata": .object(JSONObject(info)),
            ]
        ]
        return [
            "error": [
                "code": .int(Int64(code)), "message": .string(message), "status": .string(status), "details": details,
            ]
        ]
    }

    package var response: HTTPResponse {
        var body = Array(JSONWriter(pretty: true).string(json).utf8)
        body.append(0x0A)
        var r = HTTPResponse.json(body, status: code)
        if let allow { r.headers.append(("Allow", allow.joined(separator: ", "))) }
        return r
    }
}
