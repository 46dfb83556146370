/// Which fields of a place to return, by Places API (New) field path.
///
/// Accepts v1 paths (`displayName`, `location.latitude`, `places.rating`),
/// the Places SDK's names as synonyms (`name` for the display name,
/// `coordinate`, `placeID`, `phoneNumber`, ...), and `*` for all fields.
public struct FieldMask: Sendable, Equatable, CustomStringConvertible {
    /// Top-level field -> sub-paths (empty: the whole field).
    public private(set) var paths: [String: Set<String>]
    public let isAll: Bool

    /// Every field.
    public static let all = FieldMask(all: true)

    private init(all: Bool) {
        isAll = all
        paths = [:]
    }

    /// The Places API (New) `Place` fields (from the v1 discovery document).
    public static let placeFields: [String] = [
        "accessibilityOptions", "addressComponents", "addressDescriptor", "adrFormatAddress", "allowsDogs",
        "attributions", "businessStatus", "consumerAlert", "containingPlaces", "curbsidePickup",
        "currentOpeningHours", "currentSecondaryOpeningHours", "delivery", "dineIn", "displayName",
        "editorialSummary", "entrances", "evChargeAmenitySummary", "evChargeOptions", "formattedAddress",
        "fuelOptions", "generativeSummary", "goodForChildren", "goodForGroups", "goodForWatchingSports",
        "googleMapsLinks", "googleMapsTypeLabel", "googleMapsUri", "iconBackgroundColor", "iconMaskBaseUri",
        "id", "internationalPhoneNumber", "liveMusic", "location", "menuForChildren", "movedPlace",
        "movedPlaceId", "name", "nationalPhoneNumber", "navigationPoints", "neighborhoodSummary",
        "openingDate", "outdoorSeating", "parkingOptions", "paymentOptions", "photos", "plusCode",
        "postalAddress", "priceLevel", "priceRange", "primaryType", "primaryTypeDisplayName",
        "pureServiceAreaBusiness", "rating", "regularOpeningHours", "regularSecondaryOpeningHours",
        "reservable", "restroom", "reviewSummary", "reviews", "servesBeer", "servesBreakfast", "servesBrunch",
        "servesCocktails", "servesCoffee", "servesDessert", "servesDinner", "servesLunch",
        "servesVegetarianFood", "servesWine", "shortFormattedAddress", "subDestinations", "takeout",
        "timeZone", "transitStation", "types", "userRatingCount", "utcOffsetMinutes", "viewport", "websiteUri",
    ]

    /// Places SDK property names -> v1 field. `name` is both: v1's resource
    /// name and the SDK's display name, so a mask with `name` returns
    /// `name` and `displayName`.
    public static let sdkSynonyms: [String: String] = [
        "placeID": "id", "placeId": "id",
        "coordinate": "location",
        "phoneNumber": "internationalPhoneNumber",
        "website": "websiteUri", "websiteURL": "websiteUri",
        "openingHours": "regularOpeningHours",
        "currentOpeningHours": "currentOpeningHours",
        "userRatingsTotal": "userRatingCount",
        "utcOffsetMinutes": "utcOffsetMinutes",
        "addressComponents": "addressComponents",
        "formattedAddress": "formattedAddress",
        "plusCode": "plusCode",
        "priceLevel": "priceLevel",
        "iconImageURL": "iconMaskBaseUri",
        "iconBackgroundColor": "iconBackgroundColor",
        "editorialSummary": "editorialSummary",
        "timeZone": "timeZone",
        "reviews": "reviews",
        "photos": "photos",
        "viewport": "viewport",
        // The Places SDKs' other property names (iOS GMSPlaceProperty,
        // GooglePlacesSwift, Android Place.Field in camelCase).
        "secondaryOpeningHours": "currentSecondaryOpeningHours",
        "latLng": "location",
        "address": "formattedAddress",
        "utcOffset": "utcOffsetMinutes",
        "UTCOffsetMinutes": "utcOffsetMinutes",
        "photoMetadatas": "photos",
        "iconUrl": "iconMaskBaseUri", "iconURL": "iconMaskBaseUri", "iconMaskURL": "iconMaskBaseUri",
        "googleMapsURI": "googleMapsUri", "websiteURI": "websiteUri",
        "wheelchairAccessibleEntrance": "accessibilityOptions",
        "userRatingsCount": "userRatingCount",
        "isReservable": "reservable",
        "priceRange": "priceRange",
    ]

    /// Parses a comma-separated mask. Throws `FieldMaskError` naming the
    /// unknown field and listing the valid names.
    public init(parsing text: String) throws(FieldMaskError) {
        let items = text.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw FieldMaskError(unknown: text) }
        if items.contains("*") {
            self = .all
            return
        }
        var paths: [String: Set<String>] = [:]
        let known = Set(FieldMask.placeFields)
        for item in items {
            var path = item
            if path.hasPrefix("places.") { path.removeFirst(7) }
            let parts = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first, !first.isEmpty, parts.count == 1 || !parts[1].isEmpty else {
                throw FieldMaskError(unknown: item)
            }
            var top = first
            if !known.contains(top) {
                guard let mapped = FieldMask.sdkSynonyms[top] else { throw FieldMaskError(unknown: item) }
                top = mapped
            }
            if top == "name" && parts.count == 1 {
                // v1's `name` is the resource name; the SDK's `name` is the
                // display name. Give both, so either reader finds what they meant.
                paths["displayName"] = []
            }
            if parts.count == 2 {
                guard FieldMask.subPaths.contains(top + "." + parts[1]) else {
                    // Name the deepest known part and what it holds.
                    var known = top
                    for component in parts[1].split(separator: ".", omittingEmptySubsequences: false) {
                        guard FieldMask.subPaths.contains(known + "." + component) else { break }
                        known += "." + component
                    }
                    let children = FieldMask.subPaths.filter {
                        $0.hasPrefix(known + ".") && !$0.dropFirst(known.count + 1).contains(".")
                    }
                    .map { String($0.dropFirst(known.count + 1)) }.sorted()
                    throw FieldMaskError(
                        unknown: item,
                        detail: children.isEmpty
                            ? "\(known) has no sub-fields"
                            : "the sub-fields of \(known) are \(children.joined(separator: ", "))")
                }
                if paths[top] != Set<String>() { paths[top, default: []].insert(parts[1]) }
            } else {
                paths[top] = []
            }
        }
        self.isAll = false
        self.paths = paths
    }

    /// Builds a mask of whole top-level fields.
    public init(fields: [String]) throws(FieldMaskError) {
        try self.init(parsing: fields.joined(separator: ","))
    }

    public func includes(_ field: String) -> Bool { isAll || paths[field] != nil }

    /// Keeps the masked fields of a place's JSON, in their order.
    public func apply(to object: JSONObject) -> JSONObject {
        if isAll { return object }
        var out: [(String, JSONValue)] = []
        for (key, value) in object {
            guard let sub = paths[key] else { continue }
            if sub.isEmpty {
                out.append((key, value))
            } else if let filtered = FieldMask.filter(value, sub) {
                out.append((key, filtered))
            }
        }
        return JSONObject(out)
    }

    private static func filter(_ value: JSONValue, _ subpaths: Set<String>) -> JSONValue? {
        switch value {
        case .object(let o):
            var grouped: [String: Set<String>] = [:]
            for p in subpaths {
                let parts = p.split(separator: ".", maxSplits: 1).map(String.init)
                if parts.count == 2 {
                    if grouped[parts[0]] != Set<String>() { grouped[parts[0], default: []].insert(parts[1]) }
                } else {
                    grouped[parts[0]] = []
                }
            }
            var out: [(String, JSONValue)] = []
            for (k, v) in o {
                guard let sub = grouped[k] else { continue }
                if sub.isEmpty { out.append((k, v)) } else if let f = filter(v, sub) { out.append((k, f)) }
            }
            return out.isEmpty ? nil : .object(JSONObject(out))
        case .array(let a):
            let filtered = a.compactMap { filter($0, subpaths) }
            return filtered.isEmpty ? nil : .array(filtered)
        default:
            return nil
        }
    }

    public var description: String {
        if isAll { return "*" }
        return paths.keys.sorted().flatMap { k in
            let sub = paths[k]!
            return sub.isEmpty ? [k] : sub.sorted().map { "\(k).\($0)" }
        }.joined(separator: ",")
    }

    /// Every name the parser accepts, for the error message.
    public static var validNames: [String] {
        (placeFields + sdkSynonyms.keys).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
    }
}
