import Foundation
import PlaceModel

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
                    message +=
                        "; the output format is '--output json|text' (-o names an output file where a command writes one)"
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
                guard i < args.count else {
                    throw UsageError(message: "option '\(option.name)' needs a value (\(option.value!))")
                }
                value = args[i]
                i += 1
            }
            if let choices = option.choices, !choices.contains(value) {
                let hint =
                    closest(value, among: choices).map { "did you mean '\($0)'?" }
                    ?? "expected one of: \(choices.joined(separator: ", "))"
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
