import Foundation
import PlaceModel
import PlaceStorage

/// A small writer of self-contained SVG documents (no scripts, fonts or
/// images from outside): elements with escaped attributes and text, and
/// numbers written short. Used by the current-place picture and by the
/// evaluation charts of placedb-bench.
package struct SVGWriter {
    package private(set) var text = ""
    private var open: [String] = []

    /// Starts a document `width` x `height` pixels, with a title and a
    /// description (what a screen reader says; also the tooltip).
    package init(
        width: Double, height: Double, title: String, description: String? = nil, attributes: [(String, String)] = []
    ) {
        text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        start(
            "svg",
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("width", Self.number(width)), ("height", Self.number(height)),
                ("viewBox", "0 0 \(Self.number(width)) \(Self.number(height))"), ("role", "img"),
                ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"),
            ] + attributes)
        element("title", text: title)
        if let description { element("desc", text: description) }
    }

    /// Opens an element; `end()` closes it.
    package mutating func start(_ name: String, _ attributes: [(String, String)] = []) {
        text += String(repeating: "  ", count: open.count) + "<" + name + Self.attributes(attributes) + ">\n"
        open.append(name)
    }

    package mutating func end() {
        guard let name = open.popLast() else { return }
        text += String(repeating: "  ", count: open.count) + "</" + name + ">\n"
    }

    /// An element with no children, or with only (escaped) text.
    package mutating func element(_ name: String, _ attributes: [(String, String)] = [], text content: String? = nil) {
        text += String(repeating: "  ", count: open.count) + "<" + name + Self.attributes(attributes)
        if let content {
            text += ">" + Self.escape(content) + "</" + name + ">\n"
        } else {
            text += "/>\n"
        }
    }

    /// The document, every element closed.
    package mutating func finish() -> String {
        while !open.isEmpty { end() }
        return text
    }

    static func attributes(_ list: [(String, String)]) -> String {
        list.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    /// Text safe in XML content and in double- or single-quoted attributes:
    /// the five markup characters as entities, and characters XML 1.0 does
    /// not allow (controls other than tab and newline, U+FFFE, U+FFFF)
    /// replaced by U+FFFD.
    package static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n": out.unicodeScalars.append(u)
            case "\r": out += "&#13;"
            default:
                let v = u.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out
    }

    /// A coordinate or length: at most two decimals, no trailing zeros,
    /// never "-0"; non-finite values as 0 (never reached by callers that
    /// clip first, but an SVG must not hold "nan").
    package static func number(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        var r = (x * 100).rounded() / 100
        if r == 0 { r = 0 }
        if r == r.rounded() && abs(r) < 1e15 { return String(Int64(r)) }
        var s = String(format: "%.2f", r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// The width of a line of text at `fontSize` pixels, estimated without
    /// font metrics (the picture is self-contained): generous per
    /// character (0.62 em most ASCII, 0.78 em a capital, 0.75 em other
    /// letters (Cyrillic, Greek, accented), 1 em for m, w, @, %, № and for
    /// wide characters: CJK, full-width forms, emoji), a tenth more in
    /// bold, so text placed by it stays inside what holds it.
    package static func textWidth(_ s: String, fontSize: Double, bold: Bool = false) -> Double {
        var ems = 0.0
        for u in s.unicodeScalars { ems += self.ems(u) }
        return ems * fontSize * (bold ? 1.1 : 1)
    }

    /// One scalar's width in ems, by class.
    private static func ems(_ u: Unicode.Scalar) -> Double {
        switch u.value {
        case 0x20, 0x2E, 0x2C, 0x3A, 0x3B, 0x27, 0x7C, 0x21, 0x69, 0x6A, 0x6C, 0x49: 0.36 // space . , : ; ' | ! i j l I
        case 0x6D, 0x77, 0x4D, 0x57, 0x40, 0x25: 1.0 // m w M W @ %
        case 0x41...0x5A: 0.78
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6,
            0x1F000...0x1FAFF, 0x20000...0x3FFFD:
            1.05
        case 0x0300...0x036F, 0x200B...0x200F: 0 // combining marks, zero-width
        case 0x2116, 0x2122: 1.05 // № ™
        case 0x80...: 0.75 // other letters and signs (Cyrillic, Greek, accented capitals, arrows)
        default: 0.62
        }
    }

    /// `s`, cut with "…" to fit `width` pixels by `textWidth`: its longest
    /// prefix of whole characters that fits with the "…", in one pass (a
    /// name of 10,000 characters costs what it is long, not its square).
    package static func fit(_ s: String, width: Double, fontSize: Double, bold: Bool = false) -> String {
        if textWidth(s, fontSize: fontSize, bold: bold) <= width { return s }
        let scale = fontSize * (bold ? 1.1 : 1)
        var used = textWidth("…", fontSize: fontSize, bold: bold)
        var end = s.startIndex
        for i in s.indices {
            let w = s[i].unicodeScalars.reduce(0.0) { $0 + ems($1) } * scale
            if used + w > width { break }
            used += w
            end = s.index(after: i)
        }
        return end == s.startIndex ? "" : String(s[..<end]) + "…"
    }

    /// A "nice" length for a scale bar or an axis step: 1, 2 or 5 times a
    /// power of ten, the largest not above `limit` (which must be positive).
    static func niceLength(atMost limit: Double) -> Double {
        guard limit.isFinite, limit > 0 else { return 1 }
        let power = pow(10, (log10(limit)).rounded(.down))
        for m in [5.0, 2.0, 1.0] where m * power <= limit { return m * power }
        return power
    }
}
