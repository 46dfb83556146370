package import PlaceModel
import PlaceStorage

/// Reads explicit alias files: CSV with a header naming the columns
/// (`old_id,new_id,reason[,confidence]`; `alias_id`/`from` and
/// `place_id`/`to` are accepted too), or NDJSON lines
/// `{"oldId": ..., "newId": ..., "reason": ..., "confidence": ...}`, with
/// the edge's own `source` and `recordedAt` where it has them (as `placedb
/// export --aliases` writes them; CSV columns `source`, `recorded_at`).
package enum AliasFileReader {
    static let oldNames = ["old_id", "oldid", "alias_id", "aliasid", "from"]
    static let newNames = ["new_id", "newid", "place_id", "placeid", "to"]

    /// The longest line read (two IDs, a reason and a confidence need a
    /// few hundred bytes; a legacy reference is about 430).
    static let maxLineBytes = 64 << 10

    package struct AliasFileError: Error { package let line: Int; package let message: String }

    /// One line's edge, with the source and time it was first recorded
    /// under when the line names them.
    package struct Line {
        package let number: Int
        package var edge: AliasEdge
        /// A `same A B` / `different A B` line (reason `same` or
        /// `different` in CSV and NDJSON): a rule for linking, not an edge.
        var rule: LinkRuleKind? = nil
        package var source: String?
        package var recordedAt: String?
    }

    /// Calls `body` with each line of a source, its number and its text
    /// (without the newline or a trailing CR), streaming: at most one line
    /// is held, and a line longer than `maxLineBytes` throws as soon as it
    /// gets there (`/dev/zero` fails after 64 KiB, not at 7.5 GB).
    static func forEachLine(_ source: ByteSource, _ body: (Int, String) throws -> Void) throws {
        var pending: [UInt8] = []
        var number = 1
        let size = 1 << 16
        let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let n = try source.read(into: chunk, count: size)
            if n == 0 { break }
            for b in UnsafeRawBufferPointer(start: chunk, count: n) {
                if b == 0x0A {
                    try body(number, text(pending, number))
                    pending.removeAll(keepingCapacity: true)
                    number += 1
                } else {
                    guard pending.count < maxLineBytes else {
                        throw AliasFileError(
                            line: number,
                            message:
                                "a line is longer than \(maxLineBytes >> 10) KiB (an alias line holds two IDs; is this an alias file?)"
                        )
                    }
                    pending.append(b)
                }
            }
        }
        if !pending.isEmpty { try body(number, text(pending, number)) }
    }

    private static func text(_ bytes: [UInt8], _ line: Int) throws -> String {
        var b = bytes
        if b.last == 0x0D { b.removeLast() }
        guard let s = String(validating: b, as: UTF8.self) else {
            throw AliasFileError(line: line, message: "not UTF-8 text")
        }
        return s
    }

    /// Parses every edge of a source, streaming; the first bad line throws
    /// with its number. Values quoted in messages are cut to a short,
    /// one-line excerpt.
    package static func edges(_ source: ByteSource) throws -> [Line] {
        var out: [Line] = []
        var parser: LineParser?
        try forEachLine(source) { number, text in
            if text.trimmingSpacesString.isEmpty { return }
            if let parser {
                out.append(try parser.edge(number, text))
            } else {
                parser = try LineParser(first: text, number: number)
                if parser!.isJSON || parser!.isRules { out.append(try parser!.edge(number, text)) }
            }
        }
        guard parser != nil else { throw AliasFileError(line: 1, message: "empty alias file") }
        return out
    }

    /// Reads lines in the form the first one set: NDJSON, or CSV under
    /// the header it names.
    struct LineParser {
        let isJSON: Bool
        /// Lines `same A B` / `different A B` (whitespace-separated).
        var isRules = false
        var oldColumn = 0, newColumn = 0
        var reasonColumn: Int?, confidenceColumn: Int?, sourceColumn: Int?, recordedColumn: Int?

        init(first: String, number: Int) throws {
            isJSON = first.hasPrefix("{") || first.hasPrefix("\u{1E}")
            if isJSON { return }
            let words = first.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if let w = words.first, LinkRuleKind(rawValue: w.lowercased()) != nil {
                isRules = true
                return
            }
            let header = csvFields(first).map { $0.lowercased().trimmingSpacesString }
            guard let o = header.firstIndex(where: oldNames.contains),
                let n = header.firstIndex(where: newNames.contains)
            else {
                throw AliasFileError(
                    line: number,
                    message:
                        "the CSV header must name an old-ID column (old_id) and a new-ID column (new_id); found: \(quoted(header.joined(separator: ",")))"
                )
            }
            oldColumn = o
            newColumn = n
            reasonColumn = header.firstIndex(of: "reason")
            confidenceColumn = header.firstIndex(of: "confidence")
            sourceColumn = header.firstIndex(of: "source")
            recordedColumn = header.firstIndex { $0 == "recorded_at" || $0 == "recordedat" }
        }

        func edge(_ number: Int, _ text: String) throws -> Line {
            if isRules {
                let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                guard words.count == 3, let kind = LinkRuleKind(rawValue: words[0].lowercased()) else {
                    throw AliasFileError(
                        line: number, message: "expected 'same A B' or 'different A B' (two IDs), found \(quoted(text))"
                    )
                }
                let edge = try AliasFileReader.edge(
                    old: words[1], new: words[2], reason: nil, confidence: nil, line: number)
                return Line(number: number, edge: edge, rule: kind)
            }
            if isJSON {
                let value: JSONValue
                do { value = try JSONParser.parse(text) } catch {
                    throw AliasFileError(line: number, message: "malformed JSON: \(error.message)")
                }
                guard let o = value.objectValue else {
                    throw AliasFileError(line: number, message: "expected a JSON object")
                }
                func field(_ names: [String]) -> String? {
                    for n in names { if let v = o[n]?.stringValue { return v } }
                    return nil
                }
                let confidence: Double?
                if let c = o["confidence"] {
                    guard let d = c.doubleValue else {
                        throw AliasFileError(
                            line: number, message: "confidence is \(c.kindDescription), expected a number")
                    }
                    confidence = d
                } else {
                    confidence = nil
                }
                let rule = field(["reason"]).flatMap { LinkRuleKind(rawValue: $0.lowercased()) }
                var edge = try AliasFileReader.edge(
                    old: field(["oldId", "aliasId", "from", "old_id"]),
                    new: field(["newId", "placeId", "to", "new_id"]),
                    reason: rule == nil ? field(["reason"]) : nil, confidence: confidence, line: number)
                if let rule { return Line(number: number, edge: edge, rule: rule) }
                // Why, as `placedb export --aliases` writes it.
                if let evidence = o["evidence"], evidence != .null { edge.evidence = evidence }
                return Line(
                    number: number, edge: edge, source: try stringMember(o["source"], "source", number),
                    recordedAt: try time(stringMember(o["recordedAt"], "recordedAt", number), "recordedAt", number))
            }
            let f = csvFields(text)
            func at(_ i: Int?) -> String? {
                i.flatMap { $0 < f.count ? f[$0].trimmingSpacesString : nil }.flatMap { $0.isEmpty ? nil : $0 }
            }
            var confidence: Double?
            if let c = at(confidenceColumn) {
                guard let d = Double(c) else {
                    throw AliasFileError(line: number, message: "confidence \(quoted(c)) is not a number")
                }
                confidence = d
            }
            let rule = at(reasonColumn).flatMap { LinkRuleKind(rawValue: $0.lowercased()) }
            let edge = try AliasFileReader.edge(
                old: at(oldColumn), new: at(newColumn), reason: rule == nil ? at(reasonColumn) : nil,
                confidence: confidence, line: number)
            if let rule { return Line(number: number, edge: edge, rule: rule) }
            return Line(
                number: number, edge: edge, source: at(sourceColumn),
                recordedAt: try time(at(recordedColumn), "recorded_at", number))
        }

        /// A member that must be a non-empty string when present.
        private func stringMember(_ value: JSONValue?, _ name: String, _ number: Int) throws -> String? {
            guard let value, value != .null else { return nil }
            guard let s = value.stringValue else {
                throw AliasFileError(line: number, message: "\(name) is \(value.kindDescription), expected a string")
            }
            return s.isEmpty ? nil : s
        }

        /// A time the edge was recorded: RFC 3339, as `resolve` prints it.
        private func time(_ text: String?, _ name: String, _ number: Int) throws -> String? {
            guard let text else { return nil }
            guard CaptureTime.parse(text) != nil else {
                throw AliasFileError(line: number, message: "\(name) \(quoted(text)) is not an RFC 3339 time")
            }
            return text
        }
    }

    static func edge(old: String?, new: String?, reason: String?, confidence: Double?, line: Int) throws -> AliasEdge {
        guard let old else { throw AliasFileError(line: line, message: "no old ID") }
        guard let new else { throw AliasFileError(line: line, message: "no new ID") }
        let oldID = PlaceID(parsing: old).rawValue, newID = PlaceID(parsing: new).rawValue
        // An empty ID (JSON "" or "places/") names no place.
        guard !oldID.isEmpty else { throw AliasFileError(line: line, message: "no old ID (empty)") }
        guard !newID.isEmpty else { throw AliasFileError(line: line, message: "no new ID (empty)") }
        guard oldID != newID else {
            throw AliasFileError(line: line, message: "\(quoted(oldID)) would be an alias of itself")
        }
        let r: AliasReason
        if let reason {
            guard
                let parsed = AliasReason(rawValue: reason.lowercased())
                    ?? (reason.lowercased() == "requested" ? .requestedReturned : nil),
                parsed != .samePlace
            else {
                throw AliasFileError(
                    line: line,
                    message:
                        "unknown reason \(quoted(reason)); one of: \(AliasReason.edgeReasons.map(\.rawValue).joined(separator: ", ")), or same / different (linking rules)"
                )
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
                } else {
                    field.append(c)
                }
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
