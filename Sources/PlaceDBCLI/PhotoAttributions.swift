import PlaceKit
#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel

/// The attributions to show with a photo: its authors', and the place's
/// (`attributions`, from a legacy response's `html_attributions`).
struct PhotoAttributions {
    let name: String
    let authors: [AuthorAttribution]
    let place: [JSONValue]

    init(_ metadata: PhotoMetadata, client: PlaceReader) throws {
        name = metadata.name
        authors = metadata.authorAttributions
        var place: [JSONValue] = []
        let parts = metadata.name.split(separator: "/")
        if parts.count >= 2, parts[0] == "places" {
            let fields = try FieldMask(parsing: "attributions")
            if let fetched = try? client.fetchPlace(id: PlaceID(String(parts[1])), fields: fields) {
                place = fetched.document["attributions"]?.arrayValue ?? []
            }
        }
        self.place = place
    }

    var json: JSONObject {
        var o = JSONObject([("name", .string(name))])
        o["authorAttributions"] = .array(
            authors.map { a in
                var j = JSONObject()
                if let n = a.displayName { j["displayName"] = .string(n) }
                if let u = a.uri { j["uri"] = .string(u) }
                if let p = a.photoUri { j["photoUri"] = .string(p) }
                return .object(j)
            })
        if !place.isEmpty { o["attributions"] = .array(place) }
        return o
    }

    /// "by NAME (URI), ...; place data: PROVIDER (URI)", or nil when there is none.
    var text: String? {
        let people = authors.map { a in
            [a.displayName, a.uri.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        }.filter { !$0.isEmpty }
        let providers = place.map { p in
            [p["provider"]?.stringValue, p["providerUri"]?.stringValue.map { "(\($0))" }].compactMap { $0 }.joined(
                separator: " ")
        }.filter { !$0.isEmpty }
        var parts: [String] = []
        if !people.isEmpty { parts.append("by " + people.joined(separator: ", ")) }
        if !providers.isEmpty { parts.append("place data: " + providers.joined(separator: ", ")) }
        return parts.isEmpty ? nil : "attribution: " + parts.joined(separator: "; ")
    }
}
