#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A strict RFC 8259 parser over a contiguous UTF-8 buffer. It validates
/// UTF-8 inside strings, rejects control characters and trailing garbage,
/// and limits nesting depth so hostile input cannot exhaust the stack.
package struct JSONParser {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var pos = 0
    private var depth = 0
    /// Member names made before (nil: every name is made anew).
    private let keys: JSONKeyCache?
    static let maxDepth = 512

    private init(_ buffer: UnsafeRawBufferPointer, keys: JSONKeyCache? = nil) {
        // An empty buffer may have a nil base address; point at a static byte.
        self.base = buffer.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? JSONParser.emptyByte
        self.end = buffer.count
        self.keys = keys
    }

    nonisolated(unsafe) private static let emptyByte: UnsafePointer<UInt8> = {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        p.initialize(to: 0)
        return UnsafePointer(p)
    }()

    /// Parses exactly one JSON value (surrounding white space allowed).
    /// `keys`: a cache of member names to reuse across many parses (a
    /// reading thread's own), or nil.
    package static func parse(_ buffer: UnsafeRawBufferPointer, keys: JSONKeyCache? = nil) throws(JSONSyntaxError)
        -> JSONValue
    {
        var parser = JSONParser(buffer, keys: keys)
        parser.skipWhitespace()
        guard parser.pos < parser.end else { throw JSONSyntaxError(message: "no JSON value", offset: 0) }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.pos < parser.end {
            throw parser.error("unexpected \(parser.describe(parser.base[parser.pos])) after the JSON value")
        }
        return value
    }

    /// The JSON value at the start of `buffer` and how many bytes it takes,
    /// the bytes after it left alone; nil when no whole valid value is there
    /// (a syntax error, or a value cut off by the buffer's end). For a reader
    /// that would otherwise find a value's extent with a scan of its own
    /// first: on nil it does, and its parse reports what is wrong.
    package static func parseLeading(_ buffer: UnsafeRawBufferPointer, keys: JSONKeyCache? = nil) -> (
        value: JSONValue, length: Int
    )? {
        var parser = JSONParser(buffer, keys: keys)
        do throws(JSONSyntaxError) {
            let value = try parser.parseValue()
            return (value, parser.pos)
        } catch {
            return nil
        }
    }

    /// One member of an object, located in its text.
    package struct MemberSpan {
        /// The name's bytes between the quotes (escapes not decoded).
        package var name: Range<Int>
        /// The member from its name's opening quote to its value's end.
        package var member: Range<Int>
        /// True when the name holds a backslash escape.
        var nameEscaped: Bool

        /// A member whose name (between its quotes, at `name`) holds no
        /// backslash escape.
        package init(plainName name: Range<Int>, member: Range<Int>) {
            self.name = name
            self.member = member
            nameEscaped = false
        }

        init(name: Range<Int>, member: Range<Int>, nameEscaped: Bool) {
            self.name = name
            self.member = member
            self.nameEscaped = nameEscaped
        }
    }

    /// The members of a JSON object, located but not built (their nesting
    /// and strings are followed).
    package static func memberSpans(_ buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> [MemberSpan] {
        var out: [MemberSpan] = []
        out.reserveCapacity(16)
        try memberSpans(buffer, into: &out)
        return out
    }

    /// `memberSpans`, appended to `out` (a buffer kept between calls).
    package static func memberSpans(_ buffer: UnsafeRawBufferPointer, into out: inout [MemberSpan])
        throws(JSONSyntaxError)
    {
        var cursor = try MemberCursor(buffer)
        while let span = try cursor.next() { out.append(span) }
    }

    /// The members of a JSON object located one at a time, as
    /// `memberSpans` locates them: a reader that needs only the first few
    /// members stops there, without following the rest of the text (nor
    /// checking it). The text after the object is checked once the last
    /// member is read.
    package struct MemberCursor {
        private var parser: JSONParser
        private var done = false

        /// A cursor at the object's first member; throws when the text
        /// does not start with an object.
        package init(_ buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
            parser = JSONParser(buffer)
            parser.skipWhitespace()
            guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: "{") else {
                throw parser.error("expected a JSON object")
            }
            parser.pos += 1
            parser.skipWhitespace()
            if parser.pos < parser.end && parser.base[parser.pos] == UInt8(ascii: "}") {
                parser.pos += 1
                try finish()
            }
        }

        /// The next member, or nil after the last.
        package mutating func next() throws(JSONSyntaxError) -> MemberSpan? {
            guard !done else { return nil }
            parser.skipWhitespace()
            guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: "\"") else {
                throw parser.error("expected a member name in double quotes")
            }
            let quote = parser.pos
            try parser.skipString()
            let name = (quote + 1)..<(parser.pos - 1)
            let escaped = memchr(parser.base + name.lowerBound, Int32(UInt8(ascii: "\\")), name.count) != nil
            parser.skipWhitespace()
            guard parser.pos < parser.end, parser.base[parser.pos] == UInt8(ascii: ":") else {
                throw parser.error("expected ':' after a member name")
            }
            parser.pos += 1
            parser.skipWhitespace()
            try parser.skipValue()
            let span = MemberSpan(name: name, member: quote..<parser.pos, nameEscaped: escaped)
            parser.skipWhitespace()
            guard parser.pos < parser.end else { throw parser.error("unexpected end of JSON text inside an object") }
            if parser.base[parser.pos] == UInt8(ascii: ",") {
                parser.pos += 1
            } else if parser.base[parser.pos] == UInt8(ascii: "}") {
                parser.pos += 1
                try finish()
            } else {
                throw parser.error(
                    "expected ',' or '}' in an object, found \(parser.describe(parser.base[parser.pos]))")
            }
            return span
        }

        private mutating func finish() throws(JSONSyntaxError) {
            done = true
            parser.skipWhitespace()
            if parser.pos < parser.end {
                throw parser.error("unexpected \(parser.describe(parser.base[parser.pos])) after the JSON value")
            }
        }
    }

    /// The decoded name of a member located by `memberSpans`.
    package static func memberName(_ buffer: UnsafeRawBufferPointer, _ span: MemberSpan) throws(JSONSyntaxError)
        -> String
    {
        if !span.nameEscaped {
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[span.name]), as: UTF8.self)
        }
        var parser = JSONParser(buffer)
        parser.pos = span.name.lowerBound - 1
        return try parser.parseString()
    }

    /// The value of a member located by `memberSpans`, parsed.
    package static func memberValue(_ buffer: UnsafeRawBufferPointer, _ span: MemberSpan) throws(JSONSyntaxError)
        -> JSONValue
    {
        var parser = JSONParser(buffer)
        parser.pos = span.name.upperBound + 1
        parser.skipWhitespace()
        parser.pos += 1 // the colon
        parser.skipWhitespace()
        return try parser.parseValue()
    }

    /// Moves past one value without building it.
    private mutating func skipValue() throws(JSONSyntaxError) {
        guard pos < end else { throw error("unexpected end of JSON text") }
        switch base[pos] {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var nesting = 0
            while pos < end {
                let c = base[pos]
                if c == UInt8(ascii: "\"") {
                    try skipString()
                    continue
                }
                // Only [ and { are 0x5B under the mask 0xDF, only ] and } 0x5D.
                let folded = c & 0xDF
                if folded == 0x5B {
                    nesting += 1
                    if nesting > JSONParser.maxDepth {
                        throw error("nesting deeper than \(JSONParser.maxDepth) levels")
                    }
                } else if folded == 0x5D {
                    nesting -= 1
                    if nesting == 0 {
                        pos += 1
                        return
                    }
                }
                pos += 1
            }
            throw error("unexpected end of JSON text inside a value")
        default:
            let start = pos
            while pos < end {
                switch base[pos] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
                default:
                    pos += 1
                    continue
                }
                break
            }
            if pos == start { throw error("unexpected \(describe(base[pos])) where a JSON value should start") }
        }
    }

    /// Moves past the string whose opening quote is at `pos`: to the
    /// first quote after it (found with memchr) preceded by an even run
    /// of backslashes (each pair an escaped backslash; an odd run escapes
    /// the quote). Escapes are not checked here.
    private mutating func skipString() throws(JSONSyntaxError) {
        let start = pos
        var from = pos + 1
        while from < end, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), end - from) {
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // The run stops at the opening quote at the latest.
            var k = quote - 1
            while base[k] == UInt8(ascii: "\\") { k -= 1 }
            if (quote - 1 - k) % 2 == 0 {
                pos = quote + 1
                return
            }
            from = quote + 1
        }
        throw JSONSyntaxError(message: "unterminated string", offset: start)
    }

    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        do {
            return try bytes.withUnsafeBytes { try parse($0) }
        } catch let e as JSONSyntaxError {
            throw e
        } catch {
            throw JSONSyntaxError(message: "\(error)", offset: 0)
        }
    }

    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, offset: pos) }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(2))"
    }

    private mutating func skipWhitespace() {
        while pos < end {
            switch base[pos] {
            case 0x20, 0x0A, 0x0D, 0x09: pos += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard pos < end else { throw error("unexpected end of JSON text") }
        switch base[pos] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case let b: throw error("unexpected \(describe(b)) where a JSON value should start")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let n = word.utf8CodeUnitCount
        if end - pos >= n && memcmp(base + pos, word.utf8Start, n) == 0 {
            pos += n
            return
        }
        throw error("invalid literal (expected \(word))")
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        pos += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if pos < end && base[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return .object(JSONObject(uniqueMembers: members))
        }
        members.reserveCapacity(8)
        var duplicate = false
        // A 64-bit sketch of the names seen: most names never collide in
        // it, so most need no comparison with the others.
        var seen: UInt64 = 0
        while true {
            skipWhitespace()
            guard pos < end else { throw error("unexpected end of JSON text inside an object") }
            guard base[pos] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describe(base[pos]))")
            }
            let keyStart = pos
            let key = try parseName()
            let keyEnd = pos
            skipWhitespace()
            guard pos < end, base[pos] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name \"\(key.count > 64 ? key.prefix(64) + "…" : key)\"")
            }
            pos += 1
            skipWhitespace()
            let value = try parseValue()
            if !duplicate && members.count < 64 {
                // Of the decoded name: its bytes are the raw ones between the
                // quotes when it has no escapes (an escape is always longer
                // than what it stands for), which spares a walk back to its
                // last character.
                let u = key.utf8
                let n = u.count
                let last: UInt8 =
                    n == 0 ? 0 : keyEnd - keyStart - 2 == n ? base[keyEnd - 2] : u[u.index(before: u.endIndex)]
                let bit: UInt64 = 1 << UInt64((n &* 7 &+ Int(u.first ?? 0) &* 3 &+ Int(last)) & 63)
                if seen & bit != 0 { duplicate = members.contains { $0.key == key } }
                seen |= bit
            }
            members.append((key, value))
            skipWhitespace()
            guard pos < end else { throw error("unexpected end of JSON text inside an object") }
            if base[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if base[pos] == UInt8(ascii: "}") { pos += 1; break }
            throw error("expected ',' or '}' in an object, found \(describe(base[pos]))")
        }
        depth -= 1
        if duplicate || members.count >= 64 {
            // Last one wins, as in most parsers; keep the first position.
            return .object(JSONObject(lastWins: members))
        }
        return .object(JSONObject(uniqueMembers: members))
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        pos += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if pos < end && base[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard pos < end else { throw error("unexpected end of JSON text inside an array") }
            if base[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if base[pos] == UInt8(ascii: "]") { pos += 1; break }
            throw error("expected ',' or ']' in an array, found \(describe(base[pos]))")
        }
        depth -= 1
        return .array(elements)
    }

    /// A member name: from the key cache when it has it, else as any string.
    private mutating func parseName() throws(JSONSyntaxError) -> String {
        guard let keys else { return try parseString() }
        let start = pos + 1
        var i = start
        let limit = min(end, start + JSONKeyCache.maxLength + 1)
        while i < limit {
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                if let name = keys.name(base + start, i - start) {
                    pos = i + 1
                    return name
                }
                let name = try parseString()
                keys.keep(name, base + start, i - start)
                return name
            }
            // Escapes and control characters: the general path says what they mean.
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            i += 1
        }
        return try parseString()
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        pos += 1 // opening quote
        let start = pos
        // Fast path: no escapes, ASCII or valid UTF-8.
        while pos < end {
            let b = base[pos]
            if b == UInt8(ascii: "\"") {
                let s = try makeString(start, pos)
                pos += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw error("unescaped control character (\(describe(b))) in a string") }
            pos += 1
        }
        guard pos < end else { throw JSONSyntaxError(message: "unterminated string", offset: start - 1) }
        // Slow path with escapes.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pos - start + 16)
        bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: pos - start))
        while pos < end {
            let b = base[pos]
            if b == UInt8(ascii: "\"") {
                pos += 1
                guard let s = String(validating: bytes, as: UTF8.self) else {
                    throw JSONSyntaxError(message: "invalid UTF-8 in a string", offset: start)
                }
                return s
            }
            if b < 0x20 { throw error("unescaped control character (\(describe(b))) in a string") }
            if b != UInt8(ascii: "\\") {
                bytes.append(b)
                pos += 1
                continue
            }
            pos += 1
            guard pos < end else { break }
            let e = base[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by \u and a low one.
                    if end - pos >= 6 && base[pos] == UInt8(ascii: "\\") && base[pos + 1] == UInt8(ascii: "u") {
                        pos += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("invalid UTF-16 surrogate pair in \\u escape")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        throw error("lone UTF-16 surrogate in \\u escape")
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("lone UTF-16 surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                bytes.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw JSONSyntaxError(message: "invalid escape \\\(Character(Unicode.Scalar(e)))", offset: pos - 2)
            }
        }
        throw JSONSyntaxError(message: "unterminated string", offset: start - 1)
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard end - pos >= 4 else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = base[pos]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            pos += 1
        }
        return v
    }

    private func makeString(_ from: Int, _ to: Int) throws(JSONSyntaxError) -> String {
        let buffer = UnsafeBufferPointer(start: base + from, count: to - from)
        var ascii = true
        for b in buffer where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: buffer, as: UTF8.self) }
        guard let s = String(validating: buffer, as: UTF8.self) else {
            throw JSONSyntaxError(message: "invalid UTF-8 in a string", offset: from)
        }
        return s
    }

    private static let powersOf10: [Double] = (0...22).map { e in
        var v = 1.0
        for _ in 0..<e { v *= 10 }
        return v
    }

    #if arch(x86_64) && !os(Windows) && !os(Android)
        /// 10^0 ... 10^27, each exact in a Float80 (5^27 < 2^64).
        private static let powersOf10Extended: [Float80] = (0...27).map { e in
            var v: Float80 = 1
            for _ in 0..<e { v *= 10 }
            return v
        }
    #endif

    /// `mantissa` × 10^`exponent` correctly rounded to a Double, or nil when
    /// this path cannot promise it (the caller then asks strtod). Coordinates
    /// carry 17 significant digits, past the exact Double path, and glibc's
    /// strtod takes its multi-precision path for many of them. Here the
    /// mantissa (at most 19 digits) and 10^|exponent| (at most 27) are exact
    /// in x87 extended precision, so one multiplication or division rounds
    /// once to 64 bits; rounding that to a Double's 53 is the correct
    /// rounding of the exact value unless the 64-bit result lies within one
    /// of its units of a Double halfway point (its low 11 bits 0x3FF, 0x400
    /// or 0x401), which is left to strtod.
    @inline(__always)
    static func extendedDouble(_ mantissa: UInt64, exponent: Int) -> Double? {
        #if arch(x86_64) && !os(Windows) && !os(Android)
            guard exponent >= -27 && exponent <= 27 else { return nil }
            if mantissa == 0 { return 0 }
            var x = Float80(mantissa)
            x = exponent < 0 ? x / powersOf10Extended[-exponent] : x * powersOf10Extended[exponent]
            let low = x.significandBitPattern & 0x7FF
            if low >= 0x3FF && low <= 0x401 { return nil }
            return Double(x)
        #else
            return nil
        #endif
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = pos
        var negative = false
        if base[pos] == UInt8(ascii: "-") { negative = true; pos += 1 }
        guard pos < end, base[pos] >= 0x30 && base[pos] <= 0x39 else {
            throw error("invalid number: a digit must follow '-'")
        }
        var mantissa: UInt64 = 0
        var digits = 0
        if base[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < end && base[pos] >= 0x30 && base[pos] <= 0x39 { throw error("invalid number: leading zero") }
        } else {
            while pos < end && base[pos] >= 0x30 && base[pos] <= 0x39 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(base[pos] - 0x30) }
                digits += 1
                pos += 1
            }
        }
        var fractionDigits = 0
        var isInteger = true
        if pos < end && base[pos] == UInt8(ascii: ".") {
            isInteger = false
            pos += 1
            guard pos < end, base[pos] >= 0x30 && base[pos] <= 0x39 else {
                throw error("invalid number: a digit must follow '.'")
            }
            while pos < end && base[pos] >= 0x30 && base[pos] <= 0x39 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(base[pos] - 0x30); fractionDigits += 1 }
                if mantissa != 0 || digits > 0 { digits += 1 }
                pos += 1
            }
        }
        var exponent = 0
        var hasExponent = false
        if pos < end && (base[pos] == UInt8(ascii: "e") || base[pos] == UInt8(ascii: "E")) {
            isInteger = false
            hasExponent = true
            pos += 1
            var expNegative = false
            if pos < end && (base[pos] == UInt8(ascii: "+") || base[pos] == UInt8(ascii: "-")) {
                expNegative = base[pos] == UInt8(ascii: "-")
                pos += 1
            }
            guard pos < end, base[pos] >= 0x30 && base[pos] <= 0x39 else {
                throw error("invalid number: a digit must follow the exponent")
            }
            while pos < end && base[pos] >= 0x30 && base[pos] <= 0x39 {
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[pos] - 0x30) }
                pos += 1
            }
            if expNegative { exponent = -exponent }
        }
        if isInteger && digits <= 19 {
            // 19 digits fit in UInt64; keep it an Int64 when it fits one.
            if negative {
                if mantissa <= UInt64(Int64.max) + 1 {
                    return .int(mantissa == UInt64(Int64.max) + 1 ? Int64.min : -Int64(mantissa))
                }
            } else if mantissa <= UInt64(Int64.max) {
                return .int(Int64(mantissa))
            }
        }
        // Exact fast path: mantissa and power of ten both exact in a Double.
        if digits <= 15 && !hasExponent && fractionDigits <= 22 && mantissa < (1 << 53) {
            var d = Double(mantissa) / JSONParser.powersOf10[fractionDigits]
            if negative { d = -d }
            return .double(d)
        }
        if digits <= 19, let d = Self.extendedDouble(mantissa, exponent: exponent - fractionDigits) {
            return .double(negative ? -d : d)
        }
        // General case: let the C library round correctly.
        let length = pos - start
        var text = [CChar](repeating: 0, count: length + 1)
        for i in 0..<length { text[i] = CChar(bitPattern: base[start + i]) }
        let d = strtod(text, nil)
        guard d.isFinite else { throw JSONSyntaxError(message: "number out of range", offset: start) }
        return .double(d)
    }
}

extension String {
    package func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
