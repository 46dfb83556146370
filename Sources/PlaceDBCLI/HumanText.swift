/// Text meant for a person (text output, errors, progress): every line is
/// escaped so that data (an ID, a name, a file name) cannot move the cursor,
/// retitle the terminal, ring it or split a one-line error. JSON output is
/// never escaped this way: it stays exact.
enum HumanText {
    /// `text` with its control characters written out: `\n`, `\r`, `\t`,
    /// and `\xHH` for the other C0 controls, DEL and the C1 controls
    /// (U+0080...U+009F, among them the 8-bit CSI and OSC), `\u{2028}` and
    /// `\u{2029}` for the Unicode line and paragraph separators, and
    /// `\u{202E}` and so on for the bidirectional embeddings, overrides
    /// and isolates (U+202A...U+202E, U+2066...U+2069), which reorder the
    /// rest of a line on screen (a name ending in U+202E shows the ID
    /// after it backwards: "Trojan Source"). The directional marks U+200E,
    /// U+200F and U+061C are kept: they reorder nothing beyond the
    /// neutral characters next to them, and right-to-left names carry them.
    /// Everything else, backslashes included, is kept as it is, so an
    /// ordinary ID or name reads (and copies) unchanged.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}", "\u{2029}", "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0x2028 || v == 0x2029 || (v >= 0x202A && v <= 0x202E)
            || (v >= 0x2066 && v <= 0x2069)
    }

    /// Lines for a terminal: each escaped, each ended by a newline.
    static func lines(_ lines: [String]) -> String {
        lines.map { escape($0) + "\n" }.joined()
    }
}

extension Console {
    /// Writes one line of human text to stdout (escaped; a newline added).
    func outLine(_ line: String) { out(HumanText.escape(line) + "\n") }
    /// Writes one diagnostic line to stderr (escaped; a newline added).
    func errLine(_ line: String) { err(HumanText.escape(line) + "\n") }
}
