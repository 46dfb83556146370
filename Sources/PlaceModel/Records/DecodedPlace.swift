/// A decoded record: the place, and the source's fields that have no
/// Places API (New) counterpart (kept in the database, not in API output).
public struct DecodedPlace: Sendable {
    public var place: Place
    public var extra: JSONObject
    public var format: InputFormat
    /// IDs the record says stand for this place (or for where it went).
    public var aliases: [AliasEdge] = []
    /// The area or lines the source drew, simplified (GeoJSON formats); nil for points.
    package var footprint: FootprintShape?
    /// When the record says it was captured (Unix seconds): the Tehran
    /// scraper's `timestamp`, Overture's `update_time`, OpenStreetMap's
    /// `@timestamp`; nil when it says nothing (`CaptureTime`).
    package var capturedAt: Int64?
    /// Why the record is not a place (a GeoJSON feature with neither a name
    /// nor a place type: what it is, "road, path or crossing", "building",
    /// ...); nil for a place. The import skips it and counts it by reason,
    /// unless `ImportOptions.allFeatures`.
    public var skipReason: String?

    package init(place: Place, extra: JSONObject, format: InputFormat, aliases: [AliasEdge] = []) {
        self.place = place
        self.extra = extra
        self.format = format
        self.aliases = aliases
    }
}
