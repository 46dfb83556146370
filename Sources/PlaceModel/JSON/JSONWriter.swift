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
        indent(compact: text, into: &out, room: 2 * text.count + 256)
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
    private static func indent(compact text: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
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
            (o + w + 1).update(repeating: 0x20, count: k - 1)
            w += k
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
                let j = stringEnd(text, from: i)
                guard copy(i, j) else { return nil }
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
            if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == UInt8(ascii: ":") || c <= 0x20 { break }
            j += 1
        }
        return j
    }

    /// The end (past the closing quote, or `text.count`) of the string
    /// whose opening quote is at `start`: the first quote after it (found
    /// with memchr) preceded by an even run of backslashes.
    private static func stringEnd(_ text: UnsafeRawBufferPointer, from start: Int) -> Int {
        guard let base = text.baseAddress else { return text.count }
        var from = start + 1
        while from < text.count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), text.count - from) {
            let quote = base.distance(to: UnsafeRawPointer(found))
            // The run stops at the opening quote at the latest.
            var k = quote - 1
            while text[k] == UInt8(ascii: "\\") { k -= 1 }
            if (quote - 1 - k) % 2 == 0 { return quote + 1 }
            from = quote + 1
        }
        return text.count
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
            out.append(contentsOf: String(Int64(d)).utf8)
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    package static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { u in
            // Copy runs that need no escape in one go.
            var run = 0
            for i in 0..<u.count {
                let b = u[i]
                if b >= 0x20 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") { continue }
                if i > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run..<i])) }
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
            if run < u.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: u[run...])) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
