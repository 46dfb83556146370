#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes JSON text: compact for storage and pipes, indented for people.
public struct JSONWriter: Sendable {
    public var pretty: Bool
    /// Sort object members by key (off: keep their order).
    public var sortedKeys: Bool

    public init(pretty: Bool = false, sortedKeys: Bool = false) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
    }

    public func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public func write(_ value: JSONValue, into out: inout [UInt8]) {
        write(value, into: &out, indent: 0)
    }

    /// Writes an object without one of its members (compact only).
    func writeObject(_ o: JSONObject, skipping skipped: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for m in o.members where m.key != skipped {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(m.key, into: &out)
            out.append(UInt8(ascii: ":"))
            write(m.value, into: &out, indent: 0)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes one member, `"key":value` (compact only).
    package func writeMember(_ key: String, _ value: JSONValue, into out: inout [UInt8]) {
        JSONWriter.writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(value, into: &out, indent: 0)
    }

    /// Writes compact JSON text (as `JSONWriter()` writes it) indented, the
    /// bytes `JSONWriter(pretty: true)` gives for the value it holds,
    /// without building the value: strings and numbers are copied as
    /// they are. Whitespace between tokens is dropped. The text must be
    /// valid JSON (it is not checked).
    package static func indent(compact text: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        let room = 2 * text.count + 256
        guard out.isEmpty else { return indent(compact: text, into: &out, room: room) }
        // Into a new array's room, left uninitialized (not zeroed first:
        // the room is about twice the answer, and zeroing it would write
        // it all once more).
        var fits = true
        out = [UInt8](unsafeUninitializedCapacity: room) { buffer, count in
            if let written = indent(compact: text, into: buffer) {
                count = written
            } else {
                count = 0
                fits = false
            }
        }
        if !fits { indentAppending(compact: text, into: &out) }
    }

    /// `indent`, written into `room` bytes reserved at the end of `out` in
    /// one go (no per-byte growth checks); when the indented text needs
    /// more, it is written again the plain way (`indentAppending`).
    static func indent(compact text: UnsafeRawBufferPointer, into out: inout [UInt8], room: Int) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: room))
        let written = out.withUnsafeMutableBufferPointer { buffer in
            indent(compact: text, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
        if let written {
            out.removeLast(room - written)
        } else {
            out.removeLast(room)
            indentAppending(compact: text, into: &out)
        }
    }

    /// Writes `indent`'s bytes into `buffer`; the count written, or nil
    /// when they do not fit.
    private static func indent(compact text: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        guard let o = buffer.baseAddress else { return text.isEmpty ? 0 : nil }
        let capacity = buffer.count
        var w = 0
        var depth = 0
        var i = 0
        let n = text.count
        @inline(__always) func newline() -> Bool {
            let k = 1 + 2 * max(depth, 0)
            guard w + k <= capacity else { return false }
            o[w] = 0x0A
            let end = w + k
            var p = w + 1
            if end + 8 <= capacity {
                // Eight spaces a store (past `end` is written over next).
                while p < end {
                    UnsafeMutableRawPointer(o + p).storeBytes(of: spaceWord, as: UInt64.self)
                    p += 8
                }
            } else {
                (o + p).update(repeating: 0x20, count: end - p)
            }
            w = end
            return true
        }
        @inline(__always) func copy(_ from: Int, _ to: Int) -> Bool {
            let k = to - from
            guard w + k <= capacity else { return false }
            if k > 0 { (o + w).update(from: text.baseAddress!.assumingMemoryBound(to: UInt8.self) + from, count: k) }
            w += k
            return true
        }
        @inline(__always) func put(_ b: UInt8) -> Bool {
            guard w < capacity else { return false }
            o[w] = b
            w += 1
            return true
        }
        while i < n {
            let b = text[i]
            switch b {
            case UInt8(ascii: "\""):
                // Copied while its end is looked for, eight bytes a step
                // (bytes stored past the end are written over next), a
                // backslash taking the byte it escapes along.
                guard put(b) else { return nil }
                var j = i + 1
                while true {
                    if j + 8 <= n && w + 8 <= capacity {
                        let x = text.loadUnaligned(fromByteOffset: j, as: UInt64.self)
                        UnsafeMutableRawPointer(o + w).storeBytes(of: x, as: UInt64.self)
                        let marks = zeroBytes(x ^ quoteWord) | zeroBytes(x ^ backslashWord)
                        if marks == 0 {
                            j += 8
                            w += 8
                            continue
                        }
                        let t = marks.trailingZeroBitCount / 8
                        j += t
                        w += t
                    } else {
                        guard j < n else { break }
                        let c = text[j]
                        if c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") {
                            guard put(c) else { return nil }
                            j += 1
                            continue
                        }
                    }
                    // A quote (the end) or a backslash at j.
                    let c = text[j]
                    guard put(c) else { return nil }
                    j += 1
                    if c == UInt8(ascii: "\"") { break }
                    if j < n {
                        guard put(text[j]) else { return nil }
                        j += 1
                    }
                }
                i = j
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard put(b) else { return nil }
                var j = i + 1
                while j < n, text[j] == 0x20 || text[j] == 0x0A || text[j] == 0x0D || text[j] == 0x09 { j += 1 }
                if j < n, text[j] == b + 2 {
                    guard put(b + 2) else { return nil }
                    i = j + 1
                    continue
                }
                depth += 1
                guard newline() else { return nil }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard newline(), put(b) else { return nil }
            case UInt8(ascii: ","):
                guard put(b), newline() else { return nil }
            case UInt8(ascii: ":"):
                guard put(b), put(0x20) else { return nil }
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                let j = tokenEnd(text, from: i)
                guard copy(i, j) else { return nil }
                i = j
                continue
            }
            i += 1
        }
        return w
    }

    /// The end of the number or literal starting at `start`: the next
    /// structural character or white space, or `text.count`.
    private static func tokenEnd(_ text: UnsafeRawBufferPointer, from start: Int) -> Int {
        var j = start + 1
        while j < text.count {
            let c = text[j]
            if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == UInt8(ascii: ":")
                || c <= 0x20
            {
                break
            }
            j += 1
        }
        return j
    }

    /// Eight copies of a byte.
    private static let spaceWord: UInt64 = 0x2020_2020_2020_2020
    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let quoteWord: UInt64 = 0x2222_2222_2222_2222
    private static let backslashWord: UInt64 = 0x5C5C_5C5C_5C5C_5C5C

    /// The high bit of each byte of `x` that is zero: exact up to the first
    /// such byte (a borrow may mark bytes after it, never before).
    @inline(__always) private static func zeroBytes(_ x: UInt64) -> UInt64 { (x &- lowBits) & ~x & highBits }

    /// Whether a byte of `x` is below 0x20, a quote or a backslash.
    @inline(__always) static func needsEscape(_ x: UInt64) -> Bool {
        ((x &- lowBits &* 0x20) & ~x & highBits) | zeroBytes(x ^ (lowBits &* 0x22)) | zeroBytes(x ^ (lowBits &* 0x5C))
            != 0
    }

    /// `indent`, appending byte by byte (for text whose indented form
    /// outgrows the room `indent` reserves).
    static func indentAppending(compact text: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.reserveCapacity(out.count + text.count + text.count / 2)
        var depth = 0
        var i = 0
        let n = text.count
        func newline() {
            out.append(0x0A)
            var left = 2 * depth
            while left > 0 {
                let k = min(left, spaces.count)
                out.append(contentsOf: spaces[0..<k])
                left -= k
            }
        }
        while i < n {
            let b = text[i]
            switch b {
            case UInt8(ascii: "\""):
                // A string, escapes and all, up to its closing quote.
                var j = i + 1
                while j < n {
                    let c = text[j]
                    if c == UInt8(ascii: "\\") { j += 2; continue }
                    j += 1
                    if c == UInt8(ascii: "\"") { break }
                }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[i..<min(j, n)]))
                i = j
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(b)
                var j = i + 1
                while j < n, text[j] == 0x20 || text[j] == 0x0A || text[j] == 0x0D || text[j] == 0x09 { j += 1 }
                if j < n, text[j] == b + 2 {
                    // Empty: {} or [] (the closing bracket's code is the opening one's + 2).
                    out.append(b + 2)
                    i = j + 1
                    continue
                }
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(b)
            case UInt8(ascii: ","):
                out.append(b)
                newline()
            case UInt8(ascii: ":"):
                out.append(b)
                out.append(0x20)
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                // A number or a literal: copied up to the next token.
                let j = tokenEnd(text, from: i)
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[i..<j]))
                i = j
                continue
            }
            i += 1
        }
    }

    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    private func newline(_ out: inout [UInt8], _ indent: Int) {
        guard pretty else { return }
        out.append(0x0A)
        for _ in 0..<indent { out.append(0x20); out.append(0x20) }
    }

    private func write(_ value: JSONValue, into out: inout [UInt8], indent: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): JSONWriter.writeNumber(d, into: &out)
        case .string(let s): JSONWriter.writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            if a.isEmpty { out.append(UInt8(ascii: "]")); return }
            for (i, element) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1)
                write(element, into: &out, indent: indent + 1)
            }
            newline(&out, indent)
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            if o.isEmpty { out.append(UInt8(ascii: "}")); return }
            let members = sortedKeys ? o.members.sorted { $0.key < $1.key } : o.members
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1)
                JSONWriter.writeString(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(0x20) }
                write(m.value, into: &out, indent: indent + 1)
            }
            newline(&out, indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Shortest text that reads back as the same Double; integral values
    /// within 2^53 without a fraction.
    package static func writeNumber(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else { out.append(contentsOf: "null".utf8); return }
        if d == 0 && d.sign == .minus {
            out.append(contentsOf: "-0.0".utf8)
        } else if d == d.rounded(), abs(d) < 9_007_199_254_740_992 {
            appendInteger(Int64(d), into: &out)
        } else if !appendShortDecimal(d, into: &out) {
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// Writes `d` (not integral) as `description` does when it has at
    /// most 9 decimals (coordinates to the centimeter, distances, ratings):
    /// the fewest decimals `p` whose nearest `k / 10^p` is `d` itself
    /// (the division is correctly rounded, so `d` reads back from that
    /// text), which is the shortest text that does, and the only one with
    /// `p` decimals (10^-p is far wider than `d`'s ulp while `k` < 2^50).
    /// `description` writes such numbers without an exponent from 0.001
    /// up. False (nothing written) for other numbers.
    static func appendShortDecimal(_ d: Double, into out: inout [UInt8]) -> Bool {
        let magnitude = abs(d)
        guard magnitude >= 0.001, magnitude < 1e12 else { return false }
        var scale = 1.0
        for p in 1...9 {
            scale *= 10 // exact
            let scaled = magnitude * scale
            guard scaled < 1_125_899_906_842_624 else { return false } // 2^50
            // Rounded by truncating scaled + 0.5: exact when scaled is next
            // to an integer, the only case that passes the check below.
            let k = UInt64(scaled + 0.5)
            guard Double(k) / scale == magnitude else { continue }
            appendDigits(k, decimals: p, negative: d < 0, into: &out)
            return true
        }
        return false
    }

    /// Writes an integer in decimal, as `String(i)` does, without building the String.
    package static func appendInteger(_ i: Int64, into out: inout [UInt8]) {
        appendDigits(i.magnitude, decimals: 0, negative: i < 0, into: &out)
    }

    /// Writes `k` in decimal with a point before its last `decimals`
    /// digits (0: none; "0." and zeros before them as needed), after a
    /// minus sign when `negative`, in one append.
    private static func appendDigits(_ k: UInt64, decimals: Int, negative: Bool, into out: inout [UInt8]) {
        var room: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0) // 32 bytes: 20 digits, point, sign, zeros
        withUnsafeMutableBytes(of: &room) { b in
            var i = 32
            var v = k
            if decimals > 0 {
                for _ in 0..<decimals {
                    i -= 1
                    b[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                i -= 1
                b[i] = UInt8(ascii: ".")
            }
            repeat {
                i -= 1
                b[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v > 0
            if negative {
                i -= 1
                b[i] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[i...]))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    package static func writeString(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { writeString(utf8: UnsafeRawBufferPointer($0), into: &out) }
    }

    /// `writeString` of the string whose UTF-8 bytes these are, after
    /// `prefix` (text that needs no escape).
    package static func writeString(prefix: StaticString = "", utf8 u: UnsafeRawBufferPointer, into out: inout [UInt8])
    {
        out.append(UInt8(ascii: "\""))
        if prefix.utf8CodeUnitCount > 0 { prefix.withUTF8Buffer { out.append(contentsOf: $0) } }
        // Most strings need no escape: checked eight bytes at a time, copied at once.
        var clean = 0
        while clean + 8 <= u.count, !needsEscape(u.loadUnaligned(fromByteOffset: clean, as: UInt64.self)) { clean += 8 }
        while clean < u.count, u[clean] >= 0x20, u[clean] != UInt8(ascii: "\""), u[clean] != UInt8(ascii: "\\") {
            clean += 1
        }
        if clean == u.count {
            out.append(contentsOf: u)
            out.append(UInt8(ascii: "\""))
            return
        }
        // Copy runs that need no escape in one go.
        var run = 0
        for i in 0..<u.count {
            let b = u[i]
            if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { continue }
            if i > run { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: u[run..<i])) }
            run = i + 1
            switch b {
            case UInt8(ascii: "\""): out.append(0x5C); out.append(b)
            case UInt8(ascii: "\\"): out.append(0x5C); out.append(b)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
            default:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            }
        }
        if run < u.count { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: u[run...])) }
        out.append(UInt8(ascii: "\""))
    }
}
