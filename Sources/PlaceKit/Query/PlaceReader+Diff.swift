package import PlaceModel
import PlaceStorage

/// One side of `PlaceReader.diff`: the state of the database after a run.
public enum DiffPoint: Sendable, Equatable {
    /// After this import run (`placedb info` lists them); 0: before any.
    /// With a snapshot, a run of one of its imports stands for the import's
    /// completion (the run that marked what it did not see as removed).
    case run(Int)
    /// After the last run (of the snapshot, when given) that started at or
    /// before this time: RFC 3339, or a date (YYYY-MM-DD: the end of that
    /// day, UTC).
    case time(String)
}

extension PlaceReader {
    /// What changed between two states of the database (`placedb diff`):
    /// places added, removed, moved (more than `movedThresholdMeters`),
    /// renamed, retyped, and re-identified (an alias edge recorded in
    /// between). With `snapshot`, only its places and runs; with no sides,
    /// its last two completed imports. Calls `change` with each change in
    /// place order (re-identifications last) and returns the counts.
    /// Throws `invalidArgument` for a run or time that does not name a state.
    package func diff(
        snapshot: String? = nil, from: DiffPoint? = nil, to: DiffPoint? = nil, movedThresholdMeters: Double = 50,
        change: (PlaceDiff.Change) throws -> Void
    ) throws -> PlaceDiff {
        guard movedThresholdMeters >= 0, movedThresholdMeters.isFinite else {
            throw PlaceDBError.invalidArgument("the moved threshold must be 0 m or more")
        }
        return try store.read {
            var diff = PlaceDiff()
            diff.snapshot = snapshot
            diff.movedThresholdMeters = movedThresholdMeters
            let (a, b) = try sides(snapshot: snapshot, from: from, to: to)
            let (runA, runB) = (try store.importRun(a), try store.importRun(b))
            diff.from = PlaceDiff.Side(run: Int(a), startedAt: runA?.startedAt, dataTime: runA?.dataTime)
            diff.to = PlaceDiff.Side(run: Int(b), startedAt: runB?.startedAt, dataTime: runB?.dataTime)
            let covered = a == 0 ? true : try store.changeLogCovers(run: a)
            diff.historyIncomplete = !covered
            diff.placesBefore = try store.livePlaces(after: a, source: snapshot)
            diff.placesAfter = try store.livePlaces(after: b, source: snapshot)

            // Alias edges recorded in between: the IDs they lead from (gone
            // since) and to (new since) are one re-identification each, not a
            // removal and an addition.
            var reidentified: [PlaceDiff.Change] = []
            var leftIDs = Set<String>(), arrivedIDs = Set<String>()
            for edge in try store.aliasesRecorded(from: a, to: b, source: snapshot) {
                let old = try store.diffStates(of: edge.aliasID, from: a, to: b)
                let new = try store.diffStates(of: edge.placeID, from: a, to: b)
                let distance = old.before?.coordinate.flatMap { p in new.after?.coordinate.map { Self.meters(p, $0) } }
                reidentified.append(
                    PlaceDiff.Change(
                        kind: .reidentified,
                        before: old.before
                            ?? PlaceDiff.State(placeID: edge.aliasID, name: nil, primaryType: nil, coordinate: nil),
                        after: new.after
                            ?? PlaceDiff.State(placeID: edge.placeID, name: nil, primaryType: nil, coordinate: nil),
                        distanceMeters: distance, reason: edge.reason, confidence: edge.confidence))
                if old.after == nil { leftIDs.insert(edge.aliasID) }
                if old.before != nil && new.before == nil { arrivedIDs.insert(edge.placeID) }
            }

            func emit(_ c: PlaceDiff.Change) throws {
                diff.counts[c.kind, default: 0] += 1
                try change(c)
            }
            try store.forEachDiffCandidate(from: a, to: b, source: snapshot) { c in
                switch (c.before, c.after) {
                case (nil, nil):
                    break
                case (nil, let after?):
                    if !arrivedIDs.contains(after.placeID) {
                        try emit(PlaceDiff.Change(kind: .added, before: nil, after: after))
                    }
                case (let before?, nil):
                    if !leftIDs.contains(before.placeID) {
                        try emit(PlaceDiff.Change(kind: .removed, before: before, after: nil))
                    }
                case (let before?, let after?):
                    let d = before.coordinate.flatMap { p in after.coordinate.map { Self.meters(p, $0) } }
                    if let d, d > movedThresholdMeters {
                        try emit(PlaceDiff.Change(kind: .moved, before: before, after: after, distanceMeters: d))
                    }
                    if before.name != after.name {
                        try emit(PlaceDiff.Change(kind: .renamed, before: before, after: after, distanceMeters: d))
                    }
                    if before.primaryType != after.primaryType {
                        try emit(PlaceDiff.Change(kind: .retyped, before: before, after: after, distanceMeters: d))
                    }
                }
            }
            for c in reidentified { try emit(c) }
            return diff
        }
    }

    private static func meters(_ p: Coordinate, _ q: Coordinate) -> Double {
        haversineMeters(p.latitude, p.longitude, q.latitude, q.longitude)
    }

    /// The two runs whose states are compared.
    private func sides(snapshot: String?, from: DiffPoint?, to: DiffPoint?) throws -> (Int64, Int64) {
        let completions = try snapshot.map { try store.snapshotCompletions($0) } ?? []
        if let snapshot, completions.isEmpty {
            throw PlaceDBError.unknownSnapshot(snapshot)
        }
        func run(_ point: DiffPoint) throws -> Int64 {
            switch point {
            case .time(let t):
                // A bare date is the end of that day.
                let time = t.count == 10 ? t + "T23:59:59.999Z" : t
                return try store.lastRun(atOrBefore: time, snapshot: snapshot)
            case .run(let n):
                guard n != 0 else { return 0 }
                guard n > 0, let r = try store.importRun(Int64(n)) else {
                    throw PlaceDBError.unknownImportRun(n)
                }
                guard let snapshot else { return r.id }
                guard r.snapshot == snapshot, let done = completions.first(where: { $0.id >= r.id }) else {
                    throw PlaceDBError.invalidArgument(
                        "run \(n) is not a completed import of snapshot '\(snapshot)' (its completions: runs \(completions.map { String($0.id) }.joined(separator: ", ")))"
                    )
                }
                return done.id
            }
        }
        let a: Int64, b: Int64
        switch (from, to) {
        case let (f?, t?):
            a = try run(f)
            b = try run(t)
        case (nil, nil):
            guard completions.count >= 2 else {
                throw snapshot == nil
                    ? PlaceDBError.noRunsToCompare
                    : PlaceDBError.invalidArgument(
                        "snapshot '\(snapshot!)' has one completed import: give the runs to compare (0 is before any)")
            }
            a = completions[completions.count - 2].id
            b = completions[completions.count - 1].id
        default:
            throw PlaceDBError.invalidArgument(
                "give both sides to compare, or neither (with a snapshot: its last two imports)")
        }
        guard a <= b else {
            throw PlaceDBError.invalidArgument(
                "the first side (run \(a)) comes after the second (run \(b)): give the earlier first")
        }
        return (a, b)
    }
}
