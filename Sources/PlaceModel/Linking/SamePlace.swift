import Foundation

package enum SamePlace {
    /// Link at probability >= threshold (chosen on the dev pairs' cross-validated
    /// scores for precision first; `SamePlaceWeights.threshold`).
    public static let threshold: Double = SamePlaceWeights.threshold
    /// Candidates farther apart than this plus both extents can never link.
    public static let searchRadiusMeters: Double = 150

    /// The features, in the order of `SamePlaceWeights.weights`.
    package enum Feature: Int, CaseIterable {
        case nameDice, nameJaccard, nameContained, nameBigramContained, namePrefixContained, nameExact, nameFirstToken,
            nameNumberConflict
        case phoneMatch, phoneConflict, domainMatch, domainConflict, webPathMatch, webPathConflict, socialMatch,
            emailMatch
        case houseNumberMatch, houseNumberConflict, houseNumberTransposed, postcodeMatch, postcodeConflict,
            streetJaccard, streetConflict
        case categoryExact, categoryPrimaryGroup, categoryGroup, categoryConflict
        case brandMatch, brandConflict, branchFacility, sameDatasetOtherRecord
        /// Interactions: both the phone and the house number disagree; the
        /// names agree but no phone, house number or store page does (a chain).
        case phoneAndHouseConflict, nameWithoutContact
    }
    package static let featureNames: [String] = Feature.allCases.map { "\($0)" }
    package static let featureCount = Feature.allCases.count

    /// Evidence with a fixed weight, not fitted (the dev pairs cannot show
    /// it): one record cites the other's ID as its upstream record.
    static let citedIDWeight = 8.0
    /// Evidence with a fixed weight: house numbers that are fields of their
    /// own on both records (Google's street_number, OSM's addr:housenumber)
    /// and disagree: house numbers must agree when both are
    /// present; the learned `houseNumberConflict` is mild because the dev
    /// pairs' numbers are read out of free text (suites, ranges, typos).
    static let structuredHouseConflictWeight = -5.0

    /// The distance term of the logit for a gap of `gap` meters (see above);
    /// nil beyond the search radius (a veto).
    public static func distanceContribution(gapMeters gap: Double) -> Double? {
        if !(gap <= searchRadiusMeters) { return nil }
        if gap <= 30 { return 0.5 * (1 - gap / 30) }
        if gap <= 50 { return 0 }
        return -4 * (gap - 50) / (searchRadiusMeters - 50)
    }

    /// The gap between two records: distance less both extents, >= 0.
    public static func gapMeters(_ a: LinkRecord, _ b: LinkRecord) -> Double {
        max(0, a.coordinate.distance(to: b.coordinate) - a.extentMeters - b.extentMeters)
    }

    /// P(same place) with its evidence (built when read).
    public static func score(_ a: LinkRecord, _ b: LinkRecord) -> SamePlaceScore {
        SamePlaceScore(probability: probability(a, b), a: a, b: b)
    }

    static func evidence(_ a: LinkRecord, _ b: LinkRecord) -> JSONValue {
        var f = [Double](repeating: 0, count: featureCount)
        let cited = f.withUnsafeMutableBufferPointer { features(a, b, into: $0) }
        let distance = a.coordinate.distance(to: b.coordinate)
        let gap = gapMeters(a, b)
        var members: [(String, JSONValue)] = []
        var logit = SamePlaceWeights.bias
        for i in 0..<featureCount {
            let c = SamePlaceWeights.weights[i] * f[i]
            logit += c
            members.append(
                (featureNames[i], .object(JSONObject([("value", .double(f[i])), ("contribution", .double(c))]))))
        }
        let citedC = cited ? citedIDWeight : 0
        logit += citedC
        members.append(
            (
                "citedRecordID",
                .object(JSONObject([("value", .double(cited ? 1 : 0)), ("contribution", .double(citedC))]))
            ))
        let house = structuredHouseConflict(a, b)
        let houseC = house ? structuredHouseConflictWeight : 0
        logit += houseC
        members.append(
            (
                "structuredHouseNumberConflict",
                .object(JSONObject([("value", .double(house ? 1 : 0)), ("contribution", .double(houseC))]))
            ))
        let dc = distanceContribution(gapMeters: gap)
        members.append(
            (
                "distance",
                .object(
                    JSONObject([
                        ("meters", .double(distance)), ("gapMeters", .double(gap)),
                        ("contribution", dc.map(JSONValue.double) ?? .string("veto")),
                    ]))
            ))
        let p: Double
        if let dc { logit += dc; p = sigmoid(logit) } else { p = 0 }
        members.append(("names", .array([.string(a.box.v.primaryName), .string(b.box.v.primaryName)])))
        members.append(
            (
                "houseNumbers",
                .array([
                    a.box.v.houseNumberText.map(JSONValue.string) ?? .null,
                    b.box.v.houseNumberText.map(JSONValue.string) ?? .null,
                ])
            ))
        members.append(("bias", .double(SamePlaceWeights.bias)))
        members.append(("logit", .double(logit)))
        members.append(("probability", .double(p)))
        members.append(("threshold", .double(threshold)))
        return .object(JSONObject(members))
    }

    /// P(same place) alone: `score(a, b).probability` without building the
    /// evidence (the bulk linker's call).
    public static func probability(_ a: LinkRecord, _ b: LinkRecord) -> Double {
        // A sign and what it names are two things (a castle and its board).
        if a.box.v.isSign != b.box.v.isSign { return 0 }
        guard let dc = distanceContribution(gapMeters: gapMeters(a, b)) else { return 0 }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: featureCount) { f -> Double in
            f.initialize(repeating: 0)
            let cited = features(a, b, into: f)
            var logit = SamePlaceWeights.bias + dc + fixedContribution(a, b, cited: cited)
            SamePlaceWeights.weights.withUnsafeBufferPointer { w in
                for i in 0..<featureCount { logit += w[i] * f[i] }
            }
            return sigmoid(logit)
        }
    }

    /// The evidence of fixed weight: a cited record ID, a structured house number conflict.
    @inline(__always)
    package static func fixedContribution(_ a: LinkRecord, _ b: LinkRecord, cited: Bool) -> Double {
        (cited ? citedIDWeight : 0) + (structuredHouseConflict(a, b) ? structuredHouseConflictWeight : 0)
    }

    @inline(__always)
    static func structuredHouseConflict(_ a: LinkRecord, _ b: LinkRecord) -> Bool {
        a.box.v.houseNumberStructured && b.box.v.houseNumberStructured && a.box.v.houseNumber != b.box.v.houseNumber
            && a.box.v.houseDigits != b.box.v.houseDigits
    }

    @inline(__always)
    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// The feature values of a pair (order of `Feature`); returns whether
    /// one record cites the other's ID. Symmetric in a and b.
    @discardableResult
    package static func features(_ a: LinkRecord, _ b: LinkRecord, into f: UnsafeMutableBufferPointer<Double>) -> Bool {
        @inline(__always) func set(_ k: Feature, _ v: Double = 1) { f[k.rawValue] = v }
        // Names: the best of every pair of name forms, measure by measure.
        var dice = 0.0, jaccard = 0.0, contained = 0.0, bigramContained = 0.0, prefixContained = 0.0, exact = 0.0
        for x in a.box.v.names {
            for y in b.box.v.names {
                let nb = x.bigrams.count + y.bigrams.count
                if nb > 0 {
                    let common = Double(LinkText.commonCount(x.bigrams, y.bigrams))
                    dice = max(dice, 2 * common / Double(nb))
                    bigramContained = max(
                        bigramContained, common / Double(max(1, min(x.bigrams.count, y.bigrams.count))))
                }
                let common = LinkText.commonCount(x.tokens, y.tokens)
                let union = x.tokens.count + y.tokens.count - common
                if union > 0 {
                    jaccard = max(jaccard, Double(common) / Double(union))
                    contained = max(contained, Double(common) / Double(max(1, min(x.tokens.count, y.tokens.count))))
                }
                let pc = LinkText.commonCount(x.prefixes, y.prefixes)
                prefixContained = max(
                    prefixContained, Double(pc) / Double(max(1, min(x.prefixes.count, y.prefixes.count))))
                if x.key == y.key || x.rawKey == y.rawKey { exact = 1 }
            }
        }
        set(.nameDice, dice)
        set(.nameJaccard, jaccard)
        set(.nameContained, contained)
        set(.nameBigramContained, bigramContained)
        set(.namePrefixContained, prefixContained)
        set(.nameExact, exact)
        if let x = a.box.v.names.first, let y = b.box.v.names.first, x.first != 0, x.first == y.first {
            set(.nameFirstToken)
        }
        if !a.box.v.nameNumbers.isEmpty && !b.box.v.nameNumbers.isEmpty
            && LinkText.commonCount(a.box.v.nameNumbers, b.box.v.nameNumbers) == 0
        {
            set(.nameNumberConflict)
        }
        agreement(a.box.v.phones, b.box.v.phones, f, .phoneMatch, .phoneConflict)
        agreement(a.box.v.domains, b.box.v.domains, f, .domainMatch, .domainConflict)
        if f[Feature.domainMatch.rawValue] == 1 {
            agreement(a.box.v.pathNumbers, b.box.v.pathNumbers, f, .webPathMatch, .webPathConflict)
        }
        if !a.box.v.socials.isEmpty && !b.box.v.socials.isEmpty
            && LinkText.commonCount(a.box.v.socials, b.box.v.socials) > 0
        {
            set(.socialMatch)
        }
        if !a.box.v.emails.isEmpty && !b.box.v.emails.isEmpty
            && LinkText.commonCount(a.box.v.emails, b.box.v.emails) > 0
        {
            set(.emailMatch)
        }
        if a.box.v.houseNumber != 0 && b.box.v.houseNumber != 0 {
            if a.box.v.houseNumber == b.box.v.houseNumber {
                set(.houseNumberMatch)
            } else if a.box.v.houseDigits == b.box.v.houseDigits {
                set(.houseNumberTransposed)
            } else {
                set(.houseNumberConflict)
            }
        }
        if a.box.v.postcode != 0 && b.box.v.postcode != 0 {
            set(a.box.v.postcode == b.box.v.postcode ? .postcodeMatch : .postcodeConflict)
        }
        if !a.box.v.street.isEmpty && !b.box.v.street.isEmpty {
            let common = LinkText.commonCount(a.box.v.street, b.box.v.street)
            if common == 0 {
                set(.streetConflict)
            } else {
                set(.streetJaccard, Double(common) / Double(a.box.v.street.count + b.box.v.street.count - common))
            }
        }
        if !a.box.v.categories.isEmpty && !b.box.v.categories.isEmpty
            && LinkText.commonCount(a.box.v.categories, b.box.v.categories) > 0
        {
            set(.categoryExact)
        }
        if a.box.v.primaryGroups & b.box.v.primaryGroups != 0 { set(.categoryPrimaryGroup) }
        if a.box.v.groups & b.box.v.groups != 0 {
            set(.categoryGroup)
        } else if a.box.v.groups != 0 && b.box.v.groups != 0 {
            set(.categoryConflict)
        }
        if !a.box.v.brands.isEmpty && !b.box.v.brands.isEmpty {
            set(LinkText.commonCount(a.box.v.brands, b.box.v.brands) > 0 ? .brandMatch : .brandConflict)
        }
        // A brand and another of its facilities: the names share words and
        // one holds a facility word ("fuel", "pharmacy") the other lacks.
        // Names alike: a facility kind only one category says is a change
        // of category, not another facility.
        if exact == 0, a.box.v.facilities != b.box.v.facilities, let x = a.box.v.names.first,
            let y = b.box.v.names.first, LinkText.commonCount(x.tokens, y.tokens) > 0
        {
            var d = a.box.v.facilities ^ b.box.v.facilities
            while d != 0 {
                let bit = d.trailingZeroBitCount
                d &= d - 1
                let lacking = a.box.v.facilities & (1 << UInt64(bit)) != 0 ? b : a
                // The record without the word is that kind of place already.
                if lacking.box.v.groups & LinkRecord.facilityGroups[bit] == 0 { set(.branchFacility); break }
            }
        }
        // Two records citing other records of one upstream dataset.
        var sameDatasetOther = false
        var sameRecord = false
        for r in a.box.v.citedRecords {
            for s in b.box.v.citedRecords where r.dataset == s.dataset {
                if r.record == s.record { sameRecord = true } else { sameDatasetOther = true }
            }
        }
        if sameDatasetOther && !sameRecord { set(.sameDatasetOtherRecord) }
        func on(_ k: Feature) -> Bool { f[k.rawValue] != 0 }
        if on(.phoneConflict) && on(.houseNumberConflict) { set(.phoneAndHouseConflict) }
        if (exact == 1 || contained == 1) && !on(.phoneMatch) && !on(.houseNumberMatch) && !on(.webPathMatch) {
            set(.nameWithoutContact)
        }
        let cited =
            sameRecord
            || (!a.box.v.citedIDs.isEmpty && LinkText.commonCount(a.box.v.citedIDs, b.box.v.ownIDs) > 0)
            || (!b.box.v.citedIDs.isEmpty && LinkText.commonCount(b.box.v.citedIDs, a.box.v.ownIDs) > 0)
        return cited
    }

    @inline(__always)
    static func agreement(
        _ x: [UInt64], _ y: [UInt64], _ f: UnsafeMutableBufferPointer<Double>, _ match: Feature, _ conflict: Feature
    ) {
        guard !x.isEmpty && !y.isEmpty else { return }
        if LinkText.commonCount(x, y) > 0 { f[match.rawValue] = 1 } else { f[conflict.rawValue] = 1 }
    }
}
