import Foundation
package import PlaceModel
import SQLiteDB

/// A place that may stand for a town or region in a query ("pizza in New
/// York"): its row, what it is called and where and how large it is.
package struct LocalityRow: Sendable {
    package var rowid: Int64
    package var placeID: String
    package var name: String?
    package var coordinate: Coordinate
    package var primaryType: String?
    /// GeoNames' population (`extra.geonames.population`).
    package var population: Int?
    /// The place's `viewport` (south-west, north-east), when it has one.
    package var viewport: (low: Coordinate, high: Coordinate)?
    /// GeoNames' alternate names (`extra.geonames.alternateNames`).
    package var alternateNames: [String]
    package var source: String
}

extension PlaceStore {
    /// The types that make a place a locality a query may name.
    package static let localityTypes = [
        "locality", "postal_town", "administrative_area_level_1", "administrative_area_level_2",
        "administrative_area_level_3", "sublocality", "sublocality_level_1", "colloquial_area",
    ]

    private static let localityTypeList = localityTypes.map { "'\($0)'" }.joined(separator: ", ")

    /// Whether the place has one of `localityTypes`.
    package func isLocality(rowid: Int64) throws -> Bool {
        let statement = try db.cachedStatement(
            "SELECT 1 FROM place_type WHERE place = ?1 AND type IN (\(Self.localityTypeList)) LIMIT 1")
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        return try statement.step() != nil
    }

    /// The locality row of a place (nil: no such live place).
    package func localityRow(rowid: Int64) throws -> LocalityRow? {
        let statement = try db.cachedStatement(
            """
            SELECT p.place_id, p.name, p.primary_type, p.geom, p.source,
                   CASE WHEN p.extra IS NOT NULL THEN coalesce(json_extract(p.extra, '$.geonames.population'), CAST(json_extract(p.extra, '$.osm.tags.population') AS INTEGER)) END,
                   CASE WHEN p.extra IS NOT NULL THEN json_extract(p.extra, '$.geonames.alternateNames') END,
                   CASE WHEN instr(p.doc, '"viewport"') > 0 THEN json_extract(p.doc, '$.viewport.low.latitude') END,
                   CASE WHEN instr(p.doc, '"viewport"') > 0 THEN json_extract(p.doc, '$.viewport.low.longitude') END,
                   CASE WHEN instr(p.doc, '"viewport"') > 0 THEN json_extract(p.doc, '$.viewport.high.latitude') END,
                   CASE WHEN instr(p.doc, '"viewport"') > 0 THEN json_extract(p.doc, '$.viewport.high.longitude') END
            FROM place p WHERE p.id = ?1 AND p.removed_run IS NULL
            """)
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return nil }
        guard let c = row.withBytes(3, { SpatiaLiteBlob.coordinate($0) }) else { return nil }
        var names: [String] = []
        if let text = row.optionalString(6), case .array(let list)? = try? JSONValue(parsing: text) {
            names = list.compactMap(\.stringValue)
        }
        var viewport: (Coordinate, Coordinate)?
        if let a = row.optionalDouble(7), let b = row.optionalDouble(8), let x = row.optionalDouble(9),
            let y = row.optionalDouble(10)
        {
            viewport = (Coordinate(latitude: a, longitude: b), Coordinate(latitude: x, longitude: y))
        }
        return LocalityRow(
            rowid: rowid, placeID: try row.string(0), name: row.optionalString(1), coordinate: c,
            primaryType: row.optionalString(2), population: row.optionalInt64(5).map { Int($0) },
            viewport: viewport, alternateNames: names, source: try row.string(4))
    }

    /// Live localities whose stored extras hold one of `needles` (JSON
    /// string literals such as `"NYC"`, matched byte for byte): the
    /// GeoNames alternate names, read by a scan of the places of type
    /// `locality` (only when a query names a place no name matches).
    package func localitiesHolding(_ needles: [String], limit: Int) throws -> [Int64] {
        guard !needles.isEmpty else { return [] }
        let tests = needles.indices.map { "instr(p.extra, ?\($0 + 2)) > 0" }.joined(separator: " OR ")
        let statement = try db.cachedStatement(
            """
            SELECT p.id FROM place_type t JOIN place p ON p.id = t.place
            WHERE t.type = 'locality' AND p.removed_run IS NULL AND p.extra IS NOT NULL AND (\(tests)) LIMIT ?1
            """)
        try statement.bind(.integer(Int64(limit)), at: 1)
        for (i, n) in needles.enumerated() { try statement.bind(.text(n), at: Int32(i + 2)) }
        defer { statement.reset() }
        var out: [Int64] = []
        while let row = try statement.step() { out.append(try row.int64(0)) }
        return out
    }

    /// A place's address: `formattedAddress` and the long and short texts
    /// of its `addressComponents` of type `locality` or `postal_town`.
    package func addressLocalities(rowid: Int64) throws -> (formatted: String?, localities: [String]) {
        let statement = try db.cachedStatement(
            """
            SELECT CASE WHEN instr(p.doc, '"formattedAddress"') > 0 THEN json_extract(p.doc, '$.formattedAddress') END,
                   (SELECT json_group_array(coalesce(json_extract(c.value, '$.longText'), '') || char(31) || coalesce(json_extract(c.value, '$.shortText'), ''))
                    FROM json_each(p.doc, '$.addressComponents') c
                    WHERE EXISTS (SELECT 1 FROM json_each(c.value, '$.types') t WHERE t.value IN ('locality', 'postal_town')))
            FROM place p WHERE p.id = ?1
            """)
        try statement.bind(.integer(rowid), at: 1)
        defer { statement.reset() }
        guard let row = try statement.step() else { return (nil, []) }
        var localities: [String] = []
        if let text = row.optionalString(1), case .array(let list)? = try? JSONValue(parsing: text) {
            for v in list { if let s = v.stringValue { localities += s.split(separator: "\u{1F}").map(String.init) } }
        }
        return (row.optionalString(0), localities)
    }
}
