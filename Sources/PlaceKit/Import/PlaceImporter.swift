import Foundation
import SQLiteDB
#if canImport(Glibc)
import Glibc
#endif

/// What an import does with a bad record.
public enum OnError: String, Sendable, CaseIterable {
    /// Stop at the first bad record; the database stays as it was before
    /// that input.
    case stop
    /// Import the valid records, report the rejected ones.
    case skip
}

/// How an import runs.
public struct ImportOptions: Sendable {
    /// The record format; nil detects it per record.
    public var format: InputFormat?
    public var onError: OnError
    /// The name the places are filed under (`source` column).
    public var source: String
    /// An IANA time zone (`Europe/Zurich`) for the places that have neither
    /// `timeZone` nor `utcOffsetMinutes` (OpenStreetMap and Overture give
    /// none; a regional extract is usually one zone). Stored as their
    /// `timeZone`, with `time_zone_source` 'import-option'.
    public var timeZone: String?

    public init(format: InputFormat? = nil, onError: OnError = .stop, source: String = "google-places", timeZone: String? = nil) {
        self.format = format
        self.onError = onError
        self.source = source
        self.timeZone = timeZone
    }

    /// Gives the place the import's time zone when it has no zone and no offset.
    func applyTimeZone(to place: inout Place) {
        guard let timeZone, place.timeZone == nil, place.utcOffsetMinutes == nil else { return }
        place.document["timeZone"] = ["id": .string(timeZone)]
        place.timeZoneSource = .importOption
    }

    /// True for an IANA name Foundation knows (`Europe/Zurich`, `UTC`).
    public static func isValidTimeZone(_ name: String) -> Bool {
        guard TimeZone(identifier: name) != nil else { return false }
        return TimeZone.knownTimeZoneIdentifiers.contains(name) || name == "UTC" || name == "GMT" || name.hasPrefix("Etc/")
    }
}

/// Counts of one import (of one input, or of several added up).
public struct ImportSummary: Sendable, Equatable {
    public var inputs = 0
    public var records = 0
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    public var rejected = 0
    public var bytes: Int64 = 0
    public var seconds: Double = 0

    public init() {}

    /// True when the import changed nothing in the database.
    public var changedNothing: Bool { inserted == 0 && updated == 0 }

    public static func += (a: inout ImportSummary, b: ImportSummary) {
        a.inputs += b.inputs
        a.records += b.records
        a.inserted += b.inserted
        a.updated += b.updated
        a.unchanged += b.unchanged
        a.rejected += b.rejected
        a.bytes += b.bytes
        a.seconds += b.seconds
    }
}

/// Progress of a running import, for a throttled display.
public struct ImportProgress: Sendable {
    public let input: String
    public let records: Int
    public let bytes: Int64
    public let totalBytes: Int64?
    public let seconds: Double
}

/// Imports place dumps into a placedb database: reader -> decoder -> writer,
/// one transaction per input. The library never prints: it reports through
/// the callbacks and the returned summary.
public final class PlaceImporter {
    let store: PlaceStore
    public let options: ImportOptions
    private let writer: PlaceWriter

    /// Opens (creating or migrating) the database at `databasePath`.
    public init(databasePath: String? = nil, options: ImportOptions = ImportOptions()) throws {
        if let zone = options.timeZone, !ImportOptions.isValidTimeZone(zone) {
            throw PlaceDBError.invalidArgument("unknown time zone '\(zone)': expected an IANA name such as Europe/Zurich or America/New_York")
        }
        store = try PlaceStore(path: PlaceStore.resolvePath(databasePath), writable: true)
        self.options = options
        writer = try PlaceWriter(db: store.db, source: options.source)
    }

    /// The database file's path.
    public var databasePath: String { store.path }

    /// Imports one input. With `.stop`, the first bad record throws
    /// `PlaceDBError.badInput` and the input's changes are rolled back. With
    /// `.skip`, bad records go to `reject` and the rest is committed; an input
    /// whose JSON cannot be read past some point still throws after
    /// committing what came before it.
    public func importInput(_ input: InputSource,
                            progress: ((ImportProgress) -> Void)? = nil,
                            reject: ((ImportRejection) -> Void)? = nil) throws -> ImportSummary {
        let started = Clock.now()
        let startedAt = RFC3339.now()
        let source: ByteSource
        do {
            source = try ByteSource(input)
        } catch {
            throw PlaceDBError.input(error)
        }
        let reader = RecordReader(source: source)
        var summary = ImportSummary()
        summary.inputs = 1
        var formats = Set<InputFormat>()
        var fatal: ImportRejection?
        var lastProgress = started

        func report() {
            progress?(ImportProgress(input: source.name, records: reader.recordsRead, bytes: reader.bytesRead,
                                     totalBytes: source.totalSize, seconds: Clock.now() - started))
        }

        do {
            try store.db.transaction(.immediate) {
                writer.timestamp = startedAt
                try writer.beginBulk()
                while true {
                    let record: SourceRecord
                    do {
                        guard let next = try reader.next() else { break }
                        record = next
                    } catch let e as RecordReadError {
                        let rejection = ImportRejection(input: source.name, line: e.line, index: e.index, placeID: nil, reason: e.message, record: e.rawLine)
                        if e.recoverable && options.onError == .skip {
                            summary.records += 1
                            summary.rejected += 1
                            reject?(rejection)
                            continue
                        }
                        if e.recoverable { summary.records += 1; summary.rejected += 1 }
                        if options.onError == .skip {
                            // The rest of the input cannot be read: keep what
                            // came before it, then report the failure.
                            fatal = rejection
                            break
                        }
                        throw PlaceDBError.badInput(rejection)
                    } catch let e as InputError {
                        throw PlaceDBError.input(e)
                    }
                    summary.records += 1
                    do {
                        var decoded = try decodeRecord(record, format: options.format)
                        options.applyTimeZone(to: &decoded.place)
                        formats.insert(decoded.format)
                        switch try writer.upsert(decoded) {
                        case .inserted: summary.inserted += 1
                        case .updated: summary.updated += 1
                        case .unchanged: summary.unchanged += 1
                        }
                    } catch let e as DecodeError {
                        summary.rejected += 1
                        let rejection = ImportRejection(input: source.name, line: record.line, index: record.index,
                                                        placeID: e.placeID, reason: e.message,
                                                        record: JSONWriter().stringBytes(record.value))
                        if options.onError == .stop { throw PlaceDBError.badInput(rejection) }
                        reject?(rejection)
                    }
                    if progress != nil, summary.records % 1024 == 0 {
                        let now = Clock.now()
                        if now - lastProgress >= 1 { lastProgress = now; report() }
                    }
                }
                if fatal == nil { try checkEnvelope(reader, name: source.name, records: summary.records) }
                try writer.endBulk()
            }
        } catch let error as PlaceDBError {
            // Rolled back: the database is as it was before this input.
            let failed = ImportSummary(records: summary.records, rejected: summary.rejected,
                                       bytes: reader.bytesRead, seconds: Clock.now() - started)
            try? recordRun(input: source.name, formats: formats, summary: failed, status: "failed",
                           startedAt: startedAt, error: error.description)
            throw error
        }
        summary.bytes = reader.bytesRead
        summary.seconds = Clock.now() - started
        report()
        try recordRun(input: source.name, formats: formats, summary: summary, status: fatal == nil ? "ok" : "failed",
                      startedAt: startedAt, error: fatal?.description)
        if let fatal { throw PlaceDBError.badInput(fatal) }
        return summary
    }

    /// A legacy response whose `status` is an error is reported, not taken
    /// for an empty result.
    private func checkEnvelope(_ reader: RecordReader, name: String, records: Int) throws {
        let envelope = reader.envelope
        if records == 0, envelope["predictions"] != nil {
            throw PlaceDBError.badInput(ImportRejection(input: name, line: 1, index: nil, placeID: nil,
                                                        reason: "autocomplete predictions are not places (no location); import Place Details or search responses", record: nil))
        }
        if let status = envelope["status"]?.stringValue, status != "OK", status != "ZERO_RESULTS", records == 0 {
            let message = envelope["error_message"]?.stringValue.map { ": \($0)" } ?? ""
            throw PlaceDBError.badInput(ImportRejection(input: name, line: 1, index: nil, placeID: nil,
                                                        reason: "the response is an API error (\(status)\(message)), it holds no places", record: nil))
        }
        if records == 0, !reader.sawEnvelope, envelope.isEmpty == false, envelope["status"] == nil {
            throw PlaceDBError.badInput(ImportRejection(input: name, line: 1, index: nil, placeID: nil, reason: "no places found in the input", record: nil))
        }
    }

    private func recordRun(input: String, formats: Set<InputFormat>, summary s: ImportSummary, status: String, startedAt: String, error: String?) throws {
        var settings = JSONObject([
            ("format", .string(self.options.format?.rawValue ?? "auto")),
            ("onError", .string(self.options.onError.rawValue)),
            ("source", .string(self.options.source)),
        ])
        if let zone = self.options.timeZone { settings["timeZone"] = .string(zone) }
        let options = JSONWriter().string(.object(settings))
        try store.db.run("""
            INSERT INTO import_run (input, format, source, status, started_at, finished_at, seconds, bytes, records, inserted, updated, unchanged, rejected, options, error)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(input), DatabaseValue(formats.map(\.rawValue).sorted().joined(separator: ",").nilIfEmpty), .text(self.options.source),
                  .text(status), .text(startedAt), .text(RFC3339.now()), .real(s.seconds), .integer(s.bytes),
                  .integer(Int64(s.records)), .integer(Int64(s.inserted)), .integer(Int64(s.updated)),
                  .integer(Int64(s.unchanged)), .integer(Int64(s.rejected)), .text(options), DatabaseValue(error)])
    }
}

extension ImportSummary {
    init(records: Int, rejected: Int, bytes: Int64, seconds: Double) {
        self.init()
        self.inputs = 1
        self.records = records
        self.rejected = rejected
        self.bytes = bytes
        self.seconds = seconds
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}

extension JSONWriter {
    func stringBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, into: &out)
        return out
    }
}

/// Monotonic seconds.
enum Clock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
