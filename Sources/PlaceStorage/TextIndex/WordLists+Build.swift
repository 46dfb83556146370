import Foundation
package import SQLiteDB
import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

extension WordLists {
    /// What `build` wrote.
    package struct Summary: Sendable, Equatable {
        package var words: Int
        package var postings: Int
        package var bytes: Int
    }

    /// Writes the word lists of `db`'s text index to `path` (a temporary
    /// file renamed over it), from one read of FTS5's `instance` vocabulary
    /// inside the caller's read transaction. `marker`: the places' state
    /// (`PlaceStore.rankMarker`) the rank inputs hold for (`ranksHold`).
    ///
    /// The places are numbered in the lists' own order (documents): by
    /// coarse grid cell, then fine cell, then rowid (places without a cell
    /// last), so that each grid cell's places are one run of documents and
    /// a search near a point seeks its words' lists for a few runs
    /// (`WordListQuery`) instead of merging them with the cells' lists.
    package static func build(_ db: Database, to path: String, marker: IndexMarker?) throws -> Summary {
        let state = try state(db)
        guard let (rows, tokens) = averages(state.averages) else {
            throw WordListsBuildError(path: path, reason: "the text index's averages record cannot be read")
        }
        // Read in word, then rowid order: each posting's rowid and weighted
        // count (seven bits; 127 and more in `largeCounts`, by posting) with
        // whether the word is in a name or other name (the eighth); each
        // place's tokens and fine cell (by rowid).
        var wordEnds: [UInt64] = [0], wordBytes: [UInt8] = [], listEnds: [UInt64] = [0]
        var byRowid: [UInt32] = [], counts: [UInt8] = [], lengths: [UInt32] = []
        var largeCounts: [Int: UInt32] = [:]
        var fineCells: [UInt32] = []
        // Each place's name tokens (at most `nameWordsCap`) and, in the top
        // bit, whether it has other names' tokens (`RankInputs`).
        var names: [UInt8] = []
        var count: UInt32 = 0
        var inName = false
        /// Ends the last posting: its count, in a byte or in `largeCounts`,
        /// and whether the word is in a name (`WordLists.nameBit`).
        func endPosting() {
            guard !counts.isEmpty else { return }
            let named = inName ? WordLists.nameBit : 0
            if count < UInt32(WordLists.largeFrequency) {
                counts[counts.count - 1] = UInt8(count) | named
            } else {
                counts[counts.count - 1] = WordLists.largeFrequency | named
                largeCounts[counts.count - 1] = count
            }
        }
        try db.execute(TextIndexSQL.createInstanceVocabulary)
        defer { try? db.execute(TextIndexSQL.dropInstanceVocabulary) }
        let statement = try db.prepare(TextIndexSQL.instances)
        var current: [UInt8] = []
        var currentCell: UInt32?
        var lastRowid: Int64 = -1
        var first = true
        while let row = try statement.step() {
            let rowid = try row.int64(1)
            guard rowid >= 0, rowid < Int64(UInt32.max) else {
                throw WordListsBuildError(path: path, reason: "place row \(rowid) is past the lists' 32-bit rowids")
            }
            let column = row.withBytes(2) { $0.first ?? 0 }
            let same = row.withBytes(0) { bytes in
                !first && bytes.count == current.count && bytes.elementsEqual(current)
            }
            if !same {
                if !first { listEnds.append(UInt64(byRowid.count)) }
                first = false
                current = row.withBytes(0) { Array($0) }
                wordBytes += current
                wordEnds.append(UInt64(wordBytes.count))
                currentCell = Self.fineCellOrder(current)
                lastRowid = -1
            }
            let r = Int(rowid)
            if rowid != lastRowid {
                lastRowid = rowid
                endPosting()
                byRowid.append(UInt32(rowid))
                counts.append(0)
                count = 0
                inName = false
                if let currentCell {
                    grow(&fineCells, past: r, with: Self.noCell)
                    fineCells[r] = currentCell
                }
            }
            count += weight(column)
            grow(&lengths, past: r, with: 0)
            lengths[r] += 1
            if column == UInt8(ascii: "n") || column == UInt8(ascii: "o") {
                inName = true
                grow(&names, past: r)
                if column == UInt8(ascii: "o") {
                    names[r] |= RankInputs.otherNamesBit
                } else if names[r] & ~RankInputs.otherNamesBit < RankInputs.nameWordsCap {
                    names[r] += 1
                }
            }
        }
        endPosting()
        if !first { listEnds.append(UInt64(byRowid.count)) }
        let wordCount = wordEnds.count - 1
        let postingCount = byRowid.count

        // The documents: every place with a token, by cell, then rowid.
        var order: [UInt64] = []
        for r in lengths.indices where lengths[r] != 0 {
            let cell = r < fineCells.count ? fineCells[r] : Self.noCell
            order.append(UInt64(cell) << 32 | UInt64(r))
        }
        fineCells = []
        order.sort()
        let docCount = order.count
        var docOf = [UInt32](repeating: 0, count: lengths.count)
        var docRowids = [UInt32](repeating: 0, count: docCount)
        var docLengths = [UInt32](repeating: 0, count: docCount)
        var docNames = [UInt8](repeating: 0, count: docCount)
        for (d, key) in order.enumerated() {
            let r = Int(UInt32(truncatingIfNeeded: key))
            docOf[r] = UInt32(d)
            docRowids[d] = UInt32(r)
            docLengths[d] = lengths[r]
            if r < names.count { docNames[d] = names[r] }
        }
        order = []
        lengths = []
        names = []

        // Each document's words in word order (with their counts), then
        // each word's documents in document order: two passes of a
        // counting sort, no comparison sort of any list.
        var docEnds = [UInt64](repeating: 0, count: docCount + 1)
        for r in byRowid { docEnds[Int(docOf[Int(r)]) + 1] += 1 }
        for d in 0..<docCount { docEnds[d + 1] += docEnds[d] }
        var docWords = [UInt32](repeating: 0, count: postingCount)
        var docCounts = [UInt8](repeating: 0, count: postingCount)
        var docLargeCounts: [Int: UInt32] = [:]
        var next = docEnds
        for w in 0..<wordCount {
            for p in Int(listEnds[w])..<Int(listEnds[w + 1]) {
                let d = Int(docOf[Int(byRowid[p])])
                let at = Int(next[d])
                docWords[at] = UInt32(w)
                docCounts[at] = counts[p]
                if counts[p] & ~WordLists.nameBit == WordLists.largeFrequency { docLargeCounts[at] = largeCounts[p] }
                next[d] += 1
            }
        }
        byRowid = []
        counts = []
        largeCounts = [:]
        docOf = []
        var docs = [UInt32](repeating: 0, count: postingCount)
        var frequencies = [UInt8](repeating: 0, count: postingCount)
        var large: [(posting: Int, count: UInt32)] = []
        var at = listEnds.map { Int($0) }
        for d in 0..<docCount {
            for q in Int(docEnds[d])..<Int(docEnds[d + 1]) {
                let w = Int(docWords[q]), p = at[w]
                docs[p] = UInt32(d)
                let c = docCounts[q]
                frequencies[p] = c
                if c & ~WordLists.nameBit == WordLists.largeFrequency {
                    large.append((p, docLargeCounts[q] ?? UInt32(WordLists.largeFrequency)))
                }
                at[w] += 1
            }
        }
        at = []
        docCounts = []
        docLargeCounts = [:]
        large.sort { $0.posting < $1.posting }

        // Each document's text words (not grid cells), in word order.
        let textWords = (0..<wordCount).map { w in
            !hasCellMark(wordBytes[Int(wordEnds[w])..<Int(wordEnds[w + 1])])
        }
        var placeEnds = [UInt64](repeating: 0, count: docCount + 1)
        var placeWords: [UInt32] = []
        placeWords.reserveCapacity(postingCount)
        for d in 0..<docCount {
            for q in Int(docEnds[d])..<Int(docEnds[d + 1]) where textWords[Int(docWords[q])] {
                placeWords.append(docWords[q])
            }
            placeEnds[d + 1] = UInt64(placeWords.count)
        }
        docWords = []
        docEnds = []
        // Whether each grid cell's documents are one run (they are when
        // every place has one cell word of each level, as the writer
        // makes them); if not, cells are read as lists.
        var cellRuns = true
        for w in 0..<wordCount where !textWords[w] {
            let s = Int(listEnds[w]), e = Int(listEnds[w + 1])
            if e > s && Int(docs[e - 1] - docs[s]) != e - s - 1 {
                cellRuns = false
                break
            }
        }
        // What ranking reads before a row (`RankInputs`), in the same read
        // transaction as the index.
        let (points, ranks, ratings) = try RankInputs.read(db, docRowids: docRowids)
        let fixed =
            [magic, formatVersion, byteOrder, UInt64(bitPattern: rows), UInt64(bitPattern: tokens)] + [
                UInt64(wordCount), UInt64(postingCount), UInt64(docCount), UInt64(large.count), state.hash,
                cellRuns ? 1 : 0, marker.map { UInt64(bitPattern: $0.generation) } ?? UInt64.max,
                marker.map { UInt64(bitPattern: $0.maxPlace) } ?? UInt64.max,
            ]
        let bytes: Int
        do {
            bytes = try SectionFile.write(
                fixed: fixed,
                sections: [
                    .init(wordEnds), .init(wordBytes), .init(listEnds), .init(docs), .init(frequencies),
                    .init(large.flatMap { [UInt64($0.posting), UInt64($0.count)] }), .init(docLengths),
                    .init(placeEnds), .init(placeWords), .init(docRowids), .init(points), .init(ranks),
                    .init(docNames), .init(ratings),
                ], to: path)
        } catch {
            throw WordListsBuildError(path: error.path, errno: error.errno)
        }
        return Summary(words: wordCount, postings: postingCount, bytes: bytes)
    }

    /// Makes `array` hold index `i`, doubling it at least, the new
    /// elements `fill`.
    private static func grow<T: FixedWidthInteger>(_ array: inout [T], past i: Int, with fill: T = 0) {
        guard i >= array.count else { return }
        array += repeatElement(fill, count: max(i + 1 - array.count, array.count))
    }

    /// The order key of a place without a fine grid cell: after all cells.
    static let noCell = UInt32.max

    /// For a fine grid-cell word (`TextGrid`: the mark, `f`, the row, `x`,
    /// the column), its place in the documents' order: coarse row, coarse
    /// column, then the fine row and column within the coarse cell, so
    /// that both levels' cells are runs; nil for any other word.
    static func fineCellOrder(_ word: [UInt8]) -> UInt32? {
        let mark = TextGrid.markUTF8
        guard word.count > mark.count + 3, hasCellMark(word), word[mark.count] == UInt8(ascii: "f") else {
            return nil
        }
        var row = 0, column = 0, i = mark.count + 1, digits = 0
        while i < word.count, word[i] >= 0x30, word[i] <= 0x39, digits < 6 {
            row = row * 10 + Int(word[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0, i < word.count, word[i] == UInt8(ascii: "x") else { return nil }
        i += 1
        digits = 0
        while i < word.count, word[i] >= 0x30, word[i] <= 0x39, digits < 6 {
            column = column * 10 + Int(word[i] - 0x30)
            i += 1
            digits += 1
        }
        guard digits > 0, i == word.count, row <= 18_000, column < 36_000 else { return nil }
        return UInt32(row / 10) << 20 | UInt32(column / 10) << 8 | UInt32(row % 10) << 4 | UInt32(column % 10)
    }

    /// A column's BM25 weight by the first byte of its name (`name`,
    /// `other_names`, `address`, `types`, `cell`).
    @inline(__always) static func weight(_ column: UInt8) -> UInt32 {
        switch column {
        case UInt8(ascii: "n"): 10
        case UInt8(ascii: "o"): 5
        case UInt8(ascii: "a"): 1
        case UInt8(ascii: "t"): 3
        default: 0
        }
    }

    /// FTS5's averages record: its row count, then each column's tokens
    /// (SQLite varints); the rows and all the columns' tokens.
    static func averages(_ record: [UInt8]) -> (rows: Int64, tokens: Int64)? {
        var i = 0
        func varint() -> Int64? {
            var v: UInt64 = 0
            for n in 0..<9 {
                guard i < record.count else { return nil }
                let b = record[i]
                i += 1
                if n == 8 { return Int64(bitPattern: (v << 8) | UInt64(b)) }
                v = (v << 7) | UInt64(b & 0x7f)
                if b & 0x80 == 0 { return Int64(bitPattern: v) }
            }
            return nil
        }
        guard let rows = varint() else { return nil }
        var tokens: Int64 = 0
        while i < record.count {
            guard let t = varint() else { return nil }
            tokens += t
        }
        return (rows, tokens)
    }
}

/// The word lists could not be written: what failed, and where.
package struct WordListsBuildError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    package var description: String { "cannot write the word lists \(path): \(reason)" }
}
