import SQLiteDB
#if canImport(Glibc)
    import Glibc
#endif
package import PlaceModel

/// The placedb database file: one SpatiaLite file holding places, their
/// types, and the provenance of each import. One owner at a time; open one
/// store per thread or process.
package final class PlaceStore {
    private(set) var db: Database
    package let path: String
    package let writable: Bool
    /// `storedRowByRowid()`'s statement, once prepared.
    var storedRowStatement: Statement?
    /// The statement reading a stored row by place ID (Place Details), once prepared.
    var storedRowByIDStatement: Statement?
    /// Buffers kept between the rows an answer writes (`withLocatedRow`).
    var insertedScratch = InsertedMembers()
    var spanScratch: [JSONParser.MemberSpan] = []
    /// The text index's phrase counts, kept between queries (`textMatches`);
    /// made by the first text query.
    lazy var textStatistics = TextIndexStatistics()
    /// How reads see linked records: merged into one place (the default)
    /// or each as imported. Set before the first read: statements are
    /// prepared with it.
    package var recordView: RecordView = .merged

    /// The default file, in the working directory.
    static let defaultPath = "places.sqlite"

    /// The schema version this placedb writes: the last migration's
    /// (`Schema.migrator`; a test keeps the two equal). An open compares the
    /// file's `user_version` with it alone, so a reader, and a writer of an
    /// up-to-date file, never build the migrations.
    package static let schemaVersion = 20

    /// How much of the file a reader opened from now on maps (4 GiB; 0:
    /// none, SQLite's page cache alone). The command line sets it from
    /// `$PLACEDB_MMAP_MB` before it opens anything.
    package nonisolated(unsafe) static var readerMapBytes: Int64 = 4 << 30

    /// How many bytes of resident file pages a process may gain after it
    /// maps a stored spatial index before the index's pages are released
    /// (docs/spatial-index.md); nil: no limit. The command line sets it
    /// from `$PLACEDB_INDEX_MB`.
    package nonisolated(unsafe) static var indexResidentBytes: Int64?

    /// The limit `$PLACEDB_INDEX_MB` asks for (`text`: whole MiB up to 1
    /// TiB), else none.
    package static func indexResidentBytes(_ text: String?) -> Int64? { mebibytes(text) }

    /// `text` as a whole number of MiB from 0 to 1 TiB, in bytes; else nil.
    private static func mebibytes(_ text: String?) -> Int64? {
        guard let text, let mb = Int64(text), mb >= 0, mb <= 1 << 20 else { return nil }
        return mb << 20
    }

    /// The map size `$PLACEDB_MMAP_MB` asks for (`text`), else the default
    /// (also for a value that is not a whole number of MiB up to 1 TiB).
    package static func mapBytes(_ text: String?) -> Int64 { mebibytes(text) ?? 4 << 30 }

    /// The schema version stored in the file (`PRAGMA user_version`, which
    /// each migration sets).
    static func storedSchemaVersion(_ db: Database) throws -> Int {
        try db.scalar("PRAGMA user_version")?.int ?? 0
    }

    /// Opens the database. A writable store loads SpatiaLite (its triggers
    /// keep the spatial index) and creates or migrates the schema; a
    /// read-only store needs neither and works where SpatiaLite is absent.
    ///
    /// `rollbackJournal` (for a new file that no one else can see yet:
    /// `PlaceImporter` builds a new database under a temporary name) writes
    /// with a rollback journal instead of the WAL. Pages past the file's
    /// size at the transaction's start are not journaled, so a bulk import
    /// writes each page once, where the WAL writes it twice (the log, then
    /// the checkpoint) and reads it back once.
    package init(path: String, writable: Bool, rollbackJournal: Bool = false) throws {
        self.path = path
        self.writable = writable
        if !writable {
            var st = stat()
            guard stat(path, &st) == 0 else {
                throw PlaceDBError.noDatabase(path: path)
            }
        }
        // A writer that could not write (the file or its directory read-only)
        // says so before SQLite opens the file read-only and fails at the first write.
        if writable, let cause = Self.unwritable(path) { throw PlaceDBError.readOnly(path: path, reason: cause) }
        do {
            db = try Database(path: path, mode: writable ? .create : .readOnly)
        } catch let e as SQLiteError {
            throw PlaceDBError.cannotOpen(path: path, sqliteMessage: e.message, forReading: false)
        }
        do {
            // Reading the schema version is the first access: a non-database
            // file fails here with SQLITE_NOTADB.
            var version: Int
            do {
                version = try Self.storedSchemaVersion(db)
            } catch let e as SQLiteError where !writable && [8, 10, 14].contains(e.primaryCode) {
                // A reader that cannot create the WAL index (a read-only
                // directory or file, a full disk): read the file as
                // immutable, which writes nothing beside it.
                db = try Self.openImmutable(path, after: e)
                version = try Self.storedSchemaVersion(db)
            }
            if version > Self.schemaVersion {
                throw PlaceDBError.schemaTooNew(path: path, version: version, supported: Self.schemaVersion)
            }
            if writable {
                try db.execute(rollbackJournal ? "PRAGMA journal_mode = DELETE" : "PRAGMA journal_mode = WAL")
                try db.execute("PRAGMA synchronous = NORMAL")
                try db.execute("PRAGMA foreign_keys = ON")
                // 64 MiB of page cache: an import touches several B-trees
                // (place, its place_id index, types, the R*Tree) at random.
                try db.execute("PRAGMA cache_size = -65536")
                try loadSpatiaLite()
                if version == 0 {
                    let tables =
                        try db.scalar(
                            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")?.int
                        ?? 0
                    let migrated =
                        try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'schema_migration'")?.int ?? 0
                    if tables > 0 && migrated == 0 {
                        throw PlaceDBError.notAPlacedbDatabase(path: path, hasOtherTables: true)
                    }
                }
                if version < Self.schemaVersion {
                    if !TextIndex.hasFTS5(db) { throw TextIndex.noFTS5(path: path) }
                    try Schema.migrator.migrate(db)
                }
            } else {
                // Readers: a larger cache, and the file mapped: queries read
                // rows at random, and mapped pages cost no read() each (a
                // read-only map is safe). The kernel counts the mapped pages
                // a process has read as its resident memory, so
                // `readerMapBytes` bounds the map (docs/performance.md).
                try db.execute("PRAGMA cache_size = -32768")
                try db.execute("PRAGMA mmap_size = \(Self.readerMapBytes)")
                if version == 0 {
                    throw PlaceDBError.notAPlacedbDatabase(path: path, hasOtherTables: false)
                }
                if version < Self.schemaVersion {
                    throw PlaceDBError.schemaTooOld(path: path, version: version, supported: Self.schemaVersion)
                }
            }
        } catch let e as SQLiteError where writable && e.primaryCode == 8 {
            throw PlaceDBError.readOnly(path: path, reason: Self.readOnlyCause(path, e))
        } catch let e as SQLiteError {
            throw e.primaryCode == 26
                ? PlaceDBError.notAnSQLiteDatabase(path: path)
                : PlaceDBError.database(path: path, reason: e.description)
        }
    }

    /// Why a writer cannot write the database, or nil: the file is
    /// read-only, or its directory is (SQLite creates the `-wal` and `-shm`
    /// files, or a journal, beside it). A file that does not exist yet
    /// needs only its directory.
    private static func unwritable(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        if access(path, F_OK) == 0 && access(path, W_OK) != 0 {
            return "the file is read-only (\(String(cString: strerror(errno)).lowercased()))"
        }
        if access(directory, W_OK) != 0 && errno != ENOENT {
            return
                "its directory \(directory) is not writable (\(String(cString: strerror(errno)).lowercased()); SQLite writes its -wal and -shm files beside the database)"
        }
        return nil
    }

    /// Why a writer got SQLITE_READONLY after opening.
    private static func readOnlyCause(_ path: String, _ e: SQLiteError) -> String {
        unwritable(path) ?? "SQLite opened it read-only (\(e.message))"
    }

    /// The immutable reader's connection, when the file has no WAL content
    /// it would miss (a `-wal` file with frames: committed changes not yet
    /// copied into the database, which only a writer can fold in).
    private static func openImmutable(_ path: String, after error: SQLiteError) throws -> Database {
        var st = stat()
        if stat(path + "-wal", &st) == 0 && st.st_size > 0 {
            throw PlaceDBError.walNeedsWriter(path: path, sqliteMessage: error.message)
        }
        do {
            return try Database(path: path, mode: .immutable)
        } catch let e as SQLiteError {
            throw PlaceDBError.cannotOpen(path: path, sqliteMessage: e.message, forReading: true)
        }
    }

    /// Where the database is when the caller names none: `places.sqlite` in
    /// the working directory (the command line, not the library, reads
    /// `PLACEDB_DATABASE`). A database is a file:
    /// an empty path, `:memory:` and SQLite URIs (`file:...`) are refused
    /// (an in-memory database would keep nothing).
    package static func resolvePath(_ explicit: String?) throws(PlaceDBError) -> String {
        let path: String
        if let explicit {
            path = explicit
        } else {
            path = defaultPath
        }
        try checkPath(path)
        return path
    }

    /// Refuses what SQLite would not read as a plain file name.
    static func checkPath(_ path: String) throws(PlaceDBError) {
        if path.isEmpty {
            throw .notADatabasePath(path)
        }
        if path == ":memory:" || path.lowercased().hasPrefix("file:") {
            throw .notADatabasePath(path)
        }
    }

    private func loadSpatiaLite() throws {
        do {
            try db.loadExtension("mod_spatialite")
        } catch let e as SQLiteError {
            throw PlaceDBError.spatiaLiteMissing(path: path, sqliteMessage: e.message)
        }
    }

    // MARK: Reading

    /// The stored place, or nil.
    package func place(id: PlaceID) throws -> Place? {
        let statement = try db.cachedStatement(
            """
            SELECT p.place_id, \(StoredDocument.servedDocument(recordView)), p.time_zone_source, \(StoredDocument.servedColumns(recordView))
            FROM \(StoredDocument.servedFrom) WHERE p.place_id = ?
            """)
        try statement.bind([.text(id.rawValue)])
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        return try decodeStored(row, docColumn: 1, geometryColumn: 2, timeZoneSourceColumn: 3, layoutColumn: 4)
    }

    /// Rebuilds a Place from its stored document (put back whole:
    /// `StoredDocument`) and geometry (and
    /// `time_zone_source`, when the query selected it). A row that does not
    /// decode (a file edited by hand) throws, never traps.
    func decodeStored(
        _ row: Row, docColumn: Int, geometryColumn: Int, timeZoneSourceColumn: Int? = nil, layoutColumn: Int
    ) throws -> Place {
        let id = PlaceID(try row.string(0))
        let value: JSONValue
        do {
            value = try StoredDocument.withDocument(row, docColumn: docColumn, layoutColumn: layoutColumn) {
                try JSONParser.parse($0)
            }
        } catch {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has a corrupt stored document: \(error)")
        }
        guard case .object(let doc) = value else {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has a stored document that is not an object")
        }
        guard let coordinate = row.withBytes(geometryColumn, { SpatiaLiteBlob.coordinate($0) }) else {
            throw PlaceDBError.corrupt(path: path, reason: "place '\(id)' has no readable point geometry")
        }
        var place = Place(id: id, coordinate: coordinate, document: doc)
        if let column = timeZoneSourceColumn {
            place.timeZoneSource = row.optionalString(column).flatMap(TimeZoneSource.init(rawValue:))
        }
        return place
    }

    /// The source fields a place's record had beyond the Places API (New)
    /// ones (`osm` tags, `overture` details, legacy `reference`, ...).
    package func extra(id: String) throws -> JSONObject? {
        var out: JSONObject?
        try db.forEachRow("SELECT extra FROM place WHERE place_id = ? AND extra IS NOT NULL", [.text(id)]) { row in
            out = try row.withBytes(0) { try JSONParser.parse($0) }.objectValue
        }
        return out
    }

    package var placeCount: Int {
        get throws { try db.scalar("SELECT count(*) FROM place")?.int ?? 0 }
    }
}
