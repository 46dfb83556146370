/// What a placedb database holds (`placedb info`): counts, runs, aliases,
/// sizes, the schema version and the extent.
public struct DatabaseInfo: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        public let name: String
        public let count: Int

        package init(name: String, count: Int) {
            self.name = name
            self.count = count
        }
    }

    /// One import run (or snapshot completion).
    public struct Run: Sendable, Equatable {
        public let id: Int
        public let input: String
        public let format: String?
        public let source: String?
        public let snapshot: String?
        public let status: String
        public let startedAt: String
        public let finishedAt: String?
        public let records: Int
        public let inserted: Int
        public let updated: Int
        public let removed: Int

        package init(
            id: Int, input: String, format: String?, source: String?, snapshot: String?, status: String,
            startedAt: String,
            finishedAt: String?, records: Int, inserted: Int, updated: Int, removed: Int
        ) {
            self.id = id
            self.input = input
            self.format = format
            self.source = source
            self.snapshot = snapshot
            self.status = status
            self.startedAt = startedAt
            self.finishedAt = finishedAt
            self.records = records
            self.inserted = inserted
            self.updated = updated
            self.removed = removed
        }
    }

    /// Bytes on disk of one table or index (SQLite's dbstat).
    public struct Size: Sendable, Equatable {
        public let name: String
        public let bytes: Int

        package init(name: String, bytes: Int) {
            self.name = name
            self.bytes = bytes
        }
    }

    public var path = ""
    public var fileBytes = 0
    public var schemaVersion = 0
    public var places = 0
    public var livePlaces = 0
    public var removedPlaces = 0
    /// Live places by source, by primary type, by businessStatus (places
    /// without one under "(none)").
    public var bySource: [Count] = []
    public var byType: [Count] = []
    public var byStatus: [Count] = []
    /// Removed places (tombstones) by source.
    public var removedBySource: [Count] = []
    public var aliases = 0
    public var aliasesByReason: [Count] = []
    public var runs: [Run] = []
    /// Snapshot sources and the time of their last completed import.
    public var snapshots: [(source: String, runs: Int, lastAt: String)] = []
    /// Tables and indexes by size, largest first; nil when this SQLite has
    /// no dbstat table, or they were not asked for (`sizesMeasured`).
    public var sizes: [Size]?
    /// Whether the sizes were asked for (`dbstat` reads every page of the
    /// file; `placedb info` asks in a file of at most 1 GiB, or with --sizes).
    public var sizesMeasured = true
    /// The live places' extent (west, south, east, north), nil when none.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)?
    /// The database has the text index (search, autocomplete): false when
    /// it was imported without one (`ImportOptions.textIndex`).
    public var textIndex = true
    /// The text index's stored counts of common words and prefixes
    /// (`placedb text-index analyze`): `current`, `stale` (the index
    /// changed since: queries count them) or `none` (never analyzed); nil
    /// without a text index.
    public var textCounts: String?
    /// The text index's stored word lists beside the database (`placedb
    /// text-index lists`): their path, their state (`current`, `stale`:
    /// the index changed since, or another placedb wrote them; `damaged`)
    /// and why they are not current; nil where there is no such file.
    public var wordLists: (path: String, state: String, reason: String?)?
    /// The spatial index file beside the database (docs/spatial-index.md):
    /// its path, its state (`current`, `missing`, `stale`, `other-format`,
    /// `corrupt`) and why it is not current; nil where none is kept (an
    /// in-memory database).
    public var spatialIndex: (path: String, state: String, reason: String?)?

    public init() {}

    public static func == (a: DatabaseInfo, b: DatabaseInfo) -> Bool {
        a.json == b.json
    }

    /// The JSON `placedb info --output json` prints.
    public var json: JSONValue {
        func counts(_ list: [Count]) -> JSONValue {
            .object(JSONObject(list.map { ($0.name, JSONValue.int(Int64($0.count))) }))
        }
        var o = JSONObject()
        o["path"] = .string(path)
        o["fileBytes"] = .int(Int64(fileBytes))
        o["schemaVersion"] = .int(Int64(schemaVersion))
        o["textIndex"] = .bool(textIndex)
        if let textCounts { o["textCounts"] = .string(textCounts) }
        if let w = wordLists {
            var i = JSONObject()
            i["path"] = .string(w.path)
            i["state"] = .string(w.state)
            if let reason = w.reason { i["reason"] = .string(reason) }
            o["wordLists"] = .object(i)
        }
        if let s = spatialIndex {
            var i = JSONObject()
            i["path"] = .string(s.path)
            i["state"] = .string(s.state)
            if let reason = s.reason { i["reason"] = .string(reason) }
            o["spatialIndex"] = .object(i)
        }
        o["places"] = [
            "total": .int(Int64(places)), "live": .int(Int64(livePlaces)), "removed": .int(Int64(removedPlaces)),
        ]
        o["bySource"] = counts(bySource)
        o["byType"] = counts(byType)
        o["byBusinessStatus"] = counts(byStatus)
        o["removedBySource"] = counts(removedBySource)
        o["aliases"] = ["total": .int(Int64(aliases)), "byReason": counts(aliasesByReason)]
        o["snapshots"] = .array(
            snapshots.map {
                ["source": .string($0.source), "runs": .int(Int64($0.runs)), "lastAt": .string($0.lastAt)]
            })
        o["runs"] = .array(
            runs.map { r in
                var j = JSONObject()
                j["id"] = .int(Int64(r.id))
                j["input"] = .string(r.input)
                if let f = r.format { j["format"] = .string(f) }
                if let s = r.source { j["source"] = .string(s) }
                if let s = r.snapshot { j["snapshot"] = .string(s) }
                j["status"] = .string(r.status)
                j["startedAt"] = .string(r.startedAt)
                if let f = r.finishedAt { j["finishedAt"] = .string(f) }
                j["records"] = .int(Int64(r.records))
                j["inserted"] = .int(Int64(r.inserted))
                j["updated"] = .int(Int64(r.updated))
                j["removed"] = .int(Int64(r.removed))
                return .object(j)
            })
        if let sizes {
            o["sizes"] = .object(JSONObject(sizes.map { ($0.name, JSONValue.int(Int64($0.bytes))) }))
        }
        if !sizesMeasured { o["sizesMeasured"] = .bool(false) }
        if let b = boundingBox {
            o["boundingBox"] = [
                "west": .double(b.west), "south": .double(b.south), "east": .double(b.east), "north": .double(b.north),
            ]
        }
        return .object(o)
    }
}
