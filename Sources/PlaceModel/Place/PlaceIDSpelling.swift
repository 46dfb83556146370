/// How placedb spells place IDs: one spelling for the CLI, the library and
/// the server, that fits the Places API's `places/{place}` as one path
/// segment (Google's client libraries accept no `/` in it). Older
/// spellings are canonicalized where an ID comes in (a command's argument,
/// an alias file, a server path, an imported record), so they keep
/// resolving without a stored alias each (docs/formats.md#place-ids).
///
/// - OpenStreetMap: osmium's short form, `osm:n1794111149`, `osm:w4097656`,
///   `osm:r123` (`osm:a123` for an osmium area); the old `osm:node/1`,
///   `osm:way/1`, `osm:relation/1`, `osm:area/1` (and `osm:node%2F1`,
///   the `/` percent-encoded once more) are read as those.
/// - Any other ID with a `/` (a generic GeoJSON or Overture ID): its `%`
///   written `%25`, then its `/` written `%2F` (`a/b` is `a%2Fb`). IDs
///   without a `/` are kept as the source gave them.
package enum PlaceIDSpelling {
    /// The one spelling of `id`: itself unless it is an old OpenStreetMap
    /// spelling or holds a `/`. Idempotent: the canonical spelling of a
    /// canonical ID is itself.
    public static func canonical(_ id: String) -> String {
        if let short = shortOSM(id) { return short }
        guard id.utf8.contains(UInt8(ascii: "/")) else { return id }
        return escapeSlashes(id)
    }

    /// Whether `id` is an old OpenStreetMap spelling (`osm:node/1`, also
    /// with the `/` written `%2F`), which `canonical` turns into the short one.
    public static func isOldOSM(_ id: String) -> Bool { shortOSM(id) != nil }

    /// Whether `id` is spelt as placedb stores it (no `/`, no old
    /// OpenStreetMap spelling).
    public static func isCanonical(_ id: String) -> Bool { canonical(id) == id }

    /// `osm:n1` for `osm:node/1` (`way` w, `relation` r, `area` a; the
    /// `/` may be written `%2F` or `%2f`), nil for anything else. The
    /// number is decimal digits with an optional leading `-` (osmium
    /// writes negative IDs for objects not uploaded yet).
    static func shortOSM(_ id: String) -> String? {
        guard id.hasPrefix("osm:") else { return nil }
        let rest = id.utf8.dropFirst(4)
        let kinds: [(name: String, letter: String)] = [("node", "n"), ("way", "w"), ("relation", "r"), ("area", "a")]
        for kind in kinds {
            guard rest.starts(with: kind.name.utf8) else { continue }
            var tail = rest.dropFirst(kind.name.utf8.count)
            if tail.first == UInt8(ascii: "/") {
                tail = tail.dropFirst()
            } else if tail.count > 3, tail.first == UInt8(ascii: "%"),
                tail.dropFirst().first == UInt8(ascii: "2"),
                tail.dropFirst(2).first.map({ $0 | 0x20 }) == UInt8(ascii: "f")
            {
                tail = tail.dropFirst(3)
            } else {
                return nil
            }
            guard isNumber(tail) else { return nil }
            return "osm:" + kind.letter + String(decoding: tail, as: UTF8.self)
        }
        return nil
    }

    /// placedb's ID of OpenStreetMap element `number` of `type` (`node`,
    /// `way`, `relation`, `area`): `osm:n123`, osmium's short form.
    public static func osmID(type: String, number: Int64) -> String {
        "osm:\(type.prefix(1))\(number)"
    }

    /// The OpenStreetMap element type of an ID in either spelling (`node`,
    /// `way`, `relation`, `area`), nil for other IDs.
    public static func osmType(_ id: String) -> String? {
        guard let short = shortOSM(id) ?? (id.hasPrefix("osm:") ? id : nil) else { return nil }
        let u = short.utf8.dropFirst(4)
        guard let letter = u.first, isNumber(u.dropFirst()) else { return nil }
        switch letter {
        case UInt8(ascii: "n"): return "node"
        case UInt8(ascii: "w"): return "way"
        case UInt8(ascii: "r"): return "relation"
        case UInt8(ascii: "a"): return "area"
        default: return nil
        }
    }

    /// `n1794111149` of `osm:n1794111149` (or of `osm:node/1794111149`):
    /// osmium's short form, as Overture's `sources` cite OpenStreetMap
    /// records (`n1794111149@4`). Nil for other IDs.
    public static func osmShortForm(_ id: String) -> String? {
        guard osmType(id) != nil else { return nil }
        return String((shortOSM(id) ?? id).dropFirst(4))
    }

    /// `-?[0-9]+`.
    private static func isNumber(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        var digits = bytes
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `%` as `%25`, then `/` as `%2F`: reversible (`unescapeSlashes`).
    static func escapeSlashes(_ id: String) -> String {
        var out = ""
        out.reserveCapacity(id.utf8.count + 8)
        for c in id.unicodeScalars {
            switch c {
            case "%": out += "%25"
            case "/": out += "%2F"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// The source's own ID of a respelled one (`a%2Fb` -> `a/b`): `%2F`
    /// read as `/` and `%25` as `%`; nil when `id` holds no `%2F`.
    public static func sourceSpelling(_ id: String) -> String? {
        let b = Array(id.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var slash = false
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "%"), i + 2 < b.count, b[i + 1] == UInt8(ascii: "2") {
                if b[i + 2] == UInt8(ascii: "F") { out.append(UInt8(ascii: "/")); slash = true; i += 3; continue }
                if b[i + 2] == UInt8(ascii: "5") { out.append(UInt8(ascii: "%")); i += 3; continue }
            }
            out.append(b[i])
            i += 1
        }
        return slash ? String(decoding: out, as: UTF8.self) : nil
    }

    // MARK: Maps CIDs

    /// The Maps CID of a Google place's `googleMapsUri` (the legacy `url`):
    /// the decimal digits of its `cid=` query parameter
    /// (`https://maps.google.com/?cid=10281119596374313554`), nil without one.
    public static func cid(ofMapsURI uri: String) -> String? {
        guard let q = uri.firstIndex(of: "?") else { return nil }
        for part in uri[uri.index(after: q)...].split(separator: "&") {
            guard part.hasPrefix("cid=") else { continue }
            let value = part.dropFirst(4)
            guard !value.isEmpty, value.count <= 20, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return String(value)
        }
        return nil
    }

    /// The alias ID under which a place's Maps CID is stored: `cid:{digits}`.
    public static func cidAlias(_ cid: String) -> String { "cid:" + cid }

    /// Whether `id` is a bare decimal CID (1 to 20 digits), which resolves
    /// as `cid:{id}` when no place or alias has that ID itself.
    public static func isBareCID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 20 && id.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
