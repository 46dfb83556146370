import Foundation
import PlaceModel
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
    /// Only places whose primary type is one of these (empty: any).
    public var includedPrimaryTypes: [String]
    /// The language of the names shown (the API's `languageCode`): a
    /// place's name in it where it has one (`NameLanguage`).
    public var languageCode: String?
    /// 1...`TextSearchRequest.maxResultLimit` (the Places API gives 5).
    public var maxResultCount: Int

    public init(input: String, locationBias: SearchArea? = nil, locationRestriction: SearchArea? = nil, origin: Coordinate? = nil,
                includedPrimaryTypes: [String] = [], maxResultCount: Int = 5) {
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
            throw .invalidArgument("input is \(n) characters long; at most \(TextSearchRequest.maxQueryLength) are accepted")
        }
        guard (1...TextSearchRequest.maxResultLimit).contains(maxResultCount) else {
            throw .invalidArgument("maxResultCount \(maxResultCount) must be in 1...\(TextSearchRequest.maxResultLimit)")
        }
        try locationBias?.validate("locationBias")
        try locationRestriction?.validate("locationRestriction")
        if let origin, !origin.isValid { throw .invalidArgument("origin \(origin.latitude),\(origin.longitude) is out of range") }
        for t in includedPrimaryTypes where t.isEmpty { throw .invalidArgument("an empty place type in includedPrimaryTypes") }
    }

    /// Reads a Places API (New) `autocomplete` request body: `input`
    /// (required), `inputOffset` (the input is cut there), `locationBias`,
    /// `locationRestriction` (circle or rectangle), `origin`,
    /// `includedPrimaryTypes`, `languageCode` (the names' language); `regionCode`,
    /// `includedRegionCodes`, `sessionToken` and `includeQueryPredictions`
    /// are accepted and ignored (only place predictions are given). Other
    /// keys are refused.
    public init(json: JSONObject) throws(PlaceDBError) {
        try RequestReader.checkKeys(json, allowed: ["input", "inputOffset", "locationBias", "locationRestriction", "origin", "includedPrimaryTypes",
                                                    "languageCode", "regionCode", "includedRegionCodes", "sessionToken", "includeQueryPredictions"])
        guard let i = json["input"] else { throw .invalidArgument("input is required") }
        guard var text = i.stringValue else { throw .invalidArgument("input must be a string, not \(i.kindDescription)") }
        if let offset = try RequestReader.int(json["inputOffset"], "inputOffset") {
            guard offset >= 0 else { throw .invalidArgument("inputOffset must not be negative") }
            text = String(text.unicodeScalars.prefix(offset))
        }
        var origin: Coordinate?
        if json["origin"] != nil { origin = try RequestReader.coordinate(json["origin"], "origin") }
        self.init(input: text, locationBias: try SearchArea(json: json["locationBias"], "locationBias"),
                  locationRestriction: try SearchArea(json: json["locationRestriction"], "locationRestriction"),
                  origin: origin, includedPrimaryTypes: try RequestReader.strings(json["includedPrimaryTypes"], "includedPrimaryTypes"))
        languageCode = try RequestReader.languageCode(json["languageCode"])
        try validate()
    }
}

/// One place prediction of an autocomplete answer.
public struct AutocompleteSuggestion: Sendable, Equatable {
    public var placeID: PlaceID
    /// The name, then the address after a comma.
    public var text: String
    public var mainText: String
    public var secondaryText: String?
    public var types: [String]
    /// From the origin (else the bias center), when there is one.
    public var distanceMeters: Double?
    public var ranking: TextRanking.Factors
}

extension PlaceReader {
    /// Places whose names (or addresses, types) start with what was typed:
    /// every word but the last matched whole, the last as a prefix (unless
    /// the input ends with a space), ranked as `searchText` ranks.
    package func autocomplete(_ request: AutocompleteRequest) throws -> [AutocompleteSuggestion] {
        try request.validate()
        let words = TextFolding.words(request.input)
        let lastIsPrefix = request.input.unicodeScalars.last.map { s in
            let c = s.properties.generalCategory
            return [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
                    .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark, .privateUse].contains(c)
        } ?? false
        let focus = request.locationBias?.center ?? request.locationRestriction?.center ?? request.origin
        var scale: Double?
        if case .circle(_, let r)? = request.locationBias { scale = r }
        let plan = TextQueryPlan(words: words, lastIsPrefix: lastIsPrefix, focus: focus, scale: scale,
                                 restriction: request.locationRestriction, types: [], limit: request.maxResultCount,
                                 window: request.maxResultCount)
        return try store.read {
            try store.requireTextIndex()
            var out: [AutocompleteSuggestion] = []
            let hits = try textHits(request.includedPrimaryTypes.isEmpty ? plan : widened(plan))
            for hit in hits {
                let c = hit.candidate
                if !request.includedPrimaryTypes.isEmpty, !request.includedPrimaryTypes.contains(c.primaryType ?? "") { continue }
                guard let (id, types, address) = try store.idTypesAndAddress(rowid: c.rowid) else { continue }
                let main = try request.languageCode.flatMap { try store.name(in: $0, placeID: id, defaultName: c.name) } ?? c.name ?? id
                let from = request.origin ?? focus
                out.append(AutocompleteSuggestion(placeID: PlaceID(id), text: address.map { "\(main), \($0)" } ?? main, mainText: main,
                                                  secondaryText: address, types: types,
                                                  distanceMeters: from.map { $0.distance(to: c.coordinate) }, ranking: hit.factors))
                if out.count == request.maxResultCount { break }
            }
            return out
        }
    }

    /// A primary-type filter is applied after ranking: rank more.
    private func widened(_ plan: TextQueryPlan) -> TextQueryPlan {
        var p = plan
        p.limit = min(TextSearchRequest.maxResultLimit, max(100, plan.limit * 20))
        p.window = p.limit
        return p
    }

    /// The same answer as `autocomplete` in the Places API (New) shape:
    /// `{"suggestions": [{"placePrediction": {"place", "placeId", "text":
    /// {"text"}, "structuredFormat": {"mainText": {"text"},
    /// "secondaryText": {"text"}}, "types", "distanceMeters"}}]}`, with
    /// `explain` each prediction's ranking factors.
    package func autocompleteJSON(_ request: AutocompleteRequest, explain: Bool = false) throws -> [UInt8] {
        let suggestions = try autocomplete(request)
        var list: [JSONValue] = []
        for s in suggestions {
            var structured = JSONObject()
            structured["mainText"] = ["text": .string(s.mainText)]
            if let secondary = s.secondaryText { structured["secondaryText"] = ["text": .string(secondary)] }
            var prediction = JSONObject()
            prediction["place"] = .string(s.placeID.resourceName)
            prediction["placeId"] = .string(s.placeID.rawValue)
            prediction["text"] = ["text": .string(s.text)]
            prediction["structuredFormat"] = .object(structured)
            if !s.types.isEmpty { prediction["types"] = .array(s.types.map { .string($0) }) }
            if let d = s.distanceMeters { prediction["distanceMeters"] = .int(Int64(d.rounded())) }
            var item = JSONObject()
            item["placePrediction"] = .object(prediction)
            if explain {
                var out: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "}")]
                Self.appendExplain(s.ranking, into: &out)
                if let e = try? JSONValue(parsing: out), let o = e.objectValue { item["explain"] = o["explain"] }
            }
            list.append(.object(item))
        }
        var out: [UInt8] = []
        var answer = JSONObject()
        answer["suggestions"] = .array(list)
        JSONWriter().write(.object(answer), into: &out)
        return out
    }
}
