/// The answer for one ID: its status, the current ID, and the chain of hops.
public struct PlaceIDResolution: Sendable, Equatable {
    public package(set) var requestedID: String
    public let status: ResolutionStatus
    /// The current place's ID (CURRENT, MOVED), the removed place's (REMOVED).
    public let placeID: String?
    public let chain: [AliasHop]
    public let displayName: String?
    public let location: Coordinate?
    /// When the place the chain ends at was removed (REMOVED).
    public let removedAt: String?
    /// Other places a split alias also leads to, best first.
    public let alternatives: [String]
    /// The IDs of a cycle met on the way (the walk stopped there), else empty.
    public let cycle: [String]

    /// The Places-API-style JSON of this answer.
    public var json: JSONValue {
        var o = JSONObject()
        o["requestedId"] = .string(requestedID)
        o["status"] = .string(status.rawValue)
        if let placeID { o["placeId"] = .string(placeID) }
        o["chain"] = .array(
            chain.map { hop in
                var h = JSONObject()
                h["from"] = .string(hop.from)
                h["to"] = .string(hop.to)
                h["reason"] = .string(hop.reason.rawValue)
                if let s = hop.source { h["source"] = .string(s) }
                h["confidence"] = .double(hop.confidence)
                if let r = hop.recordedAt { h["recordedAt"] = .string(r) }
                if let e = hop.evidence { h["evidence"] = e }
                return .object(h)
            })
        if let displayName { o["displayName"] = ["text": .string(displayName)] }
        if let location {
            o["location"] = ["latitude": .double(location.latitude), "longitude": .double(location.longitude)]
        }
        if let removedAt { o["removedAt"] = .string(removedAt) }
        if !alternatives.isEmpty { o["alternatives"] = .array(alternatives.map(JSONValue.string)) }
        if !cycle.isEmpty { o["cycle"] = .array(cycle.map(JSONValue.string)) }
        return .object(o)
    }

    package init(
        requestedID: String, status: ResolutionStatus, placeID: String?, chain: [AliasHop], displayName: String?,
        location: Coordinate?, removedAt: String?, alternatives: [String], cycle: [String]
    ) {
        self.requestedID = requestedID
        self.status = status
        self.placeID = placeID
        self.chain = chain
        self.displayName = displayName
        self.location = location
        self.removedAt = removedAt
        self.alternatives = alternatives
        self.cycle = cycle
    }
}
