/// What changed between two import runs (`placedb diff`): one change per
/// place and kind, and the counts.
public struct PlaceDiff: Sendable, Equatable {
    /// A place's key fields as they stood after a run.
    public struct State: Sendable, Equatable {
        public let placeID: String
        public let name: String?
        public let primaryType: String?
        public let coordinate: Coordinate?

        package init(placeID: String, name: String?, primaryType: String?, coordinate: Coordinate?) {
            self.placeID = placeID
            self.name = name
            self.primaryType = primaryType
            self.coordinate = coordinate
        }

        var json: JSONValue {
            var o = JSONObject()
            o["id"] = .string(placeID)
            if let name { o["name"] = .string(name) }
            if let primaryType { o["primaryType"] = .string(primaryType) }
            if let c = coordinate {
                o["location"] = ["latitude": .double(c.latitude), "longitude": .double(c.longitude)]
            }
            return .object(o)
        }
    }

    public enum Kind: String, Sendable, CaseIterable {
        /// Live after the second run, not after the first (and no alias links it to a removed ID).
        case added
        /// Live after the first run, not after the second (and no alias recorded in between leads away from it).
        case removed
        /// Live after both, its point more than the threshold away.
        case moved
        /// Live after both, another name.
        case renamed
        /// Live after both, another primary type.
        case retyped
        /// An alias edge recorded between the runs: the old ID now resolves to the new one.
        case reidentified
    }

    public struct Change: Sendable, Equatable {
        public let kind: Kind
        /// The place's state after the first run (nil: not live then).
        public let before: State?
        /// After the second run (nil: not live then).
        public let after: State?
        /// Between the two points, where both are known.
        public let distanceMeters: Double?
        /// For `reidentified`: the alias edge's reason and confidence.
        public let reason: String?
        public let confidence: Double?

        package init(
            kind: Kind, before: State?, after: State?, distanceMeters: Double? = nil, reason: String? = nil,
            confidence: Double? = nil
        ) {
            self.kind = kind
            self.before = before
            self.after = after
            self.distanceMeters = distanceMeters
            self.reason = reason
            self.confidence = confidence
        }

        /// One NDJSON line of `placedb diff`.
        public var json: JSONValue {
            var o = JSONObject()
            o["change"] = .string(kind.rawValue)
            o["id"] = .string(after?.placeID ?? before?.placeID ?? "")
            if kind == .reidentified, let b = before { o["previousId"] = .string(b.placeID) }
            if let before { o["before"] = before.json }
            if let after { o["after"] = after.json }
            if let d = distanceMeters { o["distanceMeters"] = .double((d * 10).rounded() / 10) }
            if let reason { o["reason"] = .string(reason) }
            if let confidence { o["confidence"] = .double(confidence) }
            return .object(o)
        }
    }

    /// One side of the diff: the run whose state it is (0: before any run).
    public struct Side: Sendable, Equatable {
        public let run: Int
        /// When that run started (nil for 0).
        public let startedAt: String?
        /// The date of the data that run brought (a snapshot's: the newest
        /// capture time of its inputs, an OSM export's newest @timestamp),
        /// when known: when its removals and alias edges happened.
        public let dataTime: String?

        package init(run: Int, startedAt: String?, dataTime: String? = nil) {
            self.run = run
            self.startedAt = startedAt
            self.dataTime = dataTime
        }
    }

    public var snapshot: String?
    public var from = Side(run: 0, startedAt: nil)
    public var to = Side(run: 0, startedAt: nil)
    public var movedThresholdMeters = 50.0
    /// Live places after each side.
    public var placesBefore = 0, placesAfter = 0
    public var counts: [Kind: Int] = [:]
    /// The first side predates the change log (schema 10): moves, renames and
    /// retypes made before it was kept cannot be seen.
    public var historyIncomplete = false

    public init() {}

    /// The summary `placedb diff --output json` prints.
    public var summaryJSON: JSONValue {
        func side(_ s: Side) -> JSONValue {
            var o = JSONObject()
            o["run"] = .int(Int64(s.run))
            if let t = s.startedAt { o["startedAt"] = .string(t) }
            if let t = s.dataTime { o["dataTime"] = .string(t) }
            return .object(o)
        }
        var o = JSONObject()
        if let snapshot { o["snapshot"] = .string(snapshot) }
        o["from"] = side(from)
        o["to"] = side(to)
        o["movedThresholdMeters"] = .double(movedThresholdMeters)
        o["places"] = ["before": .int(Int64(placesBefore)), "after": .int(Int64(placesAfter))]
        o["changes"] = .object(JSONObject(Kind.allCases.map { ($0.rawValue, JSONValue.int(Int64(counts[$0] ?? 0))) }))
        if historyIncomplete { o["historyIncomplete"] = .bool(true) }
        return .object(o)
    }
}
