import CPrefetch
import Foundation
package import SQLiteDB
import PlaceModel
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The text index's word lists, stored beside the database (`DB.placetext`)
/// and mapped read-only: for each word of `place_text` (text and grid-cell
/// words, in FTS5's byte order), the places holding it, each with the
/// word's weighted frequency in the place (name 10, other names 5, address
/// 1, types 3, cell 0: what BM25 counts) and whether it is in the place's
/// name or other names (`nameBit`), and each place's number of
/// tokens. Places are numbered in the lists' own order (documents: by grid
/// cell, then rowid; `build`), each list in that order, so that a grid
/// cell's places are one run of documents; `rowid(_:)` gives a document's
/// place. Made from FTS5's own index (`fts5vocab` `instance`),
/// so a query over them finds the places FTS5 finds, with the same BM25
/// bit for bit (`WordListQuery`), while it seeks in a list where FTS5
/// reads it whole. They hold while FTS5's structure and averages records
/// are those they were made from (`state`); otherwise they are not read.
///
/// Beside the text, what ranking reads of each place before its row
/// (`RankInputs`): its point, to 1e-7 degree, its rating count and its
/// rating, read from `place` when the lists were written, and its name's
/// number of tokens and whether it has other names. They hold while
/// `place_generation` (with `place_rating_generation` added) and the
/// largest place row are what they were then (`ranksHold`): a change to a
/// place that leaves its text alone (a new point, rating or rating count,
/// a link) leaves the lists current, not these.
///
/// Header (little-endian UInt64 words): magic, format version, byte-order
/// word, FTS5's row count and token count, the number of words, of
/// postings, of documents, of large frequencies, the state hash, whether
/// each grid cell is one run of documents (1) or not (0), the rank
/// marker's generation and the largest place row when the rank inputs
/// were read (`UInt64.max`: unknown); then per section its offset, length
/// and checksum; last the checksum of the words before it.
package final class WordLists: @unchecked Sendable {
    static let magic: UInt64 = 0x0054_5854_4244_4c50 // "PLDBTXT\0" little-endian
    static let formatVersion: UInt64 = 4
    static let byteOrder: UInt64 = 0x0102_0304_0506_0708
    static let fixedWords = 13
    static let sectionNames = [
        "wordEnds", "wordBytes", "listEnds", "docs", "frequencies", "large", "lengths", "placeEnds", "placeWords",
        "docRowids", "points", "ranks", "names", "ratings",
    ]
    static var headerWords: Int { SectionFile.headerWords(fixed: fixedWords, sections: sectionNames.count) }

    /// The file beside `databasePath`.
    package static func path(for databasePath: String) -> String { databasePath + ".placetext" }

    private let base: UnsafeRawPointer
    private let length: Int
    /// The hash of FTS5's structure and averages records they were made from.
    let state: UInt64
    /// FTS5's number of rows and of tokens in all columns (BM25's averages).
    let rowCount: Int64, tokenCount: Int64
    let wordCount: Int
    private let wordEnds: UnsafePointer<UInt64>
    private let wordBytes: UnsafePointer<UInt8>
    private let listEnds: UnsafePointer<UInt64>
    /// Each posting's document, in document order within a word's list.
    let docs: UnsafePointer<UInt32>
    let frequencies: UnsafePointer<UInt8>
    /// (posting, frequency) pairs for frequencies of 255 and more, by posting.
    private let large: UnsafePointer<UInt64>
    private let largeCount: Int
    private let lengths: UnsafePointer<UInt32>
    private let lengthCount: Int
    /// Each place's text words (not grid cells), as word indexes in
    /// increasing order: document `r`'s are `placeWords[placeEnds[r]..<placeEnds[r + 1]]`.
    private let placeEnds: UnsafePointer<UInt64>
    private let placeWords: UnsafePointer<UInt32>
    /// Each document's rowid.
    private let docRowids: UnsafePointer<UInt32>
    /// Each document's point (latitude, longitude; 1e-7 degree).
    private let points: UnsafePointer<Int32>
    /// Each document's rating count (at most `RankInputs.countCap`), or
    /// `RankInputs.readsRow`.
    private let ranks: UnsafePointer<UInt16>
    /// Each document's name tokens and other-names bit (`RankInputs`).
    private let names: UnsafePointer<UInt8>
    /// Each document's rating in tenths, or `RankInputs.noRating`.
    private let ratings: UnsafePointer<UInt8>
    /// The rank marker's generation (`PlaceStore.rankMarker`: changed
    /// places and changed ratings) and the largest place row the rank
    /// inputs were read at.
    let rankGeneration: UInt64, rankMaxPlace: UInt64
    /// Whether each grid-cell word's documents are one run (`cellRun`).
    let cellRuns: Bool
    /// The characters past ASCII of the text words: read from the words
    /// when a query first needs them (`isOneToken`).
    private let tokenScalars = Mutex<Set<UInt32>?>(nil)

    /// The lists stored at `path` if the file is whole; nil when there is
    /// none, else the problem in a sentence.
    package static func open(_ path: String) -> Result<WordLists, WordListsProblem> {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.missing) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= headerWords * 8 else { return .failure(.damaged("it is too short")) }
        let size = Int(st.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            return .failure(.damaged("it cannot be mapped"))
        }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        // The sections' checksums are read unless a record says this very
        // file was checked before (`CheckedRecord`); the header always.
        let headerSum = UInt64(
            littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * (headerWords - 1), as: UInt64.self))
        let record = CheckedRecord.line(st, header: headerSum, kind: "word lists")
        let recorded = CheckedRecord.holds(record, for: path)
        if let problem = check(bytes, sections: !recorded) {
            munmap(mapped, size)
            return .failure(problem)
        }
        if !recorded { CheckedRecord.write(record, for: path, status: st, settled: 1) }
        return .success(WordLists(bytes))
    }

    /// Why `bytes` is not a whole file of this format, or nil; with
    /// `sections`, each section's checksum is read too.
    private static func check(_ bytes: UnsafeRawBufferPointer, sections: Bool) -> WordListsProblem? {
        let word = { (i: Int) in UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        guard word(0) == magic else { return .damaged("it is not a placedb word-list file") }
        guard word(1) == formatVersion, word(2) == byteOrder else { return .otherFormat }
        let header = UnsafeRawBufferPointer(rebasing: bytes[0..<(8 * (headerWords - 1))])
        guard SectionChecksum.of(header) == word(headerWords - 1) else {
            return .damaged("its header's checksum differs")
        }
        let counts = (words: Int(word(5)), postings: Int(word(6)), lengths: Int(word(7)), large: Int(word(8)))
        let expected = [
            8 * (counts.words + 1), -1, 8 * (counts.words + 1), 4 * counts.postings, counts.postings,
            16 * counts.large, 4 * counts.lengths, 8 * (counts.lengths + 1), -1, 4 * counts.lengths,
            8 * counts.lengths, 2 * counts.lengths, counts.lengths, counts.lengths,
        ]
        for (i, name) in sectionNames.enumerated() {
            let offset = Int(word(fixedWords + 3 * i)), count = Int(word(fixedWords + 3 * i + 1))
            guard offset % 64 == 0, offset >= Self.headerWords * 8, count >= 0, offset <= bytes.count,
                count <= bytes.count - offset,
                expected[i] < 0 || expected[i] == count
            else { return .damaged("its section \(name) is out of the file") }
            let section = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
            guard !sections || SectionChecksum.of(section) == word(fixedWords + 3 * i + 2) else {
                return .damaged("its section \(name)'s checksum differs")
            }
        }
        return nil
    }

    private init(_ bytes: UnsafeRawBufferPointer) {
        let base = bytes.baseAddress!
        self.base = base
        length = bytes.count
        let word = { (i: Int) in UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        rowCount = Int64(bitPattern: word(3))
        tokenCount = Int64(bitPattern: word(4))
        wordCount = Int(word(5))
        lengthCount = Int(word(7))
        largeCount = Int(word(8))
        state = word(9)
        cellRuns = word(10) == 1
        rankGeneration = word(11)
        rankMaxPlace = word(12)
        let fixed = Self.fixedWords
        func section<T>(_ i: Int, _: T.Type) -> UnsafePointer<T> {
            (base + Int(word(fixed + 3 * i))).assumingMemoryBound(to: T.self)
        }
        wordEnds = section(0, UInt64.self)
        wordBytes = section(1, UInt8.self)
        listEnds = section(2, UInt64.self)
        docs = section(3, UInt32.self)
        frequencies = section(4, UInt8.self)
        large = section(5, UInt64.self)
        lengths = section(6, UInt32.self)
        placeEnds = section(7, UInt64.self)
        placeWords = section(8, UInt32.self)
        docRowids = section(9, UInt32.self)
        points = section(10, Int32.self)
        ranks = section(11, UInt16.self)
        names = section(12, UInt8.self)
        ratings = section(13, UInt8.self)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), length) }

    // MARK: Reading

    /// The bytes of word `i`.
    func word(_ i: Int) -> UnsafeRawBufferPointer {
        let start = Int(wordEnds[i]), end = Int(wordEnds[i + 1])
        return UnsafeRawBufferPointer(start: wordBytes + start, count: end - start)
    }

    /// The first word whose bytes are not below `key` (byte order, as FTS5's).
    func lowerBound(_ key: UnsafeRawBufferPointer) -> Int {
        var lo = 0, hi = wordCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if Self.compare(word(mid), key) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The words `word` is: one index, or none.
    func find(_ word: [UInt8]) -> Int? {
        word.withUnsafeBytes { key in
            let i = lowerBound(key)
            return i < wordCount && Self.compare(self.word(i), key) == 0 ? i : nil
        }
    }

    /// The words starting with `prefix`, as a range of indexes.
    func range(startingWith prefix: [UInt8]) -> Range<Int> {
        prefix.withUnsafeBytes { key in
            let lo = lowerBound(key)
            // Past the prefix's words: the first word not starting with it.
            var l = lo, h = wordCount
            while l < h {
                let mid = (l + h) / 2
                let w = word(mid)
                if w.count >= key.count && memcmp(w.baseAddress!, key.baseAddress!, key.count) == 0 {
                    l = mid + 1
                } else {
                    h = mid
                }
            }
            return lo..<l
        }
    }

    /// Word `i`'s postings: indexes into `docs` and `frequencies`.
    func postings(_ i: Int) -> Range<Int> {
        Int(listEnds[i])..<Int(listEnds[i + 1])
    }

    /// The postings of every word in `words` (a prefix's words: their
    /// lists lie one after another).
    func postings(of words: Range<Int>) -> Range<Int> {
        words.isEmpty ? 0..<0 : Int(listEnds[words.lowerBound])..<Int(listEnds[words.upperBound])
    }

    /// A posting's frequency byte: the weighted frequency in its low seven
    /// bits (`largeFrequency`: 127 or more, in `large`), and `nameBit`.
    static let largeFrequency: UInt8 = 0x7f
    /// Set where the word is in the place's name or other names.
    static let nameBit: UInt8 = 0x80

    /// Whether posting `p`'s word is in its place's name or other names.
    @inline(__always) func inName(_ p: Int) -> Bool { frequencies[p] & Self.nameBit != 0 }

    /// The weighted frequency of posting `p`.
    @inline(__always) func frequency(_ p: Int) -> UInt32 {
        let f = frequencies[p] & ~Self.nameBit
        if f < Self.largeFrequency { return UInt32(f) }
        var lo = 0, hi = largeCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if large[2 * mid] < UInt64(p) { lo = mid + 1 } else { hi = mid }
        }
        return UInt32(large[2 * lo + 1])
    }

    /// Document `doc`'s text words in `range`: the first index into
    /// `placeWords` at or past `range.lowerBound`, and the end of its words.
    @inline(__always) func placeWords(_ doc: UInt32, in range: Range<Int>) -> (
        words: UnsafePointer<UInt32>, from: Int, end: Int
    ) {
        guard Int(doc) < lengthCount else { return (placeWords, 0, 0) }
        var lo = Int(placeEnds[Int(doc)])
        var hi = Int(placeEnds[Int(doc) + 1])
        let end = hi
        let first = UInt32(range.lowerBound)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if placeWords[mid] < first { lo = mid + 1 } else { hi = mid }
        }
        return (placeWords, lo, end)
    }

    /// Asks for the cache line of document `doc`'s word bounds
    /// (`placeEnds`), to be read soon: the first step of reading its words
    /// ahead (`holds(_:anyOf:)` on a list of places; see `WordListQuery`).
    @inline(__always) func prefetchWordBounds(_ doc: UInt32) {
        guard Int(doc) < lengthCount else { return }
        cprefetch_read(placeEnds + Int(doc))
    }

    /// Asks for the cache line of document `doc`'s first words: the second
    /// step, once its bounds are read (or asked for). Its length is not
    /// asked for: a test reads none, and only the matches are scored.
    @inline(__always) func prefetchWords(_ doc: UInt32) {
        guard Int(doc) < lengthCount else { return }
        cprefetch_read(placeWords + Int(placeEnds[Int(doc)]))
    }

    /// Whether document `doc` holds a word in `range`.
    @inline(__always) func holds(_ doc: UInt32, anyOf range: Range<Int>) -> Bool {
        let (words, from, end) = placeWords(doc, in: range)
        return from < end && Int(words[from]) < range.upperBound
    }

    /// Whether document `doc` holds any of `words` (text words' indexes,
    /// in increasing order).
    func holds(_ doc: UInt32, anyOf words: [UInt32]) -> Bool {
        var held = false
        forEachHeld(doc, of: words) { _ in
            held = true
            return false
        }
        return held
    }

    /// Calls `body` with the index in `words` (text words' indexes, in
    /// increasing order, each once) of each word document `doc` holds, in
    /// order, until it returns false: its own words in their span, merged
    /// with them.
    @inline(__always) func forEachHeld(_ doc: UInt32, of words: [UInt32], _ body: (Int) -> Bool) {
        guard let first = words.first, let last = words.last else { return }
        let (own, from, end) = placeWords(doc, in: Int(first)..<(Int(last) + 1))
        var i = from, j = 0
        while i < end && j < words.count {
            let a = own[i], b = words[j]
            if a > last { return }
            if a < b {
                i += 1
            } else if a > b {
                j += 1
            } else {
                if !body(j) { return }
                i += 1
                j += 1
            }
        }
    }

    /// The number of documents.
    var placeCount: Int { lengthCount }

    /// Document `doc`'s doc.
    @inline(__always) func rowid(_ doc: UInt32) -> Int64 { Int64(docRowids[Int(doc)]) }

    /// What ranking reads of document `doc` before its row: its point as
    /// stored (within `RankInputs.pointError` meters of its row's) and its
    /// rating count and rating (the row's, bit for bit); nil where its row
    /// must be read (`RankInputs`). Only while `ranksHold`.
    /// Its name's tokens (at most `RankInputs.nameWordsCap`) and whether
    /// it has other names' tokens come with them.
    @inline(__always) func rankInputs(_ doc: UInt32) -> (
        point: Coordinate, ratingCount: Int, rating: Double?, nameWords: Int, otherNames: Bool
    )? {
        guard Int(doc) < lengthCount else { return nil }
        let r = ranks[Int(doc)]
        guard r != RankInputs.readsRow else { return nil }
        let at = points + 2 * Int(doc)
        let n = names[Int(doc)]
        return (
            Coordinate(latitude: Double(at[0]) / 1e7, longitude: Double(at[1]) / 1e7), Int(r),
            RankInputs.storedRating(ratings[Int(doc)]), Int(n & ~RankInputs.otherNamesBit),
            n & RankInputs.otherNamesBit != 0
        )
    }

    /// Whether the rank inputs hold for the places as `marker` (the
    /// database's `PlaceStore.rankMarker`: `place_generation` with the
    /// changed ratings, and the largest place row; its last run is not
    /// read) says they are.
    func ranksHold(_ marker: IndexMarker?) -> Bool {
        guard let marker, rankGeneration != UInt64.max else { return false }
        return UInt64(bitPattern: marker.generation) == rankGeneration
            && UInt64(bitPattern: marker.maxPlace) == rankMaxPlace
    }

    /// The documents of grid-cell word `w` as one run, when `cellRuns`.
    func cellRun(_ w: Int) -> Range<UInt32> {
        let r = postings(w)
        return r.isEmpty ? 0..<0 : docs[r.lowerBound]..<(docs[r.upperBound - 1] + 1)
    }

    /// The first posting of `postings` whose document is not below `doc`.
    @inline(__always) func firstPosting(in postings: Range<Int>, from doc: UInt32) -> Int {
        var lo = postings.lowerBound, hi = postings.upperBound
        while lo < hi {
            let mid = (lo + hi) >> 1
            if docs[mid] < doc { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The documents of all `postings`, in order, each once.
    func places(_ postings: [Range<Int>]) -> [UInt32] {
        var out: [UInt32] = []
        for (i, var bits) in bitmap(postings).enumerated() {
            while bits != 0 {
                out.append(UInt32(i << 6 | bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return out
    }

    /// A bit per document, set for the documents of `postings`.
    func bitmap(_ postings: [Range<Int>]) -> [UInt64] {
        var seen = [UInt64](repeating: 0, count: lengthCount / 64 + 1)
        for r in postings {
            for p in r {
                let x = Int(docs[p])
                seen[x >> 6] |= 1 << UInt64(x & 63)
            }
        }
        return seen
    }

    /// Whether `bitmap` (made by `bitmap(_:)`) holds document `doc`.
    @inline(__always) static func contains(_ bitmap: [UInt64], _ doc: UInt32) -> Bool {
        bitmap[Int(doc >> 6)] & (1 << UInt64(doc & 63)) != 0
    }

    /// How many places hold any word of `words`.
    func placesHolding(_ words: Range<Int>) -> Int {
        guard words.count > 1 else { return postings(of: words).count }
        return bitmap([postings(of: words)]).reduce(0) { $0 + $1.nonzeroBitCount }
    }

    /// The weighted frequency of word `word` in document `doc` (0 without
    /// it), and whether it is in the place's names.
    func frequency(of word: Int, in doc: UInt32) -> (frequency: UInt32, inName: Bool) {
        let r = postings(word)
        let p = firstPosting(in: r, from: doc)
        return p < r.upperBound && docs[p] == doc ? (frequency(p), inName(p)) : (0, false)
    }

    /// The number of tokens of document `doc` in all columns (BM25's
    /// document length; FTS5's `xColumnSize(-1)`).
    @inline(__always) func tokens(_ doc: UInt32) -> UInt32 {
        Int(doc) < lengthCount ? lengths[Int(doc)] : 0
    }

    /// Whether FTS5's tokenizer reads `word` as one token, itself: each
    /// character is an ASCII lower-case letter or digit, or a character
    /// of some word of the index (a character the tokenizer has already
    /// folded, and keeps in a token as it is).
    func isOneToken(_ word: [UInt8]) -> Bool {
        guard !word.isEmpty, let text = String(validating: word, as: UTF8.self) else { return false }
        let known = tokenScalars.withLock { scalars in
            if scalars == nil { scalars = textScalars() }
            return scalars!
        }
        return text.unicodeScalars.allSatisfy { c in c.isASCII ? Self.isPlain(c.value) : known.contains(c.value) }
    }

    /// The characters past ASCII of every text word (grid cells left out).
    private func textScalars() -> Set<UInt32> {
        var seen = Set<UInt32>()
        for i in 0..<wordCount {
            let bytes = word(i)
            guard bytes.contains(where: { $0 >= 0x80 }), !Self.hasCellMark(bytes) else { continue }
            for c in String(decoding: bytes, as: UTF8.self).unicodeScalars where !c.isASCII { seen.insert(c.value) }
        }
        return seen
    }

    /// Whether `bytes` start with `TextGrid.mark`: the lists' grid-cell
    /// words (no typed word starts with it; `TextIndexSQL.isCellWord` is
    /// the stricter test of the import's word pass).
    static func hasCellMark(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: TextGrid.markUTF8) }

    /// Whether `c` is an ASCII lower-case letter or digit: a character
    /// FTS5's tokenizer keeps in a token as it is.
    @inline(__always) static func isPlain(_ c: UInt32) -> Bool { (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) }

    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let n = min(a.count, b.count)
        if n > 0 {
            let c = memcmp(a.baseAddress!, b.baseAddress!, n)
            if c != 0 { return Int(c) }
        }
        return a.count - b.count
    }

    // MARK: State

    /// The hash of FTS5's structure and averages records (`TextIndexSQL
    /// .countedState`): every write to the index changes the first.
    static func state(_ db: Database) throws -> (hash: UInt64, averages: [UInt8]) {
        let statement = try db.cachedStatement(TextIndexSQL.countedState)
        defer { statement.reset() }
        guard let row = try statement.step() else { return (0, []) }
        var bytes: [UInt8] = []
        var averages: [UInt8] = []
        for i in 0..<2 {
            let b = row.withBytes(i) { Array($0) }
            withUnsafeBytes(of: UInt64(b.count).littleEndian) { bytes += $0 }
            bytes += b
            if i == 1 { averages = b }
        }
        return (bytes.withUnsafeBytes { SectionChecksum.of($0) }, averages)
    }

    /// Whether these lists were made from the index as `db` holds it now.
    package func holds(for db: Database) throws -> Bool { try Self.state(db).hash == state }
}

/// Why stored word lists are not read.
package enum WordListsProblem: Error, Equatable {
    case missing
    /// Written by another version of placedb.
    case otherFormat
    case damaged(String)
}
