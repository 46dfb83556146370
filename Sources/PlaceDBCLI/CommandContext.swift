import PlaceKit
import PlaceModel
import PlaceKitGD

/// What a command gets to run with.
struct CommandContext {
    let console: any Console
    let arguments: ParsedArguments
    let spec: CommandSpec

    enum OutputFormat { case json, text }

    var output: OutputFormat {
        switch arguments.value(CommandSpec.GlobalOptions.output) {
        case "json": .json
        case "text": .text
        default: console.stdoutIsTerminal ? .text : .json
        }
    }

    /// `--db`, else `PLACEDB_DATABASE`, else `places.sqlite`. An empty
    /// `--db ""` stays empty, for the library to refuse (exit 64) rather
    /// than fall back to the default.
    var databasePath: String {
        if let db = arguments.value(CommandSpec.GlobalOptions.db) { return db }
        if let env = console.environment("PLACEDB_DATABASE"), !env.isEmpty { return env }
        return "places.sqlite"
    }

    func writeJSON(_ value: JSONValue, pretty: Bool = true) {
        console.out(JSONWriter(pretty: pretty).string(value) + "\n")
    }

    /// Writes the library's compact JSON bytes indented (as `writeJSON`
    /// writes the value they hold), without parsing them: the server's
    /// indenter (`JSONWriter.indent`).
    func writeJSON(compact bytes: [UInt8]) {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &out) }
        out.append(0x0A)
        console.out(String(decoding: out, as: UTF8.self))
    }
}
