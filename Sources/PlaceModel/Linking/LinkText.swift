import Foundation

/// Text folding for same-place linking (`SamePlace`): names and addresses of
/// every script reduced to comparable words, computed once per record
/// (`LinkRecord.init`), so a score compares integers only.
///
/// Folding: compatibility forms (full-width Latin and digits, ligatures) to
/// their plain letters; lower case; diacritics removed in every script
/// (Latin "é" -> "e", Greek "ά" -> "α", Cyrillic "й" -> "и", "ё" -> "е",
/// Arabic harakat and hamza carriers); letters that do not decompose mapped
/// by hand ("ß" -> "ss", "ø" -> "o", "ł" -> "l", "æ" -> "ae", Greek final
/// sigma); Arabic and Persian letter variants to one form ("ي"/"ى" -> "ی",
/// "ك" -> "ک", "ة" -> "ه", "أ"/"إ"/"آ"/"ٱ" -> "ا", tatweel dropped);
/// Arabic-Indic and Persian digits to ASCII. Letters and digits make words;
/// everything else separates them. A name that folds to no word at all
/// ("★", "!!!") keeps its own non-space scalars as its one word: a name is
/// never folded to nothing.
package enum LinkText {
    /// The folded words of `text` (no abbreviation or stop-word handling).
    public static func foldedWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        func flush() { if !word.isEmpty { words.append(String(word)); word.removeAll() } }
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        // Latin letters with diacritics (most names that are not ASCII):
        // folded by TextFolding's table, without Foundation's normalization.
        let isLatin =
            !isASCII
            && text.unicodeScalars.allSatisfy { s in
                let v = s.value
                return v < 0x250 || (v >= 0x1E00 && v < 0x1F00) || v == 0x2019 || v == 0x2018
            }
        let source: String.UnicodeScalarView
        if isASCII || isLatin {
            source = text.unicodeScalars
        } else {
            // NFKC (compatibility forms), then NFD (letters apart from their marks).
            source = text.precomposedStringWithCompatibilityMapping.decomposedStringWithCanonicalMapping.unicodeScalars
        }
        var previous: UInt32 = 0
        for scalar in source {
            let v = scalar.value
            // Thai: two sara e typed for one sara ae ("เเ" for "แ").
            if v == 0x0E40 && previous == 0x0E40, let last = word.last, last.value == 0x0E40 {
                word.removeLast()
                word.append(Unicode.Scalar(0x0E41)!)
                previous = 0
                continue
            }
            previous = v
            if v < 0x80 {
                if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) {
                    word.append(scalar)
                } else if v >= 0x41 && v <= 0x5A {
                    word.append(Unicode.Scalar(UInt8(v + 32)))
                } else if v == 0x27 || v == 0x60 {
                    // An apostrophe joins ("Xavier's" -> "xaviers").
                    continue
                } else {
                    flush()
                }
                continue
            }
            if v == 0x2019 || v == 0x2018 || v == 0xB4 || v == 0x2BC { continue }
            if let mapped = special[v] {
                if mapped.isEmpty { continue }
                word.append(contentsOf: mapped.unicodeScalars)
                continue
            }
            if isLatin && TextFolding.isLatinLetter(v) {
                word.append(contentsOf: TextFolding.folded(scalar).unicodeScalars)
                continue
            }
            if (0x0660...0x0669).contains(v) { word.append(Unicode.Scalar(UInt8(0x30 + v - 0x0660))); continue }
            if (0x06F0...0x06F9).contains(v) { word.append(Unicode.Scalar(UInt8(0x30 + v - 0x06F0))); continue }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark, .format:
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber:
                let lower = scalar.properties.lowercaseMapping
                if lower.unicodeScalars.count == 1, let l = lower.unicodeScalars.first, let m = special[l.value] {
                    word.append(contentsOf: m.unicodeScalars)
                } else {
                    word.append(contentsOf: lower.unicodeScalars)
                }
            default:
                flush()
            }
        }
        flush()
        if words.isEmpty {
            // Never nothing: the name's own scalars, white space aside.
            let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
            if !kept.isEmpty { words.append(kept) }
        }
        return words
    }

    /// Letters folded by hand (no canonical decomposition, or script variants).
    static let special: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "ss", 0xF8: "o", 0xD8: "o", 0x142: "l", 0x141: "l", 0xE6: "ae", 0xC6: "ae",
        0x153: "oe", 0x152: "oe", 0x111: "d", 0x110: "d", 0x131: "i", 0xFE: "th", 0xF0: "d",
        0x3C2: "σ", // Greek final sigma
        // Arabic and Persian letter variants
        0x64A: "ی", 0x649: "ی", 0x626: "ی", 0x643: "ک", 0x629: "ه", 0x6C0: "ه", 0x623: "ا", 0x625: "ا", 0x622: "ا",
        0x671: "ا", 0x624: "و", 0x640: "",
            // Hebrew final forms are letters of their own; left as they are.
    ]

    /// Whether a scalar is of a script written without spaces between words
    /// (Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar).
    static func isUnspaced(_ v: UInt32) -> Bool {
        (0x3040...0x30FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0x1100...0x11FF).contains(v)
            || (0x0E00...0x0EFF).contains(v) || (0x1780...0x17FF).contains(v) || (0x1000...0x109F).contains(v)
            || (0x20000...0x2FFFF).contains(v)
    }

    // MARK: Name tokens

    /// Words that say little about which place a name is: articles and
    /// conjunctions ("&" is not a word at all), legal forms.
    static let stopWords: Set<String> = [
        "the", "and", "of", "a", "an", "at", "by", "for", "in", "on", "de", "del", "des", "du", "la", "le", "les", "el",
        "los", "las",
        "der", "die", "das", "und", "et", "y", "e", "di", "da", "do", "dos", "il", "lo", "van", "von", "het", "en",
        "inc", "incorporated", "llc", "ltd", "limited", "co", "company", "corp", "corporation", "gmbh", "ag", "sa",
        "sas", "sarl",
        "srl", "spa", "plc", "pty", "llp", "pc", "pllc", "kg", "bv", "nv", "oy", "ab", "as", "ltda", "mbh", "ug", "kft",
        "zrt",
        "sl", "cv", "pvt", "private", "lp", "ohg", "ev",
    ]

    /// Abbreviations and their long forms to one token.
    static let abbreviations: [String: String] = [
        "street": "st", "str": "st", "strasse": "st", "saint": "st", "sankt": "st", "ste": "st", "sainte": "st",
        "avenue": "ave", "av": "ave", "avda": "ave", "road": "rd", "drive": "dr", "doctor": "dr", "boulevard": "blvd",
        "highway": "hwy", "lane": "ln", "parkway": "pkwy", "place": "pl", "square": "sq", "mount": "mt",
        "mountain": "mt",
        "fort": "ft", "center": "ctr", "centre": "ctr", "cntr": "ctr", "international": "intl", "university": "univ",
        "hospital": "hosp", "services": "svc", "service": "svc", "svcs": "svc", "brothers": "bros",
        "department": "dept",
        "national": "natl", "association": "assoc", "assn": "assoc", "apartments": "apts", "apartment": "apts",
        "north": "n", "south": "s", "east": "e", "west": "w", "number": "no", "nr": "no", "mister": "mr",
        "technologies": "tech", "technology": "tech", "manufacturing": "mfg", "restaurante": "restaurant",
        "ristorante": "restaurant", "pharmacie": "pharmacy", "farmacia": "pharmacy", "apotheke": "pharmacy",
        "hotels": "hotel", "laboratory": "lab", "laboratories": "lab", "insurance": "ins",
    ]

    /// A name's comparable tokens: folded words, abbreviations to one
    /// form, a plural "s" of a Latin word of 5+ letters dropped, stop words
    /// dropped (unless nothing else is left).
    public static func nameTokens(_ words: [String]) -> [String] {
        var out: [String] = []
        for w in words {
            var t = abbreviations[w] ?? w
            if t.utf8.count >= 5, t.utf8.allSatisfy({ $0 < 0x80 }), t.hasSuffix("s"), !t.hasSuffix("ss") {
                t.removeLast()
                t = abbreviations[t] ?? t
            }
            out.append(t)
        }
        let kept = out.filter { !stopWords.contains($0) }
        return kept.isEmpty ? out : kept
    }

    /// Words of a street name that say what kind of street it is, not which.
    static let streetKinds: Set<String> = [
        "st", "ave", "rd", "dr", "blvd", "hwy", "ln", "pkwy", "pl", "sq", "n", "s", "e", "w", "ne", "nw", "se", "sw",
        "ct", "cir", "way",
        "ter", "trl", "via", "viale", "calle", "c", "carrera", "cra", "cl", "rua", "r", "avenida", "avda", "estrada",
        "rodovia", "strada", "piazza", "largo",
        "rue", "bd", "chemin", "route", "allee", "weg", "gasse", "platz", "ulica", "ul", "utca", "ut", "jalan", "jl",
        "road", "no", "ste", "suite", "unit",
        "floor", "fl", "apt", "bldg", "building", "shop", "lot", "km", "sn", "s/n", "esq", "entre", "y", "between",
        "exit", "loja", "sala", "qd", "lj",
        "local", "piso", "mz", "lt", "col", "colonia", "barrio", "bairro", "vila", "sector", "block", "blk", "plot",
        "near", "opp", "opposite",
    ]

    /// The words that name the street of a free-form address (its first
    /// part with letters), as 5-scalar prefixes hashed: numbers, street kinds
    /// ("St", "Via") and stop words aside.
    public static func streetTokens(_ address: String) -> [UInt64] {
        if address.unicodeScalars.contains(where: { isUnspaced($0.value) }) { return [] }
        var out: [UInt64] = []
        for part in address.split(separator: ",") {
            for w in nameTokens(foldedWords(String(part))) {
                if w.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { continue }
                if streetKinds.contains(w) || stopWords.contains(w) || w.unicodeScalars.count < 2 { continue }
                out.append(hash(String(String.UnicodeScalarView(w.unicodeScalars.prefix(5)))))
            }
            if !out.isEmpty { break }
        }
        return Array(Set(out)).sorted()
    }

    /// A category in one vocabulary-free form: the last segment of a path
    /// ("Dining and Drinking > Restaurant > Fast Food Restaurant" ->
    /// "fast_food_restaurant"), folded, plural "s" dropped ("atms" -> "atm").
    public static func categoryKey(_ category: String) -> String {
        let last = category.split(separator: ">").last.map(String.init) ?? category
        var words = foldedWords(last)
        if let l = words.last, l.utf8.count >= 4, l.hasSuffix("s"), !l.hasSuffix("ss") {
            words[words.count - 1] = String(l.dropLast())
        }
        return words.joined(separator: "_")
    }

    /// The page of a web address (its path, lower-cased, without query)
    /// and the numbers of 3+ digits in its path (a chain's store number:
    /// walmart.com/store/1971), each with the domain, hashed; empty for a
    /// home page.
    public static func pathNumbers(_ uri: String, domain: String) -> [UInt64] {
        var s = Substring(uri)
        if let r = s.range(of: "://") { s = s[r.upperBound...] }
        guard let slash = s.firstIndex(of: "/") else { return [] }
        var path = s[slash...]
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<q] }
        var out: [UInt64] = []
        // The page itself (a store's page, an agent's page), index pages aside.
        var page = path.lowercased()
        for suffix in ["/index.html", "/index.htm", "/index.php", "/home", "/"] where page.hasSuffix(suffix) {
            page = String(page.dropLast(suffix.count))
        }
        if !page.isEmpty && page != "/" { out.append(hash(domain + page)) }
        var run = ""
        for c in path + "/" {
            if c.isASCII && c.isNumber {
                run.append(c)
            } else {
                if run.count >= 3 && run.count <= 10 { out.append(hash(domain + "/" + run)) }
                run = ""
            }
        }
        return out
    }

    // MARK: Hashes

    /// FNV-1a of a string's UTF-8 (stable across runs, unlike `Hasher`).
    @inline(__always)
    static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }

    /// Sorted hashes of the scalar bigrams of `text` (one unigram for a
    /// text of one scalar): the name's shape, spaces aside.
    static func bigrams(_ words: [String]) -> [UInt32] {
        var scalars: [UInt32] = []
        for w in words { for s in w.unicodeScalars { scalars.append(s.value) } }
        if scalars.count == 1 { return [scalars[0] &* 0x9E3779B1] }
        var out: [UInt32] = []
        out.reserveCapacity(max(0, scalars.count - 1))
        for i in 0..<max(0, scalars.count - 1) {
            out.append((scalars[i] &* 0x9E3779B1) ^ (scalars[i + 1] &* 0x85EBCA77 &+ 0x27D4EB2F))
        }
        out.sort()
        return out
    }

    /// Size of the multiset intersection of two sorted arrays.
    @inline(__always)
    static func commonCount<T: Comparable>(_ a: [T], _ b: [T]) -> Int {
        var i = 0, j = 0, n = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { n += 1; i += 1; j += 1 } else if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return n
    }

    // MARK: Phones, domains, house numbers

    /// A phone's comparable key: its last 9 digits (a national trunk "0",
    /// a country code or "00" before them do not matter), or all its digits
    /// when it has 6 to 8; nil for fewer than 6.
    public static func phoneKey(_ phone: String) -> UInt64? {
        var digits: [UInt8] = []
        for s in phone.unicodeScalars {
            let v = s.value
            if v >= 0x30 && v <= 0x39 {
                digits.append(UInt8(v - 0x30))
            } else if (0x0660...0x0669).contains(v) {
                digits.append(UInt8(v - 0x0660))
            } else if (0x06F0...0x06F9).contains(v) {
                digits.append(UInt8(v - 0x06F0))
            } else if (0xFF10...0xFF19).contains(v) {
                digits.append(UInt8(v - 0xFF10))
            }
        }
        guard digits.count >= 6 else { return nil }
        var key: UInt64 = UInt64(min(digits.count, 9))
        for d in digits.suffix(9) { key = key &* 10 &+ UInt64(d) }
        return key
    }

    /// Hosts that name a platform, not the place: social networks, link
    /// pages, aggregators, site builders, maps.
    static let platformHosts: Set<String> = [
        "facebook.com", "fb.com", "fb.me", "instagram.com", "twitter.com", "x.com", "tiktok.com", "youtube.com",
        "youtu.be",
        "linkedin.com", "pinterest.com", "yelp.com", "tripadvisor.com", "google.com", "goo.gl", "g.page",
        "business.site",
        "linktr.ee", "linktree.com", "amazon.com", "wixsite.com", "wix.com", "wordpress.com", "blogspot.com",
        "squarespace.com",
        "weebly.com", "godaddysites.com", "sites.google.com", "foursquare.com", "booking.com", "expedia.com",
        "hotels.com",
        "airbnb.com", "zomato.com", "ubereats.com", "doordash.com", "grubhub.com", "opentable.com", "yellowpages.com",
        "bit.ly", "tinyurl.com", "wa.me", "whatsapp.com", "t.me", "vk.com", "ok.ru", "line.me", "weibo.com",
        "apple.com",
        "bing.com", "yandex.ru", "yandex.com", "tripadvisor.co.uk", "tripadvisor.de", "tripadvisor.fr",
        "tripadvisor.es",
        "tripadvisor.it", "yelp.ca", "yelp.co.uk", "myshopify.com", "shopify.com", "jimdo.com", "jimdosite.com",
        "webnode.com",
        "carrd.co", "calendly.com", "square.site", "toasttab.com", "order.online", "menufy.com", "healthgrades.com",
        "zocdoc.com", "vitals.com", "realtor.com", "zillow.com", "houzz.com", "angi.com", "homeadvisor.com",
        "thumbtack.com",
        "nextdoor.com", "mapquest.com", "waze.com", "here.com", "openstreetmap.org", "wikipedia.org", "wikidata.org",
        "sites.app", "site123.me", "ueniweb.com", "negocio.site", "ola.click", "taplink.cc", "beacons.ai", "bio.link",
    ]

    /// Second-level labels under which a country's registrable domains sit
    /// (example.co.uk, example.com.au).
    static let secondLevels: Set<String> = [
        "co", "com", "net", "org", "gov", "edu", "ac", "or", "ne", "go", "gob", "nic", "mil", "gv", "ltd", "plc", "sch",
        "nom", "gen", "biz", "info", "med",
    ]

    /// The registrable domain of a web address ("https://www.shop.example.co.uk/x"
    /// -> "example.co.uk"); nil for none, or for a platform host.
    public static func registrableDomain(_ uri: String) -> String? {
        var s = Substring(uri.lowercased())
        if let r = s.range(of: "://") { s = s[r.upperBound...] }
        if let end = s.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { s = s[..<end] }
        if let at = s.lastIndex(of: "@") { s = s[s.index(after: at)...] }
        if let colon = s.firstIndex(of: ":") { s = s[..<colon] }
        while s.hasSuffix(".") { s = s.dropLast() }
        let labels = s.split(separator: ".")
        guard labels.count >= 2 else { return nil }
        var take = 2
        if labels.count >= 3, labels[labels.count - 1].count == 2,
            secondLevels.contains(String(labels[labels.count - 2]))
        {
            take = 3
        }
        let domain = labels.suffix(take).joined(separator: ".")
        if platformHosts.contains(domain) { return nil }
        // A platform's subdomain (cafe.wixsite.com, sites.google.com/...).
        for i in 0..<(labels.count - 1) where platformHosts.contains(labels[i...].joined(separator: ".")) { return nil }
        // A platform by its first label in any country (facebook.de, yelp.fr).
        let first = String(labels[labels.count - take])
        if [
            "facebook", "instagram", "yelp", "tripadvisor", "google", "amazon", "booking", "twitter", "tiktok",
            "linkedin", "youtube", "wixsite", "foursquare",
        ].contains(first) {
            return nil
        }
        return domain
    }

    /// The house number of a free-form street address ("825 E 1180 S" ->
    /// "825", "Calle Milicias, 4" -> "4", "Miskolctapolcai út 25-27" ->
    /// "25"): the leading number, else the first number of the first part
    /// that has one. Ordinals ("1st Floor") and floor/suite numbers after
    /// them are not house numbers. nil for addresses in unspaced scripts
    /// (Japanese block numbers), or without a number.
    public static func houseNumber(freeform: String) -> String? {
        if freeform.unicodeScalars.contains(where: { isUnspaced($0.value) }) { return nil }
        for part in freeform.split(separator: ",") {
            let words = part.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "#" })
            for (i, w) in words.enumerated() {
                guard let n = leadingNumber(w) else { continue }
                // After "suite", "ste", "unit", "floor", "apt", "no" ... not a house number.
                if i > 0 {
                    let prev = words[i - 1].lowercased()
                    if ["suite", "ste", "unit", "apt", "floor", "fl", "room", "rm", "office", "shop", "plot", "box"]
                        .contains(prev)
                    {
                        continue
                    }
                }
                return n
            }
        }
        return nil
    }

    /// "25-27" -> "25", "12a" -> "12", "1st" -> nil, "N12" -> nil.
    static func leadingNumber(_ w: Substring) -> String? {
        let digits = w.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        let rest = w.dropFirst(digits.count)
        if rest.isEmpty || rest.first == "-" || rest.first == "/" {
            return String(digits.drop { $0 == "0" }.isEmpty ? "0" : digits.drop { $0 == "0" })
        }
        if rest.count == 1, let c = rest.first, c.isLetter { return String(digits) }
        return nil
    }

    /// The house number a street_number component or addr:housenumber
    /// gives ("12a" -> "12", "25-27" -> "25").
    public static func houseNumber(component: String) -> String? {
        let t = Substring(component).trimmingSpaces
        if let n = leadingNumber(t) { return n }
        return houseNumber(freeform: String(t))
    }
}
