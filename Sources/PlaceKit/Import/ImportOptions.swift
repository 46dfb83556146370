import Foundation
public import PlaceModel
import PlaceStorage

/// How an import runs.
public struct ImportOptions: Sendable {
    /// The record format; nil detects it per record.
    public var format: InputFormat?
    public var onError: OnError
    /// The name the places are filed under (`source` column); nil files
    /// them under their format's family (`google-places`, `osm`, `overture`,
    /// `geojson`).
    public var source: String?

    /// A snapshot: the inputs are the complete current state of this
    /// source; its places absent from them are marked removed by
    /// `PlaceImporter.finishSnapshot()` (never deleted).
    public var snapshot: String?
    /// How a snapshot links removed places to added ones; nil records no
    /// snapshot aliases.
    public var matching: MatchOptions? = MatchOptions()
    /// An IANA time zone (`Europe/Zurich`) for the places that have neither
    /// `timeZone` nor `utcOffsetMinutes` (OpenStreetMap and Overture give
    /// none; a regional extract is usually one zone). Stored as their
    /// `timeZone`, with `time_zone_source` 'import-option'.
    public var timeZone: String?
    /// When the inputs were captured (Unix seconds), for every record:
    /// overrides the records' own timestamps and the files' modification
    /// times. A member captured earlier never replaces one captured later
    /// (docs/merging.md).
    public var capturedAt: Int64?
    /// Keep every GeoJSON feature, places or not. By default a feature with
    /// neither a name nor a place type (an unnamed road, a crossing, an
    /// address-only node of an OpenStreetMap export) is skipped and counted
    /// in `ImportSummary.skipped`; kept, it is never a current-place
    /// candidate and nearby searches leave it out unless asked.
    public var allFeatures = false
    /// Points per Hilbert-sorted chunk of the spatial index (tests make it
    /// small to exercise the spilled runs).
    var indexChunk = PlaceWriter.defaultIndexChunk
    /// Keep the text index (`PlacesClient.searchText`, `autocomplete`).
    /// False: the import's first transaction drops it (its FTS5 table,
    /// typo words and triggers) and writes none, so the import and every
    /// later one into that database cost less (how much: docs/search.md);
    /// `TextIndexMaintenance.build` makes it
    /// again. True into a database that has none keeps it without one.
    public var textIndex = true
    /// Link the places each import adds or changes to the records of other
    /// sources (and of their own source under other IDs) that are the same
    /// physical place (`PlaceImporter.link`, docs/linking.md). False:
    /// `import --no-link`; `placedb link` does it later.
    public var link = true
    /// The `osmium` that exports an OpenStreetMap file (`.osm.pbf`, `.osm`,
    /// `.osm.bz2`, `.o5m`) for the import: a path, or a name looked up in
    /// `PATH`; nil runs `osmium` from `PATH` (osmium-tool).
    public var osmium: String?
    /// osmium's node location index (osmium-index-types(5)); a file-based
    /// one is kept in an unlinked file beside the database.
    var osmiumIndex = OsmiumExport.defaultIndex

    public init(
        format: InputFormat? = nil, onError: OnError = .stop, source: String? = nil, snapshot: String? = nil,
        timeZone: String? = nil
    ) {
        self.format = format
        self.onError = onError
        self.source = snapshot ?? source
        self.snapshot = snapshot
        self.timeZone = timeZone
    }

    /// Gives the place the import's time zone when it has no zone and no offset.
    func applyTimeZone(to place: inout Place) {
        guard let timeZone, place.timeZone == nil, place.utcOffsetMinutes == nil else { return }
        place.document["timeZone"] = ["id": .string(timeZone)]
        place.timeZoneSource = .importOption
    }

    /// True for an IANA name Foundation knows (`Europe/Zurich`, `UTC`).
    public static func isValidTimeZone(_ name: String) -> Bool { TimeZoneIdentifier.isValid(name) }
}
