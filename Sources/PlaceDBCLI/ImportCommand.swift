import PlaceKit
#if canImport(Glibc)
import Glibc
#endif

/// `placedb import FILE...`: load place dumps into the database.
enum ImportCommand: Command {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import place dumps (Places API (New), legacy Places web service; JSON, NDJSON, .gz) into the database.",
        arguments: [ArgumentSpec(name: "FILE", help: "A dump to import; - reads standard input. Gzip'd files are read directly.", variadic: true)],
        options: [
            OptionSpec("--input-format", value: "FORMAT", help: "Record format (default: auto, detected per record).",
                       choices: ["auto"] + InputFormat.allCases.map(\.rawValue)),
            OptionSpec("--on-error", value: "MODE", help: "stop: the first bad record stops the import and that file's changes are rolled back (default). skip: import the valid records and report the rejected ones.",
                       choices: OnError.allCases.map(\.rawValue)),
            OptionSpec("--rejects", value: "FILE", help: "Write each rejected record to FILE as one NDJSON line."),
            OptionSpec("--source", value: "NAME", help: "The source name the places are filed under (default: google-places)."),
            OptionSpec("--time-zone", value: "ZONE", help: "IANA time zone (Europe/Zurich) for the places that have neither timeZone nor utcOffsetMinutes (OpenStreetMap, Overture), so their hours can be read; stored with where it came from."),
        ],
        discussion: """
            Each file is imported in one transaction. Re-importing a file changes nothing; a
            newer record for an ID replaces the stored one. The summary (stdout) counts
            inserted, updated, unchanged and rejected records. Bad input exits 65, a missing
            file 66; with the default --on-error stop the database stays as it was before
            the failing file (files before it stay imported).
            """)

    static func run(_ context: CommandContext) throws -> ExitCode {
        let args = context.arguments
        let files = args.positionals
        guard !files.isEmpty else { throw UsageError(message: "missing FILE (use - for standard input)") }
        if files.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "standard input (-) given more than once") }
        var options = ImportOptions()
        if let f = args.value("--input-format"), f != "auto" { options.format = InputFormat(rawValue: f) }
        if let mode = args.value("--on-error") { options.onError = OnError(rawValue: mode) ?? .stop }
        if let source = args.value("--source") {
            guard !source.isEmpty else { throw UsageError(message: "--source needs a non-empty name") }
            options.source = source
        }
        if let zone = args.value("--time-zone") {
            guard ImportOptions.isValidTimeZone(zone) else {
                throw UsageError(message: "unknown time zone '\(zone)' for '--time-zone': expected an IANA name such as Europe/Zurich or America/New_York")
            }
            options.timeZone = zone
        }
        var rejectsFile: UnsafeMutablePointer<FILE>?
        if let path = args.value("--rejects") {
            guard let f = fopen(path, "w") else {
                throw CommandFailure(code: .failure, message: "\(path): cannot write the rejects file: \(String(cString: strerror(errno)).lowercased())")
            }
            rejectsFile = f
        }
        defer { if let rejectsFile { fclose(rejectsFile) } }

        let importer = try PlaceImporter(databasePath: context.databasePath, options: options)
        let console = context.console
        let showProgress = console.stderrIsTerminal
        var total = ImportSummary()
        var perInput: [JSONValue] = []
        var failure: (any Error)?
        var reportedRejections = 0
        let maxReported = 100

        for file in files {
            let input = InputSource(argument: file)
            do {
                let summary = try importer.importInput(input, progress: showProgress ? { p in
                    console.err("\r\u{1B}[K" + progressLine(p))
                } : nil, reject: { rejection in
                    reportedRejections += 1
                    if reportedRejections <= maxReported { console.err("placedb import: rejected: \(rejection.description)\n") }
                    if let rejectsFile, let record = rejection.record {
                        record.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, rejectsFile) }
                        fputc(0x0A, rejectsFile)
                    }
                })
                if showProgress { console.err("\r\u{1B}[K") }
                total += summary
                perInput.append(summaryJSON(summary, input: input.description, status: "ok"))
                if files.count > 1 && showProgress { console.err("placedb import: \(input.description): \(summaryText(summary))\n") }
            } catch {
                if showProgress { console.err("\r\u{1B}[K") }
                if case PlaceDBError.badInput(let r) = error, let rejectsFile, let record = r.record {
                    record.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, rejectsFile) }
                    fputc(0x0A, rejectsFile)
                }
                perInput.append(summaryJSON(ImportSummary(), input: input.description, status: "failed", error: "\(error)"))
                console.err("placedb import: \(error)\n")
                failure = error
                break
            }
        }
        if reportedRejections > maxReported {
            console.err("placedb import: \(reportedRejections - maxReported) more rejected records not shown\(args.value("--rejects").map { " (all are in \($0))" } ?? "")\n")
        }
        switch context.output {
        case .json:
            context.writeJSON([
                "database": .string(importer.databasePath),
                "total": summaryJSON(total, input: nil, status: failure == nil ? "ok" : "failed"),
                "inputs": .array(perInput),
            ])
        case .text:
            var line = "\(importer.databasePath): \(total.inputs) input\(total.inputs == 1 ? "" : "s") imported, \(summaryText(total))"
            if failure != nil { line += " (stopped at the error above)" }
            console.out(line + "\n")
        }
        if let failure {
            if let e = failure as? PlaceDBError { return CommandLineTool.exitCode(for: e) }
            return .failure
        }
        return .success
    }

    static func summaryText(_ s: ImportSummary) -> String {
        var text = "\(s.records) records: \(s.inserted) inserted, \(s.updated) updated, \(s.unchanged) unchanged, \(s.rejected) rejected"
        let rate = s.seconds > 0 ? Int(Double(s.records) / s.seconds) : s.records
        text += " (\(formatBytes(s.bytes)) in \(formatSeconds(s.seconds)), \(rate) records/s)"
        if s.changedNothing && s.records > 0 { text += "; nothing changed" }
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
        o["rejected"] = .int(Int64(s.rejected))
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
