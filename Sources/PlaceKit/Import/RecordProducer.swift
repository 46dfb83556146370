import Foundation
import PlaceModel
import PlaceStorage

/// Reads and decodes an input on its own thread, handing batches of
/// prepared places to the importer's writing thread: decoding and SQLite
/// run on two cores at once, memory bounded by the queue.
final class RecordProducer: @unchecked Sendable {
    struct Batch: Sendable {
        var items: [PipelineItem] = []
        /// Input bytes consumed when the batch was made (for progress).
        var bytesRead: Int64 = 0
        var recordsRead = 0
    }

    private let reader: RecordReader
    private let format: InputFormat?
    private let source: String?
    private let name: String
    let queue = BoundedQueue<Batch>(capacity: 8)
    private let finished = DispatchSemaphore(value: 0)
    static let batchSize = 256
    /// Set by the reading thread when the input ended: the envelope the
    /// reader saw, for the importer's final checks.
    private(set) var envelope = JSONObject()
    private(set) var sawEnvelope = false

    private let options: ImportOptions

    /// Batches the writing thread is done with, handed back so that their
    /// memory is freed on this thread, which allocated it: glibc frees
    /// another thread's chunks under that thread's arena lock, and the two
    /// threads would then wait on each other.
    private let spentLock = NSLock()
    private var spent: [Batch] = []

    /// Called by the consumer with a batch it has finished with.
    func recycle(_ batch: Batch) {
        spentLock.lock()
        spent.append(batch)
        spentLock.unlock()
    }

    /// Frees the handed-back batches here, on the reading thread.
    private func dropSpent() {
        spentLock.lock()
        let done = spent
        spent = []
        spentLock.unlock()
        withExtendedLifetime(done) {}
    }

    /// `importedAt`: when the importer began (the order key of the
    /// captures nothing dates, `CaptureTime.unordered`).
    init(
        reader: RecordReader, name: String, format: InputFormat?, source: String?,
        options: ImportOptions = ImportOptions(),
        importedAt: Int64
    ) {
        self.importedAt = importedAt
        self.reader = reader
        self.name = name
        self.format = format
        self.source = source
        self.options = options
    }

    func start() {
        let thread = Thread { [self] in
            self.run()
            self.finished.signal()
        }
        thread.name = "placedb-reader"
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// Stops the reading thread and waits for it.
    func stopAndWait() {
        queue.cancel()
        // A reader waiting for an export's output would wait for it all.
        reader.terminateSource()
        finished.wait()
        finished.signal()
    }

    private var now: Int64 = 0
    private let importedAt: Int64

    /// A record's capture time (docs/merging.md): `--captured-at`, else
    /// what the record itself shows: its own timestamp when plausible, and
    /// no earlier than its newest review (a review cannot postdate the
    /// capture that holds it). A record nothing dates is `.unknown`: it
    /// gets its `CaptureTime.unordered` key (`PreparedPlace`), never the
    /// file's modification time.
    private func captureTime(_ decoded: DecodedPlace) -> (time: Int64, source: CaptureSource, outOfRange: Bool) {
        if let fixed = options.capturedAt { return (fixed, .option, false) }
        let own = decoded.capturedAt
        let plausibleOwn = own.flatMap { CaptureTime.isPlausible($0, now: now) ? $0 : nil }
        let evidence = Self.newestReview(decoded.place.document).flatMap {
            CaptureTime.isPlausible($0, now: now) ? $0 : nil
        }
        switch (plausibleOwn, evidence) {
        case let (t?, e?): return e > t ? (e, .evidence, false) : (t, .record, false)
        case let (t?, nil): return (t, .record, false)
        case let (nil, e?): return (e, .evidence, own != nil)
        case (nil, nil): return (0, .unknown, own != nil)
        }
    }

    /// The newest `publishTime` of the record's reviews (Unix seconds).
    static func newestReview(_ document: JSONObject) -> Int64? {
        guard let reviews = document["reviews"]?.arrayValue else { return nil }
        var newest: Int64?
        for review in reviews {
            guard let text = review["publishTime"]?.stringValue, let t = CaptureTime.parse(text) else { continue }
            newest = max(newest ?? t, t)
        }
        return newest
    }

    /// The place ready to write, with its capture time.
    private func prepare(_ decoded: DecodedPlace) -> PreparedPlace {
        let time = captureTime(decoded)
        var decoded = decoded
        if decoded.format == .placesLegacy {
            // A legacy record gives its UTC offset, not its zone: the zone
            // that had that offset then, nearest the place (OffsetTimeZone).
            OffsetTimeZone.apply(
                to: &decoded.place, capturedAt: time.source == .unknown ? nil : time.time,
                now: Date(timeIntervalSince1970: TimeInterval(now)))
        }
        return PreparedPlace(
            decoded, source: source, capturedAt: time.time, captureSource: time.source,
            undatedImport: time.source == .unknown ? importedAt : nil,
            timestampOutOfRange: time.outOfRange, textIndex: options.textIndex)
    }

    private func run() {
        now = Int64(Date().timeIntervalSince1970)
        var batch = Batch()
        func flush() -> Bool {
            batch.bytesRead = reader.bytesRead
            batch.recordsRead = reader.recordsRead
            let ok = queue.push(batch)
            batch = Batch()
            dropSpent()
            batch.items.reserveCapacity(Self.batchSize)
            return ok
        }
        defer { queue.close() }
        while true {
            do {
                guard let record = try reader.next() else { break }
                do {
                    var decoded = try decodeRecord(record, format: format)
                    if let reason = decoded.skipReason {
                        if !options.allFeatures {
                            batch.items.append(.skipped(reason))
                            if batch.items.count >= Self.batchSize, !flush() { return }
                            continue
                        }
                        // Kept, and marked: never a current-place candidate.
                        decoded.extra["notAPlace"] = .string(reason)
                    }
                    options.applyTimeZone(to: &decoded.place)
                    if decoded.format == .placesLegacy, decoded.place.document["attributions"] == nil,
                        let list = reader.envelope["html_attributions"]?.arrayValue, !list.isEmpty
                    {
                        // The response's attributions travel with each of its places.
                        decoded.place.document["attributions"] = LegacyPlacesDecoder.attributions(list)
                    }
                    batch.items.append(.place(prepare(decoded)))
                } catch let e {
                    let rejection = ImportRejection(
                        input: name, line: record.line, index: record.index, placeID: e.placeID,
                        reason: e.message, record: JSONWriter().stringBytes(record.value))
                    batch.items.append(.rejected(rejection, recoverable: true))
                }
            } catch let e as RecordReadError {
                let rejection = ImportRejection(
                    input: name, line: e.line, index: e.index, placeID: nil, reason: e.message, record: e.rawLine)
                batch.items.append(.rejected(rejection, recoverable: e.recoverable))
                if !e.recoverable { _ = flush(); return }
            } catch let e as InputError {
                batch.items.append(.failed(e))
                _ = flush()
                return
            } catch {
                batch.items.append(.failed(PlaceDBError.invalidArgument("\(name): \(error)")))
                _ = flush()
                return
            }
            if batch.items.count >= Self.batchSize, !flush() { return }
        }
        envelope = reader.envelope
        sawEnvelope = reader.sawEnvelope
        _ = flush()
    }
}
