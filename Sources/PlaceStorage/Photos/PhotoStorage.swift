import SQLiteDB
package import PlaceModel

/// Where a photo is looked up: the photo index built at import
/// (`place_photo`), or the stored images (`photo_image`).
package enum PhotoTable: String {
    case metadata = "place_photo"
    case images = "photo_image"
}

extension PlaceStore {
    /// The full names in `table` that `query` names: the name itself; a
    /// reference; else a reference prefix of at least
    /// `PhotoLimits.minReferencePrefix` characters. At most two (two mean
    /// ambiguous).
    package func photoNames(_ query: PhotoName.Query, in table: PhotoTable) throws -> [String] {
        var names: [String] = []
        func collect(_ sql: String, _ args: [DatabaseValue]) throws {
            try db.forEachRow(sql, args) { row in names.append(try row.string(0)) }
        }
        switch query {
        case .name(let name):
            // By the reference index (the reference is part of the name).
            try collect(
                "SELECT name FROM \(table.rawValue) WHERE reference = ?1 AND name = ?2 LIMIT 1",
                [.text(PhotoName.reference(of: name)), .text(name)])
        case .reference(let reference):
            try collect("SELECT DISTINCT name FROM \(table.rawValue) WHERE reference = ? LIMIT 2", [.text(reference)])
            if names.isEmpty && reference.count >= PhotoLimits.minReferencePrefix {
                // A prefix range on the reference index: every text that
                // starts with `reference` sorts below reference + U+10FFFF.
                try collect(
                    "SELECT DISTINCT name FROM \(table.rawValue) WHERE reference >= ?1 AND reference < ?2 LIMIT 2",
                    [.text(reference), .text(reference + "\u{10FFFF}")])
            }
        }
        return names
    }

    /// The one photo name that `text` names, looked up in `tables` in turn
    /// (the first that has a match wins), or a one-line error:
    /// `photoNotFound` when none, `invalidArgument` when a prefix matches
    /// several.
    package func resolvePhoto(_ text: String, in tables: [PhotoTable]) throws -> String {
        let query = try PhotoName.Query(parsing: text)
        for table in tables {
            let names = try photoNames(query, in: table)
            if names.count > 1 {
                throw PlaceDBError.invalidArgument(
                    "photo reference '\(text)' matches several photos (\(names[0]), \(names[1]), ...); give the full name places/{id}/photos/{reference} or more characters"
                )
            }
            if let name = names.first { return name }
        }
        if tables.first == .images {
            if let known = try? photoNames(query, in: .metadata), known.count == 1 {
                throw PlaceDBError.noLocalImage(photo: known[0])
            }
            throw PlaceDBError.photoNotFound("no local image for photo '\(text)' in \(path)")
        }
        var hint = "photos come from the photos[] of imported places; import the place first"
        if case .reference(let r) = query, r.count < PhotoLimits.minReferencePrefix {
            hint += ", or give at least \(PhotoLimits.minReferencePrefix) characters of the reference"
        }
        throw PlaceDBError.photoNotFound("no photo '\(text)' in \(path) (\(hint))")
    }

    /// The record of a stored image, or nil.
    package func localImage(name: String) throws -> LocalImageInfo? {
        var info: LocalImageInfo?
        try db.forEachRow(
            "SELECT name, format, width, height, length(bytes), source, added_at FROM photo_image WHERE name = ?",
            [.text(name)]
        ) { row in
            info = try decodeImageRow(row)
        }
        return info
    }

    private func decodeImageRow(_ row: Row) throws -> LocalImageInfo {
        let name = try row.string(0)
        let formatName = try row.string(1)
        guard let format = ImageFormat(rawValue: formatName) else {
            throw PlaceDBError.corrupt(
                path: path, reason: "photo '\(name)' has an unknown stored image format '\(formatName)'")
        }
        return LocalImageInfo(
            name: name, format: format, width: Int(try row.int64(2)), height: Int(try row.int64(3)),
            byteCount: Int(try row.int64(4)), source: row.optionalString(5), addedAt: try row.string(6))
    }

    /// Calls `body` with a stored image's record and bytes (no copy), or
    /// returns nil when the photo has no image.
    package func withImage<T>(name: String, _ body: (LocalImageInfo, UnsafeRawBufferPointer) throws -> T) throws -> T? {
        let statement = try db.cachedStatement(
            "SELECT name, format, width, height, length(bytes), source, added_at, bytes FROM photo_image WHERE name = ?"
        )
        try statement.bind([.text(name)])
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        let info = try decodeImageRow(row)
        return try row.withBytes(7) { try body(info, $0) }
    }

    /// What storing an image did.
    package enum ImageWrite { case added, replaced, unchanged }

    /// Stores (or replaces) a photo's image. Identical bytes change nothing.
    package func putImage(name: String, format: ImageFormat, width: Int, height: Int, bytes: [UInt8], source: String?)
        throws -> ImageWrite
    {
        try db.transaction(.immediate) {
            var existing: Bool?
            try db.forEachRow("SELECT bytes = ?1 FROM photo_image WHERE name = ?2", [.blob(bytes), .text(name)]) {
                row in
                existing = try row.int64(0) == 1
            }
            if existing == true { return .unchanged }
            try db.run(
                """
                INSERT INTO photo_image (name, reference, format, width, height, bytes, source, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET reference = excluded.reference, format = excluded.format,
                    width = excluded.width, height = excluded.height, bytes = excluded.bytes,
                    source = excluded.source, added_at = excluded.added_at
                """,
                [
                    .text(name), .text(PhotoName.reference(of: name)), .text(format.rawValue), .integer(Int64(width)),
                    .integer(Int64(height)), .blob(bytes), DatabaseValue(source), .text(RFC3339.now()),
                ])
            return existing == nil ? .added : .replaced
        }
    }

    /// The stored images of these photo names, by name.
    func localImages(names: [String]) throws -> [String: LocalImageInfo] {
        var out: [String: LocalImageInfo] = [:]
        for name in names {
            if let info = try localImage(name: name) { out[name] = info }
        }
        return out
    }
}
