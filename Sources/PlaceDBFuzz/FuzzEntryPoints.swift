import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import PlaceKit
import PlaceModel
import PlaceStorage

/// What the fuzz targets call (`FuzzTargets.swift`, docs/fuzzing.md):
/// each takes arbitrary bytes, runs them through one reader or decoder the
/// way an import or a query would, and checks what must hold whatever the
/// input (a round trip, a documented range). A broken rule stops the
/// process with `fatalError`, which the fuzzer records as a finding; an
/// input the code refuses with an error is a correct answer, not a finding.
///
/// It lives in the fuzz target, not in PlaceKit, and reaches the readers
/// and decoders through their `package` access.
enum FuzzEntryPoints {
    /// Where the targets that read a file (records, alias files) put their
    /// input: one scratch file per process, on tmpfs when there is one.
    static let scratchDirectory: String = {
        var st = stat()
        return stat("/dev/shm", &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
            ? "/dev/shm" : (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")
    }()

    /// The scratch file of this process.
    static let scratchPath = "\(scratchDirectory)/placedb-fuzz-\(getpid()).input"

    /// Writes `data` to the scratch file and returns its path.
    static func scratchFile(_ data: UnsafeRawBufferPointer) -> String {
        let path = scratchPath
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { fatalError("fuzz harness: cannot write \(path): \(String(cString: strerror(errno)))") }
        var offset = 0
        while offset < data.count {
            let n = write(fd, data.baseAddress! + offset, data.count - offset)
            guard n > 0 else { fatalError("fuzz harness: cannot write \(path)") }
            offset += n
        }
        close(fd)
        return path
    }

    /// Removes the scratch file (at the end of a run).
    static func removeScratchFile() {
        unlink(scratchPath)
    }

    // MARK: JSON

    /// The JSON parser: what it accepts it writes back and reads again to the
    /// same value, and the member scanner the store reads documents with
    /// agrees with it on every object it accepts.
    static func json(_ data: UnsafeRawBufferPointer) {
        let value: JSONValue
        do { value = try JSONParser.parse(data) } catch {
            check(
                error.offset >= 0 && error.offset <= data.count,
                "error offset \(error.offset) outside the input (\(data.count) bytes)")
            return
        }
        let writer = JSONWriter()
        var once: [UInt8] = []
        writer.write(value, into: &once)
        let again: JSONValue
        do { again = try JSONParser.parse(once) } catch {
            fail("the writer's output does not parse: \(error.message) at byte \(error.offset)")
        }
        check(sameJSON(value, again), "a value written and read back differs")
        var twice: [UInt8] = []
        writer.write(again, into: &twice)
        check(once == twice, "writing is not stable: a value read back is written differently")
        var pretty: [UInt8] = []
        JSONWriter(pretty: true).write(value, into: &pretty)
        check(
            (try? JSONParser.parse(pretty)).map { sameJSON($0, value) } ?? false,
            "the pretty writer's output does not read back")
        var indented: [UInt8] = []
        once.withUnsafeBytes { JSONWriter.indent(compact: $0, into: &indented) }
        check(indented == pretty, "the compact text indented differs from what the pretty writer writes")
        if case .object(let object) = value {
            let spans: [JSONParser.MemberSpan]
            do { spans = try JSONParser.memberSpans(data) } catch {
                fail("the member scanner refuses an object the parser accepts: \(error.message)")
            }
            var scanned = JSONObject()
            for span in spans {
                do {
                    scanned[try JSONParser.memberName(data, span)] = try JSONParser.memberValue(data, span)
                } catch {
                    fail("a member the scanner located does not parse: \(error.message)")
                }
            }
            check(scanned == object, "the member scanner reads an object differently from the parser")
        }
    }

    /// Equality that reads numbers by value: a double written without a
    /// fraction (`1e2` -> `100`) reads back as an integer.
    static func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int, .double), (.double, .int), (.double, .double): return a.doubleValue == b.doubleValue
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        case (.object(let x), .object(let y)):
            return x.members.count == y.members.count
                && zip(x.members, y.members).allSatisfy { $0.key == $1.key && sameJSON($0.value, $1.value) }
        default: return a == b
        }
    }

    // MARK: Records and decoders

    /// The record reader over a whole input (gzip'd or not), then every
    /// record through format detection and its decoder, as an import reads
    /// it.
    static func records(_ data: UnsafeRawBufferPointer) {
        let path = scratchFile(data)
        let source: ByteSource
        do { source = try ByteSource(.file(path)) } catch { fail("cannot open the scratch file: \(error)") }
        let reader = RecordReader(source: source)
        var lastLine = 1
        var lastIndex = 0
        var count = 0
        while true {
            do {
                guard let record = try reader.next() else { break }
                count += 1
                check(
                    record.line >= lastLine,
                    "record \(record.index) starts on line \(record.line), before the previous one (\(lastLine))")
                // A bad line has its number too: indexes go up, with gaps.
                check(record.index > lastIndex, "record \(record.index) comes after record \(lastIndex)")
                lastLine = record.line
                lastIndex = record.index
                // The decoder targets evaluate the hours; here that would
                // take most of the time (a file holds many records).
                decodeAndPrepare(record, format: nil, evaluateHours: false)
            } catch let e as RecordReadError {
                check(e.line >= 1, "a read error on line \(e.line)")
                if let index = e.index {
                    check(index > lastIndex, "a read error in record \(index), after record \(lastIndex)")
                    lastIndex = index
                }
                if !e.recoverable { break }
            } catch is InputError {
                break // a corrupt gzip stream
            } catch {
                fail("the record reader threw an unexpected error: \(error)")
            }
            check(count <= data.count + 1, "more records (\(count)) than input bytes")
        }
    }

    /// One record, parsed as JSON, through one format's decoder (nil:
    /// detected), then everything an import and a query compute from it.
    static func decoder(_ format: InputFormat?, _ data: UnsafeRawBufferPointer) {
        guard let value = try? JSONParser.parse(data) else { return }
        decodeAndPrepare(SourceRecord(value: value, line: 1, index: 1, container: nil), format: format)
    }

    /// Instants the hours are evaluated at: around the epoch, a DST change,
    /// a leap day, far ahead.
    static let instants: [Date] = [0, 1_774_746_000, 1_709_208_000, 1_790_000_000, 4_102_444_800].map {
        Date(timeIntervalSince1970: $0)
    }

    static func decodeAndPrepare(_ record: SourceRecord, format: InputFormat?, evaluateHours: Bool = true) {
        let decoded: DecodedPlace
        do { decoded = try decodeRecord(record, format: format) } catch {
            check(!error.message.isEmpty, "a decode error without a message")
            return
        }
        let place = decoded.place
        check(place.coordinate.isValid, "decoded place \(place.id) has an invalid coordinate \(place.coordinate)")
        check(!place.id.rawValue.isEmpty, "decoded place with an empty ID")
        // What the import pipeline computes before writing.
        let prepared = PreparedPlace(decoded, source: nil)
        // The stored document gives the whole document back, byte for byte.
        var whole = JSONObject()
        for m in place.document.members where m.key != "location" { whole[m.key] = m.value }
        var expected: [UInt8] = []
        JSONWriter().write(.object(whole), into: &expected)
        let columns = StoredDocument.Columns(place)
        let restored: [UInt8]
        do {
            restored = try prepared.doc.withUnsafeBytes {
                try StoredDocument.restore($0, layout: prepared.docLayout, columns: columns)
            }
        } catch {
            fail("place \(place.id): the stored document cannot be read back: \(error)")
        }
        check(restored == expected, "place \(place.id): the stored document reads back differently")
        // What the queries compute from it.
        guard evaluateHours else { return }
        for date in instants {
            _ = place.isOpen(at: date)
        }
        if let wall = HoursQueryTime(parsing: "2026-03-29T02:30") { _ = place.isOpen(at: wall) }
        _ = place.isOpen(at: instants[1], secondaryHoursType: .delivery)
    }

    // MARK: Geometries

    /// A GeoJSON geometry, or a feature: the geometry parser on the
    /// geometry (the input, or the feature's `geometry`), then the feature
    /// (a bare geometry wrapped in one with an ID and a name for each
    /// format) through the generic, OSM and Overture decoders. A geometry
    /// accepted gives a finite, valid point within its bounding box (that
    /// of every position; a polygon's outer ring), its viewport is that box
    /// and its footprint can be made; a decoded place lies within the box
    /// of its feature's geometry. Nothing traps (an empty MultiLineString
    /// did, exit 132; an empty GeometryCollection gave 0,0).
    static func geometry(_ data: UnsafeRawBufferPointer) {
        guard let value = try? JSONParser.parse(data) else { return }
        let isFeature = value["type"]?.stringValue == "Feature"
        if let g = isFeature ? value["geometry"] : value {
            checkGeometry(g)
        }
        let feature: JSONValue
        if isFeature {
            feature = value
        } else {
            let properties: JSONValue = [
                "id": "fuzz-1", "name": "Fuzz", "@type": "way", "@id": 1, "amenity": "cafe",
                "names": ["primary": "Fuzz"], "categories": ["primary": "cafe"],
            ]
            feature = .object(
                JSONObject([("type", "Feature"), ("id", "fuzz-1"), ("geometry", value), ("properties", properties)]))
        }
        let box = feature["geometry"].flatMap { try? GeoJSONGeometry.parse($0, placeID: nil) }?.boundingBox
        for format in [InputFormat.geojson, .osm, .overture] {
            let record = SourceRecord(value: feature, line: 1, index: 1, container: nil)
            guard let decoded = try? decodeRecord(record, format: format) else { continue }
            let c = decoded.place.coordinate
            check(c.isValid && c.latitude.isFinite && c.longitude.isFinite, "\(format.rawValue): place at \(c)")
            if let box { check(within(c, box), "\(format.rawValue): place at \(c) outside the geometry's box \(box)") }
            decodeAndPrepare(record, format: format, evaluateHours: false)
        }
    }

    /// What must hold of a geometry the parser accepts.
    static func checkGeometry(_ value: JSONValue) {
        let geometry: GeoJSONGeometry
        do { geometry = try GeoJSONGeometry.parse(value, placeID: "fuzz") } catch {
            check(!error.message.isEmpty, "a geometry refused without a message")
            return
        }
        guard let box = geometry.boundingBox else { fail("an accepted geometry without positions: \(geometry)") }
        let p = geometry.representativePoint
        check(p.isValid && p.latitude.isFinite && p.longitude.isFinite, "representative point \(p)")
        check(within(p, box), "representative point \(p) outside the bounding box \(box)")
        if let viewport = geometry.viewport {
            check(viewport.low == box.low && viewport.high == box.high, "the viewport is not the bounding box")
        }
        _ = FootprintShape.make(geometry, origin: p)
    }

    /// `c` within `box`, give or take rounding (1e-9 degrees, 0.1 mm).
    static func within(_ c: Coordinate, _ box: (low: Coordinate, high: Coordinate)) -> Bool {
        let e = 1e-9
        return c.latitude >= box.low.latitude - e && c.latitude <= box.high.latitude + e
            && c.longitude >= box.low.longitude - e && c.longitude <= box.high.longitude + e
    }

    // MARK: OSM opening_hours

    /// The OSM `opening_hours` parser, and the hours evaluation of an OSM
    /// place that carries the text.
    static func osmHours(_ data: UnsafeRawBufferPointer) {
        let text = String(decoding: data, as: UTF8.self)
        switch OSMOpeningHours.parse(text) {
        case .unsupported(let why):
            check(!why.reason.isEmpty, "an unsupported form without a reason")
        case .supported(let parsed):
            for dayNumber in [0, 20_513, 20_543, 20_877, 21_184, 2_932_896] {
                let date = LocalDate(dayNumber: dayNumber)
                let day = parsed.day(date)
                for r in day.open + day.unknown {
                    check(
                        r.start >= 0 && r.start <= r.end && r.end <= 1440,
                        "\"\(text)\": range \(r.start)-\(r.end) on \(date) outside the day")
                }
            }
            if let periods = parsed.weeklyPeriods {
                _ = periods.map(\.json)
            }
            _ = parsed.weekdayDescriptions
        }
        var tags = JSONObject()
        tags["amenity"] = "cafe"
        tags["name"] = "Fuzz"
        tags["opening_hours"] = .string(text)
        let feature: JSONValue = [
            "type": "Feature",
            "id": "node/1",
            "geometry": ["type": "Point", "coordinates": [1.5, 42.5]],
            "properties": .object(tags),
        ]
        decodeAndPrepare(SourceRecord(value: feature, line: 1, index: 1, container: nil), format: .osm)
    }

    // MARK: Alias files

    /// The alias file reader (streamed lines, then edges from CSV with a
    /// header, or NDJSON).
    static func aliasFile(_ data: UnsafeRawBufferPointer) {
        let path = scratchFile(data)
        let lines = data.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        do {
            let source = try ByteSource(.file(path))
            let edges = try AliasFileReader.edges(source)
            for l in edges {
                let (line, edge) = (l.number, l.edge)
                check(
                    l.recordedAt.map { CaptureTime.parse($0) != nil } ?? true,
                    "line \(line): a recordedAt that is not a time")
                check(l.source.map { !$0.isEmpty } ?? true, "line \(line): an empty source")
                check(line >= 1 && line <= lines, "an edge from line \(line) of \(lines)")
                check(!edge.aliasID.isEmpty && !edge.placeID.isEmpty, "line \(line): an edge with an empty ID")
                check(
                    edge.confidence.isFinite && (0...1).contains(edge.confidence),
                    "line \(line): confidence \(edge.confidence) outside 0...1")
            }
        } catch let e as AliasFileReader.AliasFileError {
            check(e.line >= 1 && e.line <= lines, "an alias file error on line \(e.line) of \(lines)")
            // Errors quote only a short excerpt of the input. (Control
            // characters in it are escaped where the line is printed, by the
            // command line's HumanText, not here.)
            check(e.message.utf8.count <= 1024, "an alias file error of \(e.message.utf8.count) bytes")
        } catch {
            // An input error (a corrupt gzip stream) is an answer too.
        }
    }

    // MARK: Images

    /// The image header reader (format, size, EXIF orientation) that
    /// `photo add` and `photo fetch` trust before handing bytes to libgd.
    static func imageHeader(_ data: UnsafeRawBufferPointer) {
        let sniffed = ImageFormat(sniffing: data)
        switch ImageHeader.read(data) {
        case .success(let header):
            check(sniffed == header.format, "the header reader and the sniffer disagree on the format")
            check(header.width > 0 && header.height > 0, "a header with size \(header.width) x \(header.height)")
            check((1...8).contains(header.orientation), "orientation \(header.orientation) outside 1...8")
            _ = (header.orientedWidth, header.orientedHeight)
        case .failure(let error):
            check(!error.message.isEmpty, "an image error without a message")
        }
    }

    // MARK: Seeds

    /// The records of an input file, each written as compact JSON with the
    /// format it would be decoded as, and the OSM `opening_hours` values
    /// they carry: seeds for the decoder and hours targets. Stops after
    /// `limit` records; an unreadable file gives what was read.
    static func seedRecords(_ path: String, limit: Int) -> (records: [(format: String, json: [UInt8])], hours: [String])
    {
        var records: [(String, [UInt8])] = []
        var hours: [String] = []
        guard let source = try? ByteSource(.file(path)) else { return ([], []) }
        let reader = RecordReader(source: source)
        while records.count < limit {
            guard let record = try? reader.next() else { break }
            var bytes: [UInt8] = []
            JSONWriter().write(record.value, into: &bytes)
            records.append((InputFormat.detect(record).rawValue, bytes))
            if let text = record.value["properties"]?["opening_hours"]?.stringValue { hours.append(text) }
        }
        return (records, hours)
    }

    // MARK: Checks

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    static func fail(_ message: String) -> Never {
        fatalError("fuzz check failed: \(message)")
    }
}
