import Foundation
import PlaceModel
import PlaceStorage
#if canImport(Glibc)
    import Glibc
#endif

/// The filters of a searchText request applied to a ranked place.
struct TextSearchFilter {
    let request: TextSearchRequest
    let time: HoursQueryTime

    init(_ request: TextSearchRequest, at time: HoursQueryTime) {
        self.request = request
        self.time = time
    }

    /// The members a filter reads: what the hours engine reads
    /// (`Place.served(at:)`) and the filters' own (made once).
    static let plan: MaskPlan = {
        var fields = Array(Place.hoursMembers)
        fields += [
            "businessStatus", "openingDate", "timeZone", "utcOffsetMinutes", "rating", "priceLevel",
            "pureServiceAreaBusiness", "evChargeOptions",
        ]
        return MaskPlan((try? FieldMask(fields: fields)) ?? .all)
    }()

    private static let serviceArea = Array(#""pureServiceAreaBusiness":true"#.utf8)
    private static let futureOpening = Array(#""businessStatus":"FUTURE_OPENING""#.utf8)

    /// Whether the place passes every filter of the request.
    func accepts(_ candidate: TextCandidate, store: PlaceStore) throws -> Bool {
        if let min = request.minRating {
            guard let rating = candidate.rating, rating >= min else { return false }
        }
        let rowid = candidate.rowid
        if !request.filtersByDocument {
            // The defaults only (pure service-area businesses and future
            // openings left out): a look for the two members in the stored
            // bytes; a place that seems to hold one is decoded to be sure.
            if try !(store.withRawDocument(rowid: rowid) { suspect($0) } ?? false) { return true }
        }
        guard let place = try store.place(rowid: rowid, plan: Self.plan) else { return false }
        return accepts(place)
    }

    /// Whether the stored bytes of a place hold a member the defaults
    /// exclude it for (`"pureServiceAreaBusiness":true`,
    /// `"businessStatus":"FUTURE_OPENING"`): then it is decoded to be sure.
    func suspect(_ doc: UnsafeRawBufferPointer) -> Bool {
        (!request.includePureServiceAreaBusinesses && Self.find(Self.serviceArea, anchor: 16, in: doc))
            || (!request.includeFutureOpenings && Self.find(Self.futureOpening, anchor: 18, in: doc))
    }

    func accepts(_ place: Place) -> Bool {
        let doc = place.document
        if !request.includePureServiceAreaBusinesses, case .bool(true)? = doc["pureServiceAreaBusiness"] {
            return false
        }
        if !request.includeFutureOpenings, place.businessStatus == .futureOpening { return false }
        if let min = request.minRating {
            guard let rating = place.rating, rating >= min else { return false }
        }
        if !request.priceLevels.isEmpty {
            guard let level = doc["priceLevel"]?.stringValue, request.priceLevels.contains(level) else { return false }
        }
        if request.openNow {
            guard place.served(at: time).isOpen(at: time).isOpen == true else { return false }
        }
        if request.evOptions {
            guard let ev = doc["evChargeOptions"]?.objectValue else { return false }
            let connectors = ev["connectorAggregation"]?.arrayValue ?? []
            let fitting = connectors.filter { c in
                if !request.evConnectorTypes.isEmpty {
                    guard let type = c["type"]?.stringValue, request.evConnectorTypes.contains(type) else {
                        return false
                    }
                }
                if let kw = request.evMinimumChargingRateKw {
                    guard let rate = c["maxChargeRateKw"]?.doubleValue, rate >= kw else { return false }
                }
                return true
            }
            if (!request.evConnectorTypes.isEmpty || request.evMinimumChargingRateKw != nil) && fitting.isEmpty {
                return false
            }
        }
        return true
    }

    /// Whether `needle` is in `haystack`: memchr for its byte at `anchor`
    /// (a rare one: an upper-case letter, not the quote every member starts with).
    private static func find(_ needle: [UInt8], anchor: Int, in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
        var from = anchor
        let last = haystack.count - needle.count + anchor
        while from <= last, let hit = memchr(base + from, Int32(needle[anchor]), last - from + 1) {
            let at = base.distance(to: UnsafeRawPointer(hit)) - anchor
            if UnsafeRawBufferPointer(rebasing: haystack[at..<(at + needle.count)]).elementsEqual(needle) {
                return true
            }
            from = at + anchor + 1
        }
        return false
    }
}
