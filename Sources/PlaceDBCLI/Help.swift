#if canImport(Glibc)
    import Glibc
#endif

/// How help is laid out: the width it is wrapped to and where the
/// documentation is, for the SEE ALSO section.
struct HelpLayout: Sendable {
    /// Columns of text; at least `minimumWidth`.
    var width: Int
    /// Where the documentation (the Markdown files of docs/) is: the
    /// installed directory, or the source tree's docs/ when run from a build.
    var docDirectory: String

    static let minimumWidth = 40
    static let standard = HelpLayout(width: 80, docDirectory: Installation.defaultDocDirectory)

    /// The column option and argument descriptions start at (fewer on a
    /// narrow terminal).
    var column: Int { width >= 72 ? 26 : 18 }

    init(width: Int, docDirectory: String) {
        self.width = max(Self.minimumWidth, width)
        self.docDirectory = docDirectory
    }

    /// The width of the terminal stdout is (ioctl), else $COLUMNS, else 80;
    /// the docs at $PLACEDB_DOC_DIR, else found beside the executable.
    init(console: any Console) {
        let width =
            console.terminalColumns ?? console.environment("COLUMNS").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            ?? 80
        self.init(width: width, docDirectory: Installation.docDirectory(environment: console.environment))
    }

    /// A paragraph wrapped to the width, each line after the first indented
    /// by `hanging` (and every line by `indent`).
    func paragraph(_ text: String, indent: Int = 0, hanging: Int = 0) -> [String] {
        Self.wrap(
            text, first: String(repeating: " ", count: indent), rest: String(repeating: " ", count: indent + hanging),
            width: width)
    }

    /// Items separated by commas, a line holding as many whole items as fit.
    func list(_ items: [String], indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for (i, item) in items.enumerated() {
            let text = item + (i < items.count - 1 ? "," : "")
            if line != pad && line.count + 1 + text.count > width {
                lines.append(line)
                line = pad
            }
            line += (line == pad ? "" : " ") + text
        }
        lines.append(line)
        return lines
    }

    /// An option or argument: its name at column 2, its description from
    /// `column` on, continuation lines indented under the description; a
    /// name too long for the column puts the description on the next line.
    func row(_ left: String, _ right: String) -> [String] {
        let name = "  " + left
        let pad = String(repeating: " ", count: column)
        if name.count + 1 > column {
            return [name] + Self.wrap(right, first: pad, rest: pad, width: width)
        }
        let first = name + String(repeating: " ", count: column - name.count)
        return Self.wrap(right, first: first, rest: pad, width: width)
    }

    /// An example command line: kept whole when it fits, else broken between
    /// shell words with a trailing backslash, continuation lines indented.
    func example(_ command: String) -> [String] {
        let words = Self.shellWords(command)
        var lines: [String] = []
        var line = "  "
        var started = false
        for word in words {
            if started && line.count + 1 + word.count + 2 > width {
                lines.append(line + " \\")
                line = "      " + word
            } else {
                line += (started ? " " : "") + word
            }
            started = true
        }
        lines.append(line)
        return lines
    }

    /// Wraps `text` (its whitespace runs are single spaces) at `width`:
    /// words are never broken unless one alone is longer than a line.
    static func wrap(_ text: String, first: String, rest: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = first
        var empty = true
        for var word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) {
            if !empty && line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                empty = true
            }
            // A word longer than a whole line is cut.
            while empty && line.count + word.count > width && width - line.count >= 8 {
                let room = width - line.count
                lines.append(line + word.prefix(room))
                word = String(word.dropFirst(room))
                line = rest
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines.map { $0.hasSuffix(" ") ? String($0.reversed().drop(while: { $0 == " " }).reversed()) : $0 }
    }

    /// The words of a command line, a quoted string being one word.
    static func shellWords(_ command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        for c in command {
            if let q = quote {
                word.append(c)
                if c == q { quote = nil }
            } else if c == " " {
                if !word.isEmpty { words.append(word); word = "" }
            } else {
                if c == "\"" || c == "'" { quote = c }
                word.append(c)
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
