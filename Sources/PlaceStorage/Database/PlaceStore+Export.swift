package import PlaceModel
import SQLiteDB
import Foundation

extension PlaceStore {
    /// One place as `placedb export` reads it: its whole stored document
    /// (the members the columns stand for put back: `StoredDocument`), its
    /// point and the source fields beyond the Places API (New) ones.
    package struct ExportedPlace {
        package let id: PlaceID
        package let coordinate: Coordinate
        /// The whole document, compact JSON, without `location`, `name` and `id`.
        package let document: UnsafeRawBufferPointer
        /// A JSON object, or nil.
        package let extra: UnsafeRawBufferPointer?
        /// A removed place: when the run that removed it started, and that
        /// run's snapshot (nil for a live place).
        package var removedAt: String? = nil
        package var removedBySnapshot: String? = nil
    }

    /// Calls `body` with each live place (removed ones are left out) whose
    /// row matches `filter`, an SQL expression over `place`'s columns (as
    /// `ogr2ogr -where` takes one), in row order, one row at a time:
    /// memory stays bounded whatever the database's size. Returns the
    /// number of places.
    ///
    /// In the filter, `id` is the place ID (as `place_id`, and as the
    /// record's `id`), not the table's integer row number: a user who
    /// copies an ID from a record (`id = 'ChIJ...'`) finds it.
    @discardableResult
    package func forEachExportedPlace(filter: String?, tombstones: Bool = false, _ body: (ExportedPlace) throws -> Void)
        throws -> Int
    {
        var condition = "1"
        var columns: [String] = []
        if let filter {
            try db.forEachRow("PRAGMA table_info(place)") { row in
                if let name = row.optionalString(1), name != "id" { columns.append(name) }
            }
            let view =
                "SELECT p.id AS placedb_rowid, p.place_id AS id, "
                + columns.map { "p.\"\($0)\"" }.joined(separator: ", ") + " FROM place p"
            condition = "id IN (SELECT placedb_rowid FROM (\(view)) WHERE (\(filter)))"
        }
        let sql = """
            SELECT place_id, doc, geom, extra, \(StoredDocument.readColumns),
                   (SELECT coalesce(data_time, started_at) FROM import_run WHERE id = removed_run), (SELECT snapshot FROM import_run WHERE id = removed_run)
            FROM place WHERE \(tombstones ? "" : "removed_run IS NULL AND ")\(condition) ORDER BY id
            """
        let statement: Statement
        do {
            statement = try db.prepare(sql)
        } catch let e as SQLiteError {
            if let r = e.message.range(of: "no such column: ") {
                // A misspelt column: the nearest one, else the list.
                let name = String(e.message[r.upperBound...])
                let known = ["id"] + columns
                throw PlaceDBError.unknownFilterColumn(
                    column: name, filter: filter ?? "", suggestion: Typo.closest(name, among: known), columns: known)
            }
            throw PlaceDBError.invalidArgument(
                "the filter '\(filter ?? "")' is not an SQL expression over the place table's columns: \(e.message)")
        }
        var count = 0
        while let row = try Self.step(statement, filter: filter) {
            let id = PlaceID(row.optionalString(0) ?? "")
            guard let coordinate = row.withBytes(2, { SpatiaLiteBlob.coordinate($0) }) else {
                throw PlaceDBError.database(path: path, reason: "place '\(id)' has no readable point geometry")
            }
            do {
                let removedAt = row.optionalString(4 + StoredDocument.readColumnCount),
                    snapshot = row.optionalString(5 + StoredDocument.readColumnCount)
                try StoredDocument.withDocument(row, docColumn: 1, layoutColumn: 4) { document in
                    if row.isNull(3) {
                        try body(
                            ExportedPlace(
                                id: id, coordinate: coordinate, document: document, extra: nil, removedAt: removedAt,
                                removedBySnapshot: snapshot))
                    } else {
                        try row.withBytes(3) { extra in
                            try body(
                                ExportedPlace(
                                    id: id, coordinate: coordinate, document: document, extra: extra,
                                    removedAt: removedAt, removedBySnapshot: snapshot))
                        }
                    }
                }
            } catch let e as JSONSyntaxError {
                throw PlaceDBError.database(path: path, reason: "place '\(id)' has a corrupt stored document: \(e)")
            }
            count += 1
        }
        return count
    }

    /// The next row of the export. An error SQLite raises while it runs
    /// the filter (a function it does not allow, such as
    /// `load_extension`; a bad argument, a malformed JSON path, an
    /// integer overflow, a string too big) is the filter's fault, an
    /// `invalidArgument` naming it (the command line exits 64), as one
    /// SQLite refuses to prepare is; a corrupt page or a failed read
    /// stays a database error.
    /// SQLITE_ERROR (1), SQLITE_TOOBIG (18), SQLITE_RANGE (25).
    private static let filterFaults: Set<Int32> = [1, 18, 25]

    private static func step(_ statement: Statement, filter: String?) throws -> Row? {
        do {
            return try statement.step()
        } catch let e as SQLiteError where filter != nil && filterFaults.contains(e.primaryCode) {
            throw PlaceDBError.invalidArgument(
                "the filter '\(filter ?? "")' failed while it ran over the place table: \(e.message)")
        }
    }

    /// One alias edge as `placedb export --aliases` writes it.
    package struct ExportedAlias {
        package let aliasID: String
        package let placeID: String
        package let reason: String
        package let source: String?
        package let confidence: Double
        /// JSON text, or nil.
        package let evidence: String?
        /// When the edge was recorded: its run's start, as `resolve` gives it.
        package let recordedAt: String?
    }

    /// An alias edge out of one ID, with when it was recorded.
    package struct EdgeOut {
        package let placeID: String
        package let reason: String
        package let source: String?
        package let confidence: Double
        package let evidence: String?
        package let recordedAt: String?
    }

    /// The alias edges out of one ID, oldest first, by a statement prepared once.
    package final class EdgesOutQuery {
        private let statement: Statement
        init(_ db: Database) throws {
            statement = try db.prepare(
                """
                SELECT a.place_id, a.reason, a.source, a.confidence, a.evidence, coalesce(r.data_time, r.started_at)
                FROM place_alias a LEFT JOIN import_run r ON r.id = a.run WHERE a.alias_id = ? ORDER BY a.id
                """)
        }

        package func edges(of aliasID: String) throws -> [EdgeOut] {
            statement.reset()
            defer { statement.reset() }
            try statement.bind(.text(aliasID), at: 1)
            var out: [EdgeOut] = []
            while let row = try statement.step() {
                out.append(
                    EdgeOut(
                        placeID: row.optionalString(0) ?? "", reason: row.optionalString(1) ?? "explicit",
                        source: row.optionalString(2),
                        confidence: row.optionalDouble(3) ?? 1, evidence: row.optionalString(4),
                        recordedAt: row.optionalString(5)))
            }
            return out
        }
    }

    package func edgesOutQuery() throws -> EdgesOutQuery { try EdgesOutQuery(db) }

    /// Calls `body` with each alias edge, oldest first. Returns the count.
    @discardableResult
    package func forEachAliasEdge(_ body: (ExportedAlias) throws -> Void) throws -> Int {
        var count = 0
        try db.forEachRow(
            """
            SELECT a.alias_id, a.place_id, a.reason, a.source, a.confidence, a.evidence, coalesce(r.data_time, r.started_at)
            FROM place_alias a LEFT JOIN import_run r ON r.id = a.run ORDER BY a.id
            """
        ) { row in
            try body(
                ExportedAlias(
                    aliasID: row.optionalString(0) ?? "", placeID: row.optionalString(1) ?? "",
                    reason: row.optionalString(2) ?? "explicit",
                    source: row.optionalString(3), confidence: row.optionalDouble(4) ?? 1,
                    evidence: row.optionalString(5),
                    recordedAt: row.optionalString(6)))
            count += 1
        }
        // Linking (docs/linking.md): the user's rules, then each group's
        // members as `same` lines to the canonical ID, so a re-import of the
        // export keeps the groups (its records arrive in one run, where
        // linking alone could not pair one source's records again).
        try db.forEachRow("SELECT a, b, kind, origin FROM link_rule ORDER BY a, b") { row in
            try body(
                ExportedAlias(
                    aliasID: try row.string(0), placeID: try row.string(1), reason: try row.string(2),
                    source: row.optionalString(3), confidence: 1, evidence: nil, recordedAt: nil))
            count += 1
        }
        try db.forEachRow(
            """
            SELECT m.place_id, c.place_id, (SELECT max(l.probability) FROM place_link l WHERE l.a = m.id OR l.b = m.id)
            FROM place m JOIN place c ON c.id = m.group_id WHERE m.group_id IS NOT NULL AND m.id != m.group_id ORDER BY m.id
            """
        ) { row in
            try body(
                ExportedAlias(
                    aliasID: try row.string(0), placeID: try row.string(1), reason: "same", source: "link",
                    confidence: min(1, max(0.001, row.optionalDouble(2) ?? 1)), evidence: nil, recordedAt: nil))
            count += 1
        }
        return count
    }

    /// Turns off the memory map of this connection: one pass over every
    /// row would otherwise leave the whole file resident (RSS the size of
    /// the database); SQLite's page cache is enough.
    package func disableMemoryMap() throws {
        try db.execute("PRAGMA mmap_size = 0")
    }
}
