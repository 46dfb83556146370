import SQLiteDB
import PlaceModel

/// Keeps the text index during a bulk write (`DirectLoader`, `PlainLoader`).
///
/// - `writesRows` (a fresh import, the text index's triggers set aside):
///   each new place's row of `place_text` is inserted from the values
///   computed off the writing thread (`TextIndexRow`), in bursts, not by an FTS5
///   `rebuild` evaluating `place_text_source` for every row at the end. A
///   row written again, tombstoned or revived in the same write makes the
///   index `dirty`: it is then rebuilt from the view at `finish` (rare).
///   The typo vocabulary (`place_word`) is then read from the index's own
///   words at `finish` (`place_text_vocab`: each distinct word once, in
///   order), so nothing is folded per place.
/// - Otherwise (the triggers keep the index): the words of the places
///   written, folded here, join the typo vocabulary at `finish`, instead
///   of a scan of the whole index.
final class TextIndexWriter {
    private let db: Database
    private let insertText: Statement
    private let insertWord: Statement
    var writesRows: Bool
    private var dirty = false
    private var wroteRows = false
    private var words = Set<String>()

    init(db: Database, writesRows: Bool) throws {
        self.db = db
        self.writesRows = writesRows
        insertText = try db.prepare(TextIndexSQL.insertRow)
        insertWord = try db.prepare(TextIndexSQL.insertWord)
    }

    func add(_ place: PreparedPlace, rowid: Int64, isRewrite: Bool) throws {
        guard let t = place.text else { return }
        guard writesRows else {
            for text in [t.name, t.otherNames, t.address, t.types] {
                if let text { for w in TextFolding.words(text) { words.insert(w) } }
            }
            if words.count >= Self.wordBatch { try flushWords() }
            return
        }
        wroteRows = true
        if isRewrite { dirty = true }
        if dirty { return }
        pending.append((rowid, t))
        if pending.count >= Self.batch { try flushRows() }
    }

    /// Rows waiting to go into the index together, before the commit
    /// (`finish`): FTS5's inserts run in bursts of `batch` rather than
    /// between each place's own writes, which would take turns with them
    /// for the same caches.
    private var pending: [(rowid: Int64, row: TextIndexRow)] = []
    static let batch = 4096

    private func flushRows() throws {
        defer { pending.removeAll(keepingCapacity: true) }
        guard !dirty else { return }
        for (rowid, t) in pending {
            insertText.reset()
            try insertText.bind(.integer(rowid), at: 1)
            try insertText.bind(text: t.name, at: 2)
            try insertText.bind(text: t.otherNames, at: 3)
            try insertText.bind(text: t.address, at: 4)
            try insertText.bind(text: t.types, at: 5)
            try insertText.bind(text: t.cell, at: 6)
            try insertText.run()
        }
    }

    /// A row the index may hold was tombstoned or revived without its triggers.
    func rowChanged() {
        if writesRows { dirty = true }
    }

    func finish() throws {
        try flushRows()
        if writesRows && dirty {
            // Rows the index had were changed with its triggers set aside.
            try db.execute(TextIndexSQL.rebuild)
        }
        if writesRows && wroteRows {
            // The rows went in as many segments (FTS5 flushes one for each
            // megabyte or so of text): merged into one, a query reads each
            // of its words' places in one place: paid once by the import,
            // saved by every search.
            try db.execute(TextIndexSQL.optimize)
            // Every word of the index, once each and in order: the ones
            // place_word lacks go in (not the grid cells), as they are
            // read (a vocabulary of millions is never held).
            try db.forEachRow(TextIndexSQL.indexWords) { row in
                if let w = row.optionalString(0), !TextIndexSQL.isCellWord(w) { try insert(w) }
            }
        }
        try flushWords()
        dirty = false
        wroteRows = false
    }

    /// Distinct words held at most before they go into `place_word`
    /// (sorted, so each batch walks the table's index in order): memory
    /// stays a few MiB however many distinct words an import brings.
    static let wordBatch = 65_536

    private func flushWords() throws {
        guard !words.isEmpty else { return }
        for word in words.sorted() { try insert(word) }
        words.removeAll(keepingCapacity: true)
    }

    private func insert(_ word: String) throws {
        insertWord.reset()
        try insertWord.bind(.text(word), at: 1)
        try insertWord.bind(.text(TextFolding.reversed(word)), at: 2)
        try insertWord.run()
    }
}
