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
        try decodeRecord(SourceRecord(value: try JSONValue(parsing: json), line: 1, index: 1, container: nil), format: nil)
    }

    static func place(_ id: String, _ name: String, lat: Double = 46.52, lng: Double = 6.63, viewport: Bool = false) throws -> DecodedPlace {
        let view = viewport ? #","viewport":{"low":{"latitude":\#(lat - 0.001),"longitude":\#(lng - 0.001)},"high":{"latitude":\#(lat + 0.001),"longitude":\#(lng + 0.001)}}"# : ""
        return try decoded(#"{"id":"\#(id)","displayName":{"text":"\#(name)"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":["cafe","food"]\#(view)}"#)
    }

    func store(_ name: String) throws -> PlaceStore {
        try PlaceStore(path: dir.file(name), writable: true)
    }

    @Test("a new ID is inserted; the same record again in the same run is a duplicate, in a later run unchanged; a changed one updated")
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
        let runs = try #require(try store.db.scalar("SELECT first_run || '/' || updated_run FROM place WHERE place_id = 'p1'"))
        #expect(runs == .text("1/2"))
        #expect(try store.db.scalar("SELECT count(*) FROM place_type WHERE place = (SELECT id FROM place WHERE place_id = 'p1')") == .integer(2))
    }

    @Test("an alias edge is recorded once; the first record is kept")
    func aliasOnce() throws {
        let store = try store("b.sqlite")
        let writer = try PlaceWriter(db: store.db, source: "test")
        writer.run = 1
        let edge = AliasEdge(aliasID: "old", placeID: "new", reason: .moved, confidence: 0.8, evidence: nil)
        let added = try store.db.transaction { () throws -> [Bool] in
            [try writer.record(edge, source: "first"),
             try writer.record(AliasEdge(aliasID: "old", placeID: "new", reason: .moved, confidence: 0.3, evidence: nil), source: "second")]
        }
        #expect(added == [true, false])
        #expect(try store.db.scalar("SELECT source || ' ' || confidence FROM place_alias") == .text("first 0.8"))
    }

    /// Every row a write leaves: places, types, the spatial index and the
    /// viewport index, in a stable order.
    func rows(_ db: Database) throws -> [String] {
        var out: [String] = []
        try db.forEachRow("SELECT place_id, name, content_hash, hex(geom), first_run FROM place ORDER BY place_id") { r in
            out.append("place \(try r.string(0)) \(try r.string(1)) \(try r.int64(2)) \(try r.string(3)) \(try r.int64(4))")
        }
        try db.forEachRow("SELECT p.place_id, t.type FROM place_type t JOIN place p ON p.id = t.place ORDER BY 1, 2") { r in
            out.append("type \(try r.string(0)) \(try r.string(1))")
        }
        // SpatiaLite's triggers round a point's float32 box outward by a
        // little more than the writer does; each must hold its point, tightly.
        try db.forEachRow("SELECT p.place_id, i.xmin, i.xmax, i.ymin, i.ymax, p.geom FROM idx_place_geom i JOIN place p ON p.id = i.pkid ORDER BY 1") { r in
            let c = try #require(r.withBytes(5) { SpatiaLiteBlob.coordinate($0) })
            let (xmin, xmax, ymin, ymax) = (try r.double(1), try r.double(2), try r.double(3), try r.double(4))
            let holds = xmin <= c.longitude && c.longitude <= xmax && ymin <= c.latitude && c.latitude <= ymax
            let tight = xmax - xmin < 1e-4 && ymax - ymin < 1e-4
            out.append("rtree \(try r.string(0)) \(holds ? "holds" : "misses") its point\(tight ? "" : ", too wide")")
        }
        try db.forEachRow("SELECT p.place_id, e.west, e.south FROM place_extent e JOIN place p ON p.id = e.id ORDER BY 1") { r in
            out.append("extent \(try r.string(0)) \(try r.double(1)) \(try r.double(2))")
        }
        try db.forEachRow("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name") { r in
            out.append("trigger \(try r.string(0))")
        }
        return out
    }

    @Test("the bulk path leaves the same places, types, spatial index, viewports and triggers as the plain path", arguments: [1, 3, 1000])
    func bulkMatchesPlain(indexChunk: Int) throws {
        var places: [DecodedPlace] = []
        for i in 0..<40 {
            places.append(try Self.place("p\(i)", "Place \(i)", lat: 46.5 + Double(i % 7) * 0.01, lng: 6.6 - Double(i % 5) * 0.01, viewport: i % 3 == 0))
        }
        // A later record of an ID already written (an update inside the bulk write).
        places.append(try Self.place("p4", "Place 4, again", lat: 46.6, lng: 6.7, viewport: true))

        let plain = try store("plain-\(indexChunk).sqlite")
        let plainWriter = try PlaceWriter(db: plain.db, source: "test", indexChunk: indexChunk)
        plainWriter.run = 1
        try plain.db.transaction { for p in places { _ = try plainWriter.upsert(p) } }

        let bulk = try store("bulk-\(indexChunk).sqlite")
        let bulkWriter = try PlaceWriter(db: bulk.db, source: "test", indexChunk: indexChunk)
        bulkWriter.run = 1
        try bulk.db.transaction {
            try bulkWriter.beginBulk()
            for p in places { _ = try bulkWriter.upsert(p) }
            try bulkWriter.endBulk()
        }
        let want = try rows(plain.db)
        #expect(want.contains("rtree p4 holds its point") && want.contains { $0.hasPrefix("extent p0 ") })
        let got = try rows(bulk.db)
        #expect(got == want, "only in bulk: \(got.filter { !want.contains($0) }.prefix(6)); only in plain: \(want.filter { !got.contains($0) }.prefix(6))")
    }
}
