import PlaceModel

/// The one door between `PlaceWriter` and the bulk-load tricks: how a write
/// keeps the tables that index `place` — the spatial index
/// (`idx_place_geom`, SpatiaLite's R*Tree), the viewport index
/// (`place_extent`), `place_type` and the text index (`place_text`, its
/// words in `place_word`: `TextIndexWriter`).
///
/// Two loaders stand behind it:
/// - `PlainLoader`, the reference: SpatiaLite's and placedb's own triggers
///   index each row as it is written and the types go in row by row. It is
///   what every write did before the tricks, and what the tests compare the
///   other one against.
/// - `DirectLoader`, what an import uses: it sets the triggers aside inside
///   the transaction, writes the index tables itself (a fresh R*Tree built
///   whole in SQLite's node format from Hilbert-sorted runs, `place_type`
///   in key order) and puts the triggers back before the commit.
///
/// Both leave the same rows (PlaceWriterTests compares them on the same
/// input). Nothing outside this folder knows how the direct one works.
protocol BulkLoader: AnyObject {
    /// Starts a write of many places, inside its transaction, before the first row.
    func begin() throws

    /// The table was empty at `begin`: nearly every row is new, so the
    /// writer inserts first and looks up only when the unique index says so.
    var expectsNewRows: Bool { get }

    /// A `place` row was written: inserted (`isRewrite` false) or written
    /// again (it existed before, with `oldTypes`). Keeps the row's point,
    /// viewport and types.
    func add(_ place: PreparedPlace, rowid: Int64, isRewrite: Bool, oldTypes: [String]) throws

    /// The writer tombstoned or revived a row itself (not through `add`):
    /// a loader that keeps the text index without its triggers must know.
    func rowChanged()

    /// Writes what still waits and leaves the tables (triggers included)
    /// as a plain write leaves them; before the transaction commits. Names
    /// its parts to `watcher` as they end, when there is one.
    func finish(watcher: (any EndOfWriteWatcher)?) throws
}
