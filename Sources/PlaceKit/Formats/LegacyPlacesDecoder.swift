import Foundation
import PlaceModel

/// Legacy Places web service results (snake_case), normalized to the
/// Places API (New) field names. Fields with no v1 counterpart (`id`,
/// `reference`, `scope`, `alt_ids`, `icon`, ...) are kept as extras.
enum LegacyPlacesDecoder {
    static func decode(_ object: JSONObject) throws(DecodeError) -> DecodedPlace {
        if let id = object["place_id"], id.stringValue == nil, id != .null {
            throw DecodeError("place_id is \(id.kindDescription), expected a string")
        }
        guard let pid = object["place_id"]?.stringValue, !pid.isEmpty else {
            throw DecodeError("no place ID (place_id)")
        }
        let geometry = object["geometry"]
        if let geometry, geometry != .null, geometry.objectValue == nil {
            throw DecodeError("geometry is \(geometry.kindDescription), expected an object", placeID: pid)
        }
        let location = geometry?["location"]
        if let location, location != .null, location.objectValue == nil {
            throw DecodeError("geometry.location is \(location.kindDescription), expected an object", placeID: pid)
        }
        let coordinate = try FieldCheck.coordinate(
            latitude: location?["lat"], longitude: location?["lng"], path: "geometry.location", placeID: pid)
        try FieldCheck.expect(object, "name", .string, placeID: pid)
        try FieldCheck.expect(object, "types", .stringArray, placeID: pid)
        try FieldCheck.expect(object, "formatted_address", .string, placeID: pid)
        try FieldCheck.expect(object, "rating", .number, placeID: pid)
        try FieldCheck.expect(object, "user_ratings_total", .integer, placeID: pid)
        try FieldCheck.expect(object, "utc_offset", .integer, placeID: pid)
        try FieldCheck.expect(object, "business_status", .string, placeID: pid)
        try FieldCheck.expect(object, "photos", .array, placeID: pid)
        try FieldCheck.expect(object, "address_components", .array, placeID: pid)
        try FieldCheck.expect(object, "opening_hours", .object, placeID: pid)
        try FieldCheck.expect(object, "current_opening_hours", .object, placeID: pid)
        try FieldCheck.expect(object, "secondary_opening_hours", .array, placeID: pid)
        try FieldCheck.expect(object, "price_level", .integer, placeID: pid)

        var doc = JSONObject()
        var extra = JSONObject()
        let language = object["language"]?.stringValue ?? responseLanguage(object)
        for (key, value) in object {
            if value == .null { continue }
            switch key {
            case "place_id": break
            case "geometry":
                doc["location"] = .null // placeholder keeps v1 order; set by Place
                if let vp = value["viewport"], let v = viewport(vp) { doc["viewport"] = v }
            case "name": doc["displayName"] = localized(value, language)
            case "types": doc["types"] = value
            case "formatted_address": doc["formattedAddress"] = value
            case "vicinity": doc["shortFormattedAddress"] = value
            case "adr_address": doc["adrFormatAddress"] = value
            case "address_components":
                doc["addressComponents"] = .array((value.arrayValue ?? []).map(addressComponent))
            case "formatted_phone_number": doc["nationalPhoneNumber"] = value
            case "international_phone_number": doc["internationalPhoneNumber"] = value
            case "website": doc["websiteUri"] = value
            case "url": doc["googleMapsUri"] = value
            case "rating": doc["rating"] = value
            case "user_ratings_total": doc["userRatingCount"] = value
            case "price_level":
                // An integer (checked above); 0-4 are the API's levels.
                guard let level = value.intValue, (0...4).contains(level) else {
                    throw DecodeError("price_level \(JSONWriter().string(value)) is out of range [0, 4]", placeID: pid)
                }
                doc["priceLevel"] = .string(priceLevels[level])
            case "business_status": doc["businessStatus"] = value
            case "permanently_closed":
                if value.boolValue == true, object["business_status"] == nil {
                    doc["businessStatus"] = "CLOSED_PERMANENTLY"
                }
                extra[key] = value
            case "utc_offset": doc["utcOffsetMinutes"] = value
            case "opening_hours": doc["regularOpeningHours"] = try openingHours(value, key, placeID: pid)
            case "current_opening_hours": doc["currentOpeningHours"] = try openingHours(value, key, placeID: pid)
            case "secondary_opening_hours":
                // The next seven days, with dates (v1's current secondary
                // hours); an entry without dates is a plain week.
                var current: [JSONValue] = [], regular: [JSONValue] = []
                for (i, entry) in (value.arrayValue ?? []).enumerated() {
                    let hours = try openingHours(entry, "\(key)[\(i)]", placeID: pid)
                    let dated = hours["periods"]?.arrayValue?.contains { $0["open"]?["date"] != nil } ?? false
                    if dated { current.append(hours) } else { regular.append(hours) }
                }
                if !current.isEmpty { doc["currentSecondaryOpeningHours"] = .array(current) }
                if !regular.isEmpty { doc["regularSecondaryOpeningHours"] = .array(regular) }
            case "photos": doc["photos"] = .array((value.arrayValue ?? []).compactMap { photo($0, placeID: pid) })
            case "reviews": doc["reviews"] = .array((value.arrayValue ?? []).map(review))
            case "plus_code":
                var pc = JSONObject()
                if let g = value["global_code"] { pc["globalCode"] = g }
                if let c = value["compound_code"] { pc["compoundCode"] = c }
                doc["plusCode"] = .object(pc)
            case "editorial_summary":
                var es = JSONObject()
                if let t = value["overview"] { es["text"] = t }
                if let l = value["language"] { es["languageCode"] = l }
                doc["editorialSummary"] = .object(es)
            case "icon_mask_base_uri": doc["iconMaskBaseUri"] = value
            case "icon_background_color": doc["iconBackgroundColor"] = value
            case "wheelchair_accessible_entrance":
                doc["accessibilityOptions"] = ["wheelchairAccessibleEntrance": value]
            default:
                if let v1 = booleanAttributes[key] { doc[v1] = value } else { extra[key] = value }
            }
        }
        if doc["location"] == nil { doc["location"] = .null }
        if let primary = primaryType(object["types"]?.arrayValue?.compactMap(\.stringValue) ?? []) {
            doc["primaryType"] = .string(primary)
        }
        // Deprecated IDs of the same place: the 40-hex `id`, the long
        // `reference` (equal to place_id in current responses) and `alt_ids`.
        var aliases: [AliasEdge] = []
        for key in ["id", "reference"] {
            if let old = object[key]?.stringValue, !old.isEmpty, old != pid {
                aliases.append(AliasEdge(aliasID: old, placeID: pid, reason: .deprecated))
            }
        }
        for alt in object["alt_ids"]?.arrayValue ?? [] {
            if let old = alt["place_id"]?.stringValue, !old.isEmpty, old != pid {
                aliases.append(AliasEdge(aliasID: old, placeID: pid, reason: .deprecated))
            }
        }
        return DecodedPlace(
            place: Place(id: PlaceID(pid), coordinate: coordinate, document: doc), extra: extra,
            format: .placesLegacy, aliases: aliases)
    }

    /// The v1 `primaryType` of a legacy `types` list, as the Places API
    /// (New) gives one: the first type of its table A (a type a place is
    /// filtered by), a legacy-only name read as its v1 one
    /// (`grocery_or_supermarket`: `grocery_store`); never the generic
    /// `point_of_interest` or `establishment` (nor `food`, `political`,
    /// `health`, ... of table B). Nil when none is.
    static func primaryType(_ types: [String]) -> String? {
        for t in types {
            let v1 = legacyTypeNames[t] ?? t
            if t != "point_of_interest", t != "establishment", PlaceTypes.tableA.contains(v1) { return v1 }
        }
        return nil
    }

    /// Legacy type names the Places API (New) spells otherwise.
    static let legacyTypeNames = ["grocery_or_supermarket": "grocery_store"]

    /// The language a legacy response was written in, when it says so
    /// (the legacy web service has no member for it): the weekday names
    /// of its `weekday_text` (`lundi: 06:00 – 22:30` is French; a table
    /// of 12 languages, used only when one alone names every day given),
    /// else `editorial_summary.language`, else the one `language` all its
    /// reviews share (reviews are translated into the request's language).
    /// Nil when nothing tells.
    static func responseLanguage(_ object: JSONObject) -> String? {
        for key in ["opening_hours", "current_opening_hours"] {
            let days = object[key]?["weekday_text"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if let l = weekdayLanguage(days) { return l }
        }
        if let l = object["editorial_summary"]?["language"]?.stringValue, !l.isEmpty { return l }
        let languages = Set((object["reviews"]?.arrayValue ?? []).compactMap { $0["language"]?.stringValue })
        if languages.count == 1, let l = languages.first, !l.isEmpty { return l }
        return nil
    }

    /// The language whose weekday names begin every line of `lines`
    /// (before `:`), when exactly one does.
    static func weekdayLanguage(_ lines: [String]) -> String? {
        guard !lines.isEmpty else { return nil }
        let names = lines.map { line -> String in
            let cut = line.firstIndex { $0 == ":" || $0 == "：" } ?? line.endIndex
            return line[..<cut].trimmingCharacters(in: .whitespaces).lowercased()
        }
        let fits = weekdayNames.filter { _, days in names.allSatisfy(days.contains) }
        return fits.count == 1 ? fits[0].language : nil
    }

    /// Weekday names, Monday first, by language.
    static let weekdayNames: [(language: String, days: Set<String>)] = [
        ("en", ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
        ("fr", ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]),
        ("de", ["montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag"]),
        ("es", ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]),
        ("it", ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"]),
        ("pt", ["segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo"]),
        ("nl", ["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"]),
        ("sv", ["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"]),
        ("fi", ["maanantai", "tiistai", "keskiviikko", "torstai", "perjantai", "lauantai", "sunnuntai"]),
        ("pl", ["poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota", "niedziela"]),
        ("ru", ["понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье"]),
        ("ja", ["月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日"]),
    ]

    static let priceLevels = [
        "PRICE_LEVEL_FREE", "PRICE_LEVEL_INEXPENSIVE", "PRICE_LEVEL_MODERATE", "PRICE_LEVEL_EXPENSIVE",
        "PRICE_LEVEL_VERY_EXPENSIVE",
    ]

    static let booleanAttributes: [String: String] = [
        "curbside_pickup": "curbsidePickup", "delivery": "delivery", "dine_in": "dineIn",
        "reservable": "reservable", "serves_beer": "servesBeer", "serves_breakfast": "servesBreakfast",
        "serves_brunch": "servesBrunch", "serves_dinner": "servesDinner", "serves_lunch": "servesLunch",
        "serves_vegetarian_food": "servesVegetarianFood", "serves_wine": "servesWine", "takeout": "takeout",
    ]

    static func localized(_ text: JSONValue, _ language: String?) -> JSONValue {
        var o = JSONObject([("text", text)])
        if let language { o["languageCode"] = .string(language) }
        return .object(o)
    }

    static func latLng(_ v: JSONValue) -> JSONValue? {
        guard let lat = v["lat"], let lng = v["lng"] else { return nil }
        return ["latitude": lat, "longitude": lng]
    }

    static func viewport(_ v: JSONValue) -> JSONValue? {
        guard let ne = v["northeast"].flatMap(latLng), let sw = v["southwest"].flatMap(latLng) else { return nil }
        return ["low": sw, "high": ne]
    }

    static func addressComponent(_ c: JSONValue) -> JSONValue {
        var o = JSONObject()
        if let v = c["long_name"] { o["longText"] = v }
        if let v = c["short_name"] { o["shortText"] = v }
        if let v = c["types"] { o["types"] = v }
        return .object(o)
    }

    /// Legacy `{"day": 1, "time": "0930", "date": "2024-01-01"}` -> v1 point
    /// `{"date": {...}, "day": 1, "hour": 9, "minute": 30}`. A time that is
    /// not HHMM, a day outside 0-6 or a malformed date is refused: read any
    /// other way it would move the hours.
    static func point(_ p: JSONValue, _ path: String, placeID: String) throws(DecodeError) -> JSONValue {
        guard let object = p.objectValue else {
            throw DecodeError("\(path) is \(p.kindDescription), expected an object", placeID: placeID)
        }
        var o = JSONObject()
        if let dateValue = object["date"], dateValue != .null {
            guard let text = dateValue.stringValue, let date = legacyDate(text) else {
                throw DecodeError(
                    "\(path).date \(JSONWriter().string(dateValue)) is not a date YYYY-MM-DD", placeID: placeID)
            }
            o["date"] = date
        }
        guard let day = object["day"]?.intValue, (0...6).contains(day) else {
            throw DecodeError(
                "\(path).day \(object["day"].map { JSONWriter().string($0) } ?? "(absent)") is not a weekday 0-6",
                placeID: placeID)
        }
        o["day"] = .int(Int64(day))
        let timeValue = object["time"]
        guard let time = timeValue?.stringValue, time.utf8.count == 4,
            time.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let hhmm = Int(time), hhmm / 100 <= 24, hhmm % 100 <= 59, hhmm <= 2400
        else {
            throw DecodeError(
                "\(path).time \(timeValue.map { JSONWriter().string($0) } ?? "(absent)") is not a time HHMM",
                placeID: placeID)
        }
        o["hour"] = .int(Int64(hhmm / 100))
        o["minute"] = .int(Int64(hhmm % 100))
        if let truncated = object["truncated"] { o["truncated"] = truncated }
        return .object(o)
    }

    /// `2023-04-03` -> `{"year": 2023, "month": 4, "day": 3}`; nil when malformed.
    static func legacyDate(_ text: String) -> JSONValue? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            let date = LocalDate(year: y, month: m, day: d)
        else { return nil }
        return date.json
    }

    static func openingHours(_ h: JSONValue, _ path: String, placeID: String) throws(DecodeError) -> JSONValue {
        guard h.objectValue != nil else {
            throw DecodeError("\(path) is \(h.kindDescription), expected an object", placeID: placeID)
        }
        var o = JSONObject()
        if let v = h["open_now"] { o["openNow"] = v }
        if let periodsValue = h["periods"], periodsValue != .null {
            guard let periods = periodsValue.arrayValue else {
                throw DecodeError(
                    "\(path).periods is \(periodsValue.kindDescription), expected an array", placeID: placeID)
            }
            var out: [JSONValue] = []
            for (i, p) in periods.enumerated() {
                var po = JSONObject()
                guard let open = p["open"], open != .null else {
                    throw DecodeError("\(path).periods[\(i)] has no open time", placeID: placeID)
                }
                po["open"] = try point(open, "\(path).periods[\(i)].open", placeID: placeID)
                if let close = p["close"], close != .null {
                    po["close"] = try point(close, "\(path).periods[\(i)].close", placeID: placeID)
                }
                out.append(.object(po))
            }
            o["periods"] = .array(out)
        }
        if let v = h["weekday_text"] { o["weekdayDescriptions"] = v }
        if let v = h["type"] { o["secondaryHoursType"] = v }
        if let v = h["special_days"]?.arrayValue {
            // v1 lists only the days with exceptional hours.
            var days: [JSONValue] = []
            for (i, d) in v.enumerated() where d["exceptional_hours"]?.boolValue != false {
                guard let text = d["date"]?.stringValue, let date = legacyDate(text) else {
                    throw DecodeError("\(path).special_days[\(i)].date is not a date YYYY-MM-DD", placeID: placeID)
                }
                days.append(["date": date])
            }
            if !days.isEmpty { o["specialDays"] = .array(days) }
        }
        return .object(o)
    }

    /// A response's `html_attributions` (the data providers to credit) as
    /// v1 `attributions`: `{provider, providerUri}` each.
    static func attributions(_ list: [JSONValue]) -> JSONValue? {
        let items: [JSONValue] = list.compactMap(\.stringValue).map { html in
            let a = parseAttribution(html)
            var o = JSONObject()
            if let name = a["displayName"]?.stringValue { o["provider"] = .string(name) }
            if let uri = a["uri"]?.stringValue { o["providerUri"] = .string(uri) }
            return .object(o)
        }
        return items.isEmpty ? nil : .array(items)
    }

    /// An `html_attributions` entry, `<a href="URI">Name</a>`, as a v1
    /// author attribution `{displayName, uri}`; HTML entities (`&amp;`,
    /// `&#39;`, ...) are decoded. Text without a link is the name.
    static func parseAttribution(_ html: String) -> JSONValue {
        var o = JSONObject()
        var name = Substring(html)
        var uri: String?
        if let open = html.range(of: "<a "), let gt = html[open.upperBound...].firstIndex(of: ">"),
            let close = html[gt...].range(of: "</a>")
        {
            uri = attribute("href", in: html[open.upperBound..<gt]).map(decodeEntities)
            name = html[html.index(after: gt)..<close.lowerBound]
        }
        o["displayName"] = .string(decodeEntities(name.trimmingSpaces))
        if let uri, !uri.isEmpty { o["uri"] = .string(uri) }
        return .object(o)
    }

    /// The value of `name="..."` (or `'...'`) in a tag's attributes.
    static func attribute(_ name: String, in tag: Substring) -> Substring? {
        guard let r = tag.range(of: name + "=") else { return nil }
        let rest = tag[r.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst()
        guard let end = value.firstIndex(of: quote) else { return nil }
        return value[..<end]
    }

    /// Decodes the HTML entities Google's attributions use: the five named
    /// XML ones and numeric `&#39;` / `&#x27;`. Anything else stays as is.
    static func decodeEntities<S: StringProtocol>(_ text: S) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == "&", let semi = text[i...].prefix(12).firstIndex(of: ";") {
                let entity = text[text.index(after: i)..<semi]
                var scalar: Unicode.Scalar?
                switch entity {
                case "amp": scalar = "&"
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    } else if entity.hasPrefix("#") {
                        scalar = UInt32(entity.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                    }
                }
                if let scalar {
                    out.unicodeScalars.append(scalar)
                    i = text.index(after: semi)
                    continue
                }
            }
            out.append(c)
            i = text.index(after: i)
        }
        return out
    }

    /// A legacy photo as a v1 `Photo`: `name` = places/{id}/photos/{photo_reference},
    /// `widthPx`, `heightPx`, `authorAttributions` (from `html_attributions`)
    /// and `googleMapsUri` (from `view_in_maps_url`). A photo without a
    /// reference cannot be named and is dropped.
    static func photo(_ p: JSONValue, placeID: String) -> JSONValue? {
        guard let ref = p["photo_reference"]?.stringValue, !ref.isEmpty else { return nil }
        var o = JSONObject([("name", .string("places/\(placeID)/photos/\(ref)"))])
        if let w = p["width"]?.intValue { o["widthPx"] = .int(Int64(w)) }
        if let h = p["height"]?.intValue { o["heightPx"] = .int(Int64(h)) }
        o["authorAttributions"] = .array(
            (p["html_attributions"]?.arrayValue ?? []).compactMap(\.stringValue).map(parseAttribution))
        if let url = p["view_in_maps_url"]?.stringValue { o["googleMapsUri"] = .string(url) }
        return .object(o)
    }

    static func review(_ r: JSONValue) -> JSONValue {
        var o = JSONObject()
        if let v = r["rating"] { o["rating"] = v }
        if let v = r["relative_time_description"] { o["relativePublishTimeDescription"] = v }
        if let t = r["text"] {
            var text = JSONObject([("text", t)])
            if let l = r["language"] { text["languageCode"] = l }
            o["text"] = .object(text)
        }
        var author = JSONObject()
        if let v = r["author_name"] { author["displayName"] = v }
        if let v = r["author_url"] { author["uri"] = v }
        if let v = r["profile_photo_url"] { author["photoUri"] = v }
        if !author.isEmpty { o["authorAttribution"] = .object(author) }
        if let t = r["time"]?.intValue, let time = RFC3339.string(fromUnixSeconds: Int64(t)) {
            o["publishTime"] = .string(time)
        }
        return .object(o)
    }
}
