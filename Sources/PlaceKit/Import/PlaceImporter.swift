import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif
public import PlaceModel
package import PlaceStorage

/// Imports place dumps into a placedb database: reader -> decoder -> writer,
/// one transaction per input. The library never prints: it reports through
/// the callbacks and the returned summary.
///
/// A database that does not exist yet is built under a temporary name beside
/// it (`FILE.new-PID`, with a rollback journal: see `PlaceStore`) and moved
/// to its name when the first operation (an input, a snapshot's end, alias
/// edges) is done, in WAL mode like any other. Until then no reader can open
/// a half-built file, and a killed first import leaves no database at all
/// (its temporary file is removed by the next import into that name); nor
/// does a first operation that fails having kept nothing (a full disk, bad
/// data with `.stop`, an alias file that cannot be read).
///
/// One importer at a time writes a database (`ImportLock`): a second one
/// waits in `init` for the first to go away.
public final class PlaceImporter {
    /// The open connection and its writer (nil only after a failed move).
    private var session: (store: PlaceStore, writer: PlaceWriter)?
    public let options: ImportOptions
    /// When this importer began (milliseconds; later than any importer
    /// before it in this process): the inputs of one importer (one
    /// `placedb import`) are one capture as far as undated records go
    /// (`CaptureTime.unordered`).
    private let openedAt = PlaceImporter.nextOpeningTime()

    private static let lastOpening = Mutex<Int64>(0)
    private static func nextOpeningTime() -> Int64 {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return lastOpening.withLock { last in
            last = max(now, last + 1)
            return last
        }
    }
    /// Where a new database goes when its first operation is done.
    private var newDatabasePath: String?

    /// The temporary file of a new database (`FILE.new-PID`).
    private var temporaryPath: String?
    /// One import at a time into this database (`ImportLock`).
    private var lock: ImportLock?
    /// Whether the running operation committed anything (a failed first
    /// operation that did not leaves no database behind).
    private var operationCommitted = false

    var store: PlaceStore { session!.store }
    private var writer: PlaceWriter { session!.writer }

    /// Opens (creating or migrating) the database at `databasePath`. While
    /// another import into it runs, waits for it to finish, calling
    /// `waiting` once first with its process ID (when known).
    public init(
        databasePath: String? = nil, options: ImportOptions = ImportOptions(),
        waiting: ((_ otherImport: Int32?) -> Void)? = nil
    ) throws {
        if let zone = options.timeZone, !ImportOptions.isValidTimeZone(zone) {
            throw PlaceDBError.invalidArgument(
                "unknown time zone '\(zone)': expected an IANA name such as Europe/Zurich or America/New_York")
        }
        self.options = options
        let path = try PlaceStore.resolvePath(databasePath)
        try NewDatabase.refuseDanglingLink(path)
        lock = ImportLock.acquire(for: path, waiting: waiting)
        if let temporary = NewDatabase.temporaryPath(for: path) {
            NewDatabase.removeAbandoned(besides: path)
            newDatabasePath = path
            temporaryPath = temporary
            do {
                session = try Self.open(temporary, rollbackJournal: true, options: options)
            } catch {
                // Nothing of it is kept (its schema could not be written on a full disk, say).
                discardNewDatabase()
                // Say it of the name the user gave (a missing directory, say).
                if let error = error as? PlaceDBError { throw error.replacingPath(with: path) }
                throw error
            }
        } else {
            session = try Self.open(path, rollbackJournal: false, options: options)
        }
    }

    deinit {
        // A new database nothing was imported into still gets its name
        // (not one whose first operation failed: that one was removed).
        try? settle()
    }

    private static func open(_ path: String, rollbackJournal: Bool, options: ImportOptions) throws -> (
        store: PlaceStore, writer: PlaceWriter
    ) {
        let store = try PlaceStore(path: path, writable: true, rollbackJournal: rollbackJournal)
        let writer = try store.makeWriter(source: options.source, indexChunk: options.indexChunk)
        writer.snapshot = options.snapshot != nil
        return (store, writer)
    }

    /// Runs one operation, then settles a new database (also when the
    /// operation failed: its failed run is recorded in it, as in any other).
    func settling<T>(_ operation: () throws -> T) throws -> T {
        if session == nil, newDatabasePath != nil, let temporaryPath {
            // The first operation failed and its database was removed: start again.
            session = try Self.open(temporaryPath, rollbackJournal: true, options: options)
        }
        if session == nil {
            throw PlaceDBError.database(
                path: databasePath, reason: "no open database: it could not be moved to its name")
        }
        let result: T
        operationCommitted = false
        do {
            result = try operation()
        } catch {
            if newDatabasePath != nil && !operationCommitted {
                // Nothing was kept: leave no database behind (readers then
                // say there is none, rather than answer from an empty one).
                discardNewDatabase()
            } else {
                try? settle()
            }
            throw error
        }
        try settle()
        return result
    }

    /// Closes and removes a new database whose first operation failed.
    private func discardNewDatabase() {
        guard let temporaryPath else { return }
        session = nil
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) }
    }

    /// A new database, after its first operation: switched to WAL, closed,
    /// moved to its name (never over a file that appeared there meanwhile),
    /// and opened there.
    private func settle() throws {
        guard let path = newDatabasePath, let (store, _) = session else { return }
        let temporary = store.path
        // Should this fail, the database is still the new one, settled later.
        try store.switchToWAL()
        newDatabasePath = nil
        session = nil
        do {
            try NewDatabase.move(temporary, to: path)
        } catch {
            // Keep working in the temporary file; the error says where it is.
            session = try? Self.open(temporary, rollbackJournal: false, options: options)
            throw error
        }
        session = try Self.open(path, rollbackJournal: false, options: options)
    }

    /// The first run of this importer: in a snapshot, every place of the
    /// source that no run since has seen is gone.
    private var firstRun: Int64?
    /// The first run this importer began (any kind).
    private var importFirstRun: Int64?
    /// The places this importer's inputs change, tracked from the first
    /// input on for linking's pass (`ChangedPlaces`).
    private var changes: ChangedPlaces?
    /// The newest capture time the records of this importer's inputs
    /// carried (their data's date: a snapshot's completion is dated by it).
    private var newestDataTime: Int64?

    /// Completes a snapshot after all its inputs imported: marks the places
    /// of the snapshot's source that its runs did not see as removed (by a
    /// run of its own, so the time is kept), and returns how many. Call it
    /// only when every input succeeded: a partial snapshot must not remove
    /// anything.
    public func finishSnapshot() throws -> Int {
        try settling { try finishSnapshotRun() }
    }

    private func finishSnapshotRun() throws -> Int {
        guard let snapshot = options.snapshot else {
            throw PlaceDBError.invalidArgument("finishSnapshot() needs ImportOptions.snapshot")
        }
        let started = MonotonicClock.now()
        let startedAt = RFC3339.nowMilliseconds()
        return try writingCarried { () throws -> Int in
            let run = try beginRun(input: "snapshot \(snapshot)", startedAt: startedAt)
            writer.run = run
            // With no input run at all, every place of the source is older.
            let seenSince = firstRun ?? run
            var s = ImportSummary()
            s.removed = try store.markUnseenRemoved(source: snapshot, run: run, seenSince: seenSince)
            if let matching = options.matching, s.removed > 0 {
                s.linked = try linkSnapshot(source: snapshot, removedRun: run, seenSince: seenSince, options: matching)
            }
            s.seconds = MonotonicClock.now() - started
            // The removals and alias edges are dated by the data: the newest
            // capture time of the snapshot's inputs (or --captured-at).
            try finishRun(
                run, formats: [], summary: s, status: "ok", error: nil, dataTime: newestDataTime ?? options.capturedAt)
            lastSnapshotLinks = s.linked
            return s.removed
        }
    }

    /// Links the places this importer's runs added, changed or removed
    /// (docs/linking.md): candidates near each through the spatial index,
    /// scored, linked above the threshold, grouped. One transaction; call
    /// it after the inputs (and `finishSnapshot`). Nil when nothing was
    /// imported by this importer, or `ImportOptions.link` is false.
    public func link() throws -> LinkSummary? {
        guard options.link, let since = firstRun else { return nil }
        defer {
            store.stopTrackingChangedPlaces()
            changes = nil
        }
        return try settling { try writing { try store.link(changedSince: since, changes: changes) } }
    }

    /// Alias edges the last `finishSnapshot` recorded.
    public private(set) var lastSnapshotLinks = 0

    /// Links the places this snapshot removed to the ones it added.
    private func linkSnapshot(source: String, removedRun: Int64, seenSince: Int64, options matching: MatchOptions)
        throws -> Int
    {
        let (removed, added, before) = try store.snapshotCandidates(
            source: source, removedRun: removedRun, seenSince: seenSince)
        var edges = SnapshotMatcher(options: matching).match(removed: removed, added: added, renumbering: false)
        // Most of the source re-keyed at once, and found again: a renumbering,
        // not many separate moves.
        let relinked = Set(edges.map(\.aliasID)).count
        if before > 0, Double(removed.count) >= 0.5 * Double(before), Double(relinked) >= 0.8 * Double(removed.count) {
            edges = edges.map { e in
                var e = e
                if e.reason == .moved || e.reason == .redrawn { e.reason = .renumbered }
                return e
            }
        }
        var linked = 0
        for edge in edges where try writer.record(edge, source: source) { linked += 1 }
        return linked
    }

    /// The counts of the last input `importInput` read, also when it threw:
    /// with `.skip`, an input whose JSON cannot be read past some point
    /// throws after committing the records before that point, and these
    /// are their counts. When the input was rolled back instead
    /// (`lastInputCommitted` false), nothing of it is kept: the counts say
    /// how far it was read (records, rejected), with nothing inserted.
    public private(set) var lastInputSummary = ImportSummary()
    /// Set when an operation of this importer dropped the text index
    /// (`ImportOptions.textIndex` false): how many places it held.
    public private(set) var droppedTextIndex: Int?
    /// Whether the database has the text index (and the imports keep it).
    public var hasTextIndex: Bool { session?.writer.keepsTextIndex ?? false }

    /// One write transaction of an operation. With `textIndex` false, the
    /// text index is dropped first, in it: a kill leaves the index and the
    /// places as they were, or neither the index nor the old places.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        var dropped: Int?
        do {
            let result = try store.write { () throws -> T in
                if !options.textIndex { dropped = try writer.dropTextIndex() }
                return try body()
            }
            if let dropped { droppedTextIndex = (droppedTextIndex ?? 0) + dropped }
            return result
        } catch {
            // Rolled back: the index may be there again.
            if dropped != nil { try? writer.recheckTextIndex() }
            throw error
        }
    }
    /// `writing`, keeping the stored counts of common words current
    /// (`TextCountCarry`): begun in the transaction, finished in one of its
    /// own once it committed. The write is committed whatever the carry
    /// does: it brings the counts up to the index, or leaves them stale
    /// (queries then count, as without them).
    private func writingCarried<T>(_ body: () throws -> T) throws -> T {
        var carry: TextCountCarry?
        let result = try writing { () throws -> T in
            carry = try store.beginTextCountCarry()
            return try body()
        }
        if let carry, (try? store.finishTextCountCarry(carry)) == nil { store.dropTextCountCarry() }
        return result
    }

    /// True when the last input's transaction was committed (it succeeded,
    /// or it kept what came before an unreadable part).
    public private(set) var lastInputCommitted = false

    /// The database file's path.
    public var databasePath: String { newDatabasePath ?? session?.store.path ?? "" }

    /// Imports one input. With `.stop`, the first bad record throws
    /// `PlaceDBError.badInput` and the input's changes are rolled back. With
    /// `.skip`, bad records go to `reject` and the rest is committed; an input
    /// whose JSON cannot be read past some point still throws after
    /// committing what came before it.
    public func importInput(
        _ input: InputSource,
        progress: ((ImportProgress) -> Void)? = nil,
        reject: ((ImportRejection) -> Void)? = nil
    ) throws -> ImportSummary {
        let settles = newDatabasePath != nil
        let summary = try settling { try importOne(input, progress: progress, reject: reject) }
        if settles { endOfImportWatcher?.partEnded("WAL, moved to its name, reopened") }
        return summary
    }

    /// Told the parts of each input's end as they end, from the last record
    /// read: the index tables' writing (`PlaceWriter.endBulk`), the run's
    /// record, the commit and, for a new database, its move to its name
    /// (`placedb-bench world` times them). Nil: nobody is told.
    package var endOfImportWatcher: (any EndOfWriteWatcher)?

    private func importOne(
        _ input: InputSource, progress: ((ImportProgress) -> Void)?,
        reject: ((ImportRejection) -> Void)?
    ) throws -> ImportSummary {
        let started = MonotonicClock.now()
        let startedAt = RFC3339.nowMilliseconds()
        lastInputSummary = ImportSummary()
        lastInputCommitted = false
        let source = try openSource(input)
        let reader = RecordReader(source: source)
        // No text index row is computed for a database that will have none.
        var producerOptions = options
        producerOptions.textIndex = options.textIndex && writer.keepsTextIndex
        let producer = RecordProducer(
            reader: reader, name: source.name, format: options.format, source: options.source, options: producerOptions,
            importedAt: openedAt)
        producer.start()
        defer { producer.stopAndWait() }
        var summary = ImportSummary()
        summary.inputs = 1
        // Linking's pass reads the places the inputs change, tracked as
        // they are written (from the first input that commits on).
        if options.link && firstRun == nil { changes = try store.trackChangedPlaces() }
        var formats = Set<InputFormat>()
        var fatal: ImportRejection?
        var firstRejection: ImportRejection?
        var lastProgress = started
        var bytesRead: Int64 = 0
        var recordsRead = 0
        var captureCounts = [Int](repeating: 0, count: CaptureSource.allCases.count)
        var newestCapture: Int64?
        var tombstones: [Tombstone] = []

        func report() {
            progress?(
                ImportProgress(
                    input: source.name, records: recordsRead, bytes: bytesRead,
                    totalBytes: source.totalSize, seconds: MonotonicClock.now() - started))
        }

        do {
            try writingCarried {
                let run = try beginRun(input: source.name, startedAt: startedAt, export: source.export)
                writer.run = run
                // Into a new file, its pages start going to disk before the tree's build and the commit.
                try writer.beginBulk(writeBackEarly: newDatabasePath != nil)
                consume: while let batch = producer.queue.pop() {
                    for item in batch.items {
                        summary.records += 1
                        switch item {
                        case .place(let place):
                            formats.insert(place.format)
                            if let w = place.viewportWarning { summary.ignoredViewports[w, default: 0] += 1 }
                            captureCounts[place.captureSource.index] += 1
                            if CaptureTime.isKnown(place.capturedAt) {
                                newestCapture = max(newestCapture ?? place.capturedAt, place.capturedAt)
                            }
                            if place.timestampOutOfRange { summary.timestampsOutOfRange += 1 }
                            let outcome = try writer.write(place)
                            switch outcome {
                            case .inserted: summary.inserted += 1
                            case .updated: summary.updated += 1
                            case .unchanged: summary.unchanged += 1
                            case .revived: summary.revived += 1
                            case .duplicate: summary.duplicates += 1
                            }
                            // A removed place from `export --tombstones`: removed
                            // again below, unless the database holds it live.
                            if !place.extra.isEmpty, outcome == .inserted || outcome == .revived,
                                Tombstone.marked(place.extra)
                            {
                                do throws(DecodeError) {
                                    if let t = try Tombstone.read(placeID: place.id, extra: place.extra) {
                                        tombstones.append(t)
                                    }
                                } catch {
                                    throw PlaceDBError.badInput(
                                        ImportRejection(
                                            input: source.name, line: summary.records, index: summary.records,
                                            placeID: place.id, reason: error.message, record: nil))
                                }
                            }
                            if writer.lastKeptNewer { summary.older += 1 }
                            if writer.lastUnordered { summary.unordered += 1 }
                        case .skipped(let reason):
                            summary.skipped[reason, default: 0] += 1
                        case .rejected(let rejection, let recoverable):
                            if !recoverable && rejection.index == nil {
                                // The JSON cannot be read past this point; no record was lost here.
                                summary.records -= 1
                            } else {
                                summary.rejected += 1
                                if firstRejection == nil { firstRejection = rejection }
                            }
                            if options.onError == .stop { throw PlaceDBError.badInput(rejection) }
                            if !recoverable {
                                // Skip mode keeps what came before the unreadable part.
                                fatal = rejection
                                bytesRead = batch.bytesRead
                                recordsRead = batch.recordsRead
                                break consume
                            }
                            reject?(rejection)
                        case .failed(let error):
                            summary.records -= 1
                            if let e = error as? InputError { throw PlaceDBError.input(e) }
                            throw error
                        }
                    }
                    bytesRead = batch.bytesRead
                    recordsRead = batch.recordsRead
                    producer.recycle(batch)
                    if progress != nil {
                        let now = MonotonicClock.now()
                        if now - lastProgress >= 1 { lastProgress = now; report() }
                    }
                }
                if fatal == nil {
                    try checkEnvelope(
                        envelope: producer.envelope, sawEnvelope: producer.sawEnvelope, name: source.name,
                        records: summary.records)
                }
                if fatal == nil, let first = firstRejection, summary.rejected + summary.skippedCount == summary.records
                {
                    // Skip mode, and no record was a place: the input is bad, not imported.
                    let others =
                        summary.skippedCount > 0 ? " and the other \(summary.skippedCount) skipped as not places" : ""
                    let all = summary.skippedCount > 0 ? "" : "all "
                    throw PlaceDBError.input(
                        InputError(
                            kind: .corrupt, source: source.name,
                            reason:
                                "nothing imported: \(all)\(summary.rejected) record\(summary.rejected == 1 ? "" : "s") rejected\(others) (the first, line \(first.line)\(first.index.map { " record \($0)" } ?? ""): \(first.reason))"
                        ))
                }
                if !tombstones.isEmpty { summary.removed += try removeAgain(tombstones, input: source.name, run: run) }
                endOfImportWatcher?.endBegins()
                try writer.endBulk(watcher: endOfImportWatcher)
                for (i, c) in CaptureSource.allCases.enumerated() where captureCounts[i] > 0 {
                    summary.captureSources[c] = captureCounts[i]
                }
                // An OpenStreetMap file read whole: its own size, not its export's.
                summary.bytes = fatal == nil ? source.export.flatMap { fileSize($0.input) } ?? bytesRead : bytesRead
                summary.seconds = MonotonicClock.now() - started
                try finishRun(
                    run, formats: formats, summary: summary, status: fatal == nil ? "ok" : "failed",
                    error: fatal?.description,
                    dataTime: newestCapture)
                if let t = newestCapture { newestDataTime = max(newestDataTime ?? t, t) }
                if firstRun == nil { firstRun = run }
                endOfImportWatcher?.partEnded("run recorded")
            }
            endOfImportWatcher?.partEnded("commit")
        } catch let error as PlaceDBError {
            // Rolled back: the database is as it was before this input.
            let failed = ImportSummary(
                records: summary.records, rejected: summary.rejected,
                bytes: bytesRead, seconds: MonotonicClock.now() - started)
            _ = try? store.write {
                let run = try beginRun(input: source.name, startedAt: startedAt)
                try finishRun(run, formats: formats, summary: failed, status: "failed", error: error.description)
            }
            lastInputSummary = failed
            throw error
        }
        lastInputSummary = summary
        lastInputCommitted = true
        operationCommitted = true
        report()
        if let fatal { throw PlaceDBError.badInput(fatal) }
        return summary
    }

    /// The bytes of `input`: a file or standard input, read as it is
    /// (gzip'd or not) when it is JSON; the output of `osmium export` when
    /// it is an OpenStreetMap file; refused, saying what it is, when it is
    /// neither (a CSV file, an image, ...). Told by the first bytes, not
    /// the name.
    private func openSource(_ input: InputSource) throws -> ByteSource {
        let source: ByteSource
        let kind: InputKind
        do {
            source = try ByteSource(input)
            kind = InputKind.classify(try source.peek(InputKind.headLength), gzipped: source.isGzip)
        } catch {
            throw PlaceDBError.input(error)
        }
        switch kind {
        case .json:
            return source
        case .other(let what, let advice):
            let reason = "this is \(what), not JSON/GeoJSON"
            switch advice {
            case .text(let text)?:
                throw PlaceDBError.input(InputError(kind: .corrupt, source: source.name, reason: "\(reason); \(text)"))
            case .image?:
                throw PlaceDBError.input(InputError(kind: .corrupt, source: source.name, reason: reason, found: .image))
            case .sqliteDatabase?:
                throw PlaceDBError.input(
                    InputError(kind: .corrupt, source: source.name, reason: reason, found: .sqliteDatabase))
            case nil: throw PlaceDBError.input(InputError(kind: .corrupt, source: source.name, reason: reason))
            }
        case .openStreetMap(let format):
            guard case .file(let path) = input else {
                throw PlaceDBError.input(
                    InputError(
                        kind: .corrupt, source: source.name,
                        reason:
                            "this is \(format.description) on standard input, which osmium export cannot read (it reads its input twice); give the file's path"
                    ))
            }
            let directory = databasePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
                separator: "/")
            let export = try OsmiumExport(
                input: path, format: format, osmium: options.osmium, index: options.osmiumIndex,
                scratchDirectory: directory.isEmpty ? (databasePath.hasPrefix("/") ? "/" : ".") : directory)
            do {
                return try ByteSource(export, name: source.name)
            } catch {
                throw PlaceDBError.input(error)
            }
        }
    }

    private func fileSize(_ path: String) -> Int64? {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : nil
    }

    /// Marks the places of tombstone records removed at their recorded time
    /// and records the edges that replaced them, each filed under a run of
    /// its recorded time, so `resolve` answers as in the exported database.
    /// Returns how many places it removed.
    private func removeAgain(_ tombstones: [Tombstone], input: String, run: Int64) throws -> Int {
        var runs: [String: Int64] = [:]
        defer { writer.run = run }
        for t in tombstones {
            try store.markTombstone(
                t.placeID, run: try store.recordedRun(at: t.removedAt, input: input, what: "tombstones", runs: &runs),
                member: ExportRecord.tombstoneMember)
            for r in t.replacedBy {
                writer.run =
                    try r.recordedAt.map {
                        try store.recordedRun(at: $0, input: input, what: "tombstones", runs: &runs)
                    } ?? run
                try writer.record(r.edge, source: r.source, backdating: r.recordedAt != nil)
            }
        }
        return tombstones.count
    }

    /// A legacy response whose `status` is an error is reported, not taken
    /// for an empty result.
    private func checkEnvelope(envelope: JSONObject, sawEnvelope: Bool, name: String, records: Int) throws {
        if records == 0, envelope["predictions"] != nil {
            throw PlaceDBError.badInput(
                ImportRejection(
                    input: name, line: 1, index: nil, placeID: nil,
                    reason:
                        "autocomplete predictions are not places (no location); import Place Details or search responses",
                    record: nil))
        }
        if let status = envelope["status"]?.stringValue, status != "OK", status != "ZERO_RESULTS", records == 0 {
            let message = envelope["error_message"]?.stringValue.map { ": \($0)" } ?? ""
            throw PlaceDBError.badInput(
                ImportRejection(
                    input: name, line: 1, index: nil, placeID: nil,
                    reason: "the response is an API error (\(status)\(message)), it holds no places", record: nil))
        }
        if records == 0, !sawEnvelope, envelope.isEmpty == false, envelope["status"] == nil {
            throw PlaceDBError.badInput(
                ImportRejection(
                    input: name, line: 1, index: nil, placeID: nil, reason: "no places found in the input", record: nil)
            )
        }
    }

    /// Records alias edges in one run of their own; returns the counts.
    func recordAliases(_ edges: [AliasEdge], input: String, source: String) throws -> AliasImportSummary {
        try settling { try recordAliasRun(edges.map { ($0, nil, nil) }, input: input, source: source) }
    }

    /// Records edges in a run of their own. An edge with its own `source`
    /// keeps it (else `source`); one with a `recordedAt` time is filed under
    /// a run of that time, as the database it was exported from had it, so
    /// `resolve` answers the same.
    func recordAliasRun(
        _ edges: [(edge: AliasEdge, source: String?, recordedAt: String?)],
        rules: [(kind: LinkRuleKind, a: String, b: String, origin: String)] = [],
        input: String, source: String
    ) throws -> AliasImportSummary {
        let started = MonotonicClock.now()
        let startedAt = RFC3339.nowMilliseconds()
        return try writing { () throws -> AliasImportSummary in
            let run = try beginRun(input: input, startedAt: startedAt)
            writer.run = run
            var summary = AliasImportSummary()
            var runs: [String: Int64] = [:]
            for (edge, own, recordedAt) in edges {
                summary.records += 1
                writer.run =
                    try recordedAt.map { try store.recordedRun(at: $0, input: input, what: "alias edges", runs: &runs) }
                    ?? run
                if try writer.record(edge, source: own ?? source, backdating: recordedAt != nil) {
                    summary.added += 1
                } else {
                    summary.unchanged += 1
                }
            }
            writer.run = run
            if !rules.isEmpty {
                for r in rules { try store.recordLinkRule(r.kind, r.a, r.b, origin: r.origin, run: run) }
                // The places the rules name, grouped again now (and any
                // named later, when they arrive).
                summary.link = try store.link(changedSince: run)
            }
            var s = ImportSummary()
            s.records = summary.records
            s.inserted = summary.added
            s.unchanged = summary.unchanged
            s.seconds = MonotonicClock.now() - started
            try finishRun(run, formats: [], summary: s, status: "ok", error: nil)
            return summary
        }
    }

    /// Inserts a `running` import_run row and returns its id; the places
    /// this run writes point at it.
    private func beginRun(input: String, startedAt: String, export: OsmiumExport? = nil) throws -> Int64 {
        var settings = JSONObject([
            ("format", .string(self.options.format?.rawValue ?? "auto")),
            ("onError", .string(self.options.onError.rawValue)),
            ("source", self.options.source.map(JSONValue.string) ?? .null),
            ("snapshot", self.options.snapshot.map(JSONValue.string) ?? .null),
        ])
        if let zone = self.options.timeZone { settings["timeZone"] = .string(zone) }
        if let t = self.options.capturedAt { settings["capturedAt"] = .string(CaptureTime.string(t)) }
        if self.options.allFeatures { settings["allFeatures"] = .bool(true) }
        if let export { settings["exportedBy"] = .string(export.commandLine) }
        let options = JSONWriter().string(.object(settings))
        let run = try store.beginImportRun(
            input: input, source: self.options.source, snapshot: self.options.snapshot,
            startedAt: startedAt, options: options)
        // The runs of this importer are one import (ties between captures:
        // `PlaceWriter.importFirstRun`; kept here, the writer may be opened anew).
        if importFirstRun == nil { importFirstRun = run }
        writer.importFirstRun = importFirstRun ?? run
        return run
    }

    private func finishRun(
        _ run: Int64, formats: Set<InputFormat>, summary s: ImportSummary, status: String, error: String?,
        dataTime: Int64? = nil
    ) throws {
        var r = ImportRunRecord(status: status)
        r.dataTime = dataTime.map(CaptureTime.string)
        r.formats = formats.map(\.rawValue)
        r.defaultSource = formats.map(\.defaultSource).sorted().first
        r.seconds = s.seconds
        r.bytes = s.bytes
        (r.records, r.inserted, r.updated, r.unchanged) = (s.records, s.inserted, s.updated, s.unchanged)
        (r.revived, r.duplicates, r.removed, r.rejected, r.older) = (
            s.revived, s.duplicates, s.removed, s.rejected, s.older
        )
        r.error = error
        try store.finishImportRun(run, r)
    }
}
