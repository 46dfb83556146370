import Foundation

/// One stored place as same-place linking sees it: where it is, and every
/// feature `SamePlace.score` compares, computed once here (folded names,
/// tokens, phones, domains, house number, categories, brand, the source
/// record IDs it cites), so a score compares sorted integers only.
package struct LinkRecord: Sendable {
    public let placeID: String
    /// The import source name ("google", "osm", "overture", or user-given).
    public let source: String
    public let coordinate: Coordinate
    /// Half the diagonal of the place's footprint or viewport; 0 for a point.
    public let extentMeters: Double

    /// One name of the place (primary, localized, alternate, brand ...).
    struct NameForm: Sendable {
        /// Sorted distinct hashes of the name's tokens (`LinkText.nameTokens`).
        var tokens: [UInt64]
        /// Sorted hashes of the folded name's scalar bigrams.
        var bigrams: [UInt32]
        /// Hash of the tokens in order, without spaces: equal for names that
        /// fold alike ("HealthPoint", "Health Point").
        var key: UInt64
        /// Hash of the folded words joined, before abbreviations and stop
        /// words ("ApartmentsSkrivena", "Apartments Skrivena").
        var rawKey: UInt64
        /// Hash of the first token.
        var first: UInt64
        /// Sorted distinct hashes of the tokens' first 4 scalars ("pizzeria" ~ "pizza").
        var prefixes: [UInt64]
    }

    package var primaryNameForExplain: String { box.v.primaryName }

    /// The features, in one box: a LinkRecord copies with one retain.
    struct Features: Sendable {
        /// The primary name first (the display name), then the others; at most
        /// `maxNames`.
        var names: [NameForm] = []
        /// The folded primary name, for `--explain`.
        var primaryName: String = ""
        /// Facility words in the primary name (a bit per `facilityWords` entry).
        var facilities: UInt64 = 0
        /// Sorted hashes of the numbers in the primary name ("Terminal 2").
        var nameNumbers: [UInt64] = []
        var phones: [UInt64] = []
        var domains: [UInt64] = []
        /// Store numbers in the websites' paths, with their domain, hashed.
        var pathNumbers: [UInt64] = []
        /// Street-name words of the address (`LinkText.streetTokens`).
        var street: [UInt64] = []
        /// The house number's digits sorted, hashed (a transposition typo: "3105", "3015").
        var houseDigits: UInt64 = 0
        var socials: [UInt64] = []
        var emails: [UInt64] = []
        /// The house number (digits, leading zeros dropped) hashed; 0 for none.
        var houseNumber: UInt64 = 0
        var houseNumberText: String? = nil
        /// Whether the house number is a field of its own (a street_number
        /// component, OSM addr:housenumber), not read out of free text.
        var houseNumberStructured: Bool = false
        /// The postcode (letters and digits, up to a "-") hashed; 0 for none.
        var postcode: UInt64 = 0
        /// Sorted hashes of the specific categories (types, Overture categories), generic ones aside.
        var categories: [UInt64] = []
        /// `LinkCategories` groups of the primary category, and of all.
        var primaryGroups: UInt32 = 0
        var groups: UInt32 = 0
        /// Sorted hashes of the brand's names and wikidata ID.
        var brands: [UInt64] = []
        /// Sorted hashes of the IDs this record goes by (its place ID, an OSM
        /// "n123"), and of the upstream record IDs it cites (Overture
        /// `sources[].record_id`, without "@version").
        var ownIDs: [UInt64] = []
        var citedIDs: [UInt64] = []
        /// Hashes of "dataset\u{1}record_id" for each cited record and of the
        /// dataset alone, in the same order: two records citing other records
        /// of one dataset (two Meta pages) are two places to Overture.
        var citedRecords: [(dataset: UInt64, record: UInt64)] = []
        /// The record is a sign about a place (`signTypes`): an information
        /// board, a map, a guidepost, named after what it points to.
        var isSign: Bool = false
    }

    /// Primary types of signs (docs/osm-tags.md): a board about a castle
    /// bears the castle's name and stands near it, but is never the castle.
    static let signTypes: Set<String> = [
        "information_board", "information_map", "guidepost", "route_marker", "information_terminal",
    ]
    final class Box: Sendable {
        let v: Features
        init(_ v: Features) { self.v = v }
    }
    let box: Box

    static let maxNames = 7

    /// Words that make a name another facility of a brand ("Walmart Fuel
    /// Station" is not "Walmart"), each to its kind: one bit a kind.
    static let facilityWords: [String: String] = {
        var m: [String: String] = [:]
        let kinds: [(String, String)] = [
            ("fuel", "fuel gas petrol tankstelle gasolinera"), ("pharmacy", "pharmacy rx drugstore apotheke"),
            ("optical", "optical vision optician optik"), ("tire", "tire tyre"), ("auto", "auto automotive"),
            ("wash", "carwash wash"), ("atm", "atm geldautomat cajero bancomat multibanco"), ("bakery", "bakery"),
            ("deli", "deli"),
            ("garden", "garden"), ("photo", "photo"), ("pickup", "pickup"), ("liquor", "liquor"),
            ("hearing", "hearing"),
            ("clinic", "clinic"),
            ("parking", "parking garage parkhaus parkplatz tiefgarage aparcament estacionamiento parcheggio carpark"),
            ("cafe", "cafe cafeteria"), ("restaurant", "restaurant grill kitchen"),
            ("bar", "bar"), ("express", "express"), ("outlet", "outlet"), ("print", "print"), ("tech", "tech"),
            ("service", "service svc"), ("parts", "parts part"), ("collision", "collision body"), ("sales", "sales"),
            ("hosp", "hosp"), ("urgent", "urgent emergency"), ("lab", "lab imaging radiology"),
            ("pediatric", "pediatric kid kids children"),
            ("dental", "dental"), ("spa", "spa"), ("salon", "salon"), ("gym", "gym fitness"),
            ("hotel", "hotel residence suites"),
            ("apts", "apts"), ("office", "office"), ("warehouse", "warehouse depot distribution"),
            ("school", "school academy"),
            ("women", "women"), ("men", "men"), ("annex", "annex"), ("training", "training trainer"),
            ("clinicvac", "vaccination"),
            ("money", "money"), ("pool", "pool"),
            // A shopping centre and a store in it named after it ("Centre Comercial Pyrénées" / "Pyrénées").
            ("mall", "mall comercial commercial einkaufszentrum shoppingcenter galleria"),
        ]
        for (kind, words) in kinds { for w in words.split(separator: " ") { m[String(w)] = kind } }
        return m
    }()
    static let facilityKinds: [String: Int] = {
        var m: [String: Int] = [:]
        for k in Set(facilityWords.values).sorted() { m[k] = m.count }
        return m
    }()
    /// The category groups of each facility kind (by bit): a type word the
    /// other record's own categories already say ("Restaurant Cesare"
    /// against the restaurant "Cesare") is not another facility.
    static let facilityGroups: [UInt32] = {
        // Only words that name what kind of place it is, which mappers put
        // before a name ("Restaurant", "Hotel"); an ATM, a fuel station, a
        // pet shop's training or vaccination clinic is another place even
        // beside a bank, a store or a pet shop (the dev pairs' labels).
        let groupsOf: [String: [LinkCategories.Group]] = [
            "restaurant": [.food], "cafe": [.food, .drink], "bar": [.drink, .food], "hotel": [.lodging],
            "school": [.education],
            "gym": [.fitness], "bakery": [.food], "deli": [.food], "spa": [.beauty], "salon": [.beauty],
            "pool": [.fitness],
        ]
        var out = [UInt32](repeating: 0, count: facilityKinds.count)
        for (kind, bit) in facilityKinds {
            for g in groupsOf[kind] ?? [] { out[bit] |= 1 << UInt32(g.rawValue) }
        }
        return out
    }()
    /// Heads of compound words that are such a facility ("Gästeparkplatz").
    static let facilitySuffixes: [(String, String)] = [
        ("parkplatz", "parking"), ("parkhaus", "parking"), ("garage", "parking"), ("tankstelle", "fuel"),
    ]
    static let facilityIndex: [UInt64: Int] = {
        var m: [UInt64: Int] = [:]
        for (w, k) in facilityWords { m[LinkText.hash(w)] = facilityKinds[k]! }
        return m
    }()
    /// Primary categories that are such a facility standing apart (an ATM,
    /// a fuel station). A pharmacy or photo counter inside a store is the
    /// store to Overture's labels, so those are not here.
    static let facilityCategories: [String: String] = [
        "atm": "atm", "gas_station": "fuel", "fuel_station": "fuel", "petrol_station": "fuel", "parking": "parking",
        "shopping_mall": "mall", "shopping_center": "mall",
    ]

    /// Built from a stored place: `document` is its Places API (New) JSON
    /// document, `extra` its stored extras object (OSM `osm.tags`, Overture
    /// `overture`, `localizedNames`) or nil.
    public init(
        placeID: String, source: String, coordinate: Coordinate, extentMeters: Double, document: JSONValue,
        extra: JSONValue?
    ) {
        self.placeID = placeID
        self.source = source
        self.coordinate = coordinate
        self.extentMeters = extentMeters.isFinite ? max(0, extentMeters) : 0
        var ft = Features()
        let tags = extra?["osm"]?["tags"]?.objectValue
        let overture = extra?["overture"]?.objectValue
        func tag(_ k: String) -> String? {
            guard let s = tags?[k]?.stringValue else { return nil }
            let t = Substring(s).trimmingSpaces
            return t.isEmpty ? nil : String(t)
        }
        func tagList(_ k: String) -> [String] {
            (tag(k) ?? "").split(separator: ";").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
        }

        // Names: the display name, then localized, alternate, official, brand names.
        var rawNames: [String] = []
        func addName(_ s: String?) {
            guard let s, !s.isEmpty, !rawNames.contains(s) else { return }
            rawNames.append(s)
        }
        addName(document["displayName"]?["text"]?.stringValue ?? document["displayName"]?.stringValue)
        addName(tag("name"))
        addName(overture?["names"]?["primary"]?.stringValue)
        for (_, v) in extra?["localizedNames"]?.objectValue ?? JSONObject() { addName(v.stringValue) }
        for (_, v) in overture?["names"]?["common"]?.objectValue ?? JSONObject() { addName(v.stringValue) }
        for rule in overture?["names"]?["rules"]?.arrayValue ?? [] { addName(rule["value"]?.stringValue) }
        for k in ["official_name", "alt_name", "old_name", "short_name", "int_name", "loc_name"] {
            for n in tagList(k) { addName(n) }
        }
        if let tags { for (k, v) in tags where k.hasPrefix("name:") { addName(v.stringValue) } }

        var brandNames: [String] = []
        if let b = tag("brand") { brandNames.append(b) }
        if let b = overture?["brand"]?["names"]?["primary"]?.stringValue { brandNames.append(b) }
        for (_, v) in overture?["brand"]?["names"]?["common"]?.objectValue ?? JSONObject() {
            if let s = v.stringValue { brandNames.append(s) }
        }
        brandNames = brandNames.filter { !Substring($0).trimmingSpaces.isEmpty }
        var brandHashes: [UInt64] = brandNames.map {
            LinkText.hash(LinkText.nameTokens(LinkText.foldedWords($0)).joined())
        }
        if let w = tag("brand:wikidata") ?? overture?["brand"]?["wikidata"]?.stringValue, !w.isEmpty {
            brandHashes.append(LinkText.hash("wd:" + w))
        }
        ft.brands = Array(Set(brandHashes)).sorted()
        // The brand is a name of the place too (last: the place's own names first).
        for b in brandNames { addName(b) }

        // German umlauts written out ("Baeckerei" for "Bäckerei"): another form.
        for raw in rawNames.prefix(Self.maxNames)
        where raw.unicodeScalars.contains(where: { "äöüÄÖÜ".unicodeScalars.contains($0) }) {
            var t = raw
            for (u, e) in [("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue")] {
                t = t.replacingOccurrences(of: u, with: e)
            }
            if !rawNames.contains(t) { rawNames.append(t) }
            break
        }
        var forms: [NameForm] = []
        var primaryFolded = ""
        var facilities: UInt64 = 0
        var numbers: [UInt64] = []
        for (i, raw) in rawNames.prefix(Self.maxNames).enumerated() {
            let words = LinkText.foldedWords(raw)
            let tokens = LinkText.nameTokens(words)
            let hashes = tokens.map(LinkText.hash)
            if i == 0 {
                primaryFolded = tokens.joined(separator: " ")
                for (t, h) in zip(tokens, hashes) {
                    if let bit = Self.facilityIndex[h] { facilities |= 1 << UInt64(bit); continue }
                    for (suffix, kind) in Self.facilitySuffixes where t.hasSuffix(suffix) {
                        if let bit = Self.facilityKinds[kind] { facilities |= 1 << UInt64(bit) }
                    }
                }
                for t in tokens where t.utf8.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true {
                    numbers.append(LinkText.hash(t))
                }
            }
            let key = LinkText.hash(tokens.joined())
            if forms.contains(where: { $0.key == key }) { continue }
            let prefixes = tokens.map { LinkText.hash(String(String.UnicodeScalarView($0.unicodeScalars.prefix(4)))) }
            forms.append(
                NameForm(
                    tokens: Array(Set(hashes)).sorted(), bigrams: LinkText.bigrams(tokens),
                    key: key, rawKey: LinkText.hash(words.joined()), first: hashes.first ?? 0,
                    prefixes: Array(Set(prefixes)).sorted()))
        }
        ft.names = forms
        ft.primaryName = primaryFolded
        var facilityBits = facilities
        ft.nameNumbers = Array(Set(numbers)).sorted()

        // Phones: the document's forms, OSM's tags, Overture's list.
        var phoneKeys: [UInt64] = []
        func addPhone(_ s: String?) { if let s, let k = LinkText.phoneKey(s) { phoneKeys.append(k) } }
        addPhone(document["internationalPhoneNumber"]?.stringValue)
        addPhone(document["nationalPhoneNumber"]?.stringValue)
        for k in ["phone", "contact:phone", "contact:mobile", "mobile"] { for p in tagList(k) { addPhone(p) } }
        for p in overture?["phones"]?.arrayValue ?? [] { addPhone(p.stringValue) }
        ft.phones = Array(Set(phoneKeys)).sorted()

        // Websites: registrable domains, platforms aside.
        var domainHashes: [UInt64] = []
        var pathHashes: [UInt64] = []
        func addSite(_ s: String?) {
            guard let s, let d = LinkText.registrableDomain(s) else { return }
            domainHashes.append(LinkText.hash(d))
            pathHashes += LinkText.pathNumbers(s, domain: d)
        }
        addSite(document["websiteUri"]?.stringValue)
        for k in ["website", "contact:website", "url"] { for w in tagList(k) { addSite(w) } }
        for w in overture?["websites"]?.arrayValue ?? [] { addSite(w.stringValue) }
        ft.domains = Array(Set(domainHashes)).sorted()
        ft.pathNumbers = Array(Set(pathHashes)).sorted()

        // Social pages: the page itself (host and path), not the platform.
        var socialHashes: [UInt64] = []
        func addSocial(_ s: String?) {
            guard let s else { return }
            var t = Substring(s.lowercased())
            if let r = t.range(of: "://") { t = t[r.upperBound...] }
            if t.hasPrefix("www.") { t = t.dropFirst(4) }
            if t.hasPrefix("m.") { t = t.dropFirst(2) }
            if let q = t.firstIndex(where: { $0 == "?" || $0 == "#" }) { t = t[..<q] }
            while t.hasSuffix("/") { t = t.dropLast() }
            guard t.contains("/") else { return }
            socialHashes.append(LinkText.hash(String(t)))
        }
        for s in overture?["socials"]?.arrayValue ?? [] { addSocial(s.stringValue) }
        for k in ["contact:facebook", "facebook", "contact:instagram", "contact:twitter"] { addSocial(tag(k)) }
        ft.socials = Array(Set(socialHashes)).sorted()

        var emailHashes: [UInt64] = []
        for e in overture?["emails"]?.arrayValue ?? [] {
            if let s = e.stringValue { emailHashes.append(LinkText.hash(s.lowercased())) }
        }
        for k in ["email", "contact:email"] {
            for e in tagList(k) { emailHashes.append(LinkText.hash(e.lowercased())) }
        }
        ft.emails = Array(Set(emailHashes)).sorted()

        // House number and postcode: components, OSM tags, Overture addresses.
        var house: String?
        var structured = false
        var post: String?
        var streetText: String?
        for c in document["addressComponents"]?.arrayValue ?? [] {
            let types = c["types"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let text = c["longText"]?.stringValue ?? c["long_name"]?.stringValue
            if house == nil, types.contains("street_number"), let t = text {
                house = LinkText.houseNumber(component: t); structured = house != nil
            }
            if post == nil, types.contains("postal_code"), let t = text { post = t }
            if streetText == nil, types.contains("route"), let t = text { streetText = t }
        }
        if house == nil, let h = tag("addr:housenumber") {
            house = LinkText.houseNumber(component: h); structured = house != nil
        }
        if post == nil { post = tag("addr:postcode") }
        if streetText == nil { streetText = tag("addr:street") ?? tag("addr:place") }
        if let address = overture?["addresses"]?.arrayValue?.first {
            if let f = address["freeform"]?.stringValue {
                if house == nil { house = LinkText.houseNumber(freeform: f) }
                if streetText == nil { streetText = f }
            }
            if post == nil { post = address["postcode"]?.stringValue }
        }
        if tags == nil, overture == nil, document["addressComponents"] == nil,
            let f = document["formattedAddress"]?.stringValue ?? document["shortFormattedAddress"]?.stringValue
        {
            if house == nil { house = LinkText.houseNumber(freeform: f) }
            if streetText == nil { streetText = f }
        }
        ft.street = streetText.map(LinkText.streetTokens) ?? []
        ft.houseDigits = house.map { LinkText.hash(String($0.sorted())) } ?? 0
        ft.houseNumberText = house
        ft.houseNumberStructured = structured
        ft.houseNumber = house.map(LinkText.hash) ?? 0
        if let p = post {
            let head = p.split(separator: "-").first.map(String.init) ?? p
            let cleaned = String(
                head.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.map(
                    Character.init)
            ).uppercased()
            ft.postcode = cleaned.isEmpty ? 0 : LinkText.hash(cleaned)
        } else {
            ft.postcode = 0
        }

        // Categories: the document's types, Overture's own categories.
        var cats: [String] = []
        var primary: String?
        if let p = document["primaryType"]?.stringValue { primary = p }
        for t in document["types"]?.arrayValue ?? [] { if let s = t.stringValue { cats.append(s) } }
        if let c = overture?["categories"]?.objectValue {
            if let p = c["primary"]?.stringValue { cats.append(p); primary = primary ?? p }
            for a in c["alternate"]?.arrayValue ?? [] { if let s = a.stringValue { cats.append(s) } }
        }
        if let p = overture?["basic_category"]?.stringValue { cats.append(p) }
        if let p = overture?["taxonomy"]?["primary"]?.stringValue { cats.append(p) }
        var catHashes: [UInt64] = []
        var all: UInt32 = 0
        for c in cats where !LinkCategories.isGeneric(c) {
            let info = LinkCategories.info(c)
            if info.key != 0 { catHashes.append(info.key) }
            all |= info.groups
        }
        ft.categories = Array(Set(catHashes)).sorted()
        ft.groups = all
        var pg: UInt32 = 0
        if let p = primary {
            let info = LinkCategories.info(p)
            pg = info.groups
            if info.facility >= 0 { facilityBits |= 1 << UInt64(info.facility) }
        }
        ft.facilities = facilityBits
        ft.isSign = primary.map(Self.signTypes.contains) ?? false
        if let p = overture?["categories"]?["primary"]?.stringValue { pg |= LinkCategories.groups(p) }
        ft.primaryGroups = pg

        // IDs: its own, and the upstream records it cites.
        var own: [UInt64] = [LinkText.hash(placeID)]
        // An OpenStreetMap place is cited by osmium's short form (`n123`).
        if let short = PlaceIDSpelling.osmShortForm(placeID) {
            own.append(LinkText.hash(short))
        }
        var cited: [UInt64] = []
        var records: [(dataset: UInt64, record: UInt64)] = []
        for s in overture?["sources"]?.arrayValue ?? [] {
            guard let r = s["record_id"]?.stringValue ?? s["record_id"]?.intValue.map(String.init), !r.isEmpty else {
                continue
            }
            let id = String(r.split(separator: "@").first ?? Substring(r))
            let h = LinkText.hash(id)
            cited.append(h)
            let dataset = (s["dataset"]?.stringValue ?? "").lowercased()
            records.append((LinkText.hash(dataset), h))
        }
        // The place's own Wikidata item (OSM's wikidata tag, not
        // brand:wikidata) names it as well as a cited record ID does.
        if let w = tag("wikidata"), w.hasPrefix("Q") {
            own.append(LinkText.hash("wikidata:" + w))
            cited.append(LinkText.hash("wikidata:" + w))
        }
        ft.ownIDs = Array(Set(own)).sorted()
        ft.citedIDs = Array(Set(cited)).sorted()
        ft.citedRecords = records
        box = Box(ft)
    }

    /// Half the diagonal of a viewport in meters (the extent a stored
    /// place's `viewport` gives), 0 without one, and 0 for a viewport that
    /// says nothing of the place's size (`ViewportEvidence`: Google's
    /// default map view of about 300 m for an ATM as for a station, an
    /// inverted or too large one): only a decoder's geometry box or a view
    /// fitted to a park or an airport is an extent.
    public static func extentMeters(viewport: JSONValue?) -> Double {
        guard ViewportEvidence.classify(viewport) == .extent else { return 0 }
        guard let low = viewport?["low"], let high = viewport?["high"],
            let la = low["latitude"]?.doubleValue, let lo = low["longitude"]?.doubleValue,
            let ha = high["latitude"]?.doubleValue, let ho = high["longitude"]?.doubleValue
        else { return 0 }
        let d = Coordinate(latitude: la, longitude: lo).distance(to: Coordinate(latitude: ha, longitude: ho)) / 2
        return d.isFinite ? d : 0
    }
}
