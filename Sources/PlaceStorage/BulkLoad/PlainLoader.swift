import SQLiteDB

/// The reference loader: the triggers on `place` keep the spatial index
/// (SpatiaLite's) and `place_extent` (placedb's) as each row is written,
/// and a row's types are written with it. Slow on a large import
/// (SpatiaLite's triggers parse SQL for every row), but plainly right:
/// `DirectLoader` must leave exactly what this one leaves.
final class PlainLoader: BulkLoader {
    private let types: TypeRowWriter
    /// The triggers keep `place_text`; this adds the rows' new words (nil:
    /// the database has no text index).
    private let text: TextIndexWriter?

    init(db: Database, textIndex: Bool = true) throws {
        types = try TypeRowWriter(db: db)
        text = textIndex ? try TextIndexWriter(db: db, writesRows: false) : nil
    }

    func begin() throws {}

    var expectsNewRows: Bool { false }

    func add(_ place: PreparedPlace, rowid: Int64, isRewrite: Bool, oldTypes: [String]) throws {
        try types.replace(rowid: rowid, oldTypes: oldTypes, with: place.types)
        try text?.add(place, rowid: rowid, isRewrite: isRewrite)
        try text?.finish()
    }

    func rowChanged() {}

    func finish(watcher: (any EndOfWriteWatcher)?) throws {}

}
