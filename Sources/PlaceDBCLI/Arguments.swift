import Foundation
import PlaceModel

/// One option of a command. The same table drives parsing and `--help`,
/// and the same constant reads the parsed value (`parsed.value(Options.limit)`),
/// so a misspelt option does not compile: each command declares its options
/// as static constants of a nested `Options` enum and lists them in `all`.
struct OptionSpec: Sendable {
    /// `--name` (and an optional short `-n`).
    let name: String
    let short: Character?
    /// Former long names still accepted, not shown in help (`--out`).
    var aliases: [String] = []
    /// The value's placeholder (`PATH`), or nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    /// Allowed values, checked by the parser and listed in help.
    var choices: [String]? = nil

    init(_ name: String, short: Character? = nil, value: String? = nil, help: String, repeatable: Bool = false, choices: [String]? = nil, aliases: [String] = []) {
        self.name = name
        self.short = short
        self.aliases = aliases
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
    /// Two or three command lines, shown in help before SEE ALSO.
    var examples: [String] = []
    /// Related commands (`search`, `photo fetch`), for SEE ALSO.
    var seeAlso: [String] = []
    /// The documentation files (`queries.md`) that tell more, for SEE ALSO.
    var docs: [String] = []

    /// The options every command takes.
    enum GlobalOptions {
        static let db = OptionSpec("--db", value: "PATH", help: "The database file (default: $PLACEDB_DATABASE, else ./places.sqlite).")
        /// The output format, long form only: `-o` names an output file
        /// wherever it exists (`photo fetch -o FILE`), as in osmium and curl.
        static let output = OptionSpec("--output", value: "FORMAT", help: "Output format (default: text on a terminal, json otherwise).", choices: ["json", "text"])
        static let help = OptionSpec("--help", short: "h", help: "Show help for this command.")
        static let all = [db, output, help]
    }

    /// The command's options, then the global ones.
    var allOptions: [OptionSpec] { options + GlobalOptions.all }

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

    /// The help as an 80-column terminal shows it.
    var help: String { help(HelpLayout.standard) }

    func help(_ layout: HelpLayout) -> String {
        var lines = layout.paragraph("OVERVIEW: \(abstract)") + [""] + layout.paragraph("USAGE: \(usage)", hanging: 7)
        if let discussion { lines += Self.discussion(discussion, layout) }
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for a in arguments { lines += layout.row(a.name + (a.variadic ? "..." : ""), a.help) }
        }
        lines += ["", "OPTIONS:"]
        for o in allOptions { lines += layout.row(o.synopsis, o.fullHelp) }
        lines += Self.examplesSection(examples, layout)
        lines += seeAlsoSection(layout)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A discussion's paragraphs (blank-line separated), each wrapped.
    static func discussion(_ text: String, _ layout: HelpLayout) -> [String] {
        var lines: [String] = []
        for paragraph in paragraphs(text) { lines += [""] + layout.paragraph(paragraph) }
        return lines
    }

    /// The paragraphs of a text, each on one line.
    static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").map { $0.split(separator: "\n").joined(separator: " ") }.filter { !$0.isEmpty }
    }

    /// The `EXAMPLES:` section of a help text (empty when none).
    static func examplesSection(_ examples: [String], _ layout: HelpLayout) -> [String] {
        examples.isEmpty ? [] : ["", "EXAMPLES:"] + examples.flatMap { layout.example($0) }
    }

    /// The closing SEE ALSO section: related commands, the man page, the
    /// documentation files.
    func seeAlsoSection(_ layout: HelpLayout) -> [String] {
        Self.seeAlso(commands: seeAlso, docs: docs, layout)
    }

    static func seeAlso(commands: [String], docs: [String], _ layout: HelpLayout) -> [String] {
        let refs = commands.map { "placedb \($0) --help" } + ["man placedb"]
        var lines = ["", "SEE ALSO:"] + layout.list(refs, indent: 2)
        let dir = layout.docDirectory.hasSuffix("/") ? String(layout.docDirectory.dropLast()) : layout.docDirectory
        for doc in docs { lines += layout.paragraph("\(dir)/\(doc)", indent: 2) }
        return lines
    }
}

extension OptionSpec {
    /// `-o, --output-file FILE` as help and the man page show it.
    var synopsis: String {
        var left = short.map { "-\($0), " } ?? ""
        left += name
        if let value { left += " \(value)" }
        return left
    }

    /// The help with the allowed values and whether it repeats.
    var fullHelp: String {
        var help = help
        if let choices { help += " One of: \(choices.joined(separator: ", "))." }
        if repeatable { help += " Repeatable." }
        return help
    }
}

/// The parsed command line of one command, read through the command's
/// own `OptionSpec` constants (never by a string key).
struct ParsedArguments {
    var positionals: [String] = []
    /// The values given, by option long name ("" for a flag).
    private var values: [String: [String]] = [:]
    /// The long names the command declares, to catch reading an option of
    /// another command (a programming error, caught by the tests).
    private let declared: Set<String>

    init(spec: CommandSpec) {
        declared = Set(spec.allOptions.map(\.name))
    }

    /// Whether the option was given (a flag, or an option with a value).
    func given(_ option: OptionSpec) -> Bool { values[key(option)] != nil }
    /// Whether a flag was given.
    func flag(_ option: OptionSpec) -> Bool { given(option) }
    /// The value of an option given once (the last one of a repeatable one).
    func value(_ option: OptionSpec) -> String? { values[key(option)]?.last }
    /// Every value of a repeatable option, in order.
    func all(_ option: OptionSpec) -> [String] { values[key(option)] ?? [] }

    fileprivate mutating func append(_ value: String, for option: OptionSpec) {
        values[option.name, default: []].append(value)
    }

    private func key(_ option: OptionSpec) -> String {
        assert(declared.contains(option.name), "option \(option.name) is not in this command's table")
        return option.name
    }
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
        var parsed = ParsedArguments(spec: spec)
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
                option = options.first { $0.name == name || $0.aliases.contains(name) }
            } else if name.count == 2, let c = name.last {
                option = options.first { $0.short == c }
            } else {
                option = nil
            }
            guard let option else {
                var message = "unknown option '\(name)'"
                if let suggestion = closest(name, among: options.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                } else if name == "-o" {
                    // -o was the output format's short form before it named a file.
                    message += "; the output format is '--output json|text' (-o names an output file where a command writes one)"
                }
                throw UsageError(message: message)
            }
            if option.value == nil {
                if inlineValue != nil { throw UsageError(message: "option '\(option.name)' takes no value") }
                parsed.append("", for: option)
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
                let hint = closest(value, among: choices).map { "did you mean '\($0)'?" } ?? "expected one of: \(choices.joined(separator: ", "))"
                throw UsageError(message: "invalid value '\(value)' for '\(option.name)'; \(hint)")
            }
            if !option.repeatable, parsed.given(option) {
                throw UsageError(message: "option '\(option.name)' given more than once")
            }
            parsed.append(value, for: option)
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
        Typo.closest(name, among: names)
    }
}
