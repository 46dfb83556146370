import Foundation
package import PlaceModel
package import PlaceStorage

/// Matches the place words of a query ("new york", "nyc", "munchen") to a
/// locality of the database: a place of a locality type (GeoNames cities,
/// Google's `locality` and `administrative_area_level_*` places,
/// OpenStreetMap towns) by name, by an alias or GeoNames alternate name, or
/// else the places whose addresses name it. The locality a point lies in
/// (current place's approximate answer) is `PlaceReader.locality(at:)`.
package struct LocalityMatcher {
    let store: PlaceStore

    package init(store: PlaceStore) {
        self.store = store
    }

    /// Common short names of large cities (folded), used when no locality
    /// has the words as a name: GeoNames' alternate names hold most of
    /// them too when its cities are imported.
    package static let aliases: [String: String] = [
        "nyc": "new york city", "ny": "new york city", "la": "los angeles", "sf": "san francisco", "dc": "washington",
        "philly": "philadelphia", "vegas": "las vegas", "rio": "rio de janeiro", "cdmx": "mexico city",
        "hk": "hong kong",
        "kl": "kuala lumpur", "st petersburg": "saint petersburg", "frisco": "san francisco",
    ]

    /// The best locality for `words` (folded), or nil. `near` (a bias)
    /// prefers localities within 300 km of it; then exact names over names
    /// that start with the words ("new york" -> "New York City"), then the
    /// largest population. `scan` allows the slower steps (GeoNames
    /// alternate names, addresses): a query with a connector ("in").
    package func match(_ words: [String], near: Coordinate?, scan: Bool) throws -> MatchedLocality? {
        guard !words.isEmpty else { return nil }
        if try hasLocalities() {
            if let m = try byName(words, near: near, source: .name) { return m }
            let phrase = words.joined(separator: " ")
            if let alias = Self.aliases[phrase],
                let m = try byName(alias.split(separator: " ").map(String.init), near: near, source: .alias)
            {
                return m
            }
        }
        guard scan else { return nil }
        if let m = try byAlternateName(words, near: near) { return m }
        return try byAddress(words)
    }

    /// The type words of the locality types in the text index.
    static let kindPhrases = ["locality", "sublocality", "administrative", "colloquial", "postal"].map(
        TextMatchExpression.quoted)

    /// Whether any place's type words name a locality type (the counts are
    /// kept until the file changes): when none does, matching by name
    /// costs nothing.
    package func hasLocalities() throws -> Bool {
        try Self.kindPhrases.contains { try store.phraseCount($0) > 0 }
    }

    private struct Scored {
        var row: LocalityRow
        var exact: Bool
    }

    /// Places of a locality type named `words` (or whose name starts with them).
    private func byName(_ words: [String], near: Coordinate?, source: MatchedLocality.Source) throws -> MatchedLocality?
    {
        let quoted = words.map(TextMatchExpression.quoted)
        let kinds = Self.kindPhrases
        let expression =
            "{name other_names} : (\(quoted.joined(separator: " "))) AND {types} : (\(kinds.joined(separator: " OR ")))"
        let matches = try store.textMatches(expression, phrases: quoted + kinds, cells: 0, best: 200)
        var scored: [Scored] = []
        for (c, _) in matches {
            guard try store.isLocality(rowid: c.rowid), let row = try store.localityRow(rowid: c.rowid) else {
                continue
            }
            var names = [row.name ?? ""]
            if c.hasExtra { names += try store.textOtherNames(rowid: c.rowid) }
            names += row.alternateNames
            let folded = names.map { TextFolding.words($0) }
            if folded.contains(words) {
                scored.append(Scored(row: row, exact: true))
            } else if let own = folded.first, own.count > words.count, Array(own.prefix(words.count)) == words {
                scored.append(Scored(row: row, exact: false))
            }
        }
        return best(scored, near: near).map { locality($0, source: source) }
    }

    /// Localities whose GeoNames alternate names are `words` (a scan of the
    /// localities' extras for the words as typed, capitalized or upper-case).
    private func byAlternateName(_ words: [String], near: Coordinate?) throws -> MatchedLocality? {
        let phrase = words.joined(separator: " ")
        let capitalized = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        let needles = Array(Set([phrase, capitalized, phrase.uppercased()])).sorted().map { "\"\($0)\"" }
        var scored: [Scored] = []
        for rowid in try store.localitiesHolding(needles, limit: 200) {
            guard let row = try store.localityRow(rowid: rowid) else { continue }
            if row.alternateNames.contains(where: { TextFolding.words($0) == words }) {
                scored.append(Scored(row: row, exact: true))
            }
        }
        return best(scored, near: near).map { locality($0, source: .alternateName) }
    }

    private func best(_ list: [Scored], near: Coordinate?) -> Scored? {
        func key(_ s: Scored) -> (Int, Int, Int, Int64) {
            let close = near.map { s.row.coordinate.distance(to: $0) <= 300_000 ? 1 : 0 } ?? 1
            return (close, s.exact ? 1 : 0, s.row.population ?? 0, -s.row.rowid)
        }
        return list.max { key($0) < key($1) }
    }

    /// The area of a locality place: its viewport, else a circle of
    /// `1.5 km + 10 m * sqrt(population)` (New York City: 31 km; a town
    /// of 10,000: 2.5 km), else a radius by type.
    private func locality(_ s: Scored, source: MatchedLocality.Source) -> MatchedLocality {
        let row = s.row
        let area: SearchArea
        let radius: Double
        if let v = row.viewport, v.low.latitude < v.high.latitude {
            area = .rectangle(low: v.low, high: v.high)
            radius = area.reach ?? 5000
        } else {
            if let p = row.population, p > 0 {
                radius = min(NearbySearchRequest.maxRadiusMeters, 1500 + 10 * Double(p).squareRoot())
            } else {
                radius = Self.typeRadius[row.primaryType ?? ""] ?? 5000
            }
            area = .circle(center: row.coordinate, radiusMeters: radius)
        }
        return MatchedLocality(
            placeID: row.placeID, name: row.name ?? row.placeID, source: source, provider: row.source,
            center: row.coordinate, area: area, radiusMeters: radius, population: row.population)
    }

    /// Radius of a locality place with neither viewport nor population, by primary type.
    static let typeRadius: [String: Double] = [
        "locality": 5000, "postal_town": 5000, "sublocality": 3000, "sublocality_level_1": 3000,
        "colloquial_area": 3000,
        "administrative_area_level_3": 10_000, "administrative_area_level_2": 30_000,
        "administrative_area_level_1": 50_000,
    ]

    /// The places whose addresses name `words`: an address component of
    /// type `locality` or `postal_town`, or a part of `formattedAddress`
    /// between commas without its postcode ("1003 Lausanne", "NY 10014").
    /// Their box (the 5th to 95th percentiles of latitude and longitude
    /// when there are 10 or more, padded by a fifth and 500 m) is the area.
    private func byAddress(_ words: [String]) throws -> MatchedLocality? {
        let quoted = words.map(TextMatchExpression.quoted)
        let expression = "{address} : (\(quoted.joined(separator: " ")))"
        var points: [Coordinate] = []
        var label: String?
        for (c, _) in try store.textMatches(expression, phrases: quoted, cells: 0, best: 2000) {
            let (formatted, localities) = try store.addressLocalities(rowid: c.rowid)
            var parts = localities
            if let formatted { parts += formatted.split(separator: ",").map { Self.withoutPostcode(String($0)) } }
            if let hit = parts.first(where: { TextFolding.words($0) == words }) {
                points.append(c.coordinate)
                if label == nil { label = hit.trimmingCharacters(in: .whitespaces) }
            }
        }
        guard !points.isEmpty else { return nil }
        var lats = points.map(\.latitude).sorted(), lngs = points.map(\.longitude).sorted()
        if points.count >= 10 {
            let lo = points.count / 20, hi = points.count - 1 - points.count / 20
            lats = Array(lats[lo...hi])
            lngs = Array(lngs[lo...hi])
        }
        let padLat = (lats.last! - lats.first!) * 0.2 + 0.0045
        let midLat = (lats.first! + lats.last!) / 2
        let padLng = (lngs.last! - lngs.first!) * 0.2 + 0.0045 / max(0.1, cos(midLat * .pi / 180))
        let low = Coordinate(latitude: max(-90, lats.first! - padLat), longitude: max(-180, lngs.first! - padLng))
        let high = Coordinate(latitude: min(90, lats.last! + padLat), longitude: min(180, lngs.last! + padLng))
        let area = SearchArea.rectangle(low: low, high: high)
        let center = Coordinate(latitude: lats[lats.count / 2], longitude: lngs[lngs.count / 2])
        return MatchedLocality(
            placeID: nil, name: label ?? words.joined(separator: " "), source: .address, provider: "addresses",
            center: center, area: area, radiusMeters: area.reach ?? 0, population: nil, addressCount: points.count)
    }

    /// "1003 Lausanne" -> "Lausanne", "NY 10014" -> "NY", "London SW1A 1AA" stays (letters and digits mixed).
    static func withoutPostcode(_ part: String) -> String {
        part.split(separator: " ").filter { !$0.allSatisfy { $0.isNumber || $0 == "-" } }.joined(separator: " ")
    }
}
