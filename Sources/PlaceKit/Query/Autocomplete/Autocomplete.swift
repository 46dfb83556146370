import Foundation
public import PlaceModel
import PlaceStorage

/// An autocomplete request, as the Places API (New) `autocomplete` one:
/// the text typed so far, whose last word is matched as a prefix unless it
/// ends with a space.
public struct AutocompleteRequest: Sendable, Equatable {
    public var input: String
    public var locationBias: SearchArea?
    public var locationRestriction: SearchArea?
    /// Where `distanceMeters` is measured from (default: the bias or
    /// restriction center).
    public var origin: Coordinate?
    /// Only places whose primary type is one of these (empty: any);
    /// `(cities)` and `(regions)` stand for the API's collections
    /// (`AutocompleteRequest.collections`). At most 5, as the API says.
    public var includedPrimaryTypes: [String]
    /// 1...`TextSearchRequest.maxResultLimit` (the Places API gives 5):
    /// place and query predictions together.
    public var maxResultCount: Int
    /// Also query predictions (`includeQueryPredictions`): searches the
    /// input could be completed to, from the place types of the database
    /// ("pizz" -> "pizza", "pizza near Lausanne"), after the places.
    public var includeQueryPredictions = false
    /// Also places marked `pureServiceAreaBusiness` (left out by default, as by the API).
    public var includePureServiceAreaBusinesses = false
    /// Also places whose `businessStatus` is `FUTURE_OPENING` (left out by default, as by the API).
    public var includeFutureOpenings = false
    /// `includedRegionCodes`: two-letter region codes, at most 15; accepted
    /// and checked, not applied (the database keeps no region per place).
    public var includedRegionCodes: [String] = []
    /// `sessionToken`: checked as the API documents it (URL- and
    /// filename-safe base64, at most 36 ASCII characters; a UUID fits);
    /// placedb bills nothing, so it changes no answer.
    public var sessionToken: String?
    /// The language of the names shown (the API's `languageCode`): a
    /// place's name in it where it has one (`NameLanguage`).
    public var languageCode: String?
    /// `regionCode`: accepted, changes no answer.
    public var regionCode: String?

    /// The API's type collections of `includedPrimaryTypes`.
    public static let collections: [String: [String]] = [
        "(cities)": ["locality", "administrative_area_level_3"],
        "(regions)": [
            "locality", "sublocality", "postal_code", "country", "administrative_area_level_1",
            "administrative_area_level_2",
        ],
    ]
    /// The most `includedPrimaryTypes` a request may give (the API's "up to 5").
    public static let maxIncludedPrimaryTypes = 5
    /// The most `includedRegionCodes` a request may give (the API's "up to 15").
    public static let maxIncludedRegionCodes = 15

    public init(
        input: String, locationBias: SearchArea? = nil, locationRestriction: SearchArea? = nil,
        origin: Coordinate? = nil,
        includedPrimaryTypes: [String] = [], maxResultCount: Int = 5
    ) {
        self.input = input
        self.locationBias = locationBias
        self.locationRestriction = locationRestriction
        self.origin = origin
        self.includedPrimaryTypes = includedPrimaryTypes
        self.maxResultCount = maxResultCount
    }

    public func validate() throws(PlaceDBError) {
        let n = input.count
        if n > TextSearchRequest.maxQueryLength {
            throw .invalidArgument(
                "input is \(n) characters long; at most \(TextSearchRequest.maxQueryLength) are accepted")
        }
        guard (1...TextSearchRequest.maxResultLimit).contains(maxResultCount) else {
            throw .invalidArgument(
                "maxResultCount \(maxResultCount) must be in 1...\(TextSearchRequest.maxResultLimit)")
        }
        try locationBias?.validate("locationBias")
        try locationRestriction?.validate("locationRestriction")
        if let origin, !origin.isValid {
            throw .invalidArgument("origin \(origin.latitude),\(origin.longitude) is out of range")
        }
        for t in includedPrimaryTypes where t.isEmpty {
            throw .invalidArgument("an empty place type in includedPrimaryTypes")
        }
        if includedPrimaryTypes.count > Self.maxIncludedPrimaryTypes {
            throw .invalidArgument(
                "includedPrimaryTypes has \(includedPrimaryTypes.count) types; at most \(Self.maxIncludedPrimaryTypes) are accepted"
            )
        }
        let collections = includedPrimaryTypes.filter { Self.collections[$0] != nil }
        if !collections.isEmpty && includedPrimaryTypes.count > 1 {
            throw .invalidArgument("includedPrimaryTypes: \(collections[0]) must be the only type given")
        }
        if includedRegionCodes.count > Self.maxIncludedRegionCodes {
            throw .invalidArgument(
                "includedRegionCodes has \(includedRegionCodes.count) codes; at most \(Self.maxIncludedRegionCodes) are accepted"
            )
        }
        for code in includedRegionCodes
        where !(code.utf8.count == 2 && code.utf8.allSatisfy { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) {
            throw .invalidArgument(
                "includedRegionCodes: '\(code.prefix(100))' is no two-letter CLDR region code (such as CH or us)")
        }
        if let token = sessionToken, !Self.isSessionToken(token) {
            throw .invalidArgument(
                "sessionToken must be a URL- and filename-safe base64 string of at most 36 ASCII characters (a UUID fits)"
            )
        }
    }

    /// What the discovery document asks of a `sessionToken`: URL- and
    /// filename-safe base64 (letters, digits, `-`, `_`, `=` padding), at
    /// most 36 characters.
    public static func isSessionToken(_ token: String) -> Bool {
        token.utf8.count <= 36
            && token.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
                    || c == 0x5F || c == 0x3D
            }
    }

    /// The primary types a place must have: `includedPrimaryTypes`, a
    /// collection spelled out.
    var primaryTypeFilter: [String] {
        includedPrimaryTypes.flatMap { Self.collections[$0] ?? [$0] }
    }

    /// The request fields `init(json:)` reads: every field of the discovery
    /// document's `AutocompletePlacesRequest`.
    public static let jsonFields: Set<String> = [
        "input", "inputOffset", "locationBias", "locationRestriction", "origin", "includedPrimaryTypes",
        "languageCode", "regionCode", "includedRegionCodes", "sessionToken", "includeQueryPredictions",
        "includePureServiceAreaBusinesses", "includeFutureOpeningBusinesses",
    ]

    /// Reads a Places API (New) `autocomplete` request body: `input`
    /// (required), `inputOffset` (the input is cut there), `locationBias`,
    /// `locationRestriction` (circle or rectangle; not both), `origin`,
    /// `includedPrimaryTypes`, `includeQueryPredictions`,
    /// `includePureServiceAreaBusinesses`, `includeFutureOpeningBusinesses`;
    /// `languageCode` (the names' language); `regionCode`,
    /// `includedRegionCodes` and `sessionToken` are checked and change no
    /// answer. Other keys are
    /// refused.
    public init(json: JSONObject) throws(PlaceDBError) {
        try RequestReader.checkKeys(json, allowed: Self.jsonFields)
        guard let i = json["input"] else { throw .invalidArgument("input is required") }
        guard var text = i.stringValue else {
            throw .invalidArgument("input must be a string, not \(i.kindDescription)")
        }
        if let offset = try RequestReader.int(json["inputOffset"], "inputOffset") {
            guard offset >= 0 else { throw .invalidArgument("inputOffset must not be negative") }
            text = String(text.unicodeScalars.prefix(offset))
        }
        var origin: Coordinate?
        if json["origin"] != nil { origin = try RequestReader.coordinate(json["origin"], "origin") }
        self.init(
            input: text, locationBias: try SearchArea(json: json["locationBias"], "locationBias"),
            locationRestriction: try SearchArea(json: json["locationRestriction"], "locationRestriction"),
            origin: origin,
            includedPrimaryTypes: try RequestReader.strings(json["includedPrimaryTypes"], "includedPrimaryTypes"))
        languageCode = try RequestReader.languageCode(json["languageCode"])
        if locationBias != nil && locationRestriction != nil {
            throw .invalidArgument("locationBias and locationRestriction cannot both be set")
        }
        includeQueryPredictions =
            try RequestReader.bool(json["includeQueryPredictions"], "includeQueryPredictions") ?? false
        includePureServiceAreaBusinesses =
            try RequestReader.bool(json["includePureServiceAreaBusinesses"], "includePureServiceAreaBusinesses")
            ?? false
        includeFutureOpenings =
            try RequestReader.bool(json["includeFutureOpeningBusinesses"], "includeFutureOpeningBusinesses") ?? false
        includedRegionCodes = try RequestReader.strings(json["includedRegionCodes"], "includedRegionCodes")
        for (key, path) in [("sessionToken", \AutocompleteRequest.sessionToken), ("regionCode", \.regionCode)] {
            guard let v = json[key] else { continue }
            guard let s = v.stringValue else {
                throw .invalidArgument("\(key) must be a string, not \(v.kindDescription)")
            }
            if !s.isEmpty { self[keyPath: path] = s }
        }
        try validate()
    }
}

/// An autocomplete answer: place predictions, then query predictions
/// (only when the request asks for them), together at most the request's
/// `maxResultCount`.
public struct AutocompleteAnswer: Sendable, Equatable {
    public var places: [AutocompleteSuggestion]
    public var queries: [AutocompleteQuerySuggestion]
}

extension PlaceReader {
    /// Places whose names (or addresses, types) start with what was typed:
    /// every word but the last matched whole, the last as a prefix (unless
    /// the input ends with a space), ranked as `searchText` ranks. The
    /// place predictions of `autocompleteAnswer`.
    package func autocomplete(_ request: AutocompleteRequest) throws -> [AutocompleteSuggestion] {
        try autocompleteAnswer(request).places
    }

    /// Whether the input's last word is typed on (a prefix): it ends with
    /// a letter, digit or mark, not a space or punctuation.
    package static func lastIsPrefix(_ input: String) -> Bool {
        input.unicodeScalars.last.map { s in
            let c = s.properties.generalCategory
            return [
                .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
                .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark, .privateUse,
            ].contains(c)
        } ?? false
    }

    /// Place predictions, then (with `includeQueryPredictions`) query
    /// predictions: at most `maxResultCount` in all, of which up to
    /// `queryShare` are kept for queries when there are places enough.
    package func autocompleteAnswer(_ request: AutocompleteRequest) throws -> AutocompleteAnswer {
        try request.validate()
        let words = TextFolding.words(request.input)
        let lastIsPrefix = Self.lastIsPrefix(request.input)
        let focus = request.locationBias?.center ?? request.locationRestriction?.center ?? request.origin
        var scale: Double?
        if case .circle(_, let r)? = request.locationBias { scale = r }
        let plan = TextQueryPlan(
            words: words, lastIsPrefix: lastIsPrefix, focus: focus, scale: scale,
            restriction: request.locationRestriction, types: [], limit: request.maxResultCount,
            window: request.maxResultCount)
        return try store.read {
            try store.requireTextIndex()
            let queries =
                request.includeQueryPredictions
                ? try queryPredictions(request, words: words, lastIsPrefix: lastIsPrefix, focus: focus) : []
            let placeLimit = request.maxResultCount - min(queries.count, Self.queryShare(request.maxResultCount))
            var places: [AutocompleteSuggestion] = []
            let primaryTypes = request.primaryTypeFilter
            var filter = TextSearchRequest(textQuery: request.input)
            filter.includePureServiceAreaBusinesses = request.includePureServiceAreaBusinesses
            filter.includeFutureOpenings = request.includeFutureOpenings
            let exclusions = TextSearchFilter(filter, at: .instant(Date()))
            var excluded = false, wider = !primaryTypes.isEmpty
            var hits = try textHits(primaryTypes.isEmpty ? plan : widened(plan))
            var seen = Set<Int64>()
            while true {
                for hit in hits where places.count < placeLimit && !seen.contains(hit.candidate.rowid) {
                    let c = hit.candidate
                    seen.insert(c.rowid)
                    if !primaryTypes.isEmpty, !primaryTypes.contains(c.primaryType ?? "") { continue }
                    // The exclusions the API makes by default (pure
                    // service-area businesses, future openings).
                    if try !exclusions.accepts(c, store: store) { excluded = true; continue }
                    guard let (id, types, address) = try store.idTypesAndAddress(rowid: c.rowid) else { continue }
                    let main =
                        try request.languageCode.flatMap { try store.name(in: $0, placeID: id, defaultName: c.name) }
                        ?? c.name ?? id
                    let from = request.origin ?? focus
                    var s = AutocompleteSuggestion(
                        placeID: PlaceID(id), text: address.map { "\(main), \($0)" } ?? main, mainText: main,
                        secondaryText: address, types: types,
                        distanceMeters: from.map { $0.distance(to: c.coordinate) }, ranking: hit.factors)
                    s.matches = TextMatches.ranges(
                        in: s.text, query: words, lastIsPrefix: lastIsPrefix, fuzzy: hit.factors.corrected)
                    (s.mainTextMatches, s.secondaryTextMatches) = TextMatches.split(
                        s.matches, main: main, separator: ", ")
                    places.append(s)
                }
                // A place left out by an exclusion: rank more, once.
                guard excluded, places.count < placeLimit, !wider, hits.count >= plan.limit else { break }
                hits = try textHits(widened(plan))
                wider = true
            }
            return AutocompleteAnswer(
                places: places, queries: Array(queries.prefix(request.maxResultCount - places.count)))
        }
    }

    /// How many of `count` suggestions are kept for query predictions when
    /// there are places enough: 2 of the API's 5.
    static func queryShare(_ count: Int) -> Int { count < 2 ? 0 : max(1, (count * 2) / 5) }

    /// A primary-type filter is applied after ranking: rank more.
    private func widened(_ plan: TextQueryPlan) -> TextQueryPlan {
        var p = plan
        p.limit = min(TextSearchRequest.maxResultLimit, max(100, plan.limit * 20))
        p.window = p.limit
        return p
    }

    /// The same answer as `autocompleteAnswer` in the Places API (New)
    /// shape: `{"suggestions": [{"placePrediction": {"place", "placeId",
    /// "text": {"text", "matches"}, "structuredFormat": {"mainText",
    /// "secondaryText"}, "types", "distanceMeters"}}, ..., {"queryPrediction":
    /// {"text", "structuredFormat"}}]}`, each `matches` a list of
    /// `{"startOffset", "endOffset"}` (code points; `startOffset` left out
    /// when 0 and `matches` when empty, as proto3 JSON writes them); with
    /// `explain` each place prediction's ranking factors.
    /// The autocomplete answer as the API writes it (compact), with only
    /// the members `keeping` names when given (a response field mask split
    /// at its dots: `[["suggestions", "placePrediction", "placeId"]]`).
    package func autocompleteJSON(
        _ request: AutocompleteRequest, explain: Bool = false, keeping paths: [[String]]? = nil
    ) throws -> [UInt8] {
        let answer = try autocompleteAnswer(request)
        var list: [JSONValue] = []
        for s in answer.places {
            var prediction = JSONObject()
            prediction["place"] = .string(s.placeID.resourceName)
            prediction["placeId"] = .string(s.placeID.rawValue)
            prediction["text"] = Self.formattable(s.text, s.matches)
            prediction["structuredFormat"] = Self.structured(
                s.mainText, s.mainTextMatches, s.secondaryText, s.secondaryTextMatches)
            if !s.types.isEmpty { prediction["types"] = .array(s.types.map { .string($0) }) }
            if let d = s.distanceMeters { prediction["distanceMeters"] = .int(Int64(d.rounded())) }
            var item = JSONObject()
            item["placePrediction"] = .object(prediction)
            if explain { item["explain"] = Self.explainJSON(s.ranking) }
            list.append(.object(item))
        }
        for q in answer.queries {
            var prediction = JSONObject()
            prediction["text"] = Self.formattable(q.text, q.matches)
            prediction["structuredFormat"] = Self.structured(
                q.mainText, q.mainTextMatches, q.secondaryText, q.secondaryTextMatches)
            var item = JSONObject()
            item["queryPrediction"] = .object(prediction)
            list.append(.object(item))
        }
        var out: [UInt8] = []
        var json = JSONObject()
        json["suggestions"] = .array(list)
        JSONWriter().write(paths.map { JSONValue.object(json).keeping($0) } ?? .object(json), into: &out)
        return out
    }

    /// A `FormattableText`: `{"text", "matches": [{"startOffset", "endOffset"}]}`.
    static func formattable(_ text: String, _ matches: [TextRange]) -> JSONValue {
        var o = JSONObject()
        o["text"] = .string(text)
        if !matches.isEmpty {
            o["matches"] = .array(
                matches.map { r in
                    var m = JSONObject()
                    if r.start != 0 { m["startOffset"] = .int(Int64(r.start)) }
                    m["endOffset"] = .int(Int64(r.end))
                    return .object(m)
                })
        }
        return .object(o)
    }

    static func structured(
        _ main: String, _ mainMatches: [TextRange], _ secondary: String?, _ secondaryMatches: [TextRange]
    ) -> JSONValue {
        var o = JSONObject()
        o["mainText"] = formattable(main, mainMatches)
        if let secondary { o["secondaryText"] = formattable(secondary, secondaryMatches) }
        return .object(o)
    }
}
