import PlaceKit
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// `placedb import FILE...`: load place dumps into the database.
enum ImportCommand: Command {
    /// The options, read by these constants (a typo does not compile).
    enum Options {
        static let inputFormat = OptionSpec(
            "--input-format", value: "FORMAT", help: "Record format (default: auto, detected per record).",
            choices: ["auto"] + InputFormat.allCases.map(\.rawValue))
        static let onError = OptionSpec(
            "--on-error", value: "MODE",
            help:
                "stop: the first bad record stops the import and that file's changes are rolled back (default). skip: import the valid records and report the rejected ones; a file that holds no places, whose every record is rejected, or that is missing is skipped with one line and the next files are imported (exit 65 or 66 at the end).",
            choices: OnError.allCases.map(\.rawValue))
        static let rejects = OptionSpec(
            "--rejects", value: "FILE",
            help:
                "Write each rejected record to FILE as one NDJSON line. FILE may not be an input or the database (exit 64); a failed write exits 74."
        )
        static let source = OptionSpec(
            "--source", value: "NAME",
            help:
                "The source name the places are filed under (default: by format: google-places, osm, overture, geojson)."
        )
        static let snapshot = OptionSpec(
            "--snapshot", value: "SOURCE",
            help:
                "The files are the complete current state of SOURCE: its places absent from them are marked removed (never deleted); a place that comes back is revived."
        )
        static let matchRadius = OptionSpec(
            "--match-radius", value: "METERS",
            help: "Snapshot: link a removed place to an added one within this distance (default 150).")
        static let matchThreshold = OptionSpec(
            "--match-threshold", value: "SCORE",
            help: "Snapshot: the least match score in 0...1 that records an alias (default 0.7).")
        static let noMatch = OptionSpec("--no-match", help: "Snapshot: record no aliases from removed to added places.")
        static let allFeatures = OptionSpec(
            "--all-features",
            help:
                "Keep GeoJSON features that are not places (neither a name nor a place tag: unnamed roads, crossings, address-only nodes of an OpenStreetMap export); by default they are skipped and counted. Kept, they are never current-place candidates and nearby leaves them out unless asked."
        )
        static let capturedAt = OptionSpec(
            "--captured-at", value: "TIME",
            help:
                "When the files were captured (RFC 3339 with an offset, or a date YYYY-MM-DD as midnight UTC; not in the future), for every record. Default: the time the record itself carries (a capture timestamp, Overture's update_time, OpenStreetMap's @timestamp), no earlier than its newest review; a record with no date counts as older than any dated one. A member captured earlier never replaces one captured later."
        )
        static let timeZone = OptionSpec(
            "--time-zone", value: "ZONE",
            help:
                "IANA time zone (Europe/Zurich) for the places that have neither timeZone nor utcOffsetMinutes (OpenStreetMap, Overture), so their hours can be read; stored with where it came from."
        )
        static let noTextIndex = OptionSpec(
            "--no-text-index",
            help:
                "Keep no text index, for a faster import when search and autocomplete are not needed: a database that has one loses it, and later imports keep it without one. 'placedb text-index build' makes it again."
        )
        static let noLink = OptionSpec(
            "--no-link",
            help:
                "Do not link the imported places to the records of other sources (or of their own source under other IDs) that are the same physical place; 'placedb link' does it later."
        )
        static let progress = OptionSpec(
            "--progress",
            help:
                "Show progress on standard error even when it is not a terminal (one line every few seconds; on a terminal one line updated in place). Default: shown only on a terminal."
        )
        static let noProgress = OptionSpec("--no-progress", help: "Show no progress, even on a terminal.")
        static let all = [
            inputFormat, onError, rejects, source, snapshot, matchRadius, matchThreshold, noMatch, allFeatures,
            capturedAt, timeZone, noTextIndex, noLink, progress, noProgress,
        ]
    }

    static let spec = CommandSpec(
        name: "import",
        abstract:
            "Import place dumps: Google Places API (New) and legacy responses, GeoJSON, OpenStreetMap extracts (.osm.pbf) and exports, Overture; as JSON, NDJSON or GeoJSON-seq, gzip'd or not.",
        arguments: [
            ArgumentSpec(
                name: "FILE",
                help:
                    "A dump to import; - reads standard input. Gzip'd files are read directly; an OpenStreetMap file (.osm.pbf, .osm, .osm.bz2, .o5m) through osmium export.",
                variadic: true)
        ],
        options: Options.all,
        discussion: """
            Each file is imported in one transaction, and importing the same file again changes
            nothing. A record for a place already stored updates only the members it carries,
            each unless the stored one was captured later. What a file is comes from its first
            bytes; a file placedb does not read (a CSV, an image ...) is named in the error. An
            OpenStreetMap file is read through 'osmium export' (osmium-tool; $PLACEDB_OSMIUM
            names another osmium; exit 69 when none is installed).

            The summary counts inserted, updated, unchanged and rejected records (also revived,
            duplicate, removed and skipped places, and warnings such as a viewport too odd to be
            a footprint) and says where the capture times came from. An input with no places
            says "0 places" and exits 0.

            Bad input exits 65, a missing file 66. With the default --on-error stop, the
            database stays as it was before the failing file (the files before it stay
            imported) and a snapshot removes nothing. A new database appears under its name
            only once its first file is imported. One import at a time writes a database;
            another waits for it.
            """,
        examples: [
            "placedb import places-v1.ndjson legacy-nearby.json.gz --time-zone Europe/Zurich",
            "placedb import --no-text-index --on-error skip --rejects rejects.ndjson overture-places.geojsonseq",
            "placedb import --snapshot osm-helsinki helsinki.osm.pbf --time-zone Europe/Helsinki",
        ],
        seeAlso: ["info", "export", "link", "text-index build", "alias import"],
        docs: ["formats.md", "merging.md", "osm-exports.md", "reliability.md"])

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        let files = args.positionals
        guard !files.isEmpty else { throw UsageError(message: "missing FILE (use - for standard input)") }
        if files.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "standard input (-) given more than once")
        }
        var options = ImportOptions()
        options.allFeatures = args.flag(Options.allFeatures)
        options.textIndex = !args.flag(Options.noTextIndex)
        options.link = !args.flag(Options.noLink)
        if let osmium = context.console.environment("PLACEDB_OSMIUM"), !osmium.isEmpty { options.osmium = osmium }
        if let f = args.value(Options.inputFormat), f != "auto" { options.format = InputFormat(rawValue: f) }
        if let mode = args.value(Options.onError) { options.onError = OnError(rawValue: mode) ?? .stop }
        if let source = args.value(Options.source) {
            guard !source.isEmpty else { throw UsageError(message: "--source needs a non-empty name") }
            options.source = source
        }
        if let text = args.value(Options.capturedAt) {
            guard let t = CaptureTime.parse(text) else {
                throw UsageError(
                    message:
                        "invalid time '\(text)' for '--captured-at': expected RFC 3339 with an offset such as 2025-12-07T10:53:52Z or 2015-09-23T10:00:00+10:00, or a date such as 2015-09-23"
                )
            }
            // A capture cannot postdate its import. (14 hours of slack: a
            // date that is today somewhere on Earth may be tomorrow in UTC.)
            let now = Int64(time(nil))
            guard t <= now + 14 * 3600 else {
                throw UsageError(
                    message:
                        "'--captured-at' \(text) is in the future (now is \(CaptureTime.string(now))): a capture cannot postdate its import"
                )
            }
            options.capturedAt = t
        }
        if let zone = args.value(Options.timeZone) {
            guard ImportOptions.isValidTimeZone(zone) else {
                throw UsageError(
                    message:
                        "unknown time zone '\(zone)' for '--time-zone': expected an IANA name such as Europe/Zurich or America/New_York"
                )
            }
            options.timeZone = zone
        }
        if let snapshot = args.value(Options.snapshot) {
            guard !snapshot.isEmpty else { throw UsageError(message: "--snapshot needs a non-empty source name") }
            if let source = options.source, source != snapshot {
                throw UsageError(
                    message:
                        "--source '\(source)' and --snapshot '\(snapshot)' disagree: a snapshot files its places under its own name"
                )
            }
            options.source = snapshot
            options.snapshot = snapshot
        }
        if options.snapshot == nil {
            // Matching belongs to a snapshot; alone it would be ignored.
            for option in [Options.matchRadius, Options.matchThreshold, Options.noMatch] where args.given(option) {
                throw UsageError(
                    message: "\(option.name) applies to a snapshot import; add --snapshot SOURCE or drop it")
            }
        }
        if args.flag(Options.noMatch) {
            options.matching = nil
        } else {
            var matching = MatchOptions()
            if let r = args.value(Options.matchRadius) {
                guard let v = Coordinate.decimal(r), v > 0, v <= 100_000 else {
                    throw UsageError(message: "--match-radius takes metres in (0, 100000], got '\(r)'")
                }
                matching.radiusMeters = v
            }
            if let t = args.value(Options.matchThreshold) {
                guard let v = Coordinate.decimal(t), v > 0, v <= 1 else {
                    throw UsageError(message: "--match-threshold takes a score in (0, 1], got '\(t)'")
                }
                matching.threshold = v
            }
            options.matching = matching
        }
        // An input that is the database would be read while it is written.
        let database = OutputFile.identity(context.databasePath)
        for file in files where file != "-" && database != nil && OutputFile.identity(file) == database {
            throw UsageError(message: "the input '\(file)' is the database '\(context.databasePath)' itself")
        }
        var rejectsFile: RejectsFile?
        if let path = args.value(Options.rejects) {
            // Checked before opening: opening truncates.
            try OutputFile.check(path, option: Options.rejects.name, databasePath: context.databasePath, inputs: files)
            rejectsFile = try RejectsFile(path: path)
        }

        let console = context.console
        let importer = try PlaceImporter(
            databasePath: context.databasePath, options: options,
            waiting: { pid in
                console.errLine(
                    "placedb import: waiting for another import\(pid.map { " (process \($0))" } ?? "") into \(context.databasePath) to finish"
                )
            })
        let progress = try Progress(context, force: Options.progress, silence: Options.noProgress)
        let showProgress = progress.inPlace
        var total = ImportSummary()
        var perInput: [JSONValue] = []
        var failure: (any Error)?
        var partial = false
        var reportedRejections = 0
        let maxReported = 100

        for file in files {
            let input = InputSource(argument: file)
            do {
                var printedAt: Double?
                let summary = try importer.importInput(
                    input,
                    progress: progress.shown
                        ? { p in
                            if progress.inPlace {
                                console.err("\r\u{1B}[K" + HumanText.escape(progressLine(p)))
                            } else if printedAt == nil || p.seconds - printedAt! >= Progress.lineInterval {
                                printedAt = p.seconds
                                console.errLine("placedb import: progress: " + HumanText.escape(progressLine(p)))
                            }
                        } : nil,
                    reject: { rejection in
                        reportedRejections += 1
                        if reportedRejections <= maxReported {
                            console.errLine("placedb import: rejected: \(rejection.description)")
                        }
                        if let rejectsFile, let record = rejection.record { rejectsFile.write(record) }
                    })
                if showProgress { console.err("\r\u{1B}[K") }
                total += summary
                perInput.append(summaryJSON(summary, input: input.description, status: "ok"))
                if files.count > 1 && showProgress {
                    console.errLine("placedb import: \(input.description): \(summaryText(summary))")
                }
            } catch {
                if showProgress { console.err("\r\u{1B}[K") }
                if case PlaceDBError.badInput(let r) = error, let rejectsFile, let record = r.record {
                    rejectsFile.write(record)
                }
                // Report what the failed input left: with --on-error skip, the
                // records before an unreadable part are kept (committed).
                var left = importer.lastInputSummary
                if importer.lastInputCommitted {
                    total += left
                    partial = true
                } else {
                    left.inputs = 0
                }
                perInput.append(
                    summaryJSON(
                        left, input: input.description, status: importer.lastInputCommitted ? "partial" : "failed",
                        error: commandLineMessage(error)))
                if options.onError == .skip, let e = error as? PlaceDBError, e.isSkippableInput {
                    // The whole file is skipped; the next ones are imported.
                    console.errLine("placedb import: skipped: \(commandLineMessage(error))")
                    total.skippedInputs += 1
                    if failure == nil { failure = error }
                    continue
                }
                console.errLine("placedb import: \(commandLineMessage(error))")
                failure = error
                break
            }
        }
        if failure == nil, options.snapshot != nil {
            do {
                total.removed = try importer.finishSnapshot()
                total.linked = importer.lastSnapshotLinks
            } catch {
                console.errLine("placedb import: \(commandLineMessage(error))")
                failure = error
            }
        }
        // Linking: the places these inputs added or changed, also after a
        // failed input (what was kept is linked like any other).
        var linkSummary: LinkSummary?
        if options.link, total.inputs > 0 || options.snapshot != nil {
            do {
                linkSummary = try importer.link()
            } catch {
                console.errLine("placedb import: linking: \(commandLineMessage(error))")
                if failure == nil { failure = error }
            }
        }
        if let dropped = importer.droppedTextIndex, dropped > 0 {
            console.errLine(
                "placedb import: dropped the text index of \(importer.databasePath) (\(dropped) place\(dropped == 1 ? "" : "s") indexed), as --no-text-index asks; placedb text-index build makes it again"
            )
        }
        if reportedRejections > maxReported {
            console.errLine(
                "placedb import: \(reportedRejections - maxReported) more rejected records not shown\(args.value(Options.rejects).map { " (all are in \($0))" } ?? "")"
            )
        }
        switch context.output {
        case .json:
            context.writeJSON([
                "database": .string(importer.databasePath),
                "total": summaryJSON(total, input: nil, status: failure == nil ? "ok" : "failed"),
                "inputs": .array(perInput),
                "textIndex": .bool(importer.hasTextIndex),
                "link": linkSummary.map(LinkCommand.summaryJSON) ?? .null,
            ])
        case .text:
            var line = "\(importer.databasePath): \(total.inputs) input\(total.inputs == 1 ? "" : "s") imported"
            if let snapshot = options.snapshot { line += " as snapshot '\(snapshot)'" }
            line += ", \(summaryText(total, snapshot: options.snapshot != nil))"
            if total.skippedInputs > 0 {
                line +=
                    " (\(total.skippedInputs) input\(total.skippedInputs == 1 ? "" : "s") skipped: see above\(partial ? "; the records before it are kept" : ""))"
            } else if failure != nil {
                line +=
                    partial
                    ? " (stopped at the error above; the records before it are kept)" : " (stopped at the error above)"
            }
            if !importer.hasTextIndex { line += "; text index: none" }
            if let l = linkSummary, l.groups > 0 || l.linked > 0 { line += "; \(LinkCommand.summaryText(l))" }
            console.outLine(line)
        }
        let rejectsFailure = rejectsFile?.finish()
        if let rejectsFailure { console.errLine("placedb import: \(rejectsFailure)") }
        if let failure {
            if let e = failure as? PlaceDBError { return CommandLineTool.exitCode(for: e) }
            return .failure
        }
        return rejectsFailure == nil ? .success : .ioError
    }

    static func summaryText(_ s: ImportSummary, snapshot: Bool = false) -> String {
        var text = "\(s.records) records: "
        if snapshot {
            text +=
                "\(s.inserted) added, \(s.updated) changed, \(s.unchanged) unchanged, \(s.removed) removed (\(s.linked) linked by alias), \(s.rejected) rejected"
        } else {
            text += "\(s.inserted) inserted, \(s.updated) updated, \(s.unchanged) unchanged, \(s.rejected) rejected"
        }
        if s.older > 0 { text += ", \(s.older) older than stored (kept the later capture)" }
        if s.unordered > 0 {
            text +=
                ", \(s.unordered) unordered (no capture time orders them: the content chose; --captured-at orders them)"
        }
        if s.revived > 0 { text += ", \(s.revived) revived" }
        if s.duplicates > 0 {
            text += ", \(s.duplicates) duplicate\(s.duplicates == 1 ? "" : "s") (same ID again; the last kept)"
        }
        let ignored = s.ignoredViewports.values.reduce(0, +)
        if ignored > 0 {
            let reasons = ViewportEvidence.allCases.compactMap { r in
                s.ignoredViewports[r].map { "\($0) \(r.rawValue)" }
            }
            text +=
                ", \(ignored) viewport\(ignored == 1 ? "" : "s") ignored as footprint\(ignored == 1 ? "" : "s") (\(reasons.joined(separator: ", ")))"
        }
        if s.skippedCount > 0 {
            let reasons = s.skipped.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            text +=
                ", \(s.skippedCount) feature\(s.skippedCount == 1 ? "" : "s") without a name or place tag skipped ("
                + reasons.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        let rate = s.seconds > 0 ? Int(Double(s.records) / s.seconds) : s.records
        text += " (\(formatBytes(s.bytes)) in \(formatSeconds(s.seconds)), \(rate) records/s)"
        if s.changedNothing && s.records > 0 { text += "; nothing changed" }
        if s.records > 0 && s.records == s.skippedCount + s.rejected && s.skippedCount > 0 {
            text += "; 0 places: no feature has a name or a place tag (--all-features keeps them)"
        }
        if let capture = captureText(s) { text += "; captured: \(capture)" }
        return text
    }

    /// Where the capture times came from: "12 record timestamp, 3 no time (1 timestamp out of range)".
    static func captureText(_ s: ImportSummary) -> String? {
        let parts = CaptureSource.allCases.compactMap { c in s.captureSources[c].map { "\($0) \(c.commandLineName)" } }
        guard !parts.isEmpty else { return nil }
        var text = parts.joined(separator: ", ")
        if s.timestampsOutOfRange > 0 {
            text +=
                " (\(s.timestampsOutOfRange) record timestamp\(s.timestampsOutOfRange == 1 ? "" : "s") out of range: before 2000 or ahead; not used)"
        }
        return text
    }

    static func summaryJSON(_ s: ImportSummary, input: String?, status: String, error: String? = nil) -> JSONValue {
        var o = JSONObject()
        if let input { o["input"] = .string(input) }
        o["status"] = .string(status)
        o["records"] = .int(Int64(s.records))
        o["inserted"] = .int(Int64(s.inserted))
        o["updated"] = .int(Int64(s.updated))
        o["unchanged"] = .int(Int64(s.unchanged))
        o["revived"] = .int(Int64(s.revived))
        o["duplicates"] = .int(Int64(s.duplicates))
        o["removed"] = .int(Int64(s.removed))
        o["linked"] = .int(Int64(s.linked))
        o["rejected"] = .int(Int64(s.rejected))
        if !s.ignoredViewports.isEmpty {
            o["ignoredViewports"] = .object(
                JSONObject(
                    ViewportEvidence.allCases.compactMap { r in
                        s.ignoredViewports[r].map { (r.rawValue, JSONValue.int(Int64($0))) }
                    }))
        }
        o["older"] = .int(Int64(s.older))
        o["unordered"] = .int(Int64(s.unordered))
        var capture = JSONObject()
        for c in CaptureSource.allCases {
            if let n = s.captureSources[c] { capture[c.commandLineName] = .int(Int64(n)) }
        }
        o["captureTimes"] = .object(capture)
        o["timestampsOutOfRange"] = .int(Int64(s.timestampsOutOfRange))
        if input == nil { o["skippedInputs"] = .int(Int64(s.skippedInputs)) }
        o["skipped"] = .int(Int64(s.skippedCount))
        if !s.skipped.isEmpty {
            o["skippedByReason"] = .object(
                JSONObject(s.skipped.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int(Int64($0.value))) }))
        }
        o["changed"] = .bool(!s.changedNothing)
        o["bytes"] = .int(s.bytes)
        o["seconds"] = .double((s.seconds * 1000).rounded() / 1000)
        if let error { o["error"] = .string(error) }
        return .object(o)
    }

    static func progressLine(_ p: ImportProgress) -> String {
        let rate = p.seconds > 0 ? Int(Double(p.records) / p.seconds) : 0
        var s = "\(p.input): \(p.records) records, \(rate) records/s, \(formatBytes(p.bytes))"
        if let total = p.totalBytes, total > 0 { s += " of \(formatBytes(total))" }
        return s
    }

    static func formatBytes(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var v = Double(n)
        var u = 0
        while v >= 1000 && u < units.count - 1 { v /= 1000; u += 1 }
        return u == 0 ? "\(n) B" : "\((v * 10).rounded() / 10) \(units[u])"
    }

    static func formatSeconds(_ s: Double) -> String {
        s < 10 ? "\((s * 100).rounded() / 100) s" : "\(Int(s.rounded())) s"
    }
}

extension PlaceDBError {
    /// An input `--on-error skip` passes over whole: bad data (no places,
    /// an API error response, JSON that cannot be read) or a missing or
    /// unreadable file. Database errors still stop the import.
    var isSkippableInput: Bool {
        switch self {
        case .badInput, .input: true
        default: false
        }
    }
}

extension CaptureSource {
    /// The name the import's summary gives the source: the option for the
    /// capture time it was given.
    var commandLineName: String {
        switch self {
        case .option: "--captured-at"
        case .record, .evidence, .unknown: rawValue
        }
    }
}
