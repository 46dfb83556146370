import Foundation
import Testing
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage
import PlaceKitTestSupport

/// The async, Sendable client: concurrent calls give the answers of
/// sequential ones; errors are typed and speak of places, not options.
@Suite struct AsyncPlacesClientTests {
    static func database() throws -> (TempDirectory, String) {
        try placesDatabase(
            (0..<40).map { record("p\($0)", east: Double($0 % 8) * 30, north: Double($0 / 8) * 30, ratings: $0 * 13) })
    }

    /// One query of each kind, by number.
    enum Answer: Equatable, Sendable {
        case place(Place)
        case nearby([NearbyPlace])
        case likelihoods([PlaceLikelihood], none: Double)
        case resolutions([PlaceIDResolution])
    }

    static func ask(_ i: Int, _ client: PlacesClient) async throws -> Answer {
        let fix = at(east: Double(i % 9) * 25, north: Double(i % 5) * 20)
        switch i % 4 {
        case 0: return .place(try await client.fetchPlace(id: PlaceID("p\(i % 40)")))
        case 1: return .nearby(try await client.searchNearby(center: fix, radius: 80, maxResultCount: 10))
        case 2:
            let r = try await client.findPlaceLikelihoods(location: fix, accuracy: Double(5 + i % 7 * 10), limit: 20)
            return .likelihoods(r.placeLikelihoods, none: r.noneLikelihood)
        default: return .resolutions(try await client.resolvePlaceIDs([PlaceID("p\(i % 40)"), "nowhere"]))
        }
    }

    static func askSync(_ i: Int, _ client: PlaceReader) throws -> Answer {
        let fix = at(east: Double(i % 9) * 25, north: Double(i % 5) * 20)
        switch i % 4 {
        case 0: return .place(try client.fetchPlace(id: PlaceID("p\(i % 40)")))
        case 1:
            return .nearby(
                try client.searchNearby(NearbySearchRequest(center: fix, radiusMeters: 80, maxResultCount: 10)))
        case 2:
            let r = try client.findPlaceLikelihoods(location: fix, accuracy: Double(5 + i % 7 * 10), limit: 20)
            return .likelihoods(r.placeLikelihoods, none: r.noneLikelihood)
        default: return .resolutions(try client.resolvePlaceIDs([PlaceID("p\(i % 40)"), "nowhere"]))
        }
    }

    @Test("64 concurrent queries give the answers of 64 sequential ones", arguments: [1, 4])
    func concurrentEqualsSequential(readers: Int) async throws {
        let (dir, path) = try Self.database()
        _ = dir
        let sync = try PlaceReader(databasePath: path)
        let expected = try (0..<64).map { try Self.askSync($0, sync) }
        let client = try PlacesClient(databasePath: path, maxReaders: readers)
        let answers = try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            for i in 0..<64 {
                group.addTask { (i, try await Self.ask(i, client)) }
            }
            return try await group.reduce(into: [Int: Answer]()) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 64)
        for i in 0..<64 { #expect(answers[i] == expected[i], "query \(i)") }
        // The same from a detached task, sequentially.
        let again = try await Task.detached { try await Self.ask(2, client) }.value
        #expect(again == expected[2])
        if case .likelihoods(let l, _) = expected[2] {
            #expect(!l.isEmpty)
        } else {
            Issue.record("query 2 is a current-place query")
        }
    }

    /// The error `body` throws, nil when it returns.
    static func failure<T>(_ body: () async throws(PlaceDBError) -> T) async -> PlaceDBError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func errorsAreTypedAndNameNoOption() async throws {
        let (dir, path) = try Self.database()
        let client = try PlacesClient(databasePath: path, maxReaders: 2)
        let notFound = await Self.failure { () async throws(PlaceDBError) in try await client.fetchPlace(id: "nowhere")
        }
        #expect(notFound == .notFound("nowhere") && notFound?.description == "NOT_FOUND: no place with ID 'nowhere'")
        let offMap = await Self.failure { () async throws(PlaceDBError) in
            try await client.findPlaceLikelihoods(location: Coordinate(latitude: 91, longitude: 0), accuracy: 10)
        }
        #expect(
            offMap.map { if case .invalidArgument = $0 { true } else { false } } == true
                && offMap?.description.contains("91") == true)
        let noSize = await Self.failure { () async throws(PlaceDBError) in
            try await client.fetchPhoto(PhotoMetadata(name: "places/p1/photos/none"), maxWidth: 0, maxHeight: 10)
        }
        #expect(noSize.map { if case .invalidArgument = $0 { true } else { false } } == true)
        let missing = dir.file("missing.sqlite")
        let noDatabase = await Self.failure { () async throws(PlaceDBError) in try PlacesClient(databasePath: missing) }
        #expect(noDatabase == .noDatabase(path: missing) && noDatabase?.description == "\(missing): no database here")
        for e in [notFound, offMap, noSize, noDatabase] {
            #expect(e != nil)
            #expect(
                !(e?.description ?? "").contains("--") && !(e?.description ?? "").contains("placedb "),
                "\(String(describing: e))")
        }
        // A failed call leaves its connection usable.
        #expect(try await client.placeCount() == 40)
    }

    @Test func hoursAndPhotosAreAnsweredAsTheSyncClientDoes() async throws {
        let hours =
            #","regularOpeningHours":{"periods":[\#(HoursFixtures.daily("08:00", "18:00"))]},"utcOffsetMinutes":0"#
        let photo = #","photos":[{"name":"places/shop/photos/ph1","widthPx":640,"heightPx":480}]"#
        let (dir, path) = try placesDatabase([record("shop", extra: hours + photo)])
        _ = dir
        let client = try PlacesClient(databasePath: path)
        let noon = try await client.isOpen(placeID: "shop", at: HoursFixtures.at("2026-03-04T12:00:00Z"))
        let night = try await client.isOpen(placeID: "shop", at: HoursFixtures.at("2026-03-04T23:00:00Z"))
        #expect(noon.state == .open && night.state == .closed)
        let sync = try PlaceReader(databasePath: path)
        #expect(try await client.fetchPhotoMetadata(placeID: "shop") == (try sync.lookUpPhotos(placeID: "shop")))
        #expect(try await client.fetchPhotoMetadata(placeID: "shop").map(\.name) == ["places/shop/photos/ph1"])
        await #expect(throws: PlaceDBError.self) {
            _ = try await client.fetchPhoto(
                PhotoMetadata(name: "places/shop/photos/ph1"), maxWidth: 100, maxHeight: 100)
        }
    }

    @Test(
        "database info, provenance, alias edges and the current-place scene come through the client as the engine gives them"
    )
    func infoProvenanceAliasesScene() async throws {
        let (dir, path) = try Self.database()
        _ = dir
        let client = try PlacesClient(databasePath: path, maxReaders: 2)
        let sync = try PlaceReader(databasePath: path)
        let info = try await client.databaseInfo()
        #expect(info == (try sync.databaseInfo()))
        #expect(info.places == 40)
        let provenance = try await client.provenance(of: "p7")
        #expect(provenance == (try sync.provenance(of: "p7")))
        #expect(provenance.placeID == "p7" && !provenance.source.isEmpty)
        #expect(try await client.aliasEdges() == (try sync.aliasEdges()))
        let request = CurrentPlaceRequest(location: at(east: 30, north: 30), accuracyMeters: 20)
        let scene = try await client.findPlaceLikelihoodScene(request)
        let want = try sync.findPlaceLikelihoodScene(request)
        #expect(!scene.result.placeLikelihoods.isEmpty)
        #expect(scene.result.placeLikelihoods == want.result.placeLikelihoods && scene.footprints == want.footprints)
        #expect(scene.svg() == want.svg())
        let missing = await Self.failure { () async throws(PlaceDBError) in try await client.provenance(of: "nowhere") }
        guard case .notFound = missing else {
            Issue.record("provenance of an unknown ID: \(String(describing: missing))")
            return
        }
    }

    /// The server's way in: `withReader` on threads of its own, sharing the
    /// pool (and its limit) with the async calls.
    @Test("threads (withReader) and tasks share one pool of connections and its limit")
    func threadsAndTasksShareThePool() async throws {
        let (dir, path) = try Self.database()
        _ = dir
        let sync = try PlaceReader(databasePath: path)
        let expected = try (0..<64).map { try Self.askSync($0, sync) }
        let client = try PlacesClient(databasePath: path, maxReaders: 2)
        // 8 threads and 32 tasks at once: the same answers, never more than 2 connections.
        let seen = Seen()
        let threads = DispatchGroup()
        for t in 0..<8 {
            DispatchQueue.global().async(group: threads) {
                for i in stride(from: t, to: 64, by: 8) {
                    let answer = try? client.withReader { reader in
                        seen.lend(reader)
                        defer { seen.giveBack() }
                        return try Self.askSync(i, reader)
                    }
                    seen.record(i, answer)
                }
            }
        }
        let answers = try await withThrowingTaskGroup(of: (Int, Answer).self) { group in
            for i in 0..<32 { group.addTask { (i, try await Self.ask(i, client)) } }
            return try await group.reduce(into: [Int: Answer]()) { $0[$1.0] = $1.1 }
        }
        #expect(threads.wait(timeout: .now() + 60) == .success)
        for i in 0..<32 { #expect(answers[i] == expected[i], "task query \(i)") }
        for i in 0..<64 { #expect(seen.answers[i] == expected[i], "thread query \(i)") }
        #expect(seen.readers.count <= 2)
        #expect(seen.mostAtOnce <= 2)

        // With one connection: a thread holding it keeps both a task and
        // another thread waiting; both are served once it is given back.
        let one = try PlacesClient(databasePath: path, maxReaders: 1)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? one.withReader { reader in
                seen.lend(reader)
                holding.signal()
                release.wait()
                seen.giveBack()
            }
        }
        holding.wait()
        let waitingTask = Task { try await one.placeCount() }
        let waitingThread = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? one.withReader { reader in
                seen.lend(reader); seen.giveBack()
            }
            waitingThread.signal()
        }
        // Neither got a connection while it was held.
        #expect(waitingThread.wait(timeout: .now() + 0.5) == .timedOut)
        #expect(seen.lent == 1)
        release.signal()
        #expect(try await waitingTask.value == 40)
        #expect(waitingThread.wait(timeout: .now() + 30) == .success)
        #expect(seen.readers.count <= 3)
    }

    /// What the threads saw, under a lock.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var ids: Set<ObjectIdentifier> = []
        private var out = 0, most = 0
        private var byQuery: [Int: Answer] = [:]
        func lend(_ r: PlaceReader) {
            lock.withLock {
                ids.insert(ObjectIdentifier(r)); out += 1; most = max(most, out)
            }
        }
        func giveBack() { lock.withLock { out -= 1 } }
        func record(_ i: Int, _ a: Answer?) { lock.withLock { byQuery[i] = a } }
        var readers: Set<ObjectIdentifier> { lock.withLock { ids } }
        var mostAtOnce: Int { lock.withLock { most } }
        var lent: Int { lock.withLock { out } }
        var answers: [Int: Answer] { lock.withLock { byQuery } }
    }
}
