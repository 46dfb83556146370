/// Counts of an alias-file import.
public struct AliasImportSummary: Sendable, Equatable {
    public var records = 0
    /// Edges recorded for the first time.
    public var added = 0
    /// Edges already known (the first record of an edge is kept).
    public var unchanged = 0
    public init() {}
}

/// Reads explicit alias files: CSV with a header naming the columns
/// (`old_id,new_id,reason[,confidence]`; `alias_id`/`from` and
/// `place_id`/`to` are accepted too), or NDJSON lines
/// `{"oldId": ..., "newId": ..., "reason": ..., "confidence": ...}`.
enum AliasFileReader {
    static let oldNames = ["old_id", "oldid", "alias_id", "aliasid", "from"]
    static let newNames = ["new_id", "newid", "place_id", "placeid", "to"]

    /// Every line of a source, with its number, without the newline.
    static func lines(_ source: ByteSource) throws -> [(number: Int, text: String)] {
        var out: [(Int, String)] = []
        var pending: [UInt8] = []
        var number = 1
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try source.read(into: chunk, count: 1 << 16)
            if n == 0 { break }
            for b in UnsafeRawBufferPointer(start: chunk, count: n) {
                if b == 0x0A {
                    out.append((number, try text(pending, number)))
                    pending.removeAll(keepingCapacity: true)
                    number += 1
                } else {
                    pending.append(b)
                }
            }
        }
        if !pending.isEmpty { out.append((number, try text(pending, number))) }
        return out
    }

    private static func text(_ bytes: [UInt8], _ line: Int) throws -> String {
        var b = bytes
        if b.last == 0x0D { b.removeLast() }
        guard let s = String(validating: b, as: UTF8.self) else { throw AliasFileError(line: line, message: "not UTF-8 text") }
        return s
    }

    struct AliasFileError: Error { let line: Int; let message: String }

    /// Parses all edges; the first bad line throws with its number.
    static func edges(_ lines: [(number: Int, text: String)]) throws -> [(line: Int, edge: AliasEdge)] {
        let content = lines.filter { !$0.text.trimmingSpacesString.isEmpty }
        guard let first = content.first else { throw AliasFileError(line: 1, message: "empty alias file") }
        var out: [(Int, AliasEdge)] = []
        if first.text.hasPrefix("{") || first.text.hasPrefix("\u{1E}") {
            for (number, text) in content {
                let value: JSONValue
                do { value = try JSONParser.parse(text) } catch { throw AliasFileError(line: number, message: "malformed JSON: \(error.message)") }
                guard let o = value.objectValue else { throw AliasFileError(line: number, message: "expected a JSON object") }
                func field(_ names: [String]) -> String? {
                    for n in names { if let v = o[n]?.stringValue { return v } }
                    return nil
                }
                let confidence: Double?
                if let c = o["confidence"] {
                    guard let d = c.doubleValue else { throw AliasFileError(line: number, message: "confidence is \(c.kindDescription), expected a number") }
                    confidence = d
                } else { confidence = nil }
                out.append((number, try edge(old: field(["oldId", "aliasId", "from", "old_id"]), new: field(["newId", "placeId", "to", "new_id"]),
                                             reason: field(["reason"]), confidence: confidence, line: number)))
            }
            return out
        }
        let header = csvFields(first.text).map { $0.lowercased().trimmingSpacesString }
        guard let oldColumn = header.firstIndex(where: oldNames.contains), let newColumn = header.firstIndex(where: newNames.contains) else {
            throw AliasFileError(line: first.number, message: "the CSV header must name an old-ID column (old_id) and a new-ID column (new_id); found: \(header.joined(separator: ","))")
        }
        let reasonColumn = header.firstIndex(of: "reason")
        let confidenceColumn = header.firstIndex(of: "confidence")
        for (number, text) in content.dropFirst() {
            let f = csvFields(text)
            func at(_ i: Int?) -> String? { i.flatMap { $0 < f.count ? f[$0].trimmingSpacesString : nil }.flatMap { $0.isEmpty ? nil : $0 } }
            var confidence: Double?
            if let c = at(confidenceColumn) {
                guard let d = Double(c) else { throw AliasFileError(line: number, message: "confidence '\(c)' is not a number") }
                confidence = d
            }
            out.append((number, try edge(old: at(oldColumn), new: at(newColumn), reason: at(reasonColumn), confidence: confidence, line: number)))
        }
        return out
    }

    static func edge(old: String?, new: String?, reason: String?, confidence: Double?, line: Int) throws -> AliasEdge {
        guard let old else { throw AliasFileError(line: line, message: "no old ID") }
        guard let new else { throw AliasFileError(line: line, message: "no new ID") }
        let oldID = PlaceID(parsing: old).rawValue, newID = PlaceID(parsing: new).rawValue
        guard oldID != newID else { throw AliasFileError(line: line, message: "'\(oldID)' would be an alias of itself") }
        let r: AliasReason
        if let reason {
            guard let parsed = AliasReason(rawValue: reason.lowercased()) else {
                throw AliasFileError(line: line, message: "unknown reason '\(reason)'; one of: \(AliasReason.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            r = parsed
        } else {
            r = .explicit
        }
        let c = confidence ?? 1
        guard c > 0 && c <= 1 else { throw AliasFileError(line: line, message: "confidence \(c) is outside (0, 1]") }
        return AliasEdge(aliasID: oldID, placeID: newID, reason: r, confidence: c)
    }

    /// Splits a CSV line (RFC 4180 quoting; a comma or semicolon separates).
    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(line)[...]
        let separator: Character = line.contains(",") || !line.contains(";") ? "," : ";"
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == separator {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        fields.append(field)
        return fields
    }
}

extension PlaceImporter {
    /// Imports an explicit alias file (CSV or NDJSON, gzip'd or not) in one
    /// transaction: every edge or none. Edges already known are kept as first
    /// recorded.
    public func importAliases(_ input: InputSource) throws -> AliasImportSummary {
        let source: ByteSource
        do { source = try ByteSource(input) } catch { throw PlaceDBError.input(error) }
        let parsed: [(line: Int, edge: AliasEdge)]
        do {
            parsed = try AliasFileReader.edges(AliasFileReader.lines(source))
        } catch let e as AliasFileReader.AliasFileError {
            throw PlaceDBError.badInput(ImportRejection(input: source.name, line: e.line, index: nil, placeID: nil, reason: e.message, record: nil))
        } catch let e as InputError {
            throw PlaceDBError.input(e)
        }
        return try recordAliases(parsed.map(\.edge), input: source.name, source: options.source ?? "alias-file")
    }
}
