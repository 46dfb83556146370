import Foundation
import PlaceKit
import PlaceModel
import Synchronization

/// `$alt=json;enum-encoding=int` and `prettyPrint`: how a JSON answer is written.
struct ResponseFormat {
    var enumsAsIntegers = false
    var pretty = true

    init(_ request: HTTPRequest) throws {
        if let alt = request.query("$alt") ?? request.query("alt") {
            // What clients send, without splitting (Google's client libraries: the first).
            switch alt {
            case "json;enum-encoding=int": enumsAsIntegers = true
            case "json": break
            default: try parse(alt)
            }
        }
        if let p = request.query("prettyPrint") {
            switch p {
            case "true", "1": pretty = true
            case "false", "0": pretty = false
            default: throw APIError.invalidArgument("prettyPrint must be true or false, not '\(p)'")
            }
        }
    }

    /// `$alt`: json, then options separated by semicolons.
    private mutating func parse(_ alt: String) throws {
        let parts = alt.split(separator: ";").map(trimmed)
        guard parts.first == "json" else { throw APIError.invalidArgument("$alt: only json is served, not '\(alt)'") }
        for p in parts.dropFirst() {
            switch p {
            case "enum-encoding=int": enumsAsIntegers = true
            case "enum-encoding=string", "": break
            default: throw APIError.invalidArgument("$alt: unknown option '\(p)'")
            }
        }
    }

    /// The CLI's bytes: pretty JSON and a newline (`prettyPrint=false`: one compact line).
    func json(_ value: JSONValue) -> HTTPResponse {
        let v = enumsAsIntegers ? EnumEncoding.integers(value) : value
        var out: [UInt8] = []
        JSONWriter(pretty: pretty).write(v, into: &out)
        out.append(0x0A)
        return .json(out)
    }

    /// Bytes from a library writer (compact): as they are, or indented
    /// without being parsed (`JSONWriter.indent`); numbered enums are
    /// replaced while the bytes are copied (`EnumEncoding.integers(compact:)`;
    /// parsed and re-written only when a name holds an escape).
    func json(bytes: [UInt8]) throws -> HTTPResponse {
        if enumsAsIntegers {
            var numbered: [UInt8] = []
            guard bytes.withUnsafeBytes({ EnumEncoding.integers(compact: $0, into: &numbered) }) else {
                return json(try JSONValue(parsing: bytes))
            }
            return json(compact: numbered)
        }
        return json(compact: bytes)
    }

    /// Compact bytes as they are, or indented.
    private func json(compact bytes: [UInt8]) -> HTTPResponse {
        if !pretty { return .json(bytes + [0x0A]) }
        var out: [UInt8] = []
        bytes.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
        out.append(0x0A)
        return .json(out)
    }
}
