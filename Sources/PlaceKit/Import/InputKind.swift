import PlaceModel

/// What an input is, told from its first bytes (after gunzipping): JSON for
/// the record reader, an OpenStreetMap file for `osmium export`, or a file
/// placedb does not read, named so the error can say what it is.
enum InputKind: Equatable {
    /// JSON, NDJSON, GeoJSON(-seq), or text the JSON reader should judge.
    case json
    /// An OpenStreetMap file `osmium export` reads.
    case openStreetMap(OSMFileFormat)
    /// Not an input placedb reads: what it is (`a CSV file`) and, when
    /// there is one, what to do with it.
    case other(what: String, advice: InputAdvice?)

    /// How many bytes `classify` wants to see (fewer at a short input).
    static let headLength = 4096

    /// Classifies an input from its first bytes. `gzipped`: the bytes are
    /// the gunzipped content of a gzip file.
    static func classify(_ head: [UInt8], gzipped: Bool) -> InputKind {
        let kind = classifyContent(head, compressed: gzipped)
        guard gzipped else { return kind }
        switch kind {
        case .json: return .json
        case .openStreetMap(.xml): return .openStreetMap(.xmlGzip)
        case .openStreetMap(.pbf):
            return .other(
                what: "a gzip'd OpenStreetMap PBF file",
                advice: "gunzip it first (a PBF file's blocks are compressed already)")
        case .openStreetMap:
            return .other(what: "a gzip'd OpenStreetMap file", advice: "gunzip it first")
        case .other(let what, let advice):
            for article in ["a ", "an "] where what.hasPrefix(article) {
                return .other(what: "a gzip'd " + what.dropFirst(article.count), advice: advice)
            }
            return .other(what: "gzip'd " + what, advice: advice)
        }
    }

    private static func starts(_ head: [UInt8], _ magic: [UInt8], at offset: Int = 0) -> Bool {
        head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
    }

    private static func starts(_ head: [UInt8], _ magic: String, at offset: Int = 0) -> Bool {
        starts(head, Array(magic.utf8), at: offset)
    }

    /// An OpenStreetMap PBF file: a 4-byte big-endian length of a
    /// BlobHeader, whose first field (1, a string) is its type, `OSMHeader`
    /// (`OSMData` is accepted too: a file whose header block was cut off).
    static func isPBF(_ head: [UInt8]) -> Bool {
        guard head.count >= 14 else { return false }
        let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard length > 0, length < 64 << 10, head[4] == 0x0A else { return false }
        return (head[5] == 9 && starts(head, "OSMHeader", at: 6)) || (head[5] == 7 && starts(head, "OSMData", at: 6))
    }

    private static func classifyContent(_ head: [UInt8], compressed: Bool) -> InputKind {
        if isPBF(head) { return .openStreetMap(.pbf) }
        // o5m: a reset byte, then the header dataset "o5m2" (or "o5c2", a change file).
        if starts(head, [0xFF, 0xE0, 0x04]) && starts(head, "o5m2", at: 3) { return .openStreetMap(.o5m) }
        if starts(head, [0xFF, 0xE0, 0x04]) && starts(head, "o5c2", at: 3) {
            return .other(what: "an OpenStreetMap change file (o5c)", advice: changeAdvice)
        }
        if !compressed && starts(head, "BZh") && head.count > 3
            && (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(head[3])
        {
            // bzip2: OpenStreetMap's XML dumps come so (planet-*.osm.bz2).
            return .openStreetMap(.xmlBzip2)
        }
        if let binary = binaryKind(head) { return binary }
        return textKind(head)
    }

    static let changeAdvice: InputAdvice =
        "apply it to the extract it changes (osmium apply-changes EXTRACT.osm.pbf CHANGES.osc -o NEW.osm.pbf) and import the result"
    private static let convertText =
        "placedb reads JSON, NDJSON and GeoJSON(-seq): convert it first (ogr2ogr -f GeoJSONSeq OUT.geojsonseq FILE)"
    private static let convertAdvice = InputAdvice.text(convertText)

    private static func binaryKind(_ head: [UInt8]) -> InputKind? {
        let image = InputAdvice.image
        if starts(head, [0xFF, 0xD8, 0xFF]) { return .other(what: "a JPEG image", advice: image) }
        if starts(head, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .other(what: "a PNG image", advice: image)
        }
        if starts(head, "GIF87a") || starts(head, "GIF89a") { return .other(what: "a GIF image", advice: image) }
        if starts(head, "RIFF") && starts(head, "WEBP", at: 8) { return .other(what: "a WebP image", advice: image) }
        if starts(head, "ftyp", at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1", "avif", "avis"].contains(brand) {
                return .other(what: "a HEIF/AVIF image", advice: image)
            }
            return .other(what: "an MP4/QuickTime file", advice: nil)
        }
        if starts(head, [0x49, 0x49, 0x2A, 0x00]) || starts(head, [0x4D, 0x4D, 0x00, 0x2A]) {
            return .other(what: "a TIFF image", advice: nil)
        }
        if starts(head, "%PDF-") { return .other(what: "a PDF document", advice: nil) }
        if starts(head, [0x50, 0x4B, 0x03, 0x04]) || starts(head, [0x50, 0x4B, 0x05, 0x06]) {
            return .other(what: "a zip archive", advice: "unzip it and import the files inside")
        }
        if starts(head, [0x1F, 0x8B]) {
            return .other(what: "a gzip file", advice: "gunzip it first (placedb reads one layer of gzip)")
        }
        if starts(head, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            return .other(what: "an xz-compressed file", advice: "decompress it first (unxz), or gzip it instead")
        }
        if starts(head, [0x28, 0xB5, 0x2F, 0xFD]) {
            return .other(what: "a zstd-compressed file", advice: "decompress it first (unzstd), or gzip it instead")
        }
        if starts(head, "BZh") {
            return .other(what: "a bzip2-compressed file", advice: "decompress it first (bunzip2)")
        }
        if starts(head, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) {
            return .other(what: "a 7-Zip archive", advice: "extract it first")
        }
        if starts(head, "ustar", at: 257) {
            return .other(what: "a tar archive", advice: "extract it and import the files inside")
        }
        if starts(head, "SQLite format 3\u{0}") {
            return .other(what: "an SQLite database", advice: .sqliteDatabase)
        }
        if starts(head, "PAR1") {
            return .other(
                what: "a Parquet file",
                advice:
                    "convert Overture's GeoParquet first (ogr2ogr -f GeoJSONSeq OUT.geojsonseq FILE, or DuckDB's COPY ... TO 'OUT.geojsonseq')"
            )
        }
        if starts(head, [0x66, 0x67, 0x62, 0x03]) { return .other(what: "a FlatGeobuf file", advice: convertAdvice) }
        if starts(head, [0x00, 0x00, 0x27, 0x0A]) { return .other(what: "a Shapefile", advice: convertAdvice) }
        if starts(head, [0xFF, 0xFE]) || starts(head, [0xFE, 0xFF]) {
            return .other(what: "UTF-16 text", advice: "convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)")
        }
        if starts(head, [0x7F, 0x45, 0x4C, 0x46]) { return .other(what: "an executable (ELF)", advice: nil) }
        return nil
    }

    /// The first lines of text, without a UTF-8 byte order mark and
    /// leading blank lines (at most `count`; the last may be cut off).
    private static func lines(_ head: [UInt8], count: Int) -> [ArraySlice<UInt8>] {
        var bytes = head[...]
        if starts(head, [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var out: [ArraySlice<UInt8>] = []
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var l = line
            while let last = l.last, last == 0x0D || last == 0x20 || last == 0x09 { l = l.dropLast() }
            while let first = l.first, first == 0x20 || first == 0x09 || first == 0x1E { l = l.dropFirst() }
            if l.isEmpty { continue }
            out.append(l)
            if out.count == count { break }
        }
        return out
    }

    private static func textKind(_ head: [UInt8]) -> InputKind {
        let first = lines(head, count: 8)
        guard let line = first.first, let b = line.first else { return .json }
        // JSON (also what only looks like JSON: the reader says what is wrong).
        if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") || b == UInt8(ascii: "\"") { return .json }
        if head.contains(0) { return .other(what: "binary data", advice: nil) }
        if b == UInt8(ascii: "<") { return xmlKind(head) }
        if let csv = delimitedKind(first) { return csv }
        if isYAML(first) { return .other(what: "a YAML file", advice: "convert it to JSON first (yq -o=json FILE)") }
        return .json
    }

    /// The name of the first element of an XML document: `osm`, `osmChange`, `gpx`, ...
    private static func rootElement(_ head: [UInt8]) -> String? {
        var i = 0
        let n = head.count
        while i < n {
            guard let lt = head[i...].firstIndex(of: UInt8(ascii: "<")) else { return nil }
            i = lt + 1
            guard i < n else { return nil }
            let c = head[i]
            if c == UInt8(ascii: "?") || c == UInt8(ascii: "!") {
                // A declaration, comment or doctype: to its '>'.
                if starts(head, "!--", at: i), let end = findSubsequence(head, "-->", from: i) { i = end + 3; continue }
                guard let gt = head[i...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                if c == UInt8(ascii: "!"), starts(head.map { $0 | 0x20 }, "!doctype html", at: i) { return "html" }
                i = gt + 1
                continue
            }
            let name = head[i...].prefix {
                $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != UInt8(ascii: ">")
                    && $0 != UInt8(ascii: "/")
            }
            return String(decoding: name, as: UTF8.self)
        }
        return nil
    }

    private static func findSubsequence(_ head: [UInt8], _ s: String, from: Int) -> Int? {
        let needle = Array(s.utf8)
        guard head.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= head.count {
            if Array(head[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }

    private static func xmlKind(_ head: [UInt8]) -> InputKind {
        switch rootElement(head)?.lowercased() {
        case "osm": return .openStreetMap(.xml)
        case "osmchange": return .other(what: "an OpenStreetMap change file (osmChange)", advice: changeAdvice)
        case "gpx": return .other(what: "a GPX file", advice: convertAdvice)
        case "kml": return .other(what: "a KML file", advice: convertAdvice)
        case "html": return .other(what: "an HTML page", advice: "was it an error page saved in place of the download?")
        case let name?: return .other(what: "an XML document (<\(name.prefix(40))>)", advice: nil)
        case nil: return .other(what: "an XML document", advice: nil)
        }
    }

    /// CSV (or TSV): the first line has a delimiter outside quotes, and the
    /// next lines (all but a cut-off last one) as many.
    private static func delimitedKind(_ lines: [ArraySlice<UInt8>]) -> InputKind? {
        func count(_ line: ArraySlice<UInt8>, _ d: UInt8) -> Int {
            var n = 0
            var quoted = false
            for b in line {
                if b == UInt8(ascii: "\"") { quoted.toggle() } else if b == d && !quoted { n += 1 }
            }
            return n
        }
        // The last line may be cut off by the head's end.
        let whole = lines.count > 1 ? Array(lines.dropLast()) : lines
        for (d, what) in [
            (UInt8(ascii: ","), "a CSV file"), (UInt8(ascii: "\t"), "a tab-separated (TSV) file"),
            (UInt8(ascii: ";"), "a CSV file (';'-separated)"),
        ] {
            let n = count(whole[0], d)
            guard n > 0, whole.dropFirst().allSatisfy({ count($0, d) == n }) else { continue }
            // One line alone: only when it is not a JSON value (a number list is not JSON anyway).
            if whole.count == 1, Array(whole[0]).withUnsafeBytes({ (try? JSONParser.parse($0)) != nil }) { continue }
            return .other(
                what: what, advice: .text(convertText + " -oo X_POSSIBLE_NAMES=lon* -oo Y_POSSIBLE_NAMES=lat*"))
        }
        return nil
    }

    /// YAML: a document marker, a directive, or `key: value` / `- item` lines.
    private static func isYAML(_ lines: [ArraySlice<UInt8>]) -> Bool {
        let content = lines.filter { $0.first != UInt8(ascii: "#") }
        guard let first = content.first else { return false }
        if starts(Array(first), "---") || starts(Array(first), "%YAML") { return true }
        func isMapping(_ l: ArraySlice<UInt8>) -> Bool {
            let key = l.prefix { $0 != UInt8(ascii: ":") }
            guard key.count < l.count, !key.isEmpty, key.count <= 80,
                key.allSatisfy({
                    $0 >= 0x80 || $0 == 0x20 || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: ".")
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "'")
                        || $0 == UInt8(ascii: "\"")
                })
            else { return false }
            let after = l.dropFirst(key.count + 1)
            return after.isEmpty || after.first == 0x20 || after.first == 0x09
        }
        return isMapping(first) || starts(Array(first), "- ")
    }
}
