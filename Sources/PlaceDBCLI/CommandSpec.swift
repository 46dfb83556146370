import Foundation
import PlaceModel

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
        static let db = OptionSpec(
            "--db", value: "PATH", help: "The database file (default: $PLACEDB_DATABASE, else ./places.sqlite).")
        /// The output format, long form only: `-o` names an output file
        /// wherever it exists (`photo fetch -o FILE`), as in osmium and curl.
        static let output = OptionSpec(
            "--output", value: "FORMAT", help: "Output format (default: text on a terminal, json otherwise).",
            choices: ["json", "text"])
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
        text.components(separatedBy: "\n\n").map { $0.split(separator: "\n").joined(separator: " ") }.filter {
            !$0.isEmpty
        }
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
