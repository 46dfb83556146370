import PlaceModel
/// GeoJSON Features: OpenStreetMap POIs as `osmium export` writes them,
/// Overture Maps places, and a documented generic place. Each becomes a
/// Place whose location lies on or inside the feature's geometry, whose
/// viewport is the geometry's box and whose footprint is the geometry
/// simplified (`FootprintShape`).
enum GeoJSONDecoders {
    /// The parts every feature has.
    struct Feature {
        let object: JSONObject
        let properties: JSONObject
        let geometry: GeoJSONGeometry
        let placeID: String
    }

    static func feature(_ object: JSONObject, id: (JSONObject, JSONObject) throws(DecodeError) -> String)
        throws(DecodeError) -> Feature
    {
        let properties: JSONObject
        switch object["properties"] {
        case .object(let p)?: properties = p
        case .null?, nil: properties = JSONObject()
        case let other?: throw DecodeError("properties is \(other.kindDescription), expected an object")
        }
        let placeID = try id(object, properties)
        guard let geometryValue = object["geometry"], geometryValue != .null else {
            throw DecodeError("no geometry: a place needs a location", placeID: placeID)
        }
        let geometry = try GeoJSONGeometry.parse(geometryValue, placeID: placeID)
        return Feature(object: object, properties: properties, geometry: geometry, placeID: placeID)
    }

    /// location, viewport and footprint from the geometry.
    /// `skipReason`: why the feature is not a place (it has neither a name
    /// nor a place type), kept by `ImportOptions.allFeatures` only.
    static func decoded(
        _ f: Feature, document: JSONObject, extra: JSONObject, format: InputFormat, skipReason: String? = nil
    ) -> DecodedPlace {
        var doc = document
        if let box = f.geometry.viewport {
            doc["viewport"] = .object(
                JSONObject(uniqueMembers: [("low", latLng(box.low)), ("high", latLng(box.high))]))
        }
        let location = f.geometry.representativePoint
        var decoded = DecodedPlace(
            place: Place(id: PlaceID(f.placeID), coordinate: location, document: doc), extra: extra, format: format)
        decoded.footprint = FootprintShape.make(f.geometry, origin: location)
        if doc["displayName"] == nil {
            if doc["types"] == nil {
                decoded.skipReason = skipReason ?? "no name and no type"
            } else {
                // A bench, a waste basket, an unnamed car park: a place, but
                // not one Current Place names (`LikelihoodModel.unnamedFactor`).
                decoded.extra["unnamed"] = .bool(true)
            }
        }
        return decoded
    }

    static func latLng(_ c: Coordinate) -> JSONValue {
        // Known-unique members: no dictionary to build (a literal's
        // last-wins check costs one per object, per feature).
        .object(JSONObject(uniqueMembers: [("latitude", .double(c.latitude)), ("longitude", .double(c.longitude))]))
    }

    /// `{"text": text}`, as `displayName` holds a name.
    static func text(_ text: String) -> JSONValue {
        .object(JSONObject(uniqueMembers: [("text", .string(text))]))
    }

    static func idString(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s)?: return s.isEmpty ? nil : s
        case .int(let i)?: return String(i)
        default: return nil
        }
    }

    /// A website as OSM and Overture write it, as `websiteUri`: an http(s)
    /// URI as it is; a host name without a scheme (`www.example.org`,
    /// `example.fi/menu`: 332 OSM tags of the real data) with `http://`
    /// before it, as OSM editors read it; nil for an empty value (the tag
    /// stays in the extras). Any other scheme (`javascript:`, `mailto:`)
    /// stays as given, and the record is refused (`FieldCheck.strings`).
    static func webAddress(_ value: String) -> String? {
        let web = value.trimmingSpacesString
        if web.isEmpty { return nil }
        if FieldCheck.isWebURI(web) { return web }
        // A scheme: letters, digits, + - . up to a ':', with no '.' (a host
        // with a port, www.example.org:8080, has one).
        let head = web.utf8.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: "/") }
        let isScheme =
            head.count < web.utf8.count && web.utf8[head.endIndex] == UInt8(ascii: ":")
            && !head.contains(UInt8(ascii: "."))
            && head.first.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) } == true
        if isScheme || web.hasPrefix("/") { return web }
        return "http://" + web
    }

    static func typesDocument(_ types: [String], into doc: inout JSONObject) {
        guard !types.isEmpty else { return }
        doc["types"] = .array(types.map(JSONValue.string))
        doc["primaryType"] = .string(types[0])
    }

    // MARK: OpenStreetMap (osmium export)

    static func decodeOSM(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        // `osmium export -u type_id` writes the ID as the feature's `id` instead.
        let unique = object["properties"]?["@type"] == nil ? osmiumUniqueID(object["id"]) : nil
        let f = try feature(object) { (_, p) throws(DecodeError) -> String in
            if let unique { return PlaceIDSpelling.osmID(type: unique.type, number: unique.number) }
            guard let type = p["@type"]?.stringValue, ["node", "way", "relation", "area"].contains(type) else {
                if p["@id"] == nil, looksLikeOSMTags(p) { throw DecodeError(withoutOSMID) }
                throw DecodeError("OpenStreetMap feature without a valid @type (node, way or relation)")
            }
            guard let id = p["@id"]?.intValue else {
                throw DecodeError("OpenStreetMap feature without a numeric @id")
            }
            // osmium's short form (`osm:n123`): one path segment (docs/formats.md#place-ids).
            return PlaceIDSpelling.osmID(type: type, number: Int64(id))
        }
        var tags = JSONObject()
        var meta = JSONObject()
        for (k, v) in f.properties {
            if k.hasPrefix("@") { meta[String(k.dropFirst())] = v } else { tags[k] = v }
        }
        var doc = JSONObject()
        var extra = JSONObject()
        let name = tags["name"]?.stringValue
        if let name { doc["displayName"] = text(name) }
        var localized = JSONObject()
        for (k, v) in tags where k.hasPrefix("name:") { localized[String(k.dropFirst(5))] = v }
        // A named feature no POI key types (a street, a building ...) gets
        // the type of its kind; one with neither a name nor a place type is
        // not a place.
        var types = OSMTypeMapping.types(tags)
        if types.isEmpty, name != nil, let kind = OSMTypeMapping.kind(tags) { types = [kind] }
        typesDocument(types, into: &doc)
        if let address = osmAddress(tags) {
            doc["formattedAddress"] = .string(address.formatted)
            doc["addressComponents"] = .array(address.components)
        }
        if let phone = (tags["phone"] ?? tags["contact:phone"])?.stringValue {
            doc["internationalPhoneNumber"] = .string(
                String(phone.split(separator: ";").first ?? Substring(phone)).trimmingSpacesString)
        }
        if let web = (tags["website"] ?? tags["contact:website"] ?? tags["url"])?.stringValue, let uri = webAddress(web)
        {
            doc["websiteUri"] = .string(uri)
        }
        if let hours = tags["opening_hours"]?.stringValue {
            doc["regularOpeningHours"] = OSMOpeningHours.regularOpeningHours(hours)
        }
        var osm = JSONObject()
        if let unique, meta["type"] == nil, meta["id"] == nil {
            // As `-a type,id` would have said it.
            meta["type"] = .string(unique.type)
            meta["id"] = .int(unique.number)
        }
        if let t = meta["type"] { osm["type"] = t }
        if let i = meta["id"] { osm["id"] = i }
        if let v = meta["version"] { osm["version"] = v }
        if let ts = meta["timestamp"] {
            if let seconds = ts.intValue, let time = RFC3339.string(fromUnixSeconds: Int64(seconds)) {
                osm["timestamp"] = .string(time)
            } else {
                osm["timestamp"] = ts
            }
        }
        for (k, v) in meta where !["type", "id", "version", "timestamp"].contains(k) { osm[k] = v }
        osm["tags"] = .object(tags)
        extra["osm"] = .object(osm)
        if !localized.isEmpty { extra["localizedNames"] = .object(localized) }
        var result = decoded(
            f, document: doc, extra: extra, format: .osm,
            skipReason: name == nil && types.isEmpty ? OSMTypeMapping.skipReason(tags) : nil)
        // The time of the object's last edit: what the record says of the place.
        result.capturedAt = CaptureTime.value(meta["timestamp"])
        return result
    }

    /// The OpenStreetMap element of an `osmium export -u type_id` ID:
    /// `n123` a node, `w123` a way's line, `a246` the area of way 123 and
    /// `a247` that of relation 123 (osmium numbers a way's area twice its
    /// ID, a relation's twice plus one); nil for anything else.
    static func osmiumUniqueID(_ value: JSONValue?) -> (type: String, number: Int64)? {
        guard let text = value?.stringValue, let letter = text.first, let n = Int64(text.dropFirst()), text.count > 1,
            text.utf8.dropFirst().allSatisfy({
                $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            })
        else { return nil }
        switch letter {
        case "n": return ("node", n)
        case "w": return ("way", n)
        case "a":
            // Negative IDs (objects not uploaded): a way's is 2 id, a relation's 2 id - 1.
            if n % 2 == 0 { return ("way", n / 2) }
            return ("relation", n > 0 ? (n - 1) / 2 : (n + 1) / 2)
        default: return nil
        }
    }

    /// Whether a feature's properties are OpenStreetMap tags (as a plain
    /// `osmium export` writes them, without `@type` and `@id`): every value
    /// a string, and tags that say what an OSM element is.
    static func looksLikeOSMTags(_ p: JSONObject) -> Bool {
        var tags = JSONObject()
        for (k, v) in p where !k.hasPrefix("@") {
            guard v.stringValue != nil else { return false }
            tags[k] = v
        }
        guard !tags.isEmpty else { return false }
        if !OSMTypeMapping.types(tags).isEmpty || OSMTypeMapping.kind(tags) != nil { return true }
        return !["other", "untagged"].contains(OSMTypeMapping.skipReason(tags))
    }

    /// The error of an OpenStreetMap feature exported without its ID.
    static let withoutOSMID =
        "OpenStreetMap feature without its ID (@type and @id): osmium export writes them with -a type,id "
        + "(osmium export -f geojsonseq -a type,id,version,timestamp EXTRACT.osm.pbf), or import the .osm.pbf itself"

    static func osmAddress(_ tags: JSONObject) -> (formatted: String, components: [JSONValue])? {
        func tag(_ k: String) -> String? { tags["addr:\(k)"]?.stringValue }
        guard
            tag("street") != nil || tag("housenumber") != nil || tag("city") != nil || tag("postcode") != nil
                || tag("full") != nil
        else { return nil }
        var components: [JSONValue] = []
        func component(_ text: String?, _ type: String) {
            if let text {
                components.append(["longText": .string(text), "shortText": .string(text), "types": [.string(type)]])
            }
        }
        component(tag("housenumber"), "street_number")
        component(tag("street") ?? tag("place"), "route")
        component(tag("postcode"), "postal_code")
        component(tag("city"), "locality")
        component(tag("country"), "country")
        if let full = tag("full") { return (full, components) }
        let street = [tag("street") ?? tag("place"), tag("housenumber")].compactMap { $0 }.joined(separator: " ")
        let town = [tag("postcode"), tag("city")].compactMap { $0 }.joined(separator: " ")
        let formatted = [street, town, tag("country") ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
        return (formatted, components)
    }

    // MARK: Overture Maps places

    static func decodeOverture(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        let f = try feature(object) { (o, p) throws(DecodeError) -> String in
            guard let id = idString(o["id"]) ?? idString(p["id"]) else {
                throw DecodeError("Overture place without an id")
            }
            return id
        }
        let p = f.properties
        var doc = JSONObject()
        var extra = JSONObject()
        // Names are text: a number or an object where a name belongs was
        // dropped without a word before.
        try FieldCheck.expect(p, "names", .object, placeID: f.placeID)
        let names = p["names"]?.objectValue
        if let names {
            try FieldCheck.expect(names, "primary", .string, path: "names.primary", placeID: f.placeID)
            try FieldCheck.expect(names, "common", .object, path: "names.common", placeID: f.placeID)
            for (language, name) in names["common"]?.objectValue ?? JSONObject()
            where name != .null && name.stringValue == nil {
                throw FieldCheck.typeError("names.common.\(language)", name, .string, placeID: f.placeID)
            }
        }
        if let primary = names?["primary"]?.stringValue { doc["displayName"] = text(primary) }
        if let common = names?["common"]?.objectValue, !common.isEmpty { extra["localizedNames"] = .object(common) }
        var categories: [String] = []
        if let primary = p["categories"]?["primary"]?.stringValue { categories.append(primary) }
        for alt in p["categories"]?["alternate"]?.arrayValue ?? [] {
            if let s = alt.stringValue { categories.append(s) }
        }
        if categories.isEmpty, let primary = p["taxonomy"]?["primary"]?.stringValue { categories.append(primary) }
        if categories.isEmpty, let basic = p["basic_category"]?.stringValue { categories.append(basic) }
        var types: [String] = []
        for c in categories {
            let t = OvertureCategories.placesType(c)
            if !types.contains(t) { types.append(t) }
        }
        if !types.isEmpty && !types.contains("point_of_interest") { types.append("point_of_interest") }
        typesDocument(types, into: &doc)
        switch p["operating_status"]?.stringValue {
        case "open"?: doc["businessStatus"] = "OPERATIONAL"
        case "temporarily_closed"?: doc["businessStatus"] = "CLOSED_TEMPORARILY"
        case "permanently_closed"?, "closed"?: doc["businessStatus"] = "CLOSED_PERMANENTLY"
        default: break
        }
        if let address = p["addresses"]?.arrayValue?.first {
            let parts = ["freeform", "locality", "postcode", "region", "country"].compactMap {
                address[$0]?.stringValue
            }
            if !parts.isEmpty { doc["formattedAddress"] = .string(parts.joined(separator: ", ")) }
            var components: [JSONValue] = []
            for (key, type) in [
                ("locality", "locality"), ("postcode", "postal_code"), ("region", "administrative_area_level_1"),
                ("country", "country"),
            ] {
                if let v = address[key]?.stringValue {
                    components.append(["longText": .string(v), "shortText": .string(v), "types": [.string(type)]])
                }
            }
            if !components.isEmpty { doc["addressComponents"] = .array(components) }
        }
        if let web = p["websites"]?.arrayValue?.first?.stringValue, let uri = webAddress(web) {
            doc["websiteUri"] = .string(uri)
        }
        if let phone = p["phones"]?.arrayValue?.first?.stringValue { doc["internationalPhoneNumber"] = .string(phone) }
        var overture = JSONObject()
        for key in [
            "confidence", "categories", "taxonomy", "basic_category", "brand", "sources", "socials", "emails",
            "websites", "phones", "addresses", "version", "operating_status", "names",
        ] {
            if let v = p[key], v != .null { overture[key] = v }
        }
        extra["overture"] = .object(overture)
        var result = decoded(f, document: doc, extra: extra, format: .overture, skipReason: "no name and no category")
        // `update_time` (older releases), else the latest of its sources'.
        result.capturedAt =
            CaptureTime.value(p["update_time"])
            ?? (p["sources"]?.arrayValue ?? []).compactMap { CaptureTime.value($0["update_time"]) }.max()
        return result
    }

    // MARK: Generic GeoJSON place

    /// properties: `id` (or the feature's `id`), `name` (or `displayName`),
    /// `types` (array) or `category` (string) or `categories` (array); other
    /// properties that are Places API (New) field names go to the document,
    /// the rest is kept apart.
    static func decodeGeneric(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        let f = try feature(object) { (o, p) throws(DecodeError) -> String in
            guard let id = idString(p["id"]) ?? idString(o["id"]) else {
                if looksLikeOSMTags(p) { throw DecodeError(withoutOSMID) }
                throw DecodeError("GeoJSON feature without an id (properties.id or the feature's id)")
            }
            return id
        }
        // One pass over the properties: the special ones noted, every other
        // one to the document (a Places API (New) field) or apart. The keys
        // are unique (the parser keeps the last of a repeated one), so the
        // members are appended, not searched for.
        var name: JSONValue?, displayName: JSONValue?, typesValue: JSONValue?, category: JSONValue?,
            categories: JSONValue?, primary: JSONValue?
        var fields: [(key: String, value: JSONValue)] = []
        var rest: [(key: String, value: JSONValue)] = []
        fields.reserveCapacity(f.properties.count)
        rest.reserveCapacity(f.properties.count)
        for (k, v) in f.properties {
            // The name's length first: each case compares a count before a
            // string (11 string compares a feature otherwise).
            switch (k.utf8.count, k) {
            case (2, "id"): break
            case (4, "name"): name = v
            case (11, "displayName"): displayName = v
            case (5, "types"): typesValue = v
            case (8, "category"): category = v
            case (10, "categories"): categories = v
            case (11, "primaryType"): primary = v
            case (8, "location"), (8, "viewport"): rest.append((k, v))
            // The Places API fields most places carry, without hashing.
            case (6, "rating"), (15, "userRatingCount"): fields.append((k, v))
            default:
                if PlacesV1Decoder.knownFields.contains(k) { fields.append((k, v)) } else { rest.append((k, v)) }
            }
        }
        if let name, name != .null, name.stringValue == nil {
            throw FieldCheck.typeError("name", name, .string, placeID: f.placeID)
        }
        if name == nil || name == .null, let dn = displayName, dn != .null, dn.stringValue == nil, dn.objectValue == nil
        {
            throw DecodeError(
                "displayName is \(dn.kindDescription), expected a string or an object {\"text\": ...}",
                placeID: f.placeID)
        }
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(fields.count + 3)
        if let name = name?.stringValue {
            members.append(("displayName", text(name)))
        } else if let dn = displayName {
            if let t = dn.stringValue {
                members.append(("displayName", text(t)))
            } else if dn.objectValue != nil {
                members.append(("displayName", dn))
            }
        }
        var types: [String] = []
        if let t = typesValue {
            guard let list = t.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw DecodeError(
                    "properties.types is \(t.kindDescription == "an array" ? "not an array of strings" : t.kindDescription), expected an array of strings",
                    placeID: f.placeID)
            }
            types = list.compactMap(\.stringValue)
        } else if let c = category?.stringValue {
            types = [c]
        } else if let cs = categories?.arrayValue {
            types = cs.compactMap(\.stringValue)
        }
        if !types.isEmpty {
            members.append(("types", .array(types.map(JSONValue.string))))
            members.append(("primaryType", primary?.stringValue.map(JSONValue.string) ?? .string(types[0])))
        } else if let p = primary?.stringValue {
            members.append(("primaryType", .string(p)))
        }
        members += fields
        let doc = JSONObject(uniqueMembers: members)
        try FieldCheck.expect(doc, "rating", .number, placeID: f.placeID)
        try FieldCheck.expect(doc, "userRatingCount", .integer, placeID: f.placeID)
        var extra = JSONObject()
        if !rest.isEmpty {
            extra = JSONObject(uniqueMembers: [("properties", .object(JSONObject(uniqueMembers: rest)))])
        }
        return decoded(f, document: doc, extra: extra, format: .geojson)
    }
}

extension String {
    var trimmingSpacesString: String { String(Substring(self).trimmingSpaces) }
}
