import Foundation
package import PlaceModel
package import PlaceStorage

/// The spatial index kept in a file beside the database, so a process maps
/// it in milliseconds instead of building it from every row: the index's
/// columns as they are in memory, each 64-byte aligned, after a header
/// that says what they were built from (docs/spatial-index.md).
///
/// Header (little-endian UInt64 words): magic, format version, a byte-order
/// word, the strides of three structs written as they are, the
/// database's `IndexMarker`, the record view, the likelihood model's
/// fingerprint, the number of places, the number of sections, the stride
/// of a slot's record (`PlaceIndex.Slot`), then per
/// section its offset, length and checksum, and last the checksum of the
/// words before it. A reader checks every checksum before it answers.
package enum StoredIndex {
    static let magic: UInt64 = 0x0058_4449_4244_4c50 // "PLDBIDX\0" little-endian
    static let formatVersion: UInt64 = 4
    static let byteOrder: UInt64 = 0x0102_0304_0506_0708
    static let fixedWords = 14
    static let sectionNames = [
        "slots", "points", "viewports", "shapeInfos", "shapePartCounts", "shapeCoordinates", "nodes", "slotsByRowid",
        "idBytes", "typeNames", "sourceNames",
    ]
    static var headerWords: Int { fixedWords + 3 * sectionNames.count + 1 }

    /// The file that holds the index of `databasePath` for `view`.
    package static func path(for databasePath: String, view: RecordView) -> String {
        databasePath + (view == .merged ? ".placeidx" : ".records.placeidx")
    }

    /// What a stored index is checked against besides its own bytes.
    package struct Expectation: Equatable {
        package var marker: IndexMarker
        package var view: RecordView
        package var model: UInt64

        package init(marker: IndexMarker, view: RecordView, model: LikelihoodModel) {
            self.marker = marker
            self.view = view
            self.model = StoredIndex.fingerprint(model)
        }
    }

    // MARK: Writing

    /// Writes `index` to `path` (through a temporary file renamed over it,
    /// so readers see the old file or the new one, never half of one).
    package static func write(_ index: PlaceIndex, expectation e: Expectation, to path: String) throws {
        let p = index.parts
        var sections: [SectionFile.Section] = []
        func add<T>(_ c: Column<T>) { sections.append(SectionFile.Section(bytes: UnsafeRawBufferPointer(c.buffer))) }
        add(p.slots)
        add(p.points)
        add(p.viewports)
        add(p.shapes.infos)
        add(p.shapes.partCounts)
        add(p.shapes.coordinates)
        add(p.nodes)
        add(p.slotsByRowid)
        add(p.idBytes)
        sections.append(SectionFile.Section(encodeNames(p.types.names)))
        sections.append(SectionFile.Section(encodeNames(p.sources.names)))
        let fixed: [UInt64] = [
            magic, formatVersion, byteOrder, UInt64(MemoryLayout<PlaceIndex.Node>.stride),
            UInt64(MemoryLayout<ShapeTable.Info>.stride), UInt64(MemoryLayout<GeoRect>.stride),
            UInt64(bitPattern: e.marker.generation), UInt64(bitPattern: e.marker.maxPlace),
            UInt64(bitPattern: e.marker.maxRun), e.view == .merged ? 0 : 1, e.model, UInt64(index.count),
            UInt64(sections.count), UInt64(MemoryLayout<PlaceIndex.Slot>.stride),
        ]
        precondition(fixed.count == fixedWords)
        do {
            _ = try SectionFile.write(fixed: fixed, sections: sections, to: path)
        } catch {
            throw StoredIndexWriteError(path: error.path, errno: error.errno)
        }
    }

    private static func encodeNames(_ names: [String?]) -> [UInt8] {
        var out: [UInt8] = []
        for name in names.dropFirst() {
            let bytes = Array((name ?? "").utf8)
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { out += $0 }
            out += bytes
        }
        return out
    }

    // MARK: Reading

    /// How `load` checks the bytes of the sections (the header is always
    /// checked whole).
    package enum SectionCheck: Equatable, Sendable {
        /// Every section read and its checksum compared.
        case always
        /// As `always`, unless the record beside the file (`checkedPath`)
        /// says this very file was checked before: the same device, inode,
        /// size, modification and change times. Any write to the file
        /// changes its change time, which no one can set back. After a
        /// check the record is written, when the file's last change is
        /// more than `settled` seconds old (so that a change within the
        /// clock's granularity could not leave the same times).
        case unlessRecorded(settled: Double)
        /// Not read: the caller has just written these bytes.
        case trusted

        package static let standard = SectionCheck.unlessRecorded(settled: 1)
    }

    /// A stored index mapped by `load`, and whether its sections' checksums
    /// were read (rather than recorded as checked, or trusted).
    package struct Mapped {
        package let index: PlaceIndex
        package let sectionsChecked: Bool
        let file: MappedFile
    }

    /// Where the record that the file at `path` was checked is kept.
    package static func checkedPath(_ path: String) -> String { CheckedRecord.path(path) }

    /// The index stored at `path` if it is whole and matches `expected`;
    /// else why not. `largePages`: as `MappedFile.open` maps it.
    package static func load(
        _ path: String, expected: Expectation, check: SectionCheck = .standard, largePages: Bool = true
    ) -> Result<Mapped, StoredIndexProblem> {
        guard let file = MappedFile.open(path, largePages: largePages) else { return .failure(.missing) }
        let bytes = file.bytes
        if let problem = headerProblem(bytes, expected: expected) { return .failure(problem) }
        let word = { (i: Int) in UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        let n = Int(word(11))
        let record = checkedRecord(file.status, header: word(headerWords - 1))
        let readSections: Bool
        var recorded = false
        switch check {
        case .always: readSections = true
        case .trusted: readSections = false
        case .unlessRecorded:
            // Recorded as checked by any process, or checked by this one
            // (another reader of the same mapping).
            recorded = isRecorded(record, path)
            readSections = !recorded && !file.checked
        }
        var ranges: [(offset: Int, length: Int)] = []
        for (i, name) in sectionNames.enumerated() {
            let offset = Int(truncatingIfNeeded: word(fixedWords + 3 * i))
            let length = Int(truncatingIfNeeded: word(fixedWords + 3 * i + 1))
            guard offset >= headerWords * 8, offset % 64 == 0, length >= 0, offset <= bytes.count,
                length <= bytes.count - offset
            else { return .failure(.corrupt("section \(name) lies outside the file")) }
            guard !readSections || file.checksum(offset: offset, length: length) == word(fixedWords + 3 * i + 2) else {
                return .failure(.corrupt("checksum of section \(name)"))
            }
            ranges.append((offset, length))
        }
        if readSections { file.checked = true }
        if case .unlessRecorded(let settled) = check, !recorded, file.checked {
            CheckedRecord.write(record, for: path, status: file.status, settled: settled)
        }
        var next = 0
        var problem: String?
        func column<T>(_: T.Type, perSlot: Bool = false) -> Column<T> {
            let (offset, length) = ranges[next]
            let name = sectionNames[next]
            next += 1
            let stride = MemoryLayout<T>.stride
            guard length % stride == 0, !perSlot || length / stride == n else {
                problem = problem ?? "section \(name) holds \(length) bytes"
                return Column()
            }
            return file.column(T.self, at: offset, count: length / stride)
        }
        let slots = column(PlaceIndex.Slot.self, perSlot: true)
        let points = column(PlaceIndex.Point3.self, perSlot: true)
        let viewports = column(GeoRect.self)
        let shapes = ShapeTable(
            infos: column(ShapeTable.Info.self), partCounts: column(UInt16.self), coordinates: column(Float.self))
        let nodes = column(PlaceIndex.Node.self)
        let slotsByRowid = column(Int32.self, perSlot: true)
        let idBytes = column(UInt8.self)
        let typeNames = decodeNames(bytes, ranges[next])
        let sourceNames = decodeNames(bytes, ranges[next + 1])
        if let problem { return .failure(.corrupt(problem)) }
        guard let typeNames, let sourceNames else { return .failure(.corrupt("the type or source names")) }
        guard n == 0 || !nodes.isEmpty else { return .failure(.corrupt("no tree over \(n) places")) }
        guard idBytes.isEmpty || (n > 0 && slots[n - 1].idEnd == Int64(idBytes.count)) else {
            return .failure(.corrupt("the place IDs' ends do not match their bytes"))
        }
        let types = Interner(names: typeNames)
        let sources = Interner(names: sourceNames)
        guard types.names.count == typeNames.count, sources.names.count == sourceNames.count else {
            return .failure(.corrupt("repeated type or source names"))
        }
        let index = PlaceIndex(
            parts: PlaceIndex.Parts(
                slots: slots, points: points, viewports: viewports, shapes: shapes, types: types, sources: sources,
                nodes: nodes, slotsByRowid: slotsByRowid, idBytes: idBytes))
        return .success(Mapped(index: index, sectionsChecked: readSections, file: file))
    }

    /// The line that records a check of the file whose status is `st` and
    /// whose header checksum is `header`.
    static func checkedRecord(_ st: stat, header: UInt64) -> String {
        CheckedRecord.line(st, header: header, kind: "stored index")
    }

    private static func isRecorded(_ record: String, _ path: String) -> Bool { CheckedRecord.holds(record, for: path) }

    /// What mapping the file at `path` would read: nil when its header is
    /// not whole or does not match `expected`; else the bytes of its
    /// sections, or 0 when a record says they were checked and the file is
    /// unchanged since (its sections are not read here).
    package static func bytesToCheck(_ path: String, expected: Expectation) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        var header = [UInt8](repeating: 0, count: headerWords * 8)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { return nil }
        let problem = header.withUnsafeBytes {
            headerProblem(UnsafeRawBufferPointer(rebasing: $0[0..<n]), expected: expected)
        }
        guard problem == nil else { return nil }
        let headerSum = header.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: (headerWords - 1) * 8, as: UInt64.self))
        }
        return isRecorded(checkedRecord(st, header: headerSum), path) ? 0 : Int(st.st_size)
    }

    /// What its header says is wrong with the file at `path` for
    /// `expected` (`.missing` without a file), or nil when it is current;
    /// its sections are not read (their checksums are checked when it is
    /// mapped).
    package static func headerStatus(_ path: String, expected: Expectation) -> StoredIndexProblem? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .corrupt(String(cString: strerror(errno))) }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: headerWords * 8)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { return .corrupt(String(cString: strerror(errno))) }
        return header.withUnsafeBytes {
            headerProblem(UnsafeRawBufferPointer(rebasing: $0[0..<n]), expected: expected)
        }
    }

    /// What is wrong with a file whose first bytes are `bytes` (the header
    /// at least, when the file has one): its header's own checks, then
    /// whether it was built from what `expected` says; nil when neither.
    /// The sections are not read.
    static func headerProblem(_ bytes: UnsafeRawBufferPointer, expected: Expectation) -> StoredIndexProblem? {
        guard bytes.count >= headerWords * 8 else { return .corrupt("\(bytes.count) bytes, shorter than a header") }
        let word = { (i: Int) in UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        guard word(0) == magic else { return .corrupt("not a placedb index file") }
        guard word(1) == formatVersion, word(2) == byteOrder else {
            return .otherFormat("format \(word(1)), this placedb reads \(formatVersion)")
        }
        let headerEnd = (headerWords - 1) * 8
        guard word(headerWords - 1) == checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<headerEnd])) else {
            return .corrupt("header checksum")
        }
        guard word(3) == MemoryLayout<PlaceIndex.Node>.stride, word(4) == MemoryLayout<ShapeTable.Info>.stride,
            word(5) == MemoryLayout<GeoRect>.stride, word(12) == sectionNames.count,
            word(13) == MemoryLayout<PlaceIndex.Slot>.stride
        else { return .otherFormat("another layout") }
        let marker = IndexMarker(
            generation: Int64(bitPattern: word(6)), maxPlace: Int64(bitPattern: word(7)),
            maxRun: Int64(bitPattern: word(8)))
        if marker != expected.marker {
            return .stale(
                "built at change \(marker.generation), place row \(marker.maxPlace), run \(marker.maxRun); "
                    + "the database is at \(expected.marker.generation), \(expected.marker.maxPlace), "
                    + "\(expected.marker.maxRun)")
        }
        guard word(9) == (expected.view == .merged ? 0 : 1) else { return .stale("another record view") }
        guard word(10) == expected.model else { return .stale("another likelihood model") }
        return nil
    }

    /// Names written by `encodeNames`, with code 0's nil first.
    private static func decodeNames(_ bytes: UnsafeRawBufferPointer, _ range: (offset: Int, length: Int)) -> [String?]?
    {
        var names: [String?] = [nil]
        var at = range.offset
        let end = range.offset + range.length
        while at < end {
            guard end - at >= 4 else { return nil }
            let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            at += 4
            guard length <= end - at else { return nil }
            names.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[at..<at + length]), as: UTF8.self))
            at += length
        }
        return names
    }

    // MARK: Checksums

    /// A 64-bit checksum of `bytes` (`SectionChecksum`).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 { SectionChecksum.of(bytes) }

    typealias Checksum = SectionChecksum

    // MARK: Model fingerprint

    /// A hash of everything in `model`, the same in every process (maps
    /// are hashed in key order): an index built for one model is not
    /// answered from with another.
    package static func fingerprint(_ model: LikelihoodModel) -> UInt64 {
        var text = ""
        canonical(model, into: &text)
        return text.utf8.withContiguousStorageIfAvailable { checksum(UnsafeRawBufferPointer($0)) }
            ?? Array(text.utf8).withUnsafeBytes { checksum($0) }
    }

    private static func canonical(_ value: Any, into text: inout String) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary, .set:
            var items: [String] = []
            for child in mirror.children {
                var s = ""
                canonical(child.value, into: &s)
                items.append(s)
            }
            text += "{" + items.sorted().joined(separator: ",") + "}"
        case .struct, .tuple, .class, .collection:
            text += "("
            for child in mirror.children {
                text += (child.label ?? "") + ":"
                canonical(child.value, into: &text)
                text += ";"
            }
            text += ")"
        default:
            text += String(reflecting: value)
        }
    }
}
