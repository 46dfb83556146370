import Foundation

/// `placedb help --man`: the manual page placedb(1), in roff (man
/// macros), written from the command table help is written from.
enum ManPage {
    static func render(docDirectory: String) -> String {
        var s = """
            .\\" placedb(1), written by 'placedb help --man' from placedb's command table.
            .TH PLACEDB 1 "" "placedb \(CommandLineTool.version)" "User Commands"
            .nh
            .ad l
            .SH NAME
            placedb \\- offline place database: import place dumps, answer place queries
            .SH SYNOPSIS
            .B placedb
            .I command
            .RI [ arguments ]
            .RI [ options ]
            .br
            .B placedb help
            .RI [ command ]
            .br
            .B placedb help \\-\\-man
            .br
            .B placedb completion
            .BR bash | zsh | fish
            .SH DESCRIPTION
            \(text(CommandLineTool.abstract))
            .PP
            \(text("Every command takes the options --db PATH (the database file; default: $PLACEDB_DATABASE, else ./places.sqlite), --output json|text (default: text on a terminal, json otherwise) and -h, --help."))
            .SH COMMANDS

            """
        for entry in CommandLineTool.commands {
            let spec = entry.spec
            s += ".SS \"\(escape(spec.usage))\"\n"
            s += text(spec.abstract) + "\n"
            if let discussion = spec.discussion {
                for p in CommandSpec.paragraphs(discussion) { s += ".PP\n" + text(p) + "\n" }
            }
            for a in spec.arguments {
                s += ".TP\n.I \(escape(a.name + (a.variadic ? "..." : "")))\n" + text(a.help) + "\n"
            }
            for o in spec.options {
                s += ".TP\n" + synopsis(o) + "\n" + text(o.fullHelp) + "\n"
            }
            if !spec.examples.isEmpty {
                s +=
                    ".PP\nExamples:\n.PP\n.RS\n.nf\n" + spec.examples.map(escape).joined(separator: "\n")
                    + "\n.fi\n.RE\n"
            }
        }
        s += ".SH OPTIONS\n"
        for o in CommandSpec.GlobalOptions.all {
            s += ".TP\n" + synopsis(o) + "\n" + text(o.fullHelp) + "\n"
        }
        s += ".TP\n.B \\-\\-version\nShow the version.\n"
        s += """
            .SH ENVIRONMENT
            .TP
            .B PLACEDB_DATABASE
            The database file when no \\-\\-db is given.
            .TP
            .B PLACEDB_OSMIUM
            The osmium program that reads OpenStreetMap files (default: osmium on PATH).
            .TP
            .B PLACEDB_MMAP_MB
            How much of the database file each reader maps, in MiB (default 4096; 0: none). The pages a query reads through the map count as resident memory until the kernel drops them: a lower value bounds a batch's or the server's resident size.
            .TP
            .B PLACEDB_INDEX_MB
            How much resident memory the pages of the stored spatial index (DB.placeidx) and the database's map may take after the index is mapped, in MiB (default: no limit). Past it, the index's pages are released down to nine tenths of it (checked every 16 queries); they stay in the page cache, and touching one again costs a minor fault, so a limit below what the queries touch slows them. With a limit the index is mapped in 4 KiB pages; without, 2 MiB pages are asked for. With a limit, a server or one-shot query does not build a missing or stale index (a build holds about 1.5 times the file in memory): it answers from the database's R*Trees and warns once, until placedb spatial\\-index build writes it.
            .TP
            .B PLACEDB_API_KEY
            The key serve requires when no \\-\\-api\\-key\\-file is given.
            .TP
            .B COLUMNS
            The width help is wrapped to when standard output is not a terminal (default 80).
            .TP
            .B PLACEDB_DOC_DIR
            Where help and this page say the documentation is.
            .SH EXIT STATUS

            """
        for (code, meaning) in ExitCode.documented {
            s += ".TP\n.B \(code.rawValue)\n" + text(meaning) + "\n"
        }
        s += ".SH EXAMPLES\n.nf\n" + CommandLineTool.overviewExamples.map(escape).joined(separator: "\n") + "\n.fi\n"
        let dir = docDirectory.hasSuffix("/") ? String(docDirectory.dropLast()) : docDirectory
        s += """
            .SH SEE ALSO
            .BR sqlite3 (1),
            .BR spatialite (1),
            .BR ogr2ogr (1),
            .BR osmium (1)
            .PP
            \(text("The documentation in \(dir): commands.md (every command), queries.md, current-place.md, search.md, formats.md, export.md, server.md, reliability.md (exit codes and failure behaviour)."))

            """
        return s
    }

    /// `.BR \-\-name " " \fIVALUE\fR` for an option.
    static func synopsis(_ o: OptionSpec) -> String {
        var names = [o.name] + (o.short.map { ["-\($0)"] } ?? [])
        names.reverse()
        let bold = names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
        return bold + (o.value.map { " \\fI\(escape($0))\\fR" } ?? "")
    }

    /// A paragraph of running text: escaped, one line (roff fills it), and
    /// not starting with a control character.
    static func text(_ s: String) -> String {
        // A long word may break after its commas and slashes (\:), so
        // that no line overflows.
        let words = s.split(whereSeparator: { $0 == "\n" }).joined(separator: " ").split(
            separator: " ", omittingEmptySubsequences: false
        ).map { word in
            word.count > 30
                ? escape(String(word)).replacingOccurrences(of: ",", with: ",\\:").replacingOccurrences(
                    of: "/", with: "/\\:") : escape(String(word))
        }
        let line = words.joined(separator: " ")
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// Backslashes and hyphens escaped (a hyphen in an option name is a
    /// minus sign, which copies as one).
    static func escape(_ s: String) -> String {
        var out = s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
