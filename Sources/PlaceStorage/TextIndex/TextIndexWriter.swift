import SQLiteDB
import PlaceModel

/// Keeps the text index during a bulk write (`DirectLoader`, `PlainLoader`).
///
/// - `writesRows` (a fresh import, the text index's triggers set aside):
///   each new place's row of `place_text` is inserted from the values
///   computed off the writing thread (`TextIndexRow`), not by an FTS5
///   `rebuild` evaluating `place_text_source` for every row at the end. A
///   row written again, tombstoned or revived in the same write makes the
///   index `dirty`: it is then rebuilt from the view at `finish` (rare).
/// - Always: the words of the places written join the typo vocabulary
///   (`place_word`) at `finish`, instead of a scan of the whole index.
final class TextIndexWriter {
    private let db: Database
    private let insertText: Statement
    private let insertWord: Statement
    var writesRows: Bool
    private var dirty = false
    private var words = Set<String>()

    init(db: Database, writesRows: Bool) throws {
        self.db = db
        self.writesRows = writesRows
        insertText = try db.prepare(TextIndexSQL.insertRow)
        insertWord = try db.prepare(TextIndexSQL.insertWord)
    }

    func add(_ place: PreparedPlace, rowid: Int64, isRewrite: Bool) throws {
        guard let t = place.text else { return }
        for w in t.words { words.insert(w) }
        guard writesRows else { return }
        if isRewrite { dirty = true }
        if dirty { return }
        insertText.reset()
        try insertText.bind(.integer(rowid), at: 1)
        try insertText.bind(text: t.name, at: 2)
        try insertText.bind(text: t.otherNames, at: 3)
        try insertText.bind(text: t.address, at: 4)
        try insertText.bind(text: t.types, at: 5)
        try insertText.bind(text: t.cell, at: 6)
        try insertText.run()
    }

    /// A row the index may hold was tombstoned or revived without its triggers.
    func rowChanged() {
        if writesRows { dirty = true }
    }

    func finish() throws {
        if writesRows && dirty {
            // Rows the index had were changed with its triggers set aside.
            try db.execute(TextIndexSQL.rebuild)
        }
        for word in words.sorted() {
            insertWord.reset()
            try insertWord.bind(.text(word), at: 1)
            try insertWord.bind(.text(TextFolding.reversed(word)), at: 2)
            try insertWord.run()
        }
        words = []
        dirty = false
    }
}
