import Foundation
package import PlaceModel

/// A place ready to be written: everything the writer needs, computed off
/// the writing thread (decoding, the stored document, its hash). A class:
/// handing it over and back retains one reference, not each of its fields.
package final class PreparedPlace: Sendable {
    package let id: String
    package let coordinate: Coordinate
    /// The location's place on the Hilbert curve the spatial index is
    /// sorted by (computed here, off the writing thread).
    let hilbertKey: UInt64
    package let doc: [UInt8]
    /// Which members the columns stand for (`StoredDocument`); 0: none.
    package let docLayout: Int64
    package let extra: [UInt8]
    let contentHash: Int64
    package let source: String
    package let name: String?
    package let primaryType: String?
    package let rating: Double?
    package let ratingCount: Int?
    package let businessStatus: String?
    package let utcOffsetMinutes: Int?
    package let timeZone: String?
    /// Where `timeZone` came from (nil without one).
    package let timeZoneSource: TimeZoneSource?
    package let types: [String]
    package let format: InputFormat
    package let aliases: [AliasEdge]
    /// `photos[]` with a name: position in the array, name, reference (for
    /// the `place_photo` index).
    package let photos: [(position: Int, name: String, reference: String)]
    /// The viewport as `place_extent` stores it (nil without a usable one).
    package let extent: (west: Double, east: Double, south: Double, north: Double)?
    /// Why its viewport cannot be a footprint, when it is bad input
    /// (counted in the summary, never an error).
    package let viewportWarning: ViewportEvidence?
    /// The footprint as `place_footprint` stores it (nil for points).
    package let footprint: (area: Double, shape: [UInt8])?
    /// A merge kept the stored location, so the stored footprint stays too.
    let keepsStoredFootprint: Bool
    /// The incoming footprint as decoded (a merge keeps it with `location`).
    let footprintShape: FootprintShape?
    /// When the record was captured (Unix seconds) and where that came from
    /// (a capture nothing dates: `CaptureTime.unordered`, negative).
    package let capturedAt: Int64
    package let captureSource: CaptureSource
    /// The record carried a timestamp out of range (before 2000, or more than
    /// a day ahead), so the file time was used.
    package let timestampOutOfRange: Bool
    /// Its row of the text index (a fresh import writes it as it goes).
    /// Nil only where the benchmark imports without the text index.
    package let text: TextIndexRow?

    /// `undatedImport` (the time of the import, for a record nothing
    /// dates): the capture time is the record's `CaptureTime.unordered`
    /// key (from that time and its content hash), not `capturedAt`.
    package init(
        _ decoded: DecodedPlace, source fixedSource: String?, capturedAt: Int64 = 0,
        captureSource: CaptureSource = .unknown,
        undatedImport: Int64? = nil, timestampOutOfRange: Bool = false, keepsStoredFootprint: Bool = false,
        textIndex: Bool = true
    ) {
        self.footprintShape = decoded.footprint
        self.captureSource = captureSource
        self.timestampOutOfRange = timestampOutOfRange
        self.keepsStoredFootprint = keepsStoredFootprint
        let place = decoded.place
        let writer = JSONWriter()
        var doc: [UInt8] = []
        doc.reserveCapacity(256)
        // The stored document leaves out what the row already holds: the ID,
        // the location (the geometry), and the members the columns repeat
        // (StoredDocument).
        let members = Members(place.document)
        let columns = members.columns
        let layout = StoredDocument.write(place.document, columns: columns, into: &doc)
        var extra: [UInt8] = []
        if !decoded.extra.isEmpty { writer.write(.object(decoded.extra), into: &extra) }
        let source = fixedSource ?? decoded.format.defaultSource
        var hash = FNV1a()
        hash.add(doc)
        hash.add(UInt8(0))
        if layout != 0 {
            // What the layout puts back, so any change to it is a change.
            hash.add(UInt64(bitPattern: layout))
            hash.add(utf8: columns.name ?? "")
            hash.add(UInt8(0))
            hash.add(utf8: columns.primaryType ?? "")
            hash.add(UInt8(0))
            hash.add((columns.rating ?? -1).bitPattern)
            hash.add(UInt64(bitPattern: Int64(columns.ratingCount ?? -1)))
        }
        hash.add(extra)
        hash.add(UInt8(0))
        hash.add(utf8: source)
        hash.add(place.coordinate.latitude.bitPattern)
        hash.add(place.coordinate.longitude.bitPattern)
        // Where the zone came from: a source's zone replacing an --time-zone one is a change.
        let timeZone = members.timeZone?["id"]?.stringValue
        let zoneSource = place.timeZoneSource ?? (timeZone != nil ? .data : nil)
        if let zoneSource { hash.add(utf8: zoneSource.rawValue) }
        // Only places with a footprint hash one, so point places keep their hashes.
        let footprint = decoded.footprint.map { (area: $0.area, shape: $0.blob) }
        if let footprint {
            hash.add(UInt8(1))
            hash.add(footprint.shape)
        }
        self.footprint = footprint
        self.timeZoneSource = zoneSource
        self.id = place.id.rawValue
        self.coordinate = place.coordinate
        self.hilbertKey = Hilbert.key(place.coordinate)
        self.doc = doc
        self.docLayout = layout
        self.extra = extra
        let contentHash = Int64(bitPattern: hash.value)
        self.contentHash = contentHash
        self.capturedAt =
            undatedImport.map { CaptureTime.unordered(importedAt: $0, contentHash: contentHash) } ?? capturedAt
        self.source = source
        self.name = columns.name
        self.types = members.types
        self.primaryType = columns.primaryType
        self.rating = columns.rating
        self.ratingCount = columns.ratingCount
        self.businessStatus = members.businessStatus?.stringValue
        self.utcOffsetMinutes = members.utcOffsetMinutes?.intValue
        self.timeZone = timeZone
        self.format = decoded.format
        self.aliases = decoded.aliases
        let viewport = members.viewport
        self.extent = PlaceWriter.extent(viewport)
        self.viewportWarning = viewport.flatMap { ViewportEvidence.classify($0) }.flatMap { $0.isWarning ? $0 : nil }
        self.text =
            !textIndex
            ? nil
            : TextIndexRow(
                name: columns.name, primaryType: columns.primaryType, address: members.formattedAddress,
                types: members.typesValue,
                extra: decoded.extra, coordinate: place.coordinate)
        self.photos = (members.photos?.arrayValue ?? []).enumerated().compactMap { position, photo in
            photo["name"]?.stringValue.map { (position, $0, PhotoName.reference(of: $0)) }
        }
    }
}

extension PreparedPlace {
    /// The record's document (with `location`) and extras, read back from
    /// what was prepared: a merge needs them, a fresh insert does not, so
    /// the decoded values are not kept alive until the write: every
    /// place would hold its decoded tree for nothing a fresh insert uses.
    func recordDocument() throws -> (document: JSONObject, extra: JSONObject) {
        let columns = StoredDocument.Columns(
            name: name, primaryType: primaryType, rating: rating, ratingCount: ratingCount)
        let whole = try doc.withUnsafeBytes { try StoredDocument.restore($0, layout: docLayout, columns: columns) }
        guard case .object(let o) = try JSONParser.parse(docLayout == 0 ? doc : whole) else {
            throw JSONSyntaxError(message: "a prepared document is not an object", offset: 0)
        }
        var document = o
        document["location"] = Place.locationValue(coordinate)
        let extraObject = extra.isEmpty ? JSONObject() : try JSONParser.parse(extra).objectValue ?? JSONObject()
        return (document, extraObject)
    }
}

extension PreparedPlace {
    /// The members a prepared place reads, found in one pass over the
    /// document (a lookup each would search the whole document again).
    /// Names are told apart by length first, then compared.
    struct Members {
        var displayName, typesValue, primaryType, rating, userRatingCount: JSONValue?
        var businessStatus, utcOffsetMinutes, timeZone, viewport, photos, formattedAddress: JSONValue?

        init(_ document: JSONObject) {
            for (key, value) in document {
                switch key.utf8.count {
                case 5: if key == "types" { typesValue = value }
                case 6:
                    if key == "photos" { photos = value } else if key == "rating" { rating = value }
                case 8:
                    if key == "timeZone" { timeZone = value } else if key == "viewport" { viewport = value }
                case 11:
                    if key == "displayName" { displayName = value } else if key == "primaryType" { primaryType = value }
                case 14: if key == "businessStatus" { businessStatus = value }
                case 15: if key == "userRatingCount" { userRatingCount = value }
                case 16:
                    if key == "utcOffsetMinutes" {
                        utcOffsetMinutes = value
                    } else if key == "formattedAddress" {
                        formattedAddress = value
                    }
                default: break
                }
            }
        }

        /// `Place.types`.
        var types: [String] { typesValue?.arrayValue?.compactMap(\.stringValue) ?? [] }

        /// `StoredDocument.Columns(place)`, from the members found.
        var columns: StoredDocument.Columns {
            let name = displayName?.objectValue.flatMap { $0["text"]?.stringValue }
            let primary = primaryType?.stringValue ?? typesValue?.arrayValue?.lazy.compactMap(\.stringValue).first
            return StoredDocument.Columns(
                name: name, primaryType: primary, rating: rating?.doubleValue, ratingCount: userRatingCount?.intValue)
        }
    }
}
