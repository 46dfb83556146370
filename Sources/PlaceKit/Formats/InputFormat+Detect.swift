package import PlaceModel

extension InputFormat {
    /// GeoJSON Features (`"type": "Feature"`, or members of `features`) are
    /// OpenStreetMap when their properties carry `@type` and `@id` (or the
    /// feature's `id` is osmium's `-u type_id` and its properties tags), Overture
    /// when they carry `names` or Overture's `categories`+`sources`, else the
    /// generic GeoJSON place.
    package static func detect(_ record: SourceRecord) -> InputFormat {
        switch record.container {
        case "places": return .placesV1
        case "result", "results", "candidates": return .placesLegacy
        case "geonames": return .geonames
        default:
            let value = record.value
            if record.container == "features" || value["type"]?.stringValue == "Feature" {
                let p = value["properties"]
                if p?["@type"] != nil && p?["@id"] != nil { return .osm }
                // `osmium export -u type_id`: the ID `n123`, `w123`, `a246` as the
                // feature's, and OpenStreetMap tags (all strings) as the properties.
                if p?["@type"] == nil, p?["id"] == nil, GeoJSONDecoders.osmiumUniqueID(value["id"]) != nil,
                    p?.objectValue.map({ $0.allSatisfy { $0.key.hasPrefix("@") || $0.value.stringValue != nil } })
                        ?? true
                {
                    return .osm
                }
                // `-u counter` (1, 2, 3 ... anew in every export) is no place ID:
                // the OpenStreetMap decoder says which option gives one.
                if p?["@type"] == nil, p?["id"] == nil, value["id"]?.intValue != nil,
                    let tags = p?.objectValue, GeoJSONDecoders.looksLikeOSMTags(tags)
                {
                    return .osm
                }
                if p?["names"]?.objectValue != nil || (p?["categories"] != nil && p?["sources"] != nil) {
                    return .overture
                }
                return .geojson
            }
            if value["geonameid"] != nil && value["latitude"] != nil && value["longitude"] != nil { return .geonames }
            if value["place_id"] != nil || value["geometry"] != nil { return .placesLegacy }
            return .placesV1
        }
    }
}
