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
    package init(width: Double, height: Double, title: String, description: String? = nil, attributes: [(String, String)] = []) {
        text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        start("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("width", Self.number(width)), ("height", Self.number(height)),
                      ("viewBox", "0 0 \(Self.number(width)) \(Self.number(height))"), ("role", "img"),
                      ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif")] + attributes)
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

    /// A "nice" length for a scale bar or an axis step: 1, 2 or 5 times a
    /// power of ten, the largest not above `limit` (which must be positive).
    static func niceLength(atMost limit: Double) -> Double {
        guard limit.isFinite, limit > 0 else { return 1 }
        let power = pow(10, (log10(limit)).rounded(.down))
        for m in [5.0, 2.0, 1.0] where m * power <= limit { return m * power }
        return power
    }
}
