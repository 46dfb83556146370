import PlaceModel
import SQLiteDB

/// What text ranking reads of a matched place before its row, stored in
/// the word lists (`WordLists.rankInputs`): its point, rating count and
/// rating, and its name's number of words and whether it has other names
/// (a name factor above 0 needs a name of as many words as the query, or
/// more for a prefix: `TextRanking.nameMatch`). With the point and the
/// rating, `minRating` and `locationRestriction` are decided before the
/// row too (`SearchArea.containsStored`).
/// With them (and BM25, and whether the query's words can be in its names:
/// `WordListQuery.best`) a place's best possible score is known without
/// its row, and only the places whose bound reaches the answer are read
/// (`PlaceReader.rank`). A place whose rank needs more than that is marked
/// `readsRow`: it is read as before.
package enum RankInputs {
    /// The largest rating count stored: popularity is the same for any
    /// count from 10,000 on (`TextRanking`).
    static let countCap = 10_000
    /// A place whose row ranking reads whatever the bound: a street,
    /// railway or waterway (one answer for its many ways reads their names
    /// and footprints: `TextRanking.segmentTypes`), a member of another's
    /// group (it answers as that row), a place whose localized names the
    /// index may not hold whole (more than `TextIndexSQL.maxLocalizedNames`,
    /// a key or value with an escape; its name factor reads them all), a
    /// point that cannot be read, a rating that is not a whole number of
    /// tenths from 0 to 5 (`rating`), a document without a place row.
    static let readsRow = UInt16.max
    /// How far, in meters, a stored point may be from its row's: half of
    /// 1e-7 degree on each axis is under 8 mm, with room for rounding.
    package static let pointError = 0.05
    /// The name tokens counted at most: a name of more words than a query
    /// has is counted as this many (a name factor of 1 is not ruled out).
    package static let nameWordsCap: UInt8 = 127
    /// The bit of a document's name count set where it has other names.
    static let otherNamesBit: UInt8 = 0x80
    /// The stored rating of a place without one (NULL).
    static let noRating: UInt8 = 0xFF

    /// `rating` as stored: its tenths (0 to 50) where that many tenths
    /// are the very same Double (as 4.3 is 43 / 10), `noRating` for none,
    /// nil where the row must be read (`minRating` compares the exact
    /// value: `storedRating` gives it back bit for bit).
    static func rating(_ rating: Double?) -> UInt8? {
        guard let rating else { return noRating }
        let tenths = (rating * 10).rounded()
        guard tenths >= 0, tenths <= 50, tenths / 10 == rating else { return nil }
        return UInt8(tenths)
    }

    /// The rating a stored byte stands for (nil: none).
    @inline(__always) static func storedRating(_ byte: UInt8) -> Double? {
        byte == noRating ? nil : Double(byte) / 10
    }

    /// Each place's rowid, point (SpatiaLite blob), rating count, whether
    /// ranking reads its row (1; see `readsRow`) and rating, in rowid order.
    static let rows = """
        SELECT id, geom, rating_count, CASE
                WHEN primary_type IN (\(TextRanking.segmentTypes.sorted().map { "'\($0)'" }.joined(separator: ", "))) THEN 1
                WHEN group_id IS NOT NULL AND group_id != id THEN 1
                WHEN extra IS NULL THEN 0
                WHEN NOT json_valid(extra) THEN 1
                WHEN json_type(extra, '$.localizedNames') IS NULL THEN 0
                WHEN json_type(extra, '$.localizedNames') != 'object' THEN 1
                WHEN instr(json_extract(extra, '$.localizedNames'), '\\') > 0 THEN 1
                ELSE (SELECT count(*) FROM json_each(extra, '$.localizedNames')) > \(TextIndexSQL.maxLocalizedNames)
            END, rating
        FROM place
        """

    /// Each document's point (latitude, longitude in 1e-7 degree), rank
    /// (`countCap`-capped rating count, or `readsRow`) and rating (`rating`),
    /// read from `place` in rowid order.
    static func read(_ db: Database, docRowids: [UInt32]) throws -> (
        points: [Int32], ranks: [UInt16], ratings: [UInt8]
    ) {
        let n = docRowids.count
        var points = [Int32](repeating: 0, count: 2 * n)
        var ranks = [UInt16](repeating: readsRow, count: n)
        var ratings = [UInt8](repeating: noRating, count: n)
        guard n > 0 else { return (points, ranks, ratings) }
        let top = Int(docRowids.max() ?? 0)
        var docOf = [UInt32](repeating: UInt32.max, count: top + 1)
        for (d, r) in docRowids.enumerated() { docOf[Int(r)] = UInt32(d) }
        let statement = try db.prepare(rows)
        while let row = try statement.step() {
            let id = try row.int64(0)
            guard id >= 0, id <= Int64(top) else { continue }
            let d = docOf[Int(id)]
            guard d != UInt32.max, try row.int64(3) == 0,
                let c = row.withBytes(1, { SpatiaLiteBlob.coordinate($0) }),
                let lat = fixed(c.latitude), let lng = fixed(c.longitude),
                let rating = rating(row.optionalDouble(4))
            else { continue }
            points[2 * Int(d)] = lat
            points[2 * Int(d) + 1] = lng
            ranks[Int(d)] = UInt16(min(max(0, row.optionalInt64(2) ?? 0), Int64(countCap)))
            ratings[Int(d)] = rating
        }
        return (points, ranks, ratings)
    }

    /// `degrees` in 1e-7 degree, nil when it does not fit.
    static func fixed(_ degrees: Double) -> Int32? {
        let v = (degrees * 1e7).rounded()
        guard v.isFinite, abs(v) <= 1.8e9 else { return nil }
        return Int32(v)
    }
}
