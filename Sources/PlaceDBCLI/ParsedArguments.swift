import Foundation
import PlaceModel

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

    mutating func append(_ value: String, for option: OptionSpec) {
        values[option.name, default: []].append(value)
    }

    private func key(_ option: OptionSpec) -> String {
        assert(declared.contains(option.name), "option \(option.name) is not in this command's table")
        return option.name
    }
}
