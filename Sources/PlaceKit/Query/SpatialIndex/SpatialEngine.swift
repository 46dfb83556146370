import Foundation
package import PlaceModel
package import PlaceStorage
import Synchronization

/// The state behind `PlaceReader`'s spatial queries: the in-memory index
/// when loaded, the time spent on regional queries, the model.
package final class SpatialEngine {
    package let store: PlaceStore
    package var mode: SpatialIndexMode = .automatic
    package var model = LikelihoodModel() {
        didSet { full = nil }
    }
    /// The whole database in memory, with the data version it was read at.
    package private(set) var full: LoadedIndex?
    private var dataVersion: Int64?
    private var regionalSeconds = 0.0
    private var estimatedLoadSeconds: Double?
    /// Whether the index is kept in a file beside the database (mapped
    /// when current, written after a build). On by default for a database
    /// file; off for tests that want the build itself.
    package var storesIndex = true
    /// Told, in one line, when a stored index was damaged or written by
    /// another placedb (and so built again): the CLI warns, the server logs.
    /// Not told of a missing or stale file, the usual state after an import,
    /// unless a resident limit keeps it from being built (`refusedBuild`).
    package var reportStoredIndexProblem: ((String) -> Void)?

    package struct LoadedIndex {
        package let index: PlaceIndex
        package let tables: ModelTables
        package let statistics: SpatialIndexStatistics
        /// The stored index file the columns are mapped from, if they are.
        let mapping: MappedFile?
    }

    /// How many bytes of resident file pages (the index's and the
    /// database's, read through their maps) the process may gain after the
    /// index was mapped before the index's pages are released; nil:
    /// `PlaceStore.indexResidentBytes` (`PLACEDB_INDEX_MB`; no limit when
    /// unset).
    package var residentFileLimit: Int64?
    private var residentLimitInEffect: Int64? { residentFileLimit ?? PlaceStore.indexResidentBytes }
    /// How many times the index's pages were released (for tests and reports).
    package private(set) var releases = 0
    /// How many times a query's thread released a stretch itself, the
    /// releasing thread being behind (for tests and reports).
    package private(set) var catchUps = 0
    private var queriesSinceResidentCheck = 0
    /// The process's resident file-backed bytes when the index was mapped.
    private var residentFileBaseline: Int64 = 0
    /// (16: a query may map up to 64 KiB around each page it touches, and
    /// with 128 between checks a server at 100 million places held twice
    /// its limit of 1 GiB.)
    static let residentCheckInterval = 16
    /// The least of the index's mapping released at a time (going round
    /// it) until the process is back under nine tenths of the limit; more
    /// the further the process is over it (`MappedFile.releaseLength`).
    /// The releases run on a thread of their own: no query waits while
    /// page tables are cleared.
    static let releaseWindowBytes = 64 << 20
    /// The most a query's thread releases itself when the process is over
    /// the limit by a quarter and the releasing thread is still at work
    /// (a stall of a few milliseconds for that query's event loop).
    static let catchUpBytes = 512 << 20

    package init(store: PlaceStore) {
        self.store = store
    }

    /// Drops a cached index when another connection changed the database.
    private func checkFreshness() throws {
        let version = try store.dataVersion()
        if let dataVersion, dataVersion != version {
            full = nil
            estimatedLoadSeconds = nil
        }
        dataVersion = version
    }

    /// The index to answer from: the full one (loading it if the mode says
    /// so), or nil for a regional query.
    package func indexForQuery() throws -> LoadedIndex? {
        try checkFreshness()
        if let full {
            boundResidentPages(full)
            return full
        }
        switch mode {
        case .database: return nil
        case .memory: return try loadFull()
        case .automatic:
            if estimatedLoadSeconds == nil {
                if let bytes = try storedIndexBytesToCheck() {
                    // Mapping costs the checksums, a few GB/s (measured at
                    // 1M), or nothing when they were checked before.
                    estimatedLoadSeconds = Double(bytes) * 3e-10
                } else {
                    // About a microsecond per place (measured at 1M).
                    estimatedLoadSeconds = Double(try store.maxRowid()) * 1.0e-6
                    // Under a limit nothing will be built: said at once,
                    // not after a build's worth of slower answers (at 100
                    // million places, minutes of them).
                    if let problem = try refusedBuild() {
                        Self.reportOnce(storedIndexPath ?? "", problem) { line in reportStoredIndexProblem?(line) }
                    }
                }
            }
            guard regionalSeconds >= estimatedLoadSeconds! else { return nil }
            if let problem = try refusedBuild() {
                // Looked at again once the database's queries have cost as
                // much again (a `placedb spatial-index build` meanwhile is
                // then mapped).
                buildsRefused += 1
                regionalSeconds = 0
                estimatedLoadSeconds = nil
                Self.reportOnce(storedIndexPath ?? "", problem) { line in reportStoredIndexProblem?(line) }
                return nil
            }
            if try buildsInBackground() {
                regionalSeconds = 0
                estimatedLoadSeconds = nil
                return nil
            }
            return try loadFull()
        }
    }

    /// The estimated build (a microsecond a place) from which the automatic
    /// mode builds a missing or stale file on a thread of its own.
    package var backgroundBuildSeconds = 1.0

    /// Whether the file must be built and the build is long enough to go to
    /// a thread of its own (started here, once per file in a process): the
    /// queries are answered from the database meanwhile, and once the file
    /// is written and its checksums read, the next query that looks maps
    /// it. At 100 million places a build takes minutes: a server would
    /// otherwise hold the request that started it (and its connection's
    /// next ones) for all of them. A build that failed (a directory placedb
    /// cannot write to) is not tried again there: the index is then built
    /// in memory by the query, as before.
    private func buildsInBackground() throws -> Bool {
        guard let path = storedIndexPath, let expectation = try storedIndexExpectation(),
            StoredIndex.headerStatus(path, expected: expectation) != nil,
            Double(try store.maxRowid()) * 1.0e-6 >= backgroundBuildSeconds
        else { return false }
        return Self.startBuild(path: path, database: store.path, view: store.recordView, model: model)
    }

    private enum BackgroundBuild {
        case running(DispatchGroup)
        case failed
    }

    private static let backgroundBuilds = Mutex<[String: BackgroundBuild]>([:])

    /// Starts the build of the file at `path` on a thread of its own unless
    /// one runs; false when one failed before.
    private static func startBuild(path: String, database: String, view: RecordView, model: LikelihoodModel) -> Bool {
        let group = DispatchGroup()
        let started: Bool? = backgroundBuilds.withLock { builds in
            switch builds[path] {
            case .failed: return nil
            case .running: return false
            case nil:
                builds[path] = .running(group)
                group.enter()
                return true
            }
        }
        guard let started else { return false }
        guard started else { return true }
        Thread {
            var ok = false
            defer {
                backgroundBuilds.withLock { $0[path] = ok ? nil : .failed }
                group.leave()
            }
            func load() throws -> Bool {
                let reader = try PlaceReader(databasePath: database, spatialIndex: .memory, recordView: view)
                reader.likelihoodModel = model
                _ = try reader.loadSpatialIndex()
                return try reader.storedSpatialIndexStatus()?.problem == nil
            }
            // Built and written; then, once the file's last change is more
            // than a second old, read again to check it and record that,
            // so that the readers that map it read no checksum.
            guard (try? load()) == true else { return }
            Thread.sleep(forTimeInterval: 1.1)
            ok = (try? load()) == true
        }.start()
        return true
    }

    /// Waits for the build of `path` started on a thread of its own, if one
    /// runs (tests).
    package static func waitForBackgroundBuild(_ path: String) {
        let running: DispatchGroup? = backgroundBuilds.withLock {
            if case .running(let group) = $0[path] { return group }
            return nil
        }
        running?.wait()
    }

    /// Called by `loadFull` while it holds the file's lock (tests).
    package var whileLoading: (() -> Void)?
    /// Called by `loadFull` just before it builds the index (tests).
    package var whileBuilding: (() -> Void)?

    /// How many times the automatic mode left a missing or stale stored
    /// index unbuilt under a resident limit (for tests and reports).
    package private(set) var buildsRefused = 0

    /// Under a resident limit (`PLACEDB_INDEX_MB`) the automatic mode maps
    /// a current stored index but does not build one: the build holds
    /// about one and a half times the file in memory (16 GiB at 100
    /// million places), which no such limit allows. The problem that
    /// keeps it from mapping, then, or nil when it may load.
    private func refusedBuild() throws -> StoredIndexProblem? {
        guard residentLimitInEffect != nil, let path = storedIndexPath, let expectation = try storedIndexExpectation()
        else { return nil }
        return StoredIndex.headerStatus(path, expected: expectation)
    }

    /// The paths whose refused build was reported (once per process each).
    private static let reported = Mutex<Set<String>>([])

    private static func reportOnce(_ path: String, _ problem: StoredIndexProblem, _ report: (String) -> Void) {
        guard reported.withLock({ $0.insert(path).inserted }) else { return }
        report(
            "the stored spatial index \(path) is not usable (\(problem)); under PLACEDB_INDEX_MB it is not built here "
                + "(a build holds about 1.5 times its size in memory): answering from the database's R*Trees until "
                + "`placedb spatial-index build` writes it")
    }

    /// Every `residentCheckInterval` queries: when the process holds more
    /// resident file pages than `residentFileLimit` above what it held when
    /// the index was mapped, stretches of the index's mapping (going round
    /// it, each as long as the excess's share of the file) are released
    /// until it is back under nine tenths of the limit, on a thread of its
    /// own (one at a time per mapping). They stay in the kernel's page
    /// cache; the next query to touch one maps it again (a minor fault), so
    /// resident memory stays bounded by the setting, not by the number of
    /// places (docs/spatial-index.md).
    private func boundResidentPages(_ loaded: LoadedIndex) {
        guard let mapping = loaded.mapping, let limit = residentLimitInEffect else { return }
        queriesSinceResidentCheck += 1
        guard queriesSinceResidentCheck >= Self.residentCheckInterval else { return }
        queriesSinceResidentCheck = 0
        guard let resident = MappedFile.residentFileBytes(), resident - residentFileBaseline > limit else { return }
        // Down to nine tenths of the limit, on a thread of its own: no
        // query waits while page tables are cleared.
        let target = residentFileBaseline + limit / 10 * 9
        if mapping.releaseInBackground(down: target, window: Self.releaseWindowBytes) {
            releases += 1
        } else if resident - residentFileBaseline > limit + limit / 4 {
            // That thread has fallen behind the queries (each page fault
            // maps the 64 KiB around the page): this query's thread
            // releases a stretch too, at most `catchUpBytes`, and so maps
            // nothing meanwhile.
            let length = MappedFile.releaseLength(
                fileBytes: mapping.bytes.count, resident: resident, target: target, window: Self.releaseWindowBytes)
            mapping.releaseWindow(min(length, Self.catchUpBytes))
            catchUps += 1
        }
    }

    /// Counts time spent answering from the database (for `automatic`).
    package func charge(_ seconds: Double) { regionalSeconds += seconds }

    /// Loads the whole index: mapped from the file beside the database
    /// when that file is whole and current, else built from the database
    /// and written there for the next process (when the directory allows).
    @discardableResult
    package func loadFull() throws -> LoadedIndex {
        if let full { return full }
        // One load or build at a time per file in a process: a server's
        // readers that need the index together wait for the first one,
        // then map the file it wrote, instead of each building (a build
        // holds about 1.5 times the file in memory).
        let lock = storedIndexPath.map(Self.loadLock)
        lock?.lock()
        defer { lock?.unlock() }
        whileLoading?()
        let started = MonotonicClock.now()
        let expectation = try storedIndexExpectation()
        var note = "not kept in a file (an in-memory database or one older than schema 16)"
        var buildLock: Int32?
        defer { if let buildLock { close(buildLock) } }
        if let expectation, let path = storedIndexPath {
            var result = StoredIndex.load(path, expected: expectation, largePages: residentLimitInEffect == nil)
            if case .failure = result, let fd = Self.lockBuilds(path) {
                // Another process may be building it (a server's thread, a
                // batch, `placedb spatial-index build`): once it is done,
                // its file is looked at again, and mapped if current.
                buildLock = fd
                result = StoredIndex.load(path, expected: expectation, largePages: residentLimitInEffect == nil)
            }
            switch result {
            case .success(let mapped):
                let index = mapped.index
                // A batch asks for the whole index: its pages are mapped
                // ahead of its queries, unless their number is limited.
                if mode == .memory, residentLimitInEffect == nil {
                    mapped.file.populateInBackground()
                }
                residentFileBaseline = MappedFile.residentFileBytes() ?? 0
                let loaded = LoadedIndex(
                    index: index, tables: ModelTables(model: model, types: index.types, sources: index.sources),
                    statistics: SpatialIndexStatistics(
                        places: index.count, bytes: index.byteCount, loadSeconds: MonotonicClock.now() - started,
                        mapped: true,
                        storedIndex: "mapped from \(path)"
                            + (mapped.sectionsChecked ? "" : " (checked before, unchanged since)")),
                    mapping: mapped.file)
                full = loaded
                return loaded
            case .failure(let problem):
                note = problem == .missing ? "built" : "built again (\(problem))"
                switch problem {
                case .corrupt, .otherFormat:
                    reportStoredIndexProblem?(
                        "the stored spatial index \(path) is \(problem); building it again from the database")
                case .missing, .stale: break
                }
                if problem != .missing {
                    // Of no use to anyone now: removed before the build, so
                    // that its disk (and page cache) is free for the new one
                    // (10 GB at 100 million places). A process that maps it
                    // keeps its pages until it unmaps them.
                    unlink(path)
                    unlink(StoredIndex.checkedPath(path))
                }
            }
        }
        whileBuilding?()
        var built = build(try store.loadAllPlaces())
        var mapping: MappedFile?
        if let expectation, let path = storedIndexPath {
            do {
                try StoredIndex.write(built.index, expectation: expectation, to: path)
                note += "; stored at \(path)"
                // Answer from the file just written, not the arrays: its
                // pages are the kernel's to keep or drop, so a long-lived
                // process holds only what its queries touch.
                if case .success(let mapped) = StoredIndex.load(
                    path, expected: expectation, check: .trusted, largePages: residentLimitInEffect == nil)
                {
                    built.index = mapped.index
                    mapping = mapped.file
                    residentFileBaseline = MappedFile.residentFileBytes() ?? 0
                    note += ", answered from it"
                }
            } catch {
                note += "; not stored: \(error)"
            }
        }
        let loaded = LoadedIndex(
            index: built.index, tables: built.tables,
            statistics: SpatialIndexStatistics(
                places: built.index.count, bytes: built.index.byteCount,
                loadSeconds: MonotonicClock.now() - started, mapped: false, storedIndex: note),
            mapping: mapping)
        full = loaded
        return loaded
    }

    /// The stored index's path, what its header says is wrong with it (nil:
    /// current) and whether its sections were recorded as checked, without
    /// mapping it; nil when the index is not kept in a file.
    package func storedIndexStatus() throws -> (path: String, problem: StoredIndexProblem?, checked: Bool)? {
        guard let path = storedIndexPath, let expectation = try storedIndexExpectation() else { return nil }
        let problem = StoredIndex.headerStatus(path, expected: expectation)
        return (path, problem, problem == nil && StoredIndex.bytesToCheck(path, expected: expectation) == 0)
    }

    /// Takes the lock that builds of the file at `path` hold across
    /// processes (`flock` on `PATH.lock`, created if need be), waiting for
    /// the build that holds it; the descriptor to close to release it, or
    /// nil where the lock file cannot be opened (a directory placedb cannot
    /// write to, where no file is written either). Two processes that find
    /// the file missing or stale then build it once, not twice at 1.5
    /// times its size in memory each.
    private static func lockBuilds(_ path: String) -> Int32? {
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(fd)
                return nil
            }
        }
        return fd
    }

    private static let loadLocks = Mutex<[String: NSLock]>([:])

    /// The lock of loads and builds of the stored index at `path`.
    private static func loadLock(_ path: String) -> NSLock {
        loadLocks.withLock { locks in
            if let lock = locks[path] { return lock }
            let lock = NSLock()
            locks[path] = lock
            return lock
        }
    }

    /// Where this database's index is stored, or nil when it is not kept.
    package var storedIndexPath: String? {
        guard storesIndex, !store.path.isEmpty, store.path != ":memory:", !store.path.hasPrefix("file:") else {
            return nil
        }
        return StoredIndex.path(for: store.path, view: store.recordView)
    }

    private func storedIndexExpectation() throws -> StoredIndex.Expectation? {
        guard storedIndexPath != nil, let marker = try store.indexMarker() else { return nil }
        return StoredIndex.Expectation(marker: marker, view: store.recordView, model: model)
    }

    /// What mapping the stored index would read (`StoredIndex.bytesToCheck`),
    /// or nil when there is no current file.
    private func storedIndexBytesToCheck() throws -> Int? {
        guard let path = storedIndexPath, let expectation = try storedIndexExpectation() else { return nil }
        return StoredIndex.bytesToCheck(path, expected: expectation)
    }

    /// Builds an index over `input` with the model's footprints. Takes the
    /// input: its arrays are freed as the index's columns are built.
    package func build(_ input: consuming PlaceIndexInput) -> (index: PlaceIndex, tables: ModelTables) {
        let tables = ModelTables(model: model, types: input.types, sources: input.sources)
        var extents: [Float] = [], footprints: [FootprintSource] = []
        extents.reserveCapacity(input.count)
        footprints.reserveCapacity(input.count)
        for i in 0..<input.count {
            let f = tables.footprint(
                model: model, type: input.typeCodes[i], status: input.statuses[i],
                latitude: input.latitudes[i], longitude: input.longitudes[i],
                viewport: input.viewportIndexes[i] < 0 ? nil : input.viewports[Int(input.viewportIndexes[i])],
                shapeReach: input.shapeIndexes[i] < 0 ? nil : input.shapes.info(Int(input.shapeIndexes[i])).reach)
            extents.append(Float(f.extent))
            footprints.append(f.from)
        }
        return (PlaceIndex(consuming: input, extents: extents, footprints: footprints), tables)
    }
}
