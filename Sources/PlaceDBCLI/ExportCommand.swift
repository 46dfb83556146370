#if canImport(Glibc)
    import Glibc
#endif
import PlaceKit
import PlaceModel

/// `placedb export [--format F] [--where SQL] [-o FILE] [--aliases FILE]`:
/// the places out, in the Places API (New) shape or as GeoJSON.
enum ExportCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let format = OptionSpec(
            "--format", value: "FORMAT",
            help:
                "ndjson: one place object per line; geojsonseq: one GeoJSON Feature per line (RFC 8142); geojson: one FeatureCollection. Default: from FILE's extension (.ndjson, .geojsonseq, .geojson), else ndjson.",
            choices: ExportFormat.allCases.map(\.rawValue))
        static let filter = OptionSpec(
            "--where", value: "SQL",
            help:
                "Only the places matching this SQL expression over the place table's columns, where id is the place ID: source = 'osm', primary_type = 'cafe', rating >= 4.5, id = 'ChIJ...'. A misspelt column exits 64 with the nearest name."
        )
        static let outputFile = OptionSpec(
            "--output-file", short: "o", value: "FILE",
            help: "Write the places to FILE (replaced once whole; - or none: standard output).", aliases: ["--out"])
        static let aliases = OptionSpec(
            "--aliases", value: "FILE",
            help: "Also write every alias edge to FILE, as the NDJSON 'placedb alias import' reads.")
        static let tombstones = OptionSpec(
            "--tombstones",
            help:
                "Also write the removed places, each with a placedbTombstone member (removal time, snapshot, the edges that replaced it) that import reads back as the same removal."
        )
        static let progress = OptionSpec(
            "--progress",
            help:
                "Show how much is written on standard error even when it is not a terminal (a line every few seconds). Default: shown on a terminal, unless the places go to the terminal too."
        )
        static let noProgress = OptionSpec("--no-progress", help: "Show no progress.")
        static let all = [format, filter, outputFile, aliases, tombstones, progress, noProgress]
    }

    static let spec = CommandSpec(
        name: "export",
        abstract:
            "Write the places out: Places API (New) NDJSON (what import reads back) or GeoJSON features, streamed.",
        arguments: [],
        options: Options.all,
        discussion: """
            Removed places (tombstones) are left out unless --tombstones. Each record carries its source fields
            beyond the Places API's (OpenStreetMap tags, Overture details, legacy references) as
            extra members, which import keeps again: exporting and importing again gives the same
            places. GeoJSON output opens in QGIS and ogr2ogr, and loads into PostGIS.
            """,
        examples: [
            "placedb export -o places.ndjson --aliases aliases.ndjson --tombstones",
            "placedb export -o cafes.geojson --where \"primary_type = 'cafe'\"",
            "placedb export --where \"source = 'osm'\" | gzip > osm.ndjson.gz",
        ],
        seeAlso: ["import", "alias import", "diff"],
        docs: ["export.md", "postgis.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        guard context.arguments.positionals.isEmpty else {
            throw UsageError(message: "unexpected argument '\(context.arguments.positionals[0])'")
        }
        let out = context.arguments.value(Options.outputFile).flatMap { $0 == "-" ? nil : $0 }
        let aliasesPath = context.arguments.value(Options.aliases)
        var format = ExportFormat.ndjson
        if let f = context.arguments.value(Options.format) {
            format = ExportFormat(rawValue: f)!
        } else if let out, let f = ExportFormat(fileName: out) {
            format = f
        }
        if let out { try OutputFile.check(out, option: "-o", databasePath: context.databasePath) }
        if let aliasesPath {
            if aliasesPath == out {
                throw UsageError(
                    message: "--aliases '\(aliasesPath)' is the places' output file too; give another file")
            }
            try OutputFile.check(aliasesPath, option: "--aliases", databasePath: context.databasePath)
        }
        let exporter = try PlaceExporter(databasePath: context.databasePath)
        let tombstones = context.arguments.flag(Options.tombstones)
        let reporter = ProgressReporter(
            try Progress(
                context, force: Options.progress, silence: Options.noProgress,
                quietByDefault: out == nil && context.console.stdoutIsTerminal),
            console: context.console, command: context.spec.name)
        // A failure clears the progress line before its error line.
        defer { reporter.finish() }
        var written: Int64 = 0
        let started = MonotonicClock.now()
        func progressLine() -> String {
            let seconds = MonotonicClock.now() - started
            return "\(ImportCommand.formatBytes(written)) written in \(ImportCommand.formatSeconds(seconds))"
        }

        var places = ExportSummary()
        if let out {
            let file = try StreamedFile(path: out)
            do {
                places = try exporter.exportPlaces(
                    format: format, filter: context.arguments.value(Options.filter), tombstones: tombstones
                ) {
                    try file.write($0)
                    written += Int64($0.count)
                    reporter.update(progressLine())
                }
                try file.commit()
                reporter.finish(progressLine())
            } catch {
                file.abandon()
                throw error
            }
        } else {
            places = try exporter.exportPlaces(
                format: format, filter: context.arguments.value(Options.filter), tombstones: tombstones
            ) {
                context.console.outBytes(Array($0))
                written += Int64($0.count)
                reporter.update(progressLine())
            }
            reporter.finish(progressLine())
        }
        var aliases = ExportSummary()
        if let aliasesPath {
            let file = try StreamedFile(path: aliasesPath)
            do {
                aliases = try exporter.exportAliases { try file.write($0) }
                try file.commit()
            } catch {
                file.abandon()
                throw error
            }
        }
        // The data went to a file: the summary goes to standard output.
        if out != nil {
            switch context.output {
            case .json:
                var o = JSONObject()
                o["places"] = .int(Int64(places.places))
                o["bytes"] = .int(Int64(places.bytes))
                o["format"] = .string(format.rawValue)
                if tombstones { o["tombstones"] = .int(Int64(places.tombstones)) }
                if aliasesPath != nil { o["aliases"] = .int(Int64(aliases.aliases)) }
                context.writeJSON(.object(o))
            case .text:
                context.console.outLine(
                    "\(out!): \(places.places) place\(places.places == 1 ? "" : "s")\(tombstones ? " (\(places.tombstones) removed)" : "") (\(format.rawValue), \(places.bytes) bytes)"
                        + (aliasesPath.map {
                            "; \($0): \(aliases.aliases) alias edge\(aliases.aliases == 1 ? "" : "s")"
                        } ?? ""))
            }
        } else if let aliasesPath {
            context.console.errLine(
                "placedb export: \(places.places) places; \(aliasesPath): \(aliases.aliases) alias edges")
        }
        return .success
    }
}
