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
    /// inside the caller's read transaction.
    package static func build(_ db: Database, to path: String) throws -> Summary {
        let state = try state(db)
        guard let (rows, tokens) = averages(state.averages) else {
            throw WordListsBuildError(path: path, reason: "the text index's averages record cannot be read")
        }
        var wordEnds: [UInt64] = [0], wordBytes: [UInt8] = [], listEnds: [UInt64] = [0]
        var rowids: [UInt32] = [], frequencies: [UInt8] = [], large: [UInt64] = [], lengths: [UInt32] = []
        try db.execute(TextIndexSQL.createInstanceVocabulary)
        defer { try? db.execute(TextIndexSQL.dropInstanceVocabulary) }
        let statement = try db.prepare(TextIndexSQL.instances)
        var current: [UInt8] = []
        var lastRowid: Int64 = -1
        var frequency: UInt32 = 0
        func endPosting() {
            guard lastRowid >= 0 else { return }
            if frequency < 255 {
                frequencies.append(UInt8(frequency))
            } else {
                frequencies.append(255)
                large += [UInt64(rowids.count - 1), UInt64(frequency)]
            }
        }
        func endWord() {
            endPosting()
            lastRowid = -1
            listEnds.append(UInt64(rowids.count))
        }
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
                if !first { endWord() }
                first = false
                current = row.withBytes(0) { Array($0) }
                wordBytes += current
                wordEnds.append(UInt64(wordBytes.count))
            }
            if rowid != lastRowid {
                endPosting()
                lastRowid = rowid
                frequency = 0
                rowids.append(UInt32(rowid))
            }
            frequency += weight(column)
            let r = Int(rowid)
            if r >= lengths.count { lengths += repeatElement(0, count: max(r + 1 - lengths.count, lengths.count)) }
            lengths[r] += 1
        }
        if !first { endWord() }
        if let last = lengths.lastIndex(where: { $0 != 0 }) {
            lengths.removeLast(lengths.count - last - 1)
        } else {
            lengths.removeAll()
        }
        // Each place's text words, in word order: counted, then placed.
        var placeEnds = [UInt64](repeating: 0, count: lengths.count + 1)
        let mark = TextGrid.markUTF8
        var textWords: [Bool] = []
        textWords.reserveCapacity(wordEnds.count - 1)
        for w in 0..<(wordEnds.count - 1) {
            let start = Int(wordEnds[w]), end = Int(wordEnds[w + 1])
            let cell = end - start >= mark.count && wordBytes[start..<(start + mark.count)].elementsEqual(mark)
            textWords.append(!cell)
            guard !cell else { continue }
            for p in Int(listEnds[w])..<Int(listEnds[w + 1]) { placeEnds[Int(rowids[p]) + 1] += 1 }
        }
        for r in 0..<lengths.count { placeEnds[r + 1] += placeEnds[r] }
        var placeWords = [UInt32](repeating: 0, count: Int(placeEnds[lengths.count]))
        var next = placeEnds
        for w in 0..<(wordEnds.count - 1) where textWords[w] {
            for p in Int(listEnds[w])..<Int(listEnds[w + 1]) {
                let r = Int(rowids[p])
                placeWords[Int(next[r])] = UInt32(w)
                next[r] += 1
            }
        }
        next = []
        let counts = [
            UInt64(wordEnds.count - 1), UInt64(rowids.count), UInt64(lengths.count), UInt64(large.count / 2),
        ]
        let fixed =
            [magic, formatVersion, byteOrder, UInt64(bitPattern: rows), UInt64(bitPattern: tokens)] + counts + [
                state.hash
            ]
        let bytes: Int
        do {
            bytes = try SectionFile.write(
                fixed: fixed,
                sections: [
                    .init(wordEnds), .init(wordBytes), .init(listEnds), .init(rowids), .init(frequencies),
                    .init(large), .init(lengths), .init(placeEnds), .init(placeWords),
                ], to: path)
        } catch {
            throw WordListsBuildError(path: error.path, errno: error.errno)
        }
        return Summary(words: wordEnds.count - 1, postings: rowids.count, bytes: bytes)
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
