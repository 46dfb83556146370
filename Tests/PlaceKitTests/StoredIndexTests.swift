import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
import Synchronization
@testable import PlaceModel
@testable import PlaceStorage

/// The spatial index kept beside the database: written after a build,
/// mapped by the next reader with the same answers, and never used when it
/// is stale (places changed, another view or model) or damaged (every
/// section corrupted on purpose): the reader then builds it again.
@Suite("Stored spatial index")
struct StoredIndexTests {
    let dir: TempDirectory
    var db: String { dir.file("places.sqlite") }
    var indexPath: String { StoredIndex.path(for: db, view: .merged) }

    init() throws {
        dir = try TempDirectory()
        var lines: [String] = []
        var g = TestRandom(seed: 36)
        let types = ["cafe", "restaurant", "bakery", "museum", "park", "bank"]
        for i in 0..<400 {
            let lat = 46.52 + Double.random(in: -0.01...0.01, using: &g)
            let lng = 6.63 + Double.random(in: -0.01...0.01, using: &g)
            lines.append(
                #"{"type":"Feature","id":"p\#(i)","geometry":{"type":"Point","coordinates":[\#(lng),\#(lat)]},"properties":{"name":"Place \#(i)","category":"\#(types[i % types.count])"}}"#
            )
        }
        // Two buildings: stored footprints (shape sections).
        lines.append(GeoFixtures.osmWay(4001, "Hall"))
        lines.append(GeoFixtures.osmWay(4002, "Shed", ring: "[[6.63,46.52],[6.631,46.52],[6.631,46.521],[6.63,46.52]]"))
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("places.geojson", lines.joined(separator: "\n") + "\n")))
    }

    func reader(stores: Bool = true, view: RecordView = .merged) throws -> PlaceReader {
        let r = try PlaceReader(databasePath: db, spatialIndex: .memory, recordView: view)
        r.engine.storesIndex = stores
        return r
    }

    static let queries: [Coordinate] = [
        Coordinate(latitude: 46.52, longitude: 6.63), Coordinate(latitude: 46.5265, longitude: 6.6201),
        Coordinate(latitude: 46.515, longitude: 6.639), Coordinate(latitude: 0.5, longitude: 1.5),
    ]

    /// Nearby (with a type filter) and current place, as the server writes them.
    func answers(_ r: PlaceReader) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        for q in Self.queries {
            out.append(try r.searchNearbyJSON(NearbySearchRequest(center: q, radiusMeters: 2000, maxResultCount: 15)))
            out.append(
                try r.searchNearbyJSON(
                    NearbySearchRequest(center: q, radiusMeters: 2000, includedTypes: ["cafe"], maxResultCount: 5)))
            out.append(
                try r.findPlaceLikelihoodsJSON(
                    CurrentPlaceRequest(location: q, accuracyMeters: 20, time: Date(timeIntervalSince1970: 0))))
        }
        return out
    }

    @Test("a build writes the file; the next reader maps it: the same columns, the same answers")
    func mapsWhatWasBuilt() throws {
        let built = try reader()
        let first = try built.loadSpatialIndex()
        #expect(!first.mapped)
        #expect(first.storedIndex.contains("stored at \(indexPath)"), "\(first.storedIndex)")
        #expect(FileManager.default.fileExists(atPath: indexPath))

        let mapped = try reader()
        let second = try mapped.loadSpatialIndex()
        #expect(second.mapped, "\(second.storedIndex)")
        #expect(second.places == first.places)
        #expect(second.places == 402)
        #expect(first.storedIndex.hasSuffix(", answered from it"), "\(first.storedIndex)")
        // The builder answers from the file it wrote; the arrays it built
        // are what a reader that keeps no file holds.
        let inMemory = try reader(stores: false)
        _ = try inMemory.loadSpatialIndex()
        let a = try #require(inMemory.engine.full?.index), b = try #require(mapped.engine.full?.index)
        #expect(a.rowids.elementsEqual(b.rowids))
        #expect(a.points.elementsEqual(b.points) { $0.x == $1.x && $0.y == $1.y && $0.z == $1.z })
        #expect(a.latitudes.elementsEqual(b.latitudes) && a.longitudes.elementsEqual(b.longitudes))
        #expect(a.typeCodes.elementsEqual(b.typeCodes) && a.extents.elementsEqual(b.extents))
        #expect(a.slotsByRowid.elementsEqual(b.slotsByRowid))
        #expect(a.holdsIDs && b.holdsIDs)
        // Every byte of every slot's record, the spare ones included.
        #expect(UnsafeRawBufferPointer(a.slots).elementsEqual(UnsafeRawBufferPointer(b.slots)))
        #expect(a.idEnds.elementsEqual(b.idEnds) && a.idBytes.elementsEqual(b.idBytes))
        // Every slot's ID is its row's place_id.
        let store = try PlaceStore(path: db, writable: false)
        for slot in stride(from: 0, to: b.count, by: 37) {
            let id = b.withID(slot) { String(decoding: $0, as: UTF8.self) }
            #expect(try store.placeID(rowid: b.rowids[slot])?.rawValue == id)
        }
        #expect(a.shapes.count == 2 && b.shapes.count == 2)
        #expect(a.shapes.coordinates.elementsEqual(b.shapes.coordinates))
        #expect(a.types.names == b.types.names && a.sources.names == b.sources.names)
        #expect(
            a.nodes.elementsEqual(b.nodes) {
                ($0.minX, $0.minY, $0.minZ, $0.maxX, $0.maxY, $0.maxZ) == (
                    $1.minX, $1.minY, $1.minZ, $1.maxX, $1.maxY, $1.maxZ
                )
                    && ($0.first, $0.count, $0.extentMeters) == ($1.first, $1.count, $1.extentMeters)
            })
        #expect(try answers(mapped) == answers(built))
        // Every rowid finds its slot in the mapped index.
        for slot in 0..<b.count { #expect(b.slot(ofRowid: b.rowids[slot]) == Int32(slot)) }
        #expect(b.slot(ofRowid: 1_000_000) == nil)
    }

    /// Builds and stores the index, changes the database with `sql`, and
    /// checks the next reader refuses the file as stale and answers as a
    /// fresh build does.
    func expectStale(after sql: String) throws {
        _ = try reader().loadSpatialIndex()
        let store = try PlaceStore(path: db, writable: true)
        try store.db.execute(sql)
        let again = try reader()
        let stats = try again.loadSpatialIndex()
        #expect(!stats.mapped)
        #expect(stats.storedIndex.hasPrefix("built again (stale: "), "\(sql): \(stats.storedIndex)")
        #expect(try answers(again) == answers(try reader(stores: false)), "\(sql)")
        // And the rewritten file is current again.
        #expect(try reader().loadSpatialIndex().mapped)
    }

    @Test(
        "a change to what the index holds makes the file stale",
        arguments: [
            "UPDATE place SET rating_count = 12 WHERE place_id = 'p3'",
            "UPDATE place SET primary_type = 'bank' WHERE place_id = 'p4'",
            "UPDATE place SET geom = MakePoint(6.5, 46.5, 4326) WHERE place_id = 'p5'",
            "UPDATE place SET removed_run = last_run WHERE place_id = 'p6'",
            "DELETE FROM place WHERE place_id = 'p7'",
            "UPDATE place_footprint SET area = area + 1",
            "UPDATE place SET business_status = 'CLOSED_PERMANENTLY' WHERE place_id = 'p8'",
        ])
    func staleAfterChange(sql: String) throws {
        try expectStale(after: sql)
    }

    @Test("a new import run makes the file stale; a change the index does not hold keeps it")
    func importAndUnrelatedChanges() throws {
        _ = try reader().loadSpatialIndex()
        let store = try PlaceStore(path: db, writable: true)
        try store.db.execute("UPDATE place SET rating = 4.5 WHERE place_id = 'p9'")
        #expect(try reader().loadSpatialIndex().mapped)
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(
                try dir.write(
                    "more.geojson",
                    #"{"type":"Feature","id":"new","geometry":{"type":"Point","coordinates":[6.63,46.52]},"properties":{"name":"New"}}"#
                        + "\n")))
        // The stale file is removed before the build (its disk free for
        // the new one): gone while the index is built.
        let r = try reader()
        let present = Mutex<Bool?>(nil)
        let path = indexPath
        r.engine.whileBuilding = {
            present.withLock { $0 = FileManager.default.fileExists(atPath: path) }
        }
        let stats = try r.loadSpatialIndex()
        #expect(stats.storedIndex.hasPrefix("built again (stale: "), "\(stats.storedIndex)")
        #expect(stats.places == 403)
        #expect(present.withLock { $0 } == false)
        #expect(try reader().loadSpatialIndex().mapped)
    }

    @Test("another record view or likelihood model does not use the file")
    func viewAndModel() throws {
        _ = try reader().loadSpatialIndex()
        let records = try reader(view: .unmerged)
        let r = try records.loadSpatialIndex()
        #expect(!r.mapped)
        #expect(r.storedIndex.contains(StoredIndex.path(for: db, view: .unmerged)))
        var model = LikelihoodModel()
        model.footprintRadius["cafe"] = 40
        let other = try reader(stores: false)
        other.likelihoodModel = model
        #expect(!(try other.loadSpatialIndex().mapped))
        let modelled = try reader()
        modelled.likelihoodModel = model
        let m = try modelled.loadSpatialIndex()
        #expect(m.storedIndex.hasPrefix("built again (stale: another likelihood model"), "\(m.storedIndex)")
        #expect(StoredIndex.fingerprint(LikelihoodModel()) == StoredIndex.fingerprint(LikelihoodModel()))
        #expect(StoredIndex.fingerprint(model) != StoredIndex.fingerprint(LikelihoodModel()))
    }

    /// Header words and section table of the stored file.
    func header() throws -> [UInt64] {
        let data = try Data(contentsOf: URL(fileURLWithPath: indexPath))
        return (0..<StoredIndex.headerWords).map { i in
            data.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)) }
        }
    }

    func rewrite(_ change: (inout Data) -> Void) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: indexPath))
        change(&data)
        try data.write(to: URL(fileURLWithPath: indexPath))
    }

    func expectRebuilt(_ prefix: String, _ what: String) throws {
        let r = try reader()
        let stats = try r.loadSpatialIndex()
        #expect(!stats.mapped, "\(what)")
        #expect(stats.storedIndex.hasPrefix("built again (\(prefix)"), "\(what): \(stats.storedIndex)")
        #expect(try answers(r) == answers(try reader(stores: false)), "\(what)")
    }

    @Test("a damaged byte in any section, the header or the length is found at open and the index built again")
    func corruptSections() throws {
        _ = try reader().loadSpatialIndex()
        let pristine = try Data(contentsOf: URL(fileURLWithPath: indexPath))
        let words = try header()
        var checked = 0
        for (i, name) in StoredIndex.sectionNames.enumerated() {
            let offset = Int(words[StoredIndex.fixedWords + 3 * i]),
                length = Int(words[StoredIndex.fixedWords + 3 * i + 1])
            guard length > 0 else { continue }
            try pristine.write(to: URL(fileURLWithPath: indexPath))
            try rewrite { $0[offset + length / 2] ^= 0x10 }
            try expectRebuilt("corrupt: checksum of section \(name)", name)
            checked += 1
        }
        #expect(checked == StoredIndex.sectionNames.count)
        // The header's own words: the place count, a section offset.
        for word in [11, StoredIndex.fixedWords] {
            try pristine.write(to: URL(fileURLWithPath: indexPath))
            try rewrite { $0[8 * word] ^= 0x01 }
            try expectRebuilt("corrupt: header checksum", "header word \(word)")
        }
        try pristine.write(to: URL(fileURLWithPath: indexPath))
        try rewrite { $0 = $0.prefix($0.count - 100) }
        try expectRebuilt("corrupt: section", "truncated")
        try rewrite { $0 = Data("not an index at all".utf8) + Data(count: 4096) }
        try expectRebuilt("corrupt: not a placedb index file", "garbage")
        try rewrite { $0 = $0.prefix(10) }
        try expectRebuilt("corrupt: 10 bytes", "short")
    }

    @Test(
        "a file of another format version is not read: the previous one (2: 64-byte nodes), a later one",
        arguments: [UInt64(2), 99])
    func otherFormat(version: UInt64) throws {
        _ = try reader().loadSpatialIndex()
        try rewrite { data in
            data.withUnsafeMutableBytes { p in
                p.storeBytes(of: version.littleEndian, toByteOffset: 8, as: UInt64.self)
                let sum = StoredIndex.checksum(
                    UnsafeRawBufferPointer(rebasing: p[0..<(StoredIndex.headerWords - 1) * 8]))
                p.storeBytes(of: sum.littleEndian, toByteOffset: (StoredIndex.headerWords - 1) * 8, as: UInt64.self)
            }
        }
        try expectRebuilt(
            "written by another placedb: format \(version), this placedb reads \(StoredIndex.formatVersion)",
            "format \(version)")
    }

    @Test("a file checked once is recorded as checked; a write to it after that is found all the same")
    func checkedRecord() throws {
        let r = try reader()
        _ = try r.loadSpatialIndex()
        let expected = StoredIndex.Expectation(
            marker: try #require(try r.engine.store.indexMarker()), view: .merged, model: r.engine.model)
        let record = StoredIndex.checkedPath(indexPath)
        // A file changed in the last hour is not recorded: a change within
        // the clock's granularity could leave the same times.
        let young = try StoredIndex.load(indexPath, expected: expected, check: .unlessRecorded(settled: 3600)).get()
        #expect(young.sectionsChecked)
        #expect(!FileManager.default.fileExists(atPath: record))

        // This process checked that mapping: it records it, reading nothing.
        let first = try StoredIndex.load(indexPath, expected: expected, check: .unlessRecorded(settled: 0)).get()
        #expect(!first.sectionsChecked)
        #expect(FileManager.default.fileExists(atPath: record))
        #expect(first.file === young.file)
        let second = try StoredIndex.load(indexPath, expected: expected, check: .unlessRecorded(settled: 0)).get()
        #expect(!second.sectionsChecked)
        #expect(try answers(try reader()) == answers(try reader(stores: false)))
        // The automatic mode maps a recorded file at its first query: there
        // is nothing to check.
        let auto = try PlaceReader(databasePath: db, spatialIndex: .automatic)
        _ = try auto.searchNearbyJSON(NearbySearchRequest(center: Self.queries[0], radiusMeters: 500))
        let stats = try #require(auto.spatialIndexStatistics)
        #expect(stats.mapped, "\(stats.storedIndex)")
        #expect(stats.storedIndex.hasSuffix("(checked before, unchanged since)"), "\(stats.storedIndex)")

        // One byte of the first section changed in place: same inode, same
        // size, a new change time.
        let words = try header()
        let section = 0
        let offset = Int(words[StoredIndex.fixedWords + 3 * section]) + 3
        try rewrite { $0[offset] ^= 0x20 }
        let damaged = StoredIndex.load(indexPath, expected: expected, check: .unlessRecorded(settled: 0))
        guard case .failure(.corrupt(let why)) = damaged else {
            Issue.record("a damaged file was answered from: \(damaged)")
            return
        }
        #expect(why == "checksum of section \(StoredIndex.sectionNames[section])")
        // A new index drops the old record.
        try expectRebuilt("corrupt: checksum of section", "after a record")
        #expect(!FileManager.default.fileExists(atPath: record))
    }

    @Test("over the resident limit, the index's pages are released, and the answers stay the same")
    func residentPagesBounded() throws {
        _ = try reader().loadSpatialIndex()
        let r = try reader()
        let stats = try r.loadSpatialIndex()
        #expect(stats.mapped, "\(stats.storedIndex)")
        let before = try answers(r)
        // Below any count (the count is the whole process's, which other
        // tests running beside this one change): released at every check.
        r.engine.residentFileLimit = -(1 << 50)
        #expect((MappedFile.residentFileBytes() ?? 0) > 0)
        var g = TestRandom(seed: 1024)
        for _ in 0..<(2 * SpatialEngine.residentCheckInterval + 10) {
            let q = Coordinate(
                latitude: 46.52 + Double.random(in: -0.01...0.01, using: &g),
                longitude: 6.63 + Double.random(in: -0.01...0.01, using: &g))
            _ = try r.searchNearbyJSON(NearbySearchRequest(center: q, maxResultCount: 5))
        }
        // Each release runs on a thread of its own; a check while one runs
        // starts none.
        #expect(r.engine.releases >= 1)
        #expect(try answers(r) == before)
        // While the releasing thread is at work and the process is over the
        // limit by more than a quarter, the query's own thread releases a
        // stretch (and no thread is started).
        let mapping = try #require(r.engine.full?.mapping)
        let (releases, catchUps) = (r.engine.releases, r.engine.catchUps)
        try mapping.whileReleasing {
            for _ in 0..<(2 * SpatialEngine.residentCheckInterval) {
                _ = try r.searchNearbyJSON(NearbySearchRequest(center: Self.queries[1], maxResultCount: 5))
            }
        }
        #expect(r.engine.catchUps == catchUps + 2)
        #expect(r.engine.releases == releases)
        #expect(try answers(r) == before)
        // With no limit (the default), nothing is released.
        let kept = try reader()
        _ = try kept.loadSpatialIndex()
        for _ in 0..<(SpatialEngine.residentCheckInterval + 10) {
            _ = try kept.searchNearbyJSON(NearbySearchRequest(center: Self.queries[0], maxResultCount: 5))
        }
        #expect(kept.engine.releases == 0 && kept.engine.catchUps == 0)
        // The readers of one file in a process share its mapping: its
        // pages count once.
        let a = try #require(kept.engine.full?.mapping), b = try #require(r.engine.full?.mapping)
        #expect(a === b)
    }

    @Test("a database without footprints maps too: an empty section's checksum does not depend on its address")
    func emptySections() throws {
        let plain = dir.file("points.sqlite")
        _ = try PlaceImporter(databasePath: plain).importInput(
            .file(
                try dir.write(
                    "points.geojson",
                    #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[6.63,46.52]},"properties":{"name":"A"}}"#
                        + "\n")))
        let first = try PlaceReader(databasePath: plain, spatialIndex: .memory)
        #expect(try first.loadSpatialIndex().storedIndex.hasPrefix("built; stored at"))
        let second = try PlaceReader(databasePath: plain, spatialIndex: .memory)
        let stats = try second.loadSpatialIndex()
        #expect(stats.mapped, "\(stats.storedIndex)")
        #expect(second.engine.full?.index.shapes.count == 0)
        let none = UnsafeRawBufferPointer(start: nil, count: 0)
        let empty = [UInt8](repeating: 7, count: 8).withUnsafeBytes {
            StoredIndex.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<0]))
        }
        #expect(StoredIndex.checksum(none) == empty)
    }

    @Test(
        "a mask of only id and name writes, without reading documents, what the typed answer writes",
        arguments: ["id", "name", "id,name", "name,id,displayName"])
    func idOnlyNearby(mask: String) throws {
        let r = try reader(stores: false)
        let fields = try FieldMask(parsing: mask)
        let time = HoursQueryTime.instant(Date(timeIntervalSince1970: 1_750_000_000))
        var compared = 0
        for q in Self.queries {
            let request = NearbySearchRequest(center: q, radiusMeters: 2000, maxResultCount: 12)
            let typed: [JSONValue] = try r.searchNearby(request, fields: fields, at: time).map { p in
                var o = p.place.apiJSON(fields: fields)
                o["distanceMeters"] = .double((p.distanceMeters * 100).rounded() / 100)
                return .object(o)
            }
            var want: [UInt8] = []
            JSONWriter().write(typed.isEmpty ? [:] : ["places": .array(typed)], into: &want)
            let got = try r.searchNearbyJSON(request, fields: fields, at: time)
            #expect(String(decoding: got, as: UTF8.self) == String(decoding: want, as: UTF8.self), "\(q)")
            compared += typed.count
        }
        #expect(compared > 20)
    }

    @Test(
        "current place: a mask of only id and name writes, from the index's IDs, what the typed answer writes",
        arguments: ["id", "name", "id,name", "name,id,displayName"])
    func idOnlyCurrent(mask: String) throws {
        let fields = try FieldMask(parsing: mask)
        var compared = 0, fromIDs = 0
        for view in [RecordView.merged, .unmerged] {
            for stores in [false, true] {
                let r = try reader(stores: stores, view: view)
                for q in Self.queries {
                    for accuracy in [5.0, 40.0, 3000.0] {
                        let request = CurrentPlaceRequest(location: q, accuracyMeters: accuracy, maxResultCount: 7)
                        let typed = try r.findPlaceLikelihoods(request, fields: fields)
                        var want: [UInt8] = []
                        JSONWriter().write(
                            .object(r.currentPlaceJSON(typed, fields: fields, accuracyMeters: nil)), into: &want)
                        let got = try r.findPlaceLikelihoodsJSON(request, fields: fields)
                        #expect(
                            String(decoding: got, as: UTF8.self) == String(decoding: want, as: UTF8.self),
                            "\(q) \(accuracy) \(view) \(stores)")
                        compared += typed.placeLikelihoods.count
                        if r.engine.full?.index.holdsIDs == true { fromIDs += typed.placeLikelihoods.count }
                    }
                }
            }
        }
        #expect(compared > 40)
        #expect(fromIDs > 20, "the index held the IDs for some answers")
    }

    @Test("the checksum read in pieces from the file equals the checksum of the bytes at once")
    func checksumInPieces() throws {
        var g = TestRandom(seed: 44)
        let bytes = (0..<(3 << 20) + 77).map { _ in UInt8.random(in: 0...255, using: &g) }
        let path = try dir.write("bytes.bin", bytes: bytes)
        let file = try #require(MappedFile.open(path))
        for (offset, length) in [(0, bytes.count), (64, (1 << 20) + 5), (128, 31), (192, 0), (1 << 20, 2 << 20)] {
            let want = bytes.withUnsafeBytes {
                StoredIndex.checksum(UnsafeRawBufferPointer(rebasing: $0[offset..<offset + length]))
            }
            #expect(file.checksum(offset: offset, length: length) == want, "\(offset) \(length)")
        }
        #expect(file.checksum(offset: bytes.count - 10, length: 20) == nil)
        // Populated on a thread of its own, and released a window at a time,
        // round the file: the bytes read the same during and after.
        file.populateInBackground()
        file.populateInBackground()
        for _ in 0..<5 { file.releaseWindow(1 << 20) }
        #expect(file.checksum(offset: 0, length: bytes.count) == bytes.withUnsafeBytes { StoredIndex.checksum($0) })
    }

    @Test("a release is as long as the excess's share of the file, at least a window, at most the file")
    func releaseLengthFollowsTheExcess() {
        let gib: Int64 = 1 << 30
        let file = 10 << 30, window = 64 << 20
        // Twice the target: half of the file.
        #expect(MappedFile.releaseLength(fileBytes: file, resident: 2 * gib, target: gib, window: window) == file / 2)
        // Just over: at least a window.
        #expect(MappedFile.releaseLength(fileBytes: file, resident: gib + 1, target: gib, window: window) == window)
        // Not over: a window (a caller that asks anyway); never past the file.
        #expect(MappedFile.releaseLength(fileBytes: file, resident: gib, target: 2 * gib, window: window) == window)
        #expect(MappedFile.releaseLength(fileBytes: 1 << 20, resident: 2 * gib, target: gib, window: window) == 1 << 20)
        #expect(MappedFile.releaseLength(fileBytes: file, resident: 4 * gib, target: 0, window: window) == file)
        // Grows with the excess.
        var last = 0
        let step: Int64 = gib / 2
        for k in Int64(2)...16 {
            let resident: Int64 = gib + gib / 8 + (k - 2) * step
            let length = MappedFile.releaseLength(fileBytes: file, resident: resident, target: gib, window: window)
            #expect(length >= last && length >= window && length <= file)
            last = length
        }
    }

    @Test("a release that runs past the file's end goes on from its start, and the bytes read the same")
    func releaseWrapsRound() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let bytes = (0..<(16 * page)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try dir.write("wrap.bin", bytes: bytes)
        let file = try #require(MappedFile.open(path))
        let sum = bytes.withUnsafeBytes { StoredIndex.checksum($0) }
        #expect(file.checksum(offset: 0, length: bytes.count) == sum)
        // 12 pages, then 12 more: the second runs past the end and goes on
        // from the start, to page 8.
        file.releaseWindow(12 * page)
        #expect(file.releaseCursor == 12 * page)
        file.releaseWindow(12 * page)
        #expect(file.releaseCursor == 8 * page)
        #expect(file.checksum(offset: 0, length: bytes.count) == sum)
        // Longer than the file, or negative: clamped, no crash.
        file.releaseWindow(100 * page)
        #expect(file.releaseCursor == 8 * page)
        file.releaseWindow(-5)
        #expect(file.releaseCursor == 8 * page)
        #expect(file.checksum(offset: 0, length: bytes.count) == sum)
    }

    @Test(
        "the mapping asks for 2 MiB pages (MADV_HUGEPAGE: VmFlags hg), where the kernel has them",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled"),
            "this kernel has no transparent huge pages"))
    func hugePagesAsked() throws {
        let path = try dir.write("pages.bin", bytes: [UInt8](repeating: 7, count: 4 << 20))
        let file = try #require(MappedFile.open(path))
        let start = UInt(bitPattern: file.bytes.baseAddress)
        // The mapping's entry in /proc/self/smaps: its range, then its flags.
        // (Read to its end: String(contentsOfFile:) stops at procfs's first page.)
        let smaps = String(
            decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps")).readToEnd() ?? Data(),
            as: UTF8.self)
        var inMapping = false
        var flags: [Substring]?
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
                let low = UInt(line[..<dash], radix: 16),
                let high = UInt(line[line.index(after: dash)..<space], radix: 16)
            {
                inMapping = low <= start && start < high
            } else if inMapping, line.hasPrefix("VmFlags:") {
                flags = line.dropFirst("VmFlags:".count).split(separator: " ")
                break
            }
        }
        let found = try #require(flags, "no smaps entry for the mapping")
        #expect(found.contains("hg"), "\(found)")
        #expect(found.contains("ms"), "a shared mapping of the file: \(found)")
    }

    @Test(
        "under a resident limit the automatic mode builds no index: a missing or stale file is said once, the database answers, and the file is mapped once current"
    )
    func limitedBuildsNone() throws {
        let expected = try answers(reader(stores: false))
        let auto = try PlaceReader(databasePath: db, spatialIndex: .automatic)
        auto.engine.residentFileLimit = 1 << 30
        let said = Mutex<[String]>([])
        auto.engine.reportStoredIndexProblem = { line in said.withLock { $0.append(line) } }
        // Said at the first query, before the queries cost a build.
        _ = try auto.searchNearbyJSON(NearbySearchRequest(center: Self.queries[0], radiusMeters: 500))
        #expect(said.withLock { $0.count } == 1)
        #expect(auto.engine.buildsRefused == 0)
        // As if the database's queries had cost what a build would.
        auto.engine.charge(1e9)
        #expect(try answers(auto) == expected)
        // (Looked at again after each build's worth of query time: at 400
        // places, about every query.)
        let refused = auto.engine.buildsRefused
        #expect(refused >= 1)
        #expect(auto.spatialIndexStatistics == nil)
        #expect(!FileManager.default.fileExists(atPath: indexPath))
        auto.engine.charge(1e9)
        _ = try answers(auto)
        #expect(auto.engine.buildsRefused > refused)
        let refusedBefore = auto.engine.buildsRefused
        let lines = said.withLock { $0 }
        #expect(lines.count == 1, "said once: \(lines)")
        #expect(lines.first?.contains("\(indexPath) is not usable (no stored index)") == true)
        #expect(lines.first?.contains("placedb spatial-index build") == true)
        // Written meanwhile (placedb spatial-index build): mapped.
        _ = try reader().loadSpatialIndex()
        auto.engine.charge(1e9)
        #expect(try answers(auto) == expected)
        #expect(auto.spatialIndexStatistics?.mapped == true)
        #expect(auto.engine.buildsRefused == refusedBefore)
        // Without a limit the automatic mode builds.
        try FileManager.default.removeItem(atPath: indexPath)
        let unlimited = try PlaceReader(databasePath: db, spatialIndex: .automatic)
        unlimited.engine.charge(1e9)
        #expect(try answers(unlimited) == expected)
        #expect(unlimited.spatialIndexStatistics?.mapped == false)
        #expect(unlimited.engine.buildsRefused == 0)
    }

    @Test(
        "without a limit a long build goes to a thread of its own: the query that starts it is answered from the database, then the file, written and checked, is mapped"
    )
    func backgroundBuild() throws {
        let expected = try answers(reader(stores: false))
        let auto = try PlaceReader(databasePath: db, spatialIndex: .automatic)
        // 400 places: as if the build took minutes.
        auto.engine.backgroundBuildSeconds = 0
        auto.engine.charge(1e9)
        let first = try auto.searchNearbyJSON(
            NearbySearchRequest(center: Self.queries[0], radiusMeters: 2000, maxResultCount: 15))
        #expect(auto.spatialIndexStatistics == nil, "answered from the database")
        #expect(first == expected[0])
        SpatialEngine.waitForBackgroundBuild(indexPath)
        #expect(FileManager.default.fileExists(atPath: indexPath))
        #expect(FileManager.default.fileExists(atPath: StoredIndex.checkedPath(indexPath)))
        auto.engine.charge(1e9)
        #expect(try answers(auto) == expected)
        let stats = try #require(auto.spatialIndexStatistics)
        #expect(stats.mapped)
        #expect(stats.storedIndex.hasSuffix("(checked before, unchanged since)"), "\(stats.storedIndex)")
    }

    @Test(
        "a build waits for the lock another process's build holds (flock on PATH.lock), then maps the file it finds current"
    )
    func buildLockAcrossProcesses() throws {
        // Another process's build: the lock taken through a descriptor of
        // its own, and the file written while it is held.
        let fd = open(indexPath + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        #expect(flock(fd, LOCK_EX) == 0)
        let waiting = try reader()
        let stats = Mutex<SpatialIndexStatistics?>(nil)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let r = waiting
        Thread {
            stats.withLock { $0 = try? r.loadSpatialIndex() }
            done.signal()
        }.start()
        let waited = done.wait(timeout: .now() + 0.5) == .timedOut
        #expect(waited, "the reader did not wait for the lock")
        // Written as the other process would (a reader that stores would
        // wait for the lock too): an index built apart, then the file.
        let built = try reader(stores: false)
        _ = try built.loadSpatialIndex()
        let expectation = StoredIndex.Expectation(
            marker: try #require(try built.store.indexMarker()), view: .merged, model: built.likelihoodModel)
        try StoredIndex.write(try #require(built.engine.full).index, expectation: expectation, to: indexPath)
        close(fd)
        if waited { done.wait() }
        let s = try #require(stats.withLock { $0 })
        #expect(s.mapped, "\(s.storedIndex)")
    }

    @Test(
        "two readers of one process that need a missing index together: one builds, the other waits and maps its file")
    func oneBuildAtATime() throws {
        let first = try reader(), second = try reader()
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        first.engine.whileLoading = {
            holding.signal()
            release.wait()
        }
        let firstStats = Mutex<SpatialIndexStatistics?>(nil)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let firstReader = first
        Thread {
            firstStats.withLock { $0 = try? firstReader.loadSpatialIndex() }
            done.signal()
        }.start()
        holding.wait()
        // The first holds the file's lock: the second waits for it.
        let secondStats = Mutex<SpatialIndexStatistics?>(nil)
        let secondDone = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let secondReader = second
        Thread {
            secondStats.withLock { $0 = try? secondReader.loadSpatialIndex() }
            secondDone.signal()
        }.start()
        let waited = secondDone.wait(timeout: .now() + 0.5) == .timedOut
        #expect(waited, "the second reader did not wait for the first's build")
        release.signal()
        done.wait()
        if waited { secondDone.wait() }
        let a = try #require(firstStats.withLock { $0 }), b = try #require(secondStats.withLock { $0 })
        #expect(!a.mapped && a.storedIndex.hasPrefix("built"))
        #expect(b.mapped, "\(b.storedIndex)")
        #expect(try answers(first) == answers(second))
    }

    @Test("automatic mode maps a current file at its first query; the database mode never opens it")
    func automaticMaps() throws {
        _ = try reader().loadSpatialIndex()
        let auto = try PlaceReader(databasePath: db, spatialIndex: .automatic)
        _ = try auto.searchNearbyJSON(NearbySearchRequest(center: Self.queries[0], radiusMeters: 500))
        _ = try auto.searchNearbyJSON(NearbySearchRequest(center: Self.queries[1], radiusMeters: 500))
        let stats = try #require(auto.spatialIndexStatistics)
        #expect(stats.mapped)
        let regional = try PlaceReader(databasePath: db, spatialIndex: .database)
        _ = try regional.searchNearbyJSON(NearbySearchRequest(center: Self.queries[0], radiusMeters: 500))
        #expect(regional.spatialIndexStatistics == nil)
    }
}
