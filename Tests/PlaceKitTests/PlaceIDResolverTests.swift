import Foundation
import Testing
import SQLiteDB
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage
import PlaceKitTestSupport

/// The resolver itself, on its own connection: its alias-key cache, the
/// order it takes edges in, and where a walk stops. (AliasTests covers
/// where the edges come from, through the client.)
@Suite("PlaceIDResolver")
struct PlaceIDResolverTests {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }
    init() throws { dir = try TempDirectory() }

    func load(_ places: String) throws {
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("p-\(UUID().uuidString).ndjson", places)))
    }

    func aliases(_ csv: String) throws {
        _ = try PlaceImporter(databasePath: db).importAliases(
            .file(try dir.write("a-\(UUID().uuidString).csv", "old_id,new_id,reason,confidence\n" + csv)))
    }

    func resolver() throws -> (Database, PlaceIDResolver) {
        let connection = try Database(path: db, mode: .readOnly)
        let resolver = try PlaceIDResolver(db: connection)
        try resolver.refreshAliasKeys()
        return (connection, resolver)
    }

    @Test("an alias another connection records after the keys were read is followed once they are refreshed")
    func keysFollowOtherWriters() throws {
        try load(Fixtures.v1("target", "Target") + "\n")
        let (connection, resolver) = try resolver()
        #expect(try resolver.resolve("old").status == .notFound)
        try aliases("old,target,renumbered,1\n")
        // The cached keys still say "old" has no edges ...
        #expect(try resolver.resolve("old").status == .notFound)
        // ... until they are brought up to date with the file.
        try resolver.refreshAliasKeys()
        let r = try resolver.resolve("old")
        #expect(r.status == .moved)
        #expect(r.placeID == "target")
        #expect(r.chain.map(\.reason) == [.renumbered])
        withExtendedLifetime(connection) {}
    }

    @Test("edges out of one ID are taken best first: highest confidence, then the latest import, then ID")
    func edgeOrder() throws {
        try load(["a", "b", "c", "d"].map { Fixtures.v1($0, $0.uppercased()) + "\n" }.joined())
        try aliases("x,b,split,0.5\nx,a,split,0.5\n")
        var (connection, resolver) = try resolver()
        var r = try resolver.resolve("x")
        // Same confidence, same run: by ID.
        #expect(r.placeID == "a")
        #expect(r.alternatives == ["b"])
        // A later run with the same confidence comes first.
        try aliases("x,c,split,0.5\n")
        (connection, resolver) = try self.resolver()
        r = try resolver.resolve("x")
        #expect(r.placeID == "c")
        #expect(r.alternatives == ["a", "b"])
        // A higher confidence beats a later run.
        try aliases("x,d,split,0.9\n")
        (connection, resolver) = try self.resolver()
        #expect(try resolver.resolve("x").placeID == "d")
        withExtendedLifetime(connection) {}
    }

    @Test("a live place ends the walk: only a move leads on from it")
    func livePlaceStops() throws {
        try load(Fixtures.v1("live", "Live") + "\n" + Fixtures.v1("other", "Other") + "\n")
        try aliases("live,other,explicit,1\n")
        let (connection, resolver) = try resolver()
        let r = try resolver.resolve("live")
        #expect(r.status == .current)
        #expect(r.placeID == "live")
        #expect(r.chain.isEmpty)
        withExtendedLifetime(connection) {}
    }

    @Test("a chain that ends at an ID nobody stored is NOT_FOUND, with the hops walked")
    func danglingChain() throws {
        try aliases("p,q,moved,1\nq,r,moved,1\n")
        let (connection, resolver) = try resolver()
        let r = try resolver.resolve("p")
        #expect(r.status == .notFound)
        #expect(r.placeID == nil)
        #expect(r.chain.map(\.to) == ["q", "r"])
        withExtendedLifetime(connection) {}
    }
}
