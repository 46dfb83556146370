import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel

@Suite("autocomplete matches and query predictions")
struct AutocompleteMatchesTests {
    func r(_ start: Int, _ end: Int) -> TextRange { TextRange(start: start, end: end) }

    /// The text of `range` (code points).
    func cut(_ text: String, _ range: TextRange) -> String {
        let s = Array(text.unicodeScalars)
        return String(String.UnicodeScalarView(s[range.start..<range.end]))
    }

    @Test("whole words and the last word's prefix, folded; each query word marks one text word, in order")
    func wordsAndPrefix() {
        let text = "Café du Lac, Place de la Riponne 1, 1005 Lausanne"
        let got = TextMatches.ranges(in: text, query: TextFolding.words("cafe du l"), lastIsPrefix: true)
        #expect(got == [r(0, 4), r(5, 7), r(8, 9)])
        #expect(got.map { cut(text, $0) } == ["Café", "du", "L"])
        // Not a prefix: "l" is no whole word of the text.
        #expect(TextMatches.ranges(in: text, query: ["cafe", "du", "l"], lastIsPrefix: false) == [r(0, 4), r(5, 7)])
        // Case and diacritics typed either way.
        #expect(
            TextMatches.ranges(in: "MÜLLER Mode", query: TextFolding.words("müller mo"), lastIsPrefix: true) == [
                r(0, 6), r(7, 9),
            ])
        // A word typed twice marks two words, not one twice.
        #expect(
            TextMatches.ranges(in: "Pizza Pizza Roma", query: ["pizza", "pizza"], lastIsPrefix: false) == [
                r(0, 5), r(6, 11),
            ])
        #expect(TextMatches.ranges(in: "Bar", query: [], lastIsPrefix: true).isEmpty)
    }

    @Test("combining accents: a decomposed letter counts its marks, and a prefix ending on it takes them")
    func combiningAccents() {
        // "Cafe\u{301}" is five code points: the accent is one of its own.
        let text = "Cafe\u{301} Noe\u{308}l"
        #expect(text.unicodeScalars.count == 11)
        let whole = TextMatches.ranges(in: text, query: ["cafe", "noel"], lastIsPrefix: false)
        #expect(whole == [r(0, 5), r(6, 11)])
        #expect(whole.map { cut(text, $0) } == ["Cafe\u{301}", "Noe\u{308}l"])
        // A prefix ending on the accented letter covers its mark; one ending before it does not.
        #expect(TextMatches.ranges(in: text, query: ["cafe"], lastIsPrefix: true) == [r(0, 5)])
        #expect(TextMatches.ranges(in: text, query: ["noe"], lastIsPrefix: true) == [r(6, 10)])
        #expect(TextMatches.ranges(in: text, query: ["no"], lastIsPrefix: true) == [r(6, 8)])
        // Precomposed, the same words are shorter.
        #expect(
            TextMatches.ranges(in: "Café Noël", query: ["cafe", "noel"], lastIsPrefix: false) == [r(0, 4), r(5, 9)])
    }

    @Test("emoji count as code points (two for a flag, a joined sequence each part) and separate words")
    func emoji() {
        let text = "🍕 Pizza 🇮🇹 Roma 👨‍👩‍👧"
        // 🍕 1, space, Pizza 2..<7, space, flag 8..<10, space, Roma 11..<15.
        let got = TextMatches.ranges(in: text, query: ["pizza", "ro"], lastIsPrefix: true)
        #expect(got == [r(2, 7), r(11, 13)])
        #expect(got.map { cut(text, $0) } == ["Pizza", "Ro"])
        // An emoji stuck to a word does not join it.
        #expect(TextMatches.ranges(in: "☕️Cafe", query: ["cafe"], lastIsPrefix: false) == [r(2, 6)])
    }

    @Test("right-to-left text: offsets in logical order, marks (harakat) inside words, bidi controls between them")
    func rightToLeft() {
        let hebrew = "קפה גן"
        #expect(TextMatches.ranges(in: hebrew, query: ["גן"], lastIsPrefix: false) == [r(4, 6)])
        #expect(TextMatches.ranges(in: hebrew, query: ["קפ"], lastIsPrefix: true) == [r(0, 2)])
        // Arabic with a damma (U+064F) on its first letter; the index drops marks.
        let arabic = "مُطعم\u{200F} الشام"
        #expect(arabic.unicodeScalars.count == 12)
        #expect(TextMatches.ranges(in: arabic, query: ["مطعم", "الش"], lastIsPrefix: true) == [r(0, 5), r(7, 10)])
        #expect(TextMatches.ranges(in: arabic, query: ["م"], lastIsPrefix: true) == [r(0, 2)])
    }

    @Test("a corrected typo marks the word it was corrected to")
    func fuzzy() {
        #expect(TextMatches.ranges(in: "Boulangerie Kaufmann", query: ["boulngerie"], lastIsPrefix: false).isEmpty)
        #expect(
            TextMatches.ranges(in: "Boulangerie Kaufmann", query: ["boulngerie"], lastIsPrefix: false, fuzzy: true) == [
                r(0, 11)
            ])
    }

    @Test("split: the ranges of text 'main, secondary' as the main text's and the secondary text's own")
    func split() {
        let ranges = TextMatches.ranges(in: "Café du Lac, Lausanne Ouchy", query: ["lac", "lau"], lastIsPrefix: true)
        let (main, secondary) = TextMatches.split(ranges, main: "Café du Lac", separator: ", ")
        #expect(main == [r(8, 11)])
        #expect(secondary == [r(0, 3)])
    }

    func database() throws -> (TempDirectory, String) {
        let dir = try TempDirectory("autocomplete-matches")
        let db = dir.file("places.sqlite")
        let records = [
            #"{"id":"pz","displayName":{"text":"Pizzeria Bella"},"formattedAddress":"Rue du Pont 1, 1003 Lausanne","location":{"latitude":46.521,"longitude":6.632},"types":["pizza_restaurant","restaurant"],"primaryType":"pizza_restaurant"}"#,
            #"{"id":"pz2","displayName":{"text":"Da Mario"},"location":{"latitude":46.522,"longitude":6.633},"types":["pizza_restaurant"],"primaryType":"pizza_restaurant"}"#,
            #"{"id":"lac","displayName":{"text":"Café du Lac"},"formattedAddress":"Quai d'Ouchy 1, Lausanne","location":{"latitude":46.5201,"longitude":6.6301},"types":["cafe"],"primaryType":"cafe"}"#,
            #"{"id":"lsn","displayName":{"text":"Lausanne"},"location":{"latitude":46.5197,"longitude":6.6323},"types":["locality","political"],"primaryType":"locality"}"#,
            #"{"id":"plumber","displayName":{"text":"Pizza Plumbing"},"location":{"latitude":46.52,"longitude":6.63},"types":["plumber"],"pureServiceAreaBusiness":true}"#,
            #"{"id":"soon","displayName":{"text":"Pizza Soon"},"location":{"latitude":46.52,"longitude":6.63},"types":["restaurant"],"businessStatus":"FUTURE_OPENING"}"#,
        ]
        _ = try PlaceImporter(databasePath: db).importInput(
            .file(try dir.write("in.ndjson", records.joined(separator: "\n") + "\n")))
        return (dir, db)
    }

    @Test(
        "place predictions carry the matches of their text, main text and secondary text; the JSON leaves startOffset 0 out"
    )
    func placeMatches() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        let s = try #require(try client.autocomplete(AutocompleteRequest(input: "cafe du l")).first)
        #expect(s.placeID == "lac")
        #expect(s.matches == [r(0, 4), r(5, 7), r(8, 9)])
        #expect(s.mainTextMatches == s.matches)
        #expect(s.secondaryTextMatches.isEmpty)
        let address = try #require(try client.autocomplete(AutocompleteRequest(input: "cafe ouch")).first)
        #expect(address.secondaryTextMatches == [r(7, 11)])
        #expect(address.mainTextMatches == [r(0, 4)])
        let json = try JSONValue(parsing: client.autocompleteJSON(AutocompleteRequest(input: "cafe du l")))
        let text = json["suggestions"]?.arrayValue?.first?["placePrediction"]?["text"]
        let matches = text?["matches"]?.arrayValue ?? []
        #expect(matches.count == 3)
        #expect(matches.first?["startOffset"] == nil)
        #expect(matches.first?["endOffset"]?.doubleValue == 4)
        #expect(matches.dropFirst().first?["startOffset"]?.doubleValue == 5)
    }

    @Test(
        "query predictions: the type word completed, near the bias centre's locality, the type as words; after the places, 5 in all"
    )
    func queryPredictions() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        var request = AutocompleteRequest(
            input: "pizz",
            locationBias: .circle(center: Coordinate(latitude: 46.52, longitude: 6.63), radiusMeters: nil))
        #expect(try client.autocompleteAnswer(request).queries.isEmpty)
        request.includeQueryPredictions = true
        let answer = try client.autocompleteAnswer(request)
        #expect(answer.queries.map(\.text) == ["pizza", "pizza near Lausanne", "pizza restaurant"])
        #expect(answer.queries[1].mainText == "pizza")
        #expect(answer.queries[1].secondaryText == "near Lausanne")
        #expect(answer.queries.allSatisfy { $0.matches == [r(0, 4)] && $0.mainTextMatches == [r(0, 4)] })
        #expect(answer.places.count + answer.queries.count <= 5)
        #expect(answer.places.map(\.placeID.rawValue) == ["pz", "pz2"])
        // Without a focus, no locality; the JSON lists places first.
        request.locationBias = nil
        let plain = try JSONValue(parsing: client.autocompleteJSON(request))
        let kinds = (plain["suggestions"]?.arrayValue ?? []).map { $0["placePrediction"] != nil ? "place" : "query" }
        #expect(kinds == ["place", "place", "query", "query"])
        // A word that starts no type word: no query predictions.
        request.input = "bella"
        #expect(try client.autocompleteAnswer(request).queries.isEmpty)
    }

    @Test("pure service-area businesses and future openings are left out unless the request includes them")
    func businessFilters() throws {
        let (dir, db) = try database()
        _ = dir
        let client = try PlaceReader(databasePath: db)
        var request = AutocompleteRequest(input: "pizza")
        let plain = try client.autocomplete(request).map(\.placeID.rawValue)
        #expect(!plain.contains("plumber") && !plain.contains("soon"))
        request.includePureServiceAreaBusinesses = true
        #expect(try client.autocomplete(request).map(\.placeID.rawValue).contains("plumber"))
        request.includeFutureOpenings = true
        #expect(try client.autocomplete(request).map(\.placeID.rawValue).contains("soon"))
    }

    @Test(
        "request bodies: sessionToken, includedRegionCodes and includedPrimaryTypes checked as the discovery document says"
    )
    func requestChecks() throws {
        func parse(_ body: String) throws -> AutocompleteRequest {
            try AutocompleteRequest(json: #require(try JSONValue(parsing: Array(body.utf8)).objectValue))
        }
        #expect(try parse(#"{"input":"a","sessionToken":"0b7a4a6e-2f6c-4f7e-9d5c-1d2e3f4a5b6c"}"#).sessionToken != nil)
        #expect(throws: PlaceDBError.self) { try parse(#"{"input":"a","sessionToken":"has space"}"#) }
        #expect(throws: PlaceDBError.self) {
            try parse(#"{"input":"a","sessionToken":"\#(String(repeating: "a", count: 37))"}"#)
        }
        #expect(throws: PlaceDBError.self) { try parse(#"{"input":"a","sessionToken":5}"#) }
        #expect(try parse(#"{"input":"a","includedRegionCodes":["ch","US"]}"#).includedRegionCodes == ["ch", "US"])
        #expect(throws: PlaceDBError.self) { try parse(#"{"input":"a","includedRegionCodes":["CHE"]}"#) }
        #expect(throws: PlaceDBError.self) {
            try parse(#"{"input":"a","includedPrimaryTypes":["a","b","c","d","e","f"]}"#)
        }
        #expect(
            try parse(#"{"input":"a","includedPrimaryTypes":["(cities)"]}"#).primaryTypeFilter == [
                "locality", "administrative_area_level_3",
            ])
        #expect(throws: PlaceDBError.self) { try parse(#"{"input":"a","includedPrimaryTypes":["(cities)","cafe"]}"#) }
        #expect(
            try parse(#"{"input":"a","includeQueryPredictions":true,"includeFutureOpeningBusinesses":true}"#)
                .includeFutureOpenings)
        #expect(throws: PlaceDBError.self) { try parse(#"{"input":"a","includeQueryPredictions":"yes"}"#) }
    }
}
