import Foundation
import Testing
import SQLiteDB
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage
import PlaceKitTestSupport

/// The writer on its own: what each write does to a stored place, alias
/// edges recorded once, and the bulk path (triggers set aside, index rows
/// written by the writer) leaving exactly the rows the plain path leaves.
@Suite("PlaceWriter")
struct PlaceWriterTests {
    let dir: TempDirectory
    init() throws { dir = try TempDirectory() }

    static func decoded(_ json: String) throws -> DecodedPlace {
        try decodeRecord(
            SourceRecord(value: try JSONValue(parsing: json), line: 1, index: 1, container: nil), format: nil)
    }

    static func place(_ id: String, _ name: String, lat: Double = 46.52, lng: Double = 6.63, viewport: Bool = false)
        throws -> DecodedPlace
    {
        let view =
            viewport
            ? #","viewport":{"low":{"latitude":\#(lat - 0.001),"longitude":\#(lng - 0.001)},"high":{"latitude":\#(lat + 0.001),"longitude":\#(lng + 0.001)}}"#
            : ""
        return try decoded(
            #"{"id":"\#(id)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["cafe","food"]\#(view)}"#
        )
    }

    func store(_ name: String) throws -> PlaceStore {
        try PlaceStore(path: dir.file(name), writable: true)
    }

    @Test(
        "a new ID is inserted; the same record again in the same run is a duplicate, in a later run unchanged; a changed one updated"
    )
    func outcomes() throws {
        let store = try store("a.sqlite")
        let writer = try PlaceWriter(db: store.db, source: "test")
        writer.run = 1
        let first = try store.db.transaction { () throws -> [PlaceWriter.Outcome] in
            [try writer.upsert(Self.place("p1", "One")), try writer.upsert(Self.place("p1", "One"))]
        }
        #expect(first == [.inserted, .duplicate])
        writer.run = 2
        let second = try store.db.transaction { () throws -> [PlaceWriter.Outcome] in
            [try writer.upsert(Self.place("p1", "One")), try writer.upsert(Self.place("p1", "One, renamed"))]
        }
        #expect(second == [.unchanged, .updated])
        let name = try store.db.scalar("SELECT name FROM place WHERE place_id = 'p1'")
        #expect(name == .text("One, renamed"))
        let runs = try #require(
            try store.db.scalar("SELECT first_run || '/' || updated_run FROM place WHERE place_id = 'p1'"))
        #expect(runs == .text("1/2"))
        #expect(
            try store.db.scalar(
                "SELECT count(*) FROM place_type WHERE place = (SELECT id FROM place WHERE place_id = 'p1')")
                == .integer(2))
    }

    @Test("an alias edge is recorded once; the first record is kept")
    func aliasOnce() throws {
        let store = try store("b.sqlite")
        let writer = try PlaceWriter(db: store.db, source: "test")
        writer.run = 1
        let edge = AliasEdge(aliasID: "old", placeID: "new", reason: .moved, confidence: 0.8, evidence: nil)
        let added = try store.db.transaction { () throws -> [Bool] in
            [
                try writer.record(edge, source: "first"),
                try writer.record(
                    AliasEdge(aliasID: "old", placeID: "new", reason: .moved, confidence: 0.3, evidence: nil),
                    source: "second"),
            ]
        }
        #expect(added == [true, false])
        #expect(try store.db.scalar("SELECT source || ' ' || confidence FROM place_alias") == .text("first 0.8"))
    }

    /// Every row a write leaves, in a stable order: each column of `place`
    /// and of the tables beside it, the spatial index (each box must hold
    /// its point, tightly), the triggers on every table (their SQL), and
    /// whether SpatiaLite's geometry_columns_time was stamped.
    func rows(_ db: Database) throws -> [String] {
        var out: [String] = []
        for (table, order) in [
            ("place", "place_id"), ("place_type", "type, place"), ("place_extent", "id"), ("place_footprint", "id"),
            ("place_photo", "place, position"), ("place_alias", "alias_id, place_id"),
        ] {
            var columns: [String] = []
            try db.forEachRow("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid") {
                columns.append(try $0.string(0))
            }
            let row = columns.map { "quote(\($0))" }.joined(separator: " || ' ' || ")
            try db.forEachRow("SELECT \(row) FROM \(table) ORDER BY \(order)") {
                out.append("\(table) \(try $0.string(0))")
            }
        }
        // SpatiaLite's triggers round a point's float32 box outward by a
        // little more than the writer does; each must hold its point, tightly.
        try db.forEachRow(
            "SELECT p.place_id, i.xmin, i.xmax, i.ymin, i.ymax, p.geom FROM idx_place_geom i JOIN place p ON p.id = i.pkid ORDER BY 1"
        ) { r in
            let c = try #require(r.withBytes(5) { SpatiaLiteBlob.coordinate($0) })
            let (xmin, xmax, ymin, ymax) = (try r.double(1), try r.double(2), try r.double(3), try r.double(4))
            let holds = xmin <= c.longitude && c.longitude <= xmax && ymin <= c.latitude && c.latitude <= ymax
            let tight = xmax - xmin < 1e-4 && ymax - ymin < 1e-4
            out.append("rtree \(try r.string(0)) \(holds ? "holds" : "misses") its point\(tight ? "" : ", too wide")")
        }
        out.append("rtree entries \(try db.scalar("SELECT count(*) FROM idx_place_geom")?.int ?? -1)")
        out.append("rtreecheck \(try db.scalar("SELECT rtreecheck('idx_place_geom')")?.string ?? "?")")
        out.append("CheckSpatialIndex \(try db.scalar("SELECT CheckSpatialIndex('place', 'geom')")?.int ?? -1)")
        try db.forEachRow("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name") { r in
            out.append("trigger \(try r.string(0)) \(try r.string(1))")
        }
        let stamped = try db.scalar(
            "SELECT last_insert IS NOT NULL AND last_update IS NOT NULL FROM geometry_columns_time WHERE f_table_name = 'place'"
        )
        out.append("geometry_columns_time stamped \(stamped?.int ?? -1)")
        return out
    }

    /// Nearby answers (whole JSON responses, at a fixed time) through the
    /// R*Tree (`.database`) and through the in-memory index.
    func nearbyAnswers(_ path: String) throws -> [String] {
        var out: [String] = []
        let time = HoursQueryTime.instant(Date(timeIntervalSince1970: 1_750_000_000))
        for mode in [SpatialIndexMode.database, .memory] {
            let reader = try PlaceReader(databasePath: path, spatialIndex: mode)
            for (lat, lng, radius) in [
                (46.52, 6.58, 3000.0), (46.55, 6.62, 800.0), (46.6, 6.7, 50.0), (46.53, 6.55, 20_000.0),
            ] {
                var request = NearbySearchRequest(
                    center: Coordinate(latitude: lat, longitude: lng), radiusMeters: radius, maxResultCount: 20)
                request.rankPreference = .distance
                let json = try reader.searchNearbyJSON(request, at: time)
                out.append("\(mode) \(lat),\(lng) r=\(radius): \(String(decoding: json, as: UTF8.self))")
            }
        }
        return out
    }

    /// The places of the comparison: points with and without viewports,
    /// photos, an alias edge, a footprint, and records of IDs already
    /// written (moved, retyped, a viewport dropped).
    static func firstBatch() throws -> [DecodedPlace] {
        var places: [DecodedPlace] = []
        for i in 0..<40 {
            places.append(
                try place(
                    "p\(i)", "Place \(i)", lat: 46.5 + Double(i % 7) * 0.01, lng: 6.6 - Double(i % 5) * 0.01,
                    viewport: i % 3 == 0))
        }
        places.append(
            try decoded(
                #"{"id":"ph","displayName":{"text":"With photos"},"location":{"latitude":46.51,"longitude":6.61},"types":["museum"],"photos":[{"name":"places/ph/photos/A1"},{"name":"places/ph/photos/B2"}]}"#
            ))
        places.append(
            try decoded(
                #"{"id":"gone","displayName":{"text":"Old Shop"},"location":{"latitude":46.52,"longitude":6.62},"businessStatus":"CLOSED_PERMANENTLY","movedPlaceId":"p7","types":["store"]}"#
            ))
        places.append(try Self.park("park1", polygon: true))
        // Later records of IDs already written (updates inside the bulk write).
        places.append(try place("p4", "Place 4, again", lat: 46.6, lng: 6.7, viewport: true))
        places.append(
            try decoded(
                #"{"id":"p3","displayName":{"text":"Place 3, retyped"},"location":{"latitude":46.53,"longitude":6.6},"types":["bar"]}"#
            ))
        // A complete record (GeoJSON) without the area: its viewport and footprint go.
        places.append(try Self.park("park1", polygon: false))
        return places
    }

    /// A GeoJSON park: an area (a viewport and a footprint) or a point.
    static func park(_ id: String, polygon: Bool) throws -> DecodedPlace {
        let geometry =
            polygon
            ? #"{"type":"Polygon","coordinates":[[[6.60,46.50],[6.61,46.50],[6.61,46.51],[6.60,46.51],[6.60,46.50]]]}"#
            : #"{"type":"Point","coordinates":[6.605,46.505]}"#
        return try decoded(
            #"{"type":"Feature","geometry":\#(geometry),"properties":{"id":"\#(id)","name":"Park","leisure":"park"}}"#)
    }

    /// A second import over the first: new places, moved and retyped ones,
    /// into a tree that is no longer empty.
    static func secondBatch() throws -> [DecodedPlace] {
        var places: [DecodedPlace] = []
        for i in stride(from: 30, to: 60, by: 2) {
            places.append(
                try place(
                    "p\(i)", "Place \(i), second", lat: 46.55 + Double(i % 4) * 0.01, lng: 6.65 - Double(i % 6) * 0.01,
                    viewport: i % 4 == 0))
        }
        places.append(
            try decoded(
                #"{"id":"p0","displayName":{"text":"Place 0"},"location":{"latitude":46.5,"longitude":6.6},"types":["cafe"]}"#
            ))
        places += [
            try Self.park("park1", polygon: true), try Self.park("park2", polygon: true),
            try Self.park("park2", polygon: false),
        ]
        return places
    }

    enum Path: CaseIterable { case noBulk, plainLoader, directLoader }

    /// Writes both batches (one transaction each, runs 1 and 2) through `path`.
    func write(_ path: Path, into store: PlaceStore, indexChunk: Int) throws {
        let writer = try PlaceWriter(db: store.db, source: "test", indexChunk: indexChunk)
        for (run, batch) in [try Self.firstBatch(), try Self.secondBatch()].enumerated() {
            writer.run = Int64(run + 1)
            try store.db.transaction {
                switch path {
                case .noBulk: break
                case .plainLoader: try writer.begin(PlainLoader(db: store.db))
                case .directLoader: try writer.beginBulk()
                }
                for p in batch { _ = try writer.upsert(p) }
                if path != .noBulk { try writer.endBulk() }
            }
        }
    }

    @Test(
        "the direct loader leaves what the plain one leaves: every row, the spatial index, triggers, nearby answers",
        arguments: [1, 3, 1000])
    func directMatchesPlain(indexChunk: Int) throws {
        var results: [Path: (rows: [String], nearby: [String])] = [:]
        for path in Path.allCases {
            let file = dir.file("\(path)-\(indexChunk).sqlite")
            let store = try store("\(path)-\(indexChunk).sqlite")
            try write(path, into: store, indexChunk: indexChunk)
            results[path] = (try rows(store.db), try nearbyAnswers(file))
        }
        let want = try #require(results[.plainLoader])
        // The comparison sees what it must: each kind of row, every trigger back.
        for needed in [
            "rtree p4 holds its point", "rtreecheck ok", "CheckSpatialIndex 1", "geometry_columns_time stamped 1",
        ] {
            #expect(want.rows.contains(needed), "\(needed)")
        }
        for prefix in [
            "place_extent ", "place_footprint ", "place_photo ", "place_alias ", "place_type 'bar'",
            "trigger gii_place_geom ", "trigger place_extent_",
        ] {
            #expect(want.rows.contains { $0.hasPrefix(prefix) }, "\(prefix)")
        }
        #expect(!want.rows.contains { $0 == "place_type 'cafe' 4" || $0.contains("misses") || $0.contains("too wide") })
        #expect(want.nearby.filter { $0.contains("places/p4") }.count >= 2)
        for path in [Path.noBulk, .directLoader] {
            let got = try #require(results[path])
            #expect(
                got.rows == want.rows,
                "\(path): only there: \(got.rows.filter { !want.rows.contains($0) }.prefix(6)); only in plain: \(want.rows.filter { !got.rows.contains($0) }.prefix(6))"
            )
            #expect(got.nearby == want.nearby, "\(path)")
        }
    }
}
