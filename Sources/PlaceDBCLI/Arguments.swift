/// One option of a command. The same table drives parsing and `--help`.
struct OptionSpec: Sendable {
    /// `--name` (and an optional short `-n`).
    let name: String
    let short: Character?
    /// The value's placeholder (`PATH`), or nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    /// Allowed values, checked by the parser and listed in help.
    var choices: [String]? = nil

    init(_ name: String, short: Character? = nil, value: String? = nil, help: String, repeatable: Bool = false, choices: [String]? = nil) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.repeatable = repeatable
        self.choices = choices
    }
}

/// A positional argument of a command.
struct ArgumentSpec: Sendable {
    let name: String
    let help: String
    var variadic = false
    var optional = false
}

/// A command's interface: its name, what it does, its arguments and options.
struct CommandSpec: Sendable {
    let name: String
    let abstract: String
    let arguments: [ArgumentSpec]
    let options: [OptionSpec]
    var discussion: String? = nil

    static let globalOptions: [OptionSpec] = [
        OptionSpec("--db", value: "PATH", help: "The database file (default: $PLACEDB_DATABASE, else ./places.sqlite)."),
        OptionSpec("--output", short: "o", value: "FORMAT", help: "Output format (default: text on a terminal, json otherwise).", choices: ["json", "text"]),
        OptionSpec("--help", short: "h", help: "Show help for this command."),
    ]

    /// The command's options, then the global ones. A command option's
    /// short name wins over a global one's (`photo fetch -o FILE`), whose
    /// long name stays.
    var allOptions: [OptionSpec] {
        let shorts = Set(options.compactMap(\.short))
        return options + CommandSpec.globalOptions.map { global in
            guard let short = global.short, shorts.contains(short) else { return global }
            return OptionSpec(global.name, value: global.value, help: global.help, repeatable: global.repeatable, choices: global.choices)
        }
    }

    var usage: String {
        var parts = ["placedb", name]
        for a in arguments {
            var s = a.name + (a.variadic ? "..." : "")
            if a.optional { s = "[\(s)]" }
            parts.append(s)
        }
        parts.append("[options]")
        return parts.joined(separator: " ")
    }

    var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)"]
        if let discussion { lines += ["", discussion] }
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for a in arguments { lines.append(Self.row(a.name + (a.variadic ? "..." : ""), a.help)) }
        }
        lines += ["", "OPTIONS:"]
        for o in allOptions {
            var left = o.short.map { "-\($0), " } ?? ""
            left += o.name
            if let v = o.value { left += " \(v)" }
            var help = o.help
            if let choices = o.choices { help += " One of: \(choices.joined(separator: ", "))." }
            if o.repeatable { help += " Repeatable." }
            lines.append(Self.row(left, help))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func row(_ left: String, _ right: String) -> String {
        let pad = 26
        let l = "  " + left
        if l.count >= pad { return l + "\n" + String(repeating: " ", count: pad) + right }
        return l + String(repeating: " ", count: pad - l.count) + right
    }
}

/// The parsed command line of one command.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]

    func flag(_ name: String) -> Bool { values[name] != nil }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A mistake in how the command was called (exit 64).
struct UsageError: Error {
    let message: String
}

enum ArgumentParser {
    /// Parses `args` against `spec`: `--opt v`, `--opt=v`, `-o v`, flags,
    /// `--` ending options, `-` as a positional (stdin), and tokens that look
    /// like numbers (`-33.86,151.2`) as positionals, not options.
    static func parse(_ args: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var optionsEnded = false
        let options = spec.allOptions
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") || looksNumeric(arg) {
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            var name = arg
            var inlineValue: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inlineValue = String(arg[arg.index(after: eq)...])
            }
            let option: OptionSpec?
            if name.hasPrefix("--") {
                option = options.first { $0.name == name }
            } else if name.count == 2, let c = name.last {
                option = options.first { $0.short == c }
            } else {
                option = nil
            }
            guard let option else {
                var message = "unknown option '\(name)'"
                if let suggestion = closest(name, among: options.map(\.name)) { message += "; did you mean '\(suggestion)'?" }
                throw UsageError(message: message)
            }
            if option.value == nil {
                if inlineValue != nil { throw UsageError(message: "option '\(option.name)' takes no value") }
                parsed.values[option.name, default: []].append("")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < args.count else { throw UsageError(message: "option '\(option.name)' needs a value (\(option.value!))") }
                value = args[i]
                i += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                throw UsageError(message: "invalid value '\(value)' for '\(option.name)'; expected one of: \(choices.joined(separator: ", "))")
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw UsageError(message: "option '\(option.name)' given more than once")
            }
            parsed.values[option.name, default: []].append(value)
        }
        return parsed
    }

    static func looksNumeric(_ s: String) -> Bool {
        guard s.hasPrefix("-"), s.count > 1 else { return false }
        let c = s[s.index(after: s.startIndex)]
        return c.isNumber || c == "."
    }

    /// The closest name by edit distance, when close enough to be a typo.
    static func closest(_ name: String, among names: [String]) -> String? {
        let scored = names.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, best.count / 3) else { return nil }
        return best
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
