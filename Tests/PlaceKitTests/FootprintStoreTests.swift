import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("Footprints in the database")
struct FootprintStoreTests {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }

    init() throws { dir = try TempDirectory() }

    func importText(_ name: String, _ text: String) throws -> ImportSummary {
        try PlaceImporter(databasePath: db).importInput(.file(try dir.write(name, text)))
    }

    func storedShape(_ placeID: String) throws -> (area: Double, shape: FootprintShape)? {
        let store = try PlaceStore(path: db, writable: false)
        var found: (Double, FootprintShape)?
        try store.db.forEachRow(
            "SELECT f.area, f.shape FROM place_footprint f JOIN place p ON p.id = f.id WHERE p.place_id = ?",
            [.text(placeID)]
        ) { row in
            found = (try row.double(0), try #require(row.withBytes(1) { FootprintShape(blob: $0) }))
        }
        return found
    }

    @Test("an OSM way stores its footprint; importing it again changes nothing")
    func osmWay() throws {
        let way = GeoFixtures.osmWay(4097656, "Rheinpark")
        let first = try importText("a.geojsonseq", "\u{1E}" + way + "\n")
        #expect(first.inserted == 1)
        let stored = try #require(try storedShape("osm:w4097656"))
        #expect(stored.shape.kind == .area)
        #expect(stored.shape.vertexCount == 8)
        #expect(stored.area == stored.shape.area)
        #expect(stored.area > 0)
        let again = try importText("b.geojsonseq", "\u{1E}" + way + "\n")
        #expect(again.unchanged == 1)
        #expect(again.updated == 0)
    }

    @Test("a changed polygon is a change; a rewrite without one drops it; points get none")
    func changedPolygon() throws {
        _ = try importText(
            "a.geojson",
            polygonFeature("shop", [lShape]) + "\n"
                + #"{"type":"Feature","id":"kiosk","geometry":{"type":"Point","coordinates":[6.6,46.5]},"properties":{"name":"Kiosk"}}"#
                + "\n")
        let before = try #require(try storedShape("shop"))
        #expect(abs(before.area - 700) < 0.5)
        #expect(try storedShape("kiosk") == nil)
        // The inner corner moved 3 m east (45 m² more): the box stays, the footprint changes.
        var moved = lShape
        moved[3] = (13, 10)
        let changed = try importText("b.geojson", polygonFeature("shop", [moved]) + "\n")
        #expect(changed.updated == 1)
        let after = try #require(try storedShape("shop"))
        #expect(abs(after.area - 745) < 0.5)
        // A hole that grows: the location (the outer ring's centroid), the box
        // and the document stay the same; only the footprint tells.
        let square = [(0.0, 0.0), (40, 0), (40, 40), (0, 40)]
        _ = try importText(
            "c.geojson", polygonFeature("yard", [square, [(25, 25), (35, 25), (35, 33), (25, 33)]]) + "\n")
        let location = try PlaceReader(databasePath: db).fetchPlace(id: "yard").coordinate
        let grown = try importText(
            "d.geojson", polygonFeature("yard", [square, [(25, 25), (35, 25), (35, 35), (25, 35)]]) + "\n")
        #expect(grown.updated == 1)
        #expect(try PlaceReader(databasePath: db).fetchPlace(id: "yard").coordinate == location)
        #expect(abs(try #require(try storedShape("yard")).area - 1500) < 0.5)
        // The same place as a point: no footprint left.
        let point = try importText(
            "c.geojson",
            #"{"type":"Feature","id":"shop","geometry":{"type":"Point","coordinates":[6.6,46.5]},"properties":{"name":"shop","types":["supermarket"]}}"#
                + "\n")
        #expect(point.updated == 1)
        #expect(try storedShape("shop") == nil)
        let store = try PlaceStore(path: db, writable: false)
        #expect(try store.db.scalar("SELECT count(*) FROM place_footprint")?.int == 1, "the yard's")
    }

    @Test("a version 5 database migrates to a footprint table, and a re-import fills it")
    func migrationFromV5() throws {
        let feature = polygonFeature("shop", [lShape])
        do {
            let db = try Database(path: db)
            try db.loadExtension("mod_spatialite")
            try Migrator(application: "placedb", migrations: Array(Schema.migrator.migrations.prefix(5))).migrate(db)
            #expect(try Migrator.storedVersion(db) == 5)
        }
        // A v5 file refuses readers until a writer upgrades it.
        #expect(throws: (any Error).self) { _ = try PlaceReader(databasePath: db) }
        let summary = try importText("a.geojson", feature + "\n")
        #expect(summary.inserted == 1)
        let store = try PlaceStore(path: db, writable: false)
        #expect(try Migrator.storedVersion(store.db) == Schema.migrator.latestVersion)
        #expect(try storedShape("shop") != nil)
        let r = try PlaceReader(databasePath: db).findPlaceLikelihoods(
            location: at(east: 5, north: 30), accuracy: 5, explain: true)
        #expect(r.placeLikelihoods.first?.explanation?.footprint == "polygon")
    }

    @Test("a footprint blob that is not one is reported, not trapped on")
    func corruptBlob() throws {
        _ = try importText("a.geojson", polygonFeature("shop", [lShape]) + "\n")
        do {
            let store = try PlaceStore(path: db, writable: true)
            try store.db.execute("UPDATE place_footprint SET shape = x'0100'")
        }
        #expect {
            _ = try PlaceReader(databasePath: db).findPlaceLikelihoods(location: at(east: 5, north: 30), accuracy: 5)
        } throws: { error in
            "\(error)".contains("footprint")
        }
    }
}
