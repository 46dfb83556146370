import Foundation

/// A place ready to be written: everything the writer needs, computed off
/// the writing thread (decoding, the stored document, its hash). A class:
/// handing it over and back retains one reference, not each of its fields.
final class PreparedPlace: Sendable {
    let id: String
    let coordinate: Coordinate
    /// The location's place on the Hilbert curve the spatial index is
    /// sorted by (computed here, off the writing thread).
    let hilbertKey: UInt64
    let doc: [UInt8]
    /// Which members the columns stand for (`StoredDocument`); 0: none.
    let docLayout: Int64
    let extra: [UInt8]
    let contentHash: Int64
    let source: String
    let name: String?
    let primaryType: String?
    let rating: Double?
    let ratingCount: Int?
    let businessStatus: String?
    let utcOffsetMinutes: Int?
    let timeZone: String?
    /// Where `timeZone` came from (nil without one).
    let timeZoneSource: TimeZoneSource?
    let types: [String]
    let format: InputFormat
    let aliases: [AliasEdge]
    /// `photos[]` with a name: position in the array, name, reference (for
    /// the `place_photo` index).
    let photos: [(position: Int, name: String, reference: String)]
    /// The viewport as `place_extent` stores it (nil without a usable one).
    let extent: (west: Double, east: Double, south: Double, north: Double)?
    /// Why its viewport cannot be a footprint, when it is bad input
    /// (counted in the summary, never an error).
    let viewportWarning: ViewportEvidence?
    /// The footprint as `place_footprint` stores it (nil for points).
    let footprint: (area: Double, shape: [UInt8])?
    /// A merge kept the stored location, so the stored footprint stays too.
    let keepsStoredFootprint: Bool
    /// The incoming footprint as decoded (a merge keeps it with `location`).
    let footprintShape: FootprintShape?
    /// When the record was captured (Unix seconds) and where that came from.
    let capturedAt: Int64
    let captureSource: CaptureSource
    /// The record carried a timestamp out of range (before 2000, or more than
    /// a day ahead), so the file time was used.
    let timestampOutOfRange: Bool

    init(_ decoded: DecodedPlace, source fixedSource: String?, capturedAt: Int64 = 0, captureSource: CaptureSource = .importTime,
         timestampOutOfRange: Bool = false, keepsStoredFootprint: Bool = false) {
        self.footprintShape = decoded.footprint
        self.capturedAt = capturedAt
        self.captureSource = captureSource
        self.timestampOutOfRange = timestampOutOfRange
        self.keepsStoredFootprint = keepsStoredFootprint
        let place = decoded.place
        let writer = JSONWriter()
        var doc: [UInt8] = []
        doc.reserveCapacity(256)
        // The stored document leaves out what the row already holds: the ID,
        // the location (the geometry), and the members the columns repeat
        // (StoredDocument).
        let columns = StoredDocument.Columns(place)
        let layout = StoredDocument.write(place.document, columns: columns, into: &doc)
        var extra: [UInt8] = []
        if !decoded.extra.isEmpty { writer.write(.object(decoded.extra), into: &extra) }
        let source = fixedSource ?? decoded.format.defaultSource
        var hash = FNV1a()
        hash.add(doc)
        hash.add(UInt8(0))
        if layout != 0 {
            // What the layout puts back, so any change to it is a change.
            hash.add(UInt64(bitPattern: layout))
            hash.add((columns.name ?? "").utf8)
            hash.add(UInt8(0))
            hash.add((columns.primaryType ?? "").utf8)
            hash.add(UInt8(0))
            hash.add((columns.rating ?? -1).bitPattern)
            hash.add(UInt64(bitPattern: Int64(columns.ratingCount ?? -1)))
        }
        hash.add(extra)
        hash.add(UInt8(0))
        hash.add(source.utf8)
        hash.add(place.coordinate.latitude.bitPattern)
        hash.add(place.coordinate.longitude.bitPattern)
        // Where the zone came from: a source's zone replacing an --time-zone one is a change.
        let zoneSource = place.timeZoneSource ?? (place.timeZone != nil ? .data : nil)
        if let zoneSource { hash.add(zoneSource.rawValue.utf8) }
        // Only places with a footprint hash one, so point places keep their hashes.
        let footprint = decoded.footprint.map { (area: $0.area, shape: $0.blob) }
        if let footprint {
            hash.add(UInt8(1))
            hash.add(footprint.shape)
        }
        self.footprint = footprint
        self.timeZoneSource = zoneSource
        self.id = place.id.rawValue
        self.coordinate = place.coordinate
        self.hilbertKey = Hilbert.key(place.coordinate)
        self.doc = doc
        self.docLayout = layout
        self.extra = extra
        self.contentHash = Int64(bitPattern: hash.value)
        self.source = source
        self.name = columns.name
        self.types = place.types
        self.primaryType = columns.primaryType
        self.rating = columns.rating
        self.ratingCount = columns.ratingCount
        self.businessStatus = place.document["businessStatus"]?.stringValue
        self.utcOffsetMinutes = place.utcOffsetMinutes
        self.timeZone = place.timeZone
        self.format = decoded.format
        self.aliases = decoded.aliases
        let viewport = place.document["viewport"]
        self.extent = PlaceWriter.extent(viewport)
        self.viewportWarning = viewport.flatMap { ViewportEvidence.classify($0) }.flatMap { $0.isWarning ? $0 : nil }
        self.photos = (place.document["photos"]?.arrayValue ?? []).enumerated().compactMap { position, photo in
            photo["name"]?.stringValue.map { (position, $0, PhotoName.reference(of: $0)) }
        }
    }
}

/// What the reading thread hands the writing thread, in input order.
enum PipelineItem: Sendable {
    case place(PreparedPlace)
    /// A feature that is not a place, skipped (`ImportOptions.allFeatures`), and why.
    case skipped(String)
    /// A record that is not a place (decode error, or a bad NDJSON line).
    case rejected(ImportRejection, recoverable: Bool)
    /// The input cannot be read further.
    case failed(any Error & Sendable)
}

/// A bounded, closable queue between two threads.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    init(capacity: Int) { self.capacity = capacity }

    /// Blocks while full. False when the consumer cancelled.
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// Blocks while empty; nil once closed and drained.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        if items.isEmpty { return nil }
        let e = items.removeFirst()
        condition.broadcast()
        return e
    }

    /// The producer is done.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer stops: pushes fail from now on.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}

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
    /// threads then wait on each other (measured: a tenth of both threads'
    /// time at 1M places).
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

    init(reader: RecordReader, name: String, format: InputFormat?, source: String?, options: ImportOptions = ImportOptions()) {
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
        finished.wait()
        finished.signal()
    }

    /// The input's time (its modification time, else now), for records
    /// without a capture time of their own.
    private var fallbackTime: (time: Int64, source: CaptureSource) = (0, .importTime)
    private var now: Int64 = 0

    /// A record's capture time: `--captured-at`, else its own timestamp
    /// when plausible, else the input's time.
    private func captureTime(_ own: Int64?) -> (time: Int64, source: CaptureSource, outOfRange: Bool) {
        if let fixed = options.capturedAt { return (fixed, .option, false) }
        if let own {
            if CaptureTime.isPlausible(own, now: now) { return (own, .record, false) }
            return (fallbackTime.time, fallbackTime.source, true)
        }
        return (fallbackTime.time, fallbackTime.source, false)
    }

    private func setFallbackTime() {
        if let t = reader.modificationTime {
            fallbackTime = (t, .file)
        } else {
            fallbackTime = (now, .importTime)
        }
    }

    /// The place ready to write, with its capture time.
    private func prepare(_ decoded: DecodedPlace) -> PreparedPlace {
        let time = captureTime(decoded.capturedAt)
        return PreparedPlace(decoded, source: source, capturedAt: time.time, captureSource: time.source, timestampOutOfRange: time.outOfRange)
    }

    private func run() {
        now = Int64(Date().timeIntervalSince1970)
        setFallbackTime()
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
                       let list = reader.envelope["html_attributions"]?.arrayValue, !list.isEmpty {
                        // The response's attributions travel with each of its places.
                        decoded.place.document["attributions"] = LegacyPlacesDecoder.attributions(list)
                    }
                    batch.items.append(.place(prepare(decoded)))
                } catch let e {
                    let rejection = ImportRejection(input: name, line: record.line, index: record.index, placeID: e.placeID,
                                                    reason: e.message, record: JSONWriter().stringBytes(record.value))
                    batch.items.append(.rejected(rejection, recoverable: true))
                }
            } catch let e as RecordReadError {
                let rejection = ImportRejection(input: name, line: e.line, index: e.index, placeID: nil, reason: e.message, record: e.rawLine)
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

extension PreparedPlace {
    /// The record's document (with `location`) and extras, read back from
    /// what was prepared: a merge needs them, a fresh insert does not, so
    /// the decoded values are not kept alive until the write (measured: the
    /// import's CPU time grew a sixth when they were).
    func recordDocument() throws -> (document: JSONObject, extra: JSONObject) {
        let columns = StoredDocument.Columns(name: name, primaryType: primaryType, rating: rating, ratingCount: ratingCount)
        let whole = try doc.withUnsafeBytes { try StoredDocument.restore($0, layout: docLayout, columns: columns) }
        guard case .object(let o) = try JSONParser.parse(docLayout == 0 ? doc : whole) else {
            throw JSONSyntaxError(message: "a prepared document is not an object", offset: 0)
        }
        var document = o
        document["location"] = Place.locationValue(coordinate)
        let extraObject = extra.isEmpty ? JSONObject() : try JSONParser.parse(extra).objectValue ?? JSONObject()
        return (document, extraObject)
    }
}
