import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("text ranking bounds matches by the word lists' rank inputs before reading their rows")
struct RankInputsTests {
    /// Places around Lausanne: namesakes of type words ("Cafe" for the
    /// type cafe), rating counts past the popularity cap, OpenStreetMap
    /// places with other and localized names (one with an escape), streets
    /// drawn as several ways, and two places linked into one group.
    static func database(_ dir: TempDirectory, seed: UInt64 = 3) throws -> String {
        let db = dir.file("places.sqlite")
        var rng = TestRandom(seed: seed)
        let names = [
            "Café", "Cafe", "Café du Lac", "Museum", "Lac", "Coop City", "Pont", "Musée Olympique",
            "Restaurant du Pont", "Cafe Cafe", "Le Lac Café", "Rue du Lac",
        ]
        let types = [["cafe"], ["restaurant", "cafe"], ["museum"], ["store"], ["bakery", "cafe"]]
        var google = ""
        for i in 0..<400 {
            let lat = 46.50 + rng.unit() * 0.06, lng = 6.58 + rng.unit() * 0.1
            let t = types[rng.int(types.count)]
            var extra = ""
            switch rng.int(4) {
            case 0: extra = #","userRatingCount":\#(rng.int(300)),"rating":\#(1 + rng.int(40) / 10)"#
            case 1: extra = #","userRatingCount":\#([9_999, 10_000, 25_000, 70_000][rng.int(4)])"#
            default: break
            }
            if rng.int(3) == 0 { extra += #","formattedAddress":"Rue du Lac \#(i), 1007 Lausanne""# }
            google +=
                #"{"id":"g\#(i)","displayName":{"text":"\#(names[rng.int(names.count)])"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":[\#(t.map { "\"\($0)\"" }.joined(separator: ","))],"primaryType":"\#(t[0])"\#(extra)}"#
                + "\n"
        }
        var osm = ""
        for i in 0..<120 {
            let lat = 46.50 + rng.unit() * 0.06, lng = 6.58 + rng.unit() * 0.1
            var tags = #""name":"\#(names[rng.int(names.count)])","amenity":"cafe""#
            if rng.int(2) == 0 { tags += #","alt_name":"\#(names[rng.int(names.count)])""# }
            if rng.int(3) == 0 { tags += #","name:en":"\#(names[rng.int(names.count)])""# }
            // A localized name with an escape: its row is read whatever the bound.
            if i == 7 { tags += #","name:de":"Cafe \"Lac\"""# }
            osm +=
                "\u{1E}"
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lng),\#(lat)]},"properties":{"@type":"node","@id":\#(i + 1),\#(tags)}}"#
                + "\n"
        }
        // "Avenue de Rhodanie" drawn as ways end to end, and another far off.
        for (i, start) in [(0, 6.60), (1, 6.601), (2, 6.602), (3, 6.66)].map({ ($0.0, $0.1) }) {
            osm +=
                "\u{1E}"
                + #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[\#(start),46.52],[\#(start + 0.001),46.52]]},"properties":{"@type":"way","@id":\#(1000 + i),"name":"Avenue de Rhodanie","highway":"residential"}}"#
                + "\n"
        }
        let importer = try PlaceImporter(databasePath: db)
        _ = try importer.importInput(.file(try dir.write("in.ndjson", google)))
        _ = try importer.importInput(.file(try dir.write("in.geojsonseq", osm)))
        // Two places as one group (the merged view answers the member as the other).
        try Database(path: db, mode: .readWrite).execute(
            "UPDATE place SET group_id = (SELECT id FROM place WHERE place_id = 'g1') WHERE place_id IN ('g1', 'g2')")
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        return db
    }

    static let time = HoursQueryTime.instant(Date(timeIntervalSince1970: 1_790_000_000))

    /// Every search and autocomplete of the list, as JSON with the ranking explained.
    static func answers(_ reader: PlaceReader) throws -> [String] {
        var out: [String] = []
        let points = [
            Coordinate(latitude: 46.52, longitude: 6.60), Coordinate(latitude: 46.53, longitude: 6.63),
            Coordinate(latitude: 46.57, longitude: 6.70),
        ]
        let queries = [
            "cafe", "café du lac", "museum", "restaurant", "lac", "rue du lac", "musee olympique", "coop", "cafe cafe",
            "pont", "bakery", "store", "avenue de rhodanie", "rhodanie",
        ]
        for at in points {
            for q in queries {
                for n in [1, 3, 10, 20] {
                    let request = TextSearchRequest(
                        textQuery: q, locationBias: .circle(center: at, radiusMeters: nil), maxResultCount: n)
                    out.append(
                        String(decoding: try reader.searchTextJSON(request, explain: true, at: time), as: UTF8.self))
                }
                let wide = TextSearchRequest(
                    textQuery: q, locationBias: .circle(center: at, radiusMeters: 5_000), maxResultCount: 5)
                out.append(String(decoding: try reader.searchTextJSON(wide, explain: true, at: time), as: UTF8.self))
            }
            for input in ["caf", "cafe d", "ru", "mus", "rue du l", "le lac c", "p", "avenue de rh"] {
                let request = AutocompleteRequest(input: input, locationBias: .circle(center: at, radiusMeters: nil))
                out.append(String(decoding: try reader.autocompleteJSON(request, explain: true), as: UTF8.self))
            }
        }
        // No bias: the whole index's best.
        out.append(
            String(
                decoding: try reader.searchTextJSON(TextSearchRequest(textQuery: "cafe"), explain: true, at: time),
                as: UTF8.self))
        return out
    }

    @Test("the same answers as reading every match's row, and as scoring every place whole")
    func sameAnswers() throws {
        let dir = try TempDirectory("rank-inputs")
        let db = try Self.database(dir)
        let lists = try WordLists.open(WordLists.path(for: db)).get()
        let read = (0..<UInt32(lists.placeCount)).filter { lists.rankInputs($0) == nil }.count
        // The streets, the group's member, the escaped name: read; the rest not.
        #expect(read >= 6 && read < 20, "\(read) of \(lists.placeCount) read whatever the bound")

        let bounded = try PlaceReader(databasePath: db)
        let reading = try PlaceReader(databasePath: db)
        reading.ranksFromWordLists = false
        let whole = try PlaceReader(databasePath: db)
        whole.boundsTextRanking = false
        var a = try Self.answers(bounded), b = try Self.answers(reading), c = try Self.answers(whole)
        // And every query through the grid levels (few matches are otherwise all read at once).
        for r in [bounded, reading, whole] { r.completeMatchLimit = 0 }
        a += try Self.answers(bounded)
        b += try Self.answers(reading)
        c += try Self.answers(whole)
        #expect(a.count == b.count && a.count == c.count)
        for (i, (x, y)) in zip(a, b).enumerated() { #expect(x == y, "answer \(i)") }
        for (i, (x, y)) in zip(a, c).enumerated() { #expect(x == y, "answer \(i), whole") }
        #expect(bounded.store.textMatchesUnread > 10_000)
        #expect(reading.store.textMatchesUnread == 0)
        // Namesakes of the type word were found and ranked by their names.
        #expect(a.filter { $0.contains(#""name":1"#) || $0.contains(#""name":0.9"#) }.count > 20)
        #expect(a.filter { $0.contains("\"places\"") }.count > 100)
        // The street answers once near its ways (they are read: their footprints join them).
        let segments = ["\"osm:w1000\"", "\"osm:w1001\"", "\"osm:w1002\""]
        let street = a.filter { answer in segments.contains { answer.contains($0) } }
        #expect(street.count >= 3)
        #expect(street.allSatisfy { answer in segments.filter { answer.contains($0) }.count == 1 })
    }

    @Test(
        "a changed place (a rating count, a point) leaves the lists current but not their rank inputs: rows are read until the lists are written again"
    )
    func staleRanks() throws {
        let dir = try TempDirectory("rank-inputs-stale")
        let db = try Self.database(dir, seed: 9)
        let writer = try PlaceStore(path: db, writable: true)
        try writer.db.execute("UPDATE place SET rating_count = 50000 WHERE place_id IN ('g5', 'g6', 'g7')")
        try writer.db.execute("UPDATE place SET geom = MakePoint(6.6001, 46.5201, 4326) WHERE place_id = 'g8'")
        let stale = try PlaceReader(databasePath: db)
        let reading = try PlaceReader(databasePath: db)
        reading.ranksFromWordLists = false
        let state = try stale.store.wordListsState()
        #expect(state?.state == "current" && state?.reason == "its rank inputs are stale: a place changed since")
        let a = try Self.answers(stale), b = try Self.answers(reading)
        #expect(a == b)
        #expect(stale.store.textMatchesUnread == 0)
        #expect(stale.store.textMatchesFromWordLists > 100)
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        let again = try PlaceReader(databasePath: db)
        #expect(try again.store.wordListsState()?.reason == nil)
        #expect(try Self.answers(again) == b)
        #expect(again.store.textMatchesUnread > 1_000)
    }
}
