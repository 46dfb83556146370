import PlaceModel
import PlaceStorage

extension InputFormat {
    /// GeoJSON Features (`"type": "Feature"`, or members of `features`) are
    /// OpenStreetMap when their properties carry `@type` and `@id`, Overture
    /// when they carry `names` or Overture's `categories`+`sources`, else the
    /// generic GeoJSON place.
    static func detect(_ record: SourceRecord) -> InputFormat {
        switch record.container {
        case "places": return .placesV1
        case "result", "results", "candidates": return .placesLegacy
        default:
            let value = record.value
            if record.container == "features" || value["type"]?.stringValue == "Feature" {
                let p = value["properties"]
                if p?["@type"] != nil && p?["@id"] != nil { return .osm }
                if p?["names"]?.objectValue != nil || (p?["categories"] != nil && p?["sources"] != nil) { return .overture }
                return .geojson
            }
            if value["place_id"] != nil || value["geometry"] != nil { return .placesLegacy }
            return .placesV1
        }
    }
}
