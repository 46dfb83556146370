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

    init(
        _ name: String, short: Character? = nil, value: String? = nil, help: String, repeatable: Bool = false,
        choices: [String]? = nil, aliases: [String] = []
    ) {
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

/// A mistake in how the command was called (exit 64).
struct UsageError: Error {
    let message: String
}
