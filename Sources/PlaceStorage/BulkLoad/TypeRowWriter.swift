import SQLiteDB

/// A place's `place_type` rows written one statement each: the old types it
/// lost deleted, its new ones inserted.
struct TypeRowWriter {
    private let deleteType: Statement
    private let insertType: Statement

    init(db: Database) throws {
        deleteType = try db.prepare("DELETE FROM place_type WHERE type = ? AND place = ?")
        insertType = try db.prepare("INSERT OR IGNORE INTO place_type (type, place) VALUES (?, ?)")
    }

    /// `insertAll`: every type is inserted, also those in `oldTypes` (their
    /// rows may not be written yet).
    func replace(rowid: Int64, oldTypes: [String], with types: [String], insertAll: Bool = false) throws {
        for old in oldTypes where !types.contains(old) {
            deleteType.reset()
            try deleteType.bind(.text(old), at: 1)
            try deleteType.bind(.integer(rowid), at: 2)
            try deleteType.run()
        }
        for type in types where insertAll || !oldTypes.contains(type) {
            insertType.rewind()
            try insertType.bind(text: type, at: 1)
            try insertType.bind(integer: rowid, at: 2)
            try insertType.run()
        }
    }
}
