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
    /// type cafe), ratings (some not in tenths), rating counts past the
    /// popularity cap, OpenStreetMap
    /// places with other and localized names (one with an escape), streets
    /// drawn as several ways, and two places linked into one group.
    static func database(_ dir: TempDirectory, seed: UInt64 = 3) throws -> String {
        let db = dir.file("places.sqlite")
        var rng = TestRandom(seed: seed)
        let names = [
            "Café", "Cafe", "Café du Lac", "Museum", "Lac", "Coop City", "Pont", "Musée Olympique",
            "Restaurant du Pont", "Cafe Cafe", "Le Lac Café", "Rue du Lac", "Cafe Ca", "Ponton du Lac", "Pontaise",
            "Cafe Pontet",
        ]
        let types = [["cafe"], ["restaurant", "cafe"], ["museum"], ["store"], ["bakery", "cafe"]]
        var google = ""
        for i in 0..<400 {
            let lat = 46.50 + rng.unit() * 0.06, lng = 6.58 + rng.unit() * 0.1
            let t = types[rng.int(types.count)]
            var extra = ""
            switch rng.int(4) {
            case 0:
                // Ratings in tenths (stored), and a few that are not (their rows are read).
                let rating = i % 40 == 0 ? "3.25" : String(Double(10 + rng.int(41)) / 10)
                extra = #","userRatingCount":\#(rng.int(300)),"rating":\#(rating)"#
            case 1: extra = #","userRatingCount":\#([9_999, 10_000, 25_000, 70_000][rng.int(4)])"#
            default: break
            }
            if rng.int(3) == 0 { extra += #","formattedAddress":"Rue du Lac \#(i), 1007 Lausanne""# }
            google +=
                #"{"id":"g\#(i)","displayName":{"text":"\#(names[rng.int(names.count)])"},"location":{"latitude":\#(lat),"longitude":\#(lng)},"types":[\#(t.map { "\"\($0)\"" }.joined(separator: ","))],"primaryType":"\#(t[0])"\#(extra)}"#
                + "\n"
        }
        // Cafés at one point, the later the more popular: ties in distance go by score.
        for i in 0..<5 {
            google +=
                #"{"id":"same\#(i)","displayName":{"text":"Café"},"location":{"latitude":46.531,"longitude":6.631},"types":["cafe"],"primaryType":"cafe","userRatingCount":\#(10 + 40 * i),"rating":4.\#(i)}"#
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

    /// The points of a few places (their rows'), to put on the edges of
    /// restrictions.
    static func edges(_ db: String) throws -> [Coordinate] {
        var out: [Coordinate] = []
        try Database(path: db, mode: .readOnly).forEachRow(
            "SELECT geom FROM place WHERE place_id IN ('g3', 'g11', 'g12', 'osm:n5', 'osm:n9') ORDER BY id"
        ) { row in
            if let c = row.withBytes(0, { SpatiaLiteBlob.coordinate($0) }) { out.append(c) }
        }
        return out
    }

    /// Every search and autocomplete of the list, as JSON with the ranking explained.
    static func answers(_ reader: PlaceReader, edges: [Coordinate]) throws -> [String] {
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
            // Prefixes that are whole words of names as long as the input
            // ("cafe ca", "pont"), and only the start of others' words.
            for input in [
                "caf", "cafe d", "ru", "mus", "rue du l", "le lac c", "p", "avenue de rh", "cafe ca", "cafe caf",
                "cafe cafe", "le lac cafe", "coop cit", "coop city", "pont", "pon", "cafe pon", "ponton du l", "lac",
            ] {
                let request = AutocompleteRequest(input: input, locationBias: .circle(center: at, radiusMeters: nil))
                out.append(String(decoding: try reader.autocompleteJSON(request, explain: true), as: UTF8.self))
            }
        }
        // Filters decided on the stored rating and point (or the row's,
        // near an edge), and the order by distance: `edges` are places'
        // points, made the edges of circles and rectangles.
        for (k, at) in (points + edges).enumerated() {
            for q in ["cafe", "lac", "museum", "cafe cafe", "rue du lac", "avenue de rhodanie", "pont", "coop city"] {
                var areas: [SearchArea] = [
                    .circle(center: at, radiusMeters: 800), .circle(center: at, radiusMeters: 3_000),
                    .rectangle(
                        low: Coordinate(latitude: at.latitude - 0.01, longitude: at.longitude - 0.02),
                        high: Coordinate(latitude: at.latitude + 0.01, longitude: at.longitude + 0.015)),
                ]
                if k >= points.count {
                    // The place's own point on an edge, and just out (1e-8 degree, 1 mm) or in:
                    // its stored point (1e-7 degree) may be on the other side.
                    let center = points[k % points.count], d = center.distance(to: at)
                    for step in [0, 1e-8, -1e-8] {
                        let corner = Coordinate(latitude: at.latitude + step, longitude: at.longitude + step)
                        let far = Coordinate(latitude: at.latitude - step, longitude: at.longitude - step)
                        areas += [
                            .rectangle(
                                low: corner,
                                high: Coordinate(latitude: at.latitude + 0.02, longitude: at.longitude + 0.03)),
                            .rectangle(
                                low: Coordinate(latitude: at.latitude - 0.02, longitude: at.longitude - 0.03), high: far
                            ),
                            .circle(center: center, radiusMeters: d - step * 1e5),
                        ]
                    }
                }
                for area in areas {
                    var restricted = TextSearchRequest(textQuery: q, locationRestriction: area, maxResultCount: 5)
                    out.append(
                        String(decoding: try reader.searchTextJSON(restricted, explain: true, at: time), as: UTF8.self))
                    restricted.rankByDistance = true
                    out.append(
                        String(decoding: try reader.searchTextJSON(restricted, explain: true, at: time), as: UTF8.self))
                }
                for (min, n) in [(2.0, 3), (3.5, 10), (4.5, 20)] {
                    var rated = TextSearchRequest(
                        textQuery: q, locationBias: .circle(center: at, radiusMeters: nil), maxResultCount: n)
                    rated.minRating = min
                    out.append(
                        String(decoding: try reader.searchTextJSON(rated, explain: true, at: time), as: UTF8.self))
                    rated.rankByDistance = true
                    out.append(
                        String(decoding: try reader.searchTextJSON(rated, explain: true, at: time), as: UTF8.self))
                }
                var nearest = TextSearchRequest(
                    textQuery: q, locationBias: .circle(center: at, radiusMeters: nil), maxResultCount: 4)
                nearest.rankByDistance = true
                out.append(String(decoding: try reader.searchTextJSON(nearest, explain: true, at: time), as: UTF8.self))
            }
            let request = AutocompleteRequest(
                input: "caf", locationRestriction: .circle(center: at, radiusMeters: 1_500))
            out.append(String(decoding: try reader.autocompleteJSON(request, explain: true), as: UTF8.self))
        }
        for n in 1...4 {
            var tied = TextSearchRequest(
                textQuery: "café",
                locationBias: .circle(center: Coordinate(latitude: 46.5312, longitude: 6.6313), radiusMeters: nil),
                maxResultCount: n)
            tied.rankByDistance = true
            out.append(String(decoding: try reader.searchTextJSON(tied, explain: true, at: time), as: UTF8.self))
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
        #expect(read >= 8 && read < 30, "\(read) of \(lists.placeCount) read whatever the bound")

        let bounded = try PlaceReader(databasePath: db)
        let reading = try PlaceReader(databasePath: db)
        reading.ranksFromWordLists = false
        let whole = try PlaceReader(databasePath: db)
        whole.boundsTextRanking = false
        let edges = try Self.edges(db)
        #expect(edges.count == 5)
        var a = try Self.answers(bounded, edges: edges), b = try Self.answers(reading, edges: edges)
        var c = try Self.answers(whole, edges: edges)
        // And every query through the grid levels (few matches are otherwise all read at once).
        for r in [bounded, reading, whole] { r.completeMatchLimit = 0 }
        a += try Self.answers(bounded, edges: edges)
        b += try Self.answers(reading, edges: edges)
        c += try Self.answers(whole, edges: edges)
        #expect(a.count == b.count && a.count == c.count)
        for (i, (x, y)) in zip(a, b).enumerated() { #expect(x == y, "answer \(i)") }
        for (i, (x, y)) in zip(a, c).enumerated() { #expect(x == y, "answer \(i), whole") }
        #expect(bounded.store.textMatchesUnread > 10_000)
        #expect(reading.store.textMatchesUnread == 0)
        // minRating, a restriction and the order by distance take matches unread too.
        let at = Coordinate(latitude: 46.53, longitude: 6.63)
        var rated = TextSearchRequest(textQuery: "cafe", locationBias: .circle(center: at, radiusMeters: nil))
        rated.minRating = 3
        let restricted = TextSearchRequest(
            textQuery: "cafe", locationRestriction: .circle(center: at, radiusMeters: 2_000), maxResultCount: 3)
        var nearest = TextSearchRequest(textQuery: "cafe", locationBias: .circle(center: at, radiusMeters: nil))
        nearest.rankByDistance = true
        for request in [rated, restricted, nearest] {
            let before = bounded.store.textMatchesUnread
            let answer = try bounded.searchTextJSON(request, at: Self.time)
            #expect(bounded.store.textMatchesUnread > before)
            #expect(String(decoding: answer, as: UTF8.self).contains("\"places\""))
        }
        // Few matches (taken all at once, their grid levels told by the
        // lists' cell runs) come unread too: about as many rows are read as
        // the answer has.
        bounded.completeMatchLimit = 300
        let (fewReads, fewUnread) = (bounded.store.matchedRowsRead, bounded.store.textMatchesUnread)
        let few = try bounded.searchTextJSON(
            TextSearchRequest(
                textQuery: "pont", locationBias: .circle(center: at, radiusMeters: nil), maxResultCount: 3),
            at: Self.time)
        #expect(String(decoding: few, as: UTF8.self).components(separatedBy: "\"places/").count == 4)
        #expect(
            bounded.store.textMatchesUnread - fewUnread >= 10, "\(bounded.store.textMatchesUnread - fewUnread) unread")
        #expect(bounded.store.matchedRowsRead - fewReads <= 6, "\(bounded.store.matchedRowsRead - fewReads) rows read")
        // An autocomplete whose last word starts names' words but is not
        // one of them (no "Cafe Caf") can give those names 0.5 at most:
        // only about as many rows as it answers are read, not every
        // "Cafe Cafe" near the point.
        bounded.completeMatchLimit = 0
        let reads = bounded.store.matchedRowsRead
        let typed = try bounded.autocompleteJSON(
            AutocompleteRequest(input: "cafe caf", locationBias: .circle(center: at, radiusMeters: nil)))
        #expect(String(decoding: typed, as: UTF8.self).components(separatedBy: "\"placePrediction\"").count == 6)
        #expect(bounded.store.matchedRowsRead - reads <= 12, "\(bounded.store.matchedRowsRead - reads) rows read")
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
        let edges = try Self.edges(db)
        let a = try Self.answers(stale, edges: edges), b = try Self.answers(reading, edges: edges)
        #expect(a == b)
        #expect(stale.store.textMatchesUnread == 0)
        #expect(stale.store.textMatchesFromWordLists > 100)
        _ = try PlaceStore(path: db, writable: false).writeWordLists()
        let again = try PlaceReader(databasePath: db)
        #expect(try again.store.wordListsState()?.reason == nil)
        #expect(try Self.answers(again, edges: edges) == b)
        #expect(again.store.textMatchesUnread > 1_000)
        // A rating alone (minRating takes it from the lists) makes them stale too (schema version 20).
        try writer.db.execute("UPDATE place SET rating = 1.2 WHERE place_id = 'g5'")
        let rated = try PlaceReader(databasePath: db)
        #expect(try rated.store.wordListsState()?.reason == "its rank inputs are stale: a place changed since")
    }

    @Test(
        "migration 20 gives a version 19 database the counter of changed ratings: a rating moves the rank inputs' marker, not the spatial index's"
    )
    func ratingCounter() throws {
        let dir = try TempDirectory("rank-inputs-migration")
        let db = try Self.database(dir)
        try Database(path: db, mode: .readWrite).execute(
            """
            DROP TRIGGER place_rating_generation_update;
            DROP TABLE place_rating_generation;
            DELETE FROM schema_migration WHERE version > 19;
            PRAGMA user_version = 19;
            """)
        #expect(throws: PlaceDBError.self, "a reader refuses the old version") { try PlaceReader(databasePath: db) }
        let store = try PlaceImporter(databasePath: db).store
        #expect(try Migrator.storedVersion(store.db) == 20)
        let spatial = try #require(try store.indexMarker()), ranks = try #require(try store.rankMarker())
        try store.db.execute("UPDATE place SET rating = 2.5 WHERE place_id = 'g3'")
        #expect(try store.indexMarker()?.generation == spatial.generation)
        #expect(try store.rankMarker()?.generation == ranks.generation + 1)
        // The same rating again: no change.
        try store.db.execute("UPDATE place SET rating = 2.5 WHERE place_id = 'g3'")
        #expect(try store.rankMarker()?.generation == ranks.generation + 1)
        #expect(try store.wordListsState()?.reason == "its rank inputs are stale: a place changed since")
    }
}
