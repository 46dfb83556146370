import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

/// Linking (docs/linking.md): one café from three providers is one place.
@Suite("Linking across sources and IDs")
struct LinkingTests {
    static let cafe = Coordinate(latitude: 48.21032, longitude: 16.36540)

    /// `meters` north and east of the café.
    static func at(_ north: Double, _ east: Double) -> Coordinate {
        Coordinate(
            latitude: cafe.latitude + north / 111_320,
            longitude: cafe.longitude + east / (111_320 * cos(cafe.latitude * .pi / 180)))
    }

    static func google(
        _ id: String, _ name: String, _ c: Coordinate, phone: String? = nil, web: String? = nil,
        types: [String] = ["cafe", "food"],
        rating: Double? = nil
    ) -> String {
        var members = [
            #""id":"\#(id)""#, #""displayName":{"text":"\#(name)"}"#,
            #""location":{"latitude":\#(c.latitude),"longitude":\#(c.longitude)}"#,
            #""types":[\#(types.map { "\"\($0)\"" }.joined(separator: ","))]"#,
        ]
        if let phone { members.append(#""internationalPhoneNumber":"\#(phone)""#) }
        if let web { members.append(#""websiteUri":"\#(web)""#) }
        if let rating { members.append(#""rating":\#(rating)"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func osm(
        _ id: Int, _ name: String, _ c: Coordinate, tags: [String: String] = ["amenity": "cafe"],
        timestamp: Int = 1_700_000_000
    ) -> String {
        var props = [#""@type":"node""#, #""@id":\#(id)"#, #""@timestamp":\#(timestamp)"#, #""name":"\#(name)""#]
        for (k, v) in tags.sorted(by: { $0.key < $1.key }) { props.append(#""\#(k)":"\#(v)""#) }
        return
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]},"properties":{\#(props.joined(separator: ","))}}"#
    }

    static func overture(_ id: String, _ name: String, _ c: Coordinate, phone: String? = nil, web: String? = nil)
        -> String
    {
        var props = [
            #""names":{"primary":"\#(name)"}"#, #""categories":{"primary":"cafe"}"#,
            #""update_time":"2025-01-01T00:00:00Z""#,
        ]
        if let phone { props.append(#""phones":["\#(phone)"]"#) }
        if let web { props.append(#""websites":["\#(web)"]"#) }
        return
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]},"properties":{\#(props.joined(separator: ","))}}"#
    }

    /// The café from Google, OpenStreetMap and Overture, each a few meters
    /// off, plus a bakery next door in each of them.
    static let files: [(name: String, text: String)] = [
        (
            "google.ndjson",
            [
                google(
                    "ChIJcafeCentral", "Café Central", at(0, 0), phone: "+43 1 5333763",
                    web: "https://www.cafecentral.wien/", rating: 4.4),
                google("ChIJbakery", "Bäckerei Ströck", at(25, 10), types: ["bakery", "food"]),
            ].joined(separator: "\n") + "\n"
        ),
        (
            "osm.geojsonseq",
            [
                osm(
                    1794111149, "Café Central", at(6, -4),
                    tags: ["amenity": "cafe", "phone": "+43 1 533 37 63", "website": "https://cafecentral.wien"]),
                osm(42, "Bäckerei Ströck", at(22, 12), tags: ["shop": "bakery"]),
            ].joined(separator: "\n") + "\n"
        ),
        (
            "overture.geojsonseq",
            [
                overture(
                    "08f1e2a3b4c5d6e7", "Cafe Central", at(-5, 6), phone: "+4315333763", web: "http://cafecentral.wien"),
                overture("08f1e2a3b4c5d6e8", "Ströck", at(27, 8)),
            ].joined(separator: "\n") + "\n"
        ),
    ]

    static func database(order: [Int] = [0, 1, 2], link: Bool = true) throws -> (TempDirectory, String) {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        var options = ImportOptions()
        options.link = link
        for i in order {
            // Google captured in 2024, OSM edited in 2023, Overture updated in 2025.
            options.capturedAt = i == 0 ? 1_704_067_200 : nil
            let importer = try PlaceImporter(databasePath: path, options: options)
            _ = try importer.importInput(.file(try dir.write(files[i].name, files[i].text)))
            _ = try importer.link()
        }
        return (dir, path)
    }

    static func groups(_ path: String) throws -> [[String]] {
        let db = try Database(path: path, mode: .readOnly)
        var out: [[String]] = []
        try db.forEachRow(
            "SELECT group_concat(place_id, ' ') FROM (SELECT group_id, place_id FROM place WHERE group_id IS NOT NULL ORDER BY place_id) GROUP BY group_id ORDER BY 1"
        ) {
            out.append(try $0.string(0).split(separator: " ").map(String.init))
        }
        return out
    }

    @Test(
        "one café from three providers is one group; the bakery next door is another; the canonical ID is the Google one"
    )
    func threeProviders() throws {
        let (dir, path) = try Self.database()
        defer { _ = dir }
        let groups = try Self.groups(path)
        #expect(groups.count == 2)
        #expect(groups.contains { Set($0) == ["ChIJcafeCentral", "osm:n1794111149", "08f1e2a3b4c5d6e7"] })
        #expect(groups.contains { Set($0) == ["ChIJbakery", "osm:n42", "08f1e2a3b4c5d6e8"] })
        let reader = try PlaceReader(databasePath: path)
        // Every member resolves to the canonical ID, with the reason.
        for id in ["osm:n1794111149", "08f1e2a3b4c5d6e7"] {
            let r = try reader.resolvePlaceID(PlaceID(id))
            #expect(r.placeID == "ChIJcafeCentral")
            #expect(r.chain.last?.reason == .samePlace)
            #expect((r.chain.last?.confidence ?? 0) >= SamePlace.threshold)
        }
        #expect(try reader.resolvePlaceID("ChIJcafeCentral").status == .current)
        // nearby lists each physical place once, under its canonical ID.
        let nearby = try reader.searchNearby(
            NearbySearchRequest(center: Self.cafe, radiusMeters: 200, maxResultCount: 20))
        #expect(nearby.map(\.place.id.rawValue).sorted() == ["ChIJbakery", "ChIJcafeCentral"])
        // current place: one candidate per place; the café's likelihood is
        // not split between its records.
        let current = try reader.findPlaceLikelihoods(location: Self.cafe, accuracy: 10)
        let ids = current.placeLikelihoods.map(\.place.id.rawValue)
        #expect(Set(ids).count == ids.count)
        #expect(ids.first == "ChIJcafeCentral")
        #expect(!ids.contains("osm:n1794111149") && !ids.contains("08f1e2a3b4c5d6e7"))
    }

    @Test(
        "a member's ID gives the merged place: each member from the newest capture, with its provenance and the member list"
    )
    func mergedPlace() throws {
        let (dir, path) = try Self.database()
        defer { _ = dir }
        let reader = try PlaceReader(databasePath: path)
        let place = try reader.fetchPlace(id: "osm:n1794111149")
        #expect(place.id == "ChIJcafeCentral")
        // The rating only Google has; the name from the newest capture
        // (Overture 2025, over Google 2024 and OpenStreetMap 2023).
        #expect(place.document["rating"]?.doubleValue == 4.4)
        #expect(place.document["displayName"]?["text"]?.stringValue == "Cafe Central")
        let store = try PlaceStore(path: path, writable: false)
        let group = try #require(try store.group(of: "ChIJcafeCentral"))
        #expect(group.members.first == "ChIJcafeCentral")
        #expect(Set(group.members) == ["ChIJcafeCentral", "osm:n1794111149", "08f1e2a3b4c5d6e7"])
        #expect(group.provenance["displayName"]?.stringValue == "08f1e2a3b4c5d6e7")
        #expect(group.provenance["rating"]?.stringValue == "ChIJcafeCentral")
        // The Places Details answer of a member is the merged place too.
        let json = try reader.placeDetailsJSON(
            id: "08f1e2a3b4c5d6e7", fields: .all, openNow: false, at: .instant(Date()))
        let parsed = try JSONParser.parse(json)
        #expect(parsed["id"]?.stringValue == "ChIJcafeCentral")
        #expect(parsed["rating"]?.doubleValue == 4.4)
    }

    @Test("provenance of a group says which record gave each member, when, and lists the records")
    func groupProvenance() throws {
        let (dir, path) = try Self.database()
        defer { _ = dir }
        let reader = try PlaceReader(databasePath: path)
        let p = try reader.provenance(of: "ChIJcafeCentral")
        #expect(p.records.map(\.placeID.rawValue).first == "ChIJcafeCentral")
        #expect(Set(p.records.map(\.placeID.rawValue)) == ["ChIJcafeCentral", "osm:n1794111149", "08f1e2a3b4c5d6e7"])
        #expect(Set(p.records.map(\.source)) == ["google-places", "osm", "overture"])
        #expect(p.memberRecords["displayName"] == "08f1e2a3b4c5d6e7")
        #expect(p.memberRecords["rating"] == "ChIJcafeCentral")
        // Each member's time is its record's: the name from Overture's 2025
        // update, the rating from Google's 2024 capture.
        let time = Dictionary(uniqueKeysWithValues: p.members.map { ($0.name, $0.capturedAt) })
        #expect(time["rating"] == 1_704_067_200)
        #expect((time["displayName"] ?? nil).map { $0 > 1_704_067_200 } == true)
        #expect(p.capturedAt == p.records.compactMap(\.capturedAt).max())
        let json = p.json
        #expect(json["memberRecords"]?["rating"]?.stringValue == "ChIJcafeCentral")
        #expect(json["records"]?.arrayValue?.count == 3)
        // The unmerged view: the record's own provenance, no group.
        let raw = try PlaceReader(databasePath: path, recordView: .unmerged).provenance(of: "ChIJcafeCentral")
        #expect(raw.records.isEmpty && raw.memberRecords.isEmpty)
        #expect(raw.json["records"] == nil)
    }

    @Test("the unmerged view answers every record as imported: listed apart, its own document, no same-place hop")
    func unmergedView() throws {
        let (dir, path) = try Self.database()
        defer { _ = dir }
        let merged = try PlaceReader(databasePath: path)
        let raw = try PlaceReader(databasePath: path, recordView: .unmerged)
        let request = NearbySearchRequest(center: Self.cafe, radiusMeters: 200, maxResultCount: 20)
        #expect(try merged.searchNearby(request).count == 2)
        #expect(
            try raw.searchNearby(request).map(\.place.id.rawValue).sorted()
                == [
                    "08f1e2a3b4c5d6e7", "08f1e2a3b4c5d6e8", "ChIJbakery", "ChIJcafeCentral", "osm:n1794111149",
                    "osm:n42",
                ])
        // Current place: the café's three records are three candidates again.
        let current = try raw.findPlaceLikelihoods(location: Self.cafe, accuracy: 10).placeLikelihoods.map(
            \.place.id.rawValue)
        #expect(
            current.contains("osm:n1794111149") && current.contains("08f1e2a3b4c5d6e7")
                && current.contains("ChIJcafeCentral"))
        // A member's ID is its own place, with its own document.
        #expect(try raw.resolvePlaceID("08f1e2a3b4c5d6e7").status == .current)
        let member = try raw.fetchPlace(id: "08f1e2a3b4c5d6e7")
        #expect(member.id == "08f1e2a3b4c5d6e7")
        #expect(member.document["rating"] == nil)
        // The canonical record alone: Google's own name, not the merged one.
        #expect(
            try raw.fetchPlace(id: "ChIJcafeCentral").document["displayName"]?["text"]?.stringValue == "Café Central")
        #expect(
            try merged.fetchPlace(id: "ChIJcafeCentral").document["displayName"]?["text"]?.stringValue == "Cafe Central"
        )
        let json = try JSONParser.parse(
            try raw.placeDetailsJSON(id: "08f1e2a3b4c5d6e7", fields: .all, openNow: false, at: .instant(Date())))
        #expect(json["id"]?.stringValue == "08f1e2a3b4c5d6e7")
        // Text search: each record that matches, not only the group.
        let text = TextSearchRequest(textQuery: "cafe central")
        let rawHits = try raw.searchText(text).map(\.place.id.rawValue)
        let mergedHits = try merged.searchText(text).map(\.place.id.rawValue)
        #expect(Set(rawHits).isSuperset(of: ["ChIJcafeCentral", "osm:n1794111149", "08f1e2a3b4c5d6e7"]))
        #expect(mergedHits.filter { ["osm:n1794111149", "08f1e2a3b4c5d6e7"].contains($0) }.isEmpty)
        #expect(mergedHits.contains("ChIJcafeCentral"))
    }

    @Test(
        "the groups and the canonical IDs do not depend on the order of imports, nor on linking later with placedb link"
    )
    func orderIndependent() throws {
        let (d1, a) = try Self.database(order: [0, 1, 2])
        let (d2, b) = try Self.database(order: [2, 1, 0])
        let (d3, c) = try Self.database(order: [1, 2, 0], link: false)
        defer { _ = (d1, d2, d3) }
        #expect(try Self.groups(c).isEmpty)
        let summary = try Linking.relink(databasePath: c)
        #expect(summary.groups == 2)
        let canonical = { (p: String) in try PlaceReader(databasePath: p).resolvePlaceID("osm:n42").placeID }
        #expect(try Self.groups(a) == Self.groups(b))
        #expect(try Self.groups(a) == Self.groups(c))
        #expect(try canonical(a) == "ChIJbakery" && canonical(b) == "ChIJbakery" && canonical(c) == "ChIJbakery")
    }

    @Test(
        "two records of one source that one capture held both are never linked (a dump that lists two IDs says two places)"
    )
    func oneCaptureTwoPlaces() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        // (One importer at a time: each is released before the next opens.)
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(
                .file(
                    try dir.write(
                        "a.ndjson",
                        [
                            Self.google("A1", "Cruise Bar", Self.at(0, 0), types: ["bar"]),
                            Self.google("A2", "Cruise Bar", Self.at(3, 0), types: ["bar"]),
                        ].joined(separator: "\n") + "\n")))
            _ = try importer.link()
        }
        #expect(try Self.groups(path).isEmpty)
        // A later capture of the same source under a new ID is linked to its old record.
        do {
            let later = try PlaceImporter(databasePath: path)
            _ = try later.importInput(
                .file(try dir.write("b.ndjson", Self.google("B1", "Cruise Bar", Self.at(1, 1), types: ["bar"]) + "\n")))
            let s = try later.link()
            #expect((s?.linked ?? 0) >= 1)
        }
        let groups = try Self.groups(path)
        // B1 joins one of them, never both (A1 and A2 cannot share a group).
        #expect(groups.count == 1)
        #expect(groups.first?.count == 2)
        #expect(groups.first?.contains("B1") == true)
    }

    @Test(
        "an import's pass examines the live places it changed; the links and groups of a changed place are dropped and formed anew"
    )
    func importPassCounts() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        func run(_ name: String, _ lines: [String]) throws -> LinkSummary? {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(try dir.write(name, lines.joined(separator: "\n") + "\n")))
            return try importer.link()
        }
        // One source in one capture: nothing can be linked, nothing scored.
        let first = try #require(
            try run(
                "a.ndjson",
                [
                    Self.google("A1", "Cruise Bar", Self.at(0, 0), types: ["bar"]),
                    Self.google("A2", "Harbour Pharmacy", Self.at(400, 0), types: ["pharmacy"]),
                ]))
        #expect(first.examined == 2 && first.scored == 0 && first.linked == 0)
        // A later capture: only its place is examined, and linked to A1.
        let second = try #require(
            try run("b.ndjson", [Self.google("B1", "Cruise Bar", Self.at(1, 1), types: ["bar"])]))
        #expect(second.examined == 1 && second.linked == 1 && second.groups == 1)
        #expect(try Self.groups(path) == [["A1", "B1"]])
        // B1 becomes another place: its link and group go, A1 is alone again.
        let third = try #require(
            try run("c.ndjson", [Self.google("B1", "Harbour Pharmacy", Self.at(1, 1), types: ["pharmacy"])]))
        #expect(third.examined == 1 && third.linked == 0)
        #expect(try Self.groups(path).isEmpty)
        let links = try Database(path: path, mode: .readOnly).scalar("SELECT count(*) FROM place_link")?.int64
        #expect(links == 0)
    }

    /// Links and groups by place ID, to compare two passes' results.
    static func linkState(_ path: String) throws -> [String] {
        let db = try Database(path: path, mode: .readOnly)
        var out: [String] = []
        try db.forEachRow(
            """
            SELECT x.place_id, y.place_id, l.probability FROM place_link l
            JOIN place x ON x.id = l.a JOIN place y ON y.id = l.b ORDER BY 1, 2
            """
        ) { out.append("link \(try $0.string(0)) \(try $0.string(1)) \(try $0.double(2))") }
        return out + (try groups(path)).map { "group " + $0.joined(separator: " ") }
    }

    @Test(
        "an import that changes few places links the rows it wrote (new, changed, removed) and ends as a full pass would"
    )
    func trackedImportPass() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        // 40 shops 600 m apart and a bar, one capture of source "g".
        let fillers = (0..<40).map { i in
            Self.google("F\(i)", "Shop \(i)", Self.at(2_000 + Double(i) * 600, 0), types: ["store"])
        }
        let bar = Self.google("A1", "Cruise Bar", Self.at(0, 0), types: ["bar"])
        func run(_ name: String, _ lines: [String], snapshot: Bool = false) throws -> LinkSummary {
            var options = snapshot ? ImportOptions(snapshot: "g") : ImportOptions()
            options.source = "g"
            options.matching = nil
            let importer = try PlaceImporter(databasePath: path, options: options)
            _ = try importer.importInput(.file(try dir.write(name, lines.joined(separator: "\n") + "\n")))
            if snapshot { _ = try importer.finishSnapshot() }
            return try #require(try importer.link())
        }
        /// The state a full pass (every link and group dropped, all
        /// places linked again) gives, the database left as it was.
        func fullPass() throws -> [String] {
            let copy = dir.file("full-\(UUID().uuidString).sqlite")
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let store = try PlaceStore(path: copy, writable: true)
            _ = try store.write { try store.link(changedSince: nil) }
            return try Self.linkState(copy)
        }
        let first = try run("a.ndjson", fillers + [bar])
        #expect(!first.changesFromRowsWritten && first.examined == 41)
        // A later capture adds the bar under a new ID: 1 new row of 42.
        let second = try run("b.ndjson", [Self.google("B1", "Cruise Bar", Self.at(1, 1), types: ["bar"])])
        #expect(second.changesFromRowsWritten && second.examined == 1 && second.linked == 1)
        #expect(try Self.groups(path) == [["A1", "B1"]])
        #expect(try Self.linkState(path) == fullPass())
        // The bar changes its name (a changed row).
        let third = try run("c.ndjson", [Self.google("B1", "Cruise Bar Vienna", Self.at(1, 1), types: ["bar"])])
        #expect(third.changesFromRowsWritten && third.examined == 1)
        #expect(try Self.linkState(path) == fullPass())
        // A snapshot without A1 removes it (a removed row): the group goes.
        let fourth = try run(
            "d.ndjson", fillers + [Self.google("B1", "Cruise Bar Vienna", Self.at(1, 1), types: ["bar"])],
            snapshot: true)
        #expect(fourth.changesFromRowsWritten)
        #expect(try Self.groups(path).isEmpty)
        #expect(try Self.linkState(path) == fullPass())
        // Many places changed against the table: their runs are read instead.
        let fifth = try run(
            "e.ndjson",
            (0..<40).map { i in
                Self.google("N\(i)", "New \(i)", Self.at(-2_000 - Double(i) * 600, 0), types: ["store"])
            })
        #expect(!fifth.changesFromRowsWritten && fifth.examined == 40)
        #expect(try Self.linkState(path) == fullPass())
    }

    @Test(
        "tracking notes the rows whose updated or removed run changes, not those seen again unchanged; a rollback takes its rows"
    )
    func trackingChangedPlaces() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        let importer = try PlaceImporter(databasePath: path)
        _ = try importer.importInput(
            .file(
                try dir.write(
                    "a.ndjson",
                    (0..<5).map { Self.google("P\($0)", "Shop \($0)", Self.at(Double($0) * 500, 0)) }
                        .joined(separator: "\n") + "\n")))
        let store = try PlaceStore(path: path, writable: true)
        try store.write { try store.db.execute("UPDATE place SET removed_run = 1 WHERE id = 3") }
        let changes = try store.trackChangedPlaces()
        #expect(changes.rowidBefore == 5)
        func noted() throws -> [Int64] {
            var ids: [Int64] = []
            try store.db.forEachRow("SELECT id FROM temp.link_changed ORDER BY id") { ids.append(try $0.int64(0)) }
            return ids
        }
        try store.write {
            try store.db.execute(
                """
                UPDATE place SET updated_run = updated_run + 1 WHERE id = 2;
                UPDATE place SET removed_run = 9 WHERE id = 4;
                UPDATE place SET last_run = last_run + 1, removed_run = NULL WHERE id = 1;
                UPDATE place SET rating = 4.5 WHERE id = 5;
                """)
        }
        #expect(try noted() == [2, 4])
        // Revived (removed_run cleared) is noted too.
        try store.write { try store.db.execute("UPDATE place SET removed_run = NULL WHERE id = 3") }
        #expect(try noted() == [2, 3, 4])
        struct Rollback: Error {}
        #expect(throws: Rollback.self) {
            try store.write {
                try store.db.execute("UPDATE place SET updated_run = updated_run + 1 WHERE id = 5")
                throw Rollback()
            }
        }
        #expect(try noted() == [2, 3, 4])
        store.stopTrackingChangedPlaces()
        #expect(try !ChangedPlaces.isTracking(store.db))
    }

    @Test("two records of one place on either side of the antimeridian are linked (the search reaches across it)")
    func acrossTheAntimeridian() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        let east = Coordinate(latitude: -16.5, longitude: 179.99996),
            west = Coordinate(latitude: -16.50002, longitude: -179.99997)
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(
                .file(
                    try dir.write(
                        "g.ndjson", Self.google("ChIJdateline", "Dateline Café", east, phone: "+679 123 4567") + "\n")))
            _ = try importer.importInput(
                .file(
                    try dir.write(
                        "o.geojsonseq", Self.overture("08fdateline", "Dateline Cafe", west, phone: "+6791234567") + "\n"
                    )))
            _ = try importer.link()
        }
        #expect(try Self.groups(path) == [["08fdateline", "ChIJdateline"]])
        // And placedb link, from the other side's record first.
        let summary = try Linking.relink(databasePath: path)
        #expect(summary.groups == 1)
        #expect(try PlaceReader(databasePath: path).resolvePlaceID("08fdateline").placeID == "ChIJdateline")
    }

    @Test("a street of same-brand shops is not glued into one place: every member must fit every other")
    func noChaining() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        // Three branches 60 m apart along a street, in two providers.
        var google: [String] = [], osm: [String] = []
        for i in 0..<4 {
            google.append(Self.google("G\(i)", "Billa", Self.at(0, Double(i) * 60), types: ["supermarket", "store"]))
            osm.append(
                Self.osm(
                    100 + i, "Billa", Self.at(2, Double(i) * 60 + 3), tags: ["shop": "supermarket", "brand": "Billa"]))
        }
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(try dir.write("g.ndjson", google.joined(separator: "\n") + "\n")))
            _ = try importer.importInput(.file(try dir.write("o.geojsonseq", osm.joined(separator: "\n") + "\n")))
            _ = try importer.link()
        }
        let groups = try Self.groups(path)
        for g in groups {
            #expect(g.count <= 2, "a group of \(g)")
            #expect(g.filter { $0.hasPrefix("G") }.count <= 1)
        }
        // Each branch with its own OSM record.
        for i in 0..<4 {
            #expect(groups.contains { Set($0) == ["G\(i)", "osm:n\(100 + i)"] })
        }
    }

    @Test(
        "alias-file rules: different is never overridden by an import; same applies when its ID arrives; a cycle of same lines is one group"
    )
    func rules() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(try dir.write(Self.files[0].name, Self.files[0].text)))
            // Rules before the places they name are stored.
            _ = try importer.importAliases(
                .file(
                    try dir.write(
                        "rules.txt",
                        """
                        different ChIJcafeCentral osm:n1794111149
                        same ChIJbakery far:1
                        same far:1 far:2
                        same far:2 ChIJbakery

                        """)))
        }
        do {
            let importer = try PlaceImporter(databasePath: path)
            _ = try importer.importInput(.file(try dir.write(Self.files[1].name, Self.files[1].text)))
            _ = try importer.importInput(
                .file(
                    try dir.write(
                        "far.ndjson",
                        [
                            Self.google(
                                "far:1", "Somewhere else", Coordinate(latitude: 10, longitude: 10), types: ["park"]),
                            Self.google(
                                "far:2", "Elsewhere", Coordinate(latitude: -10, longitude: 20), types: ["museum"]),
                        ].joined(separator: "\n") + "\n")))
            _ = try importer.link()
        }
        let groups = try Self.groups(path)
        #expect(!groups.contains { $0.contains("ChIJcafeCentral") && $0.contains("osm:n1794111149") })
        #expect(groups.contains { Set($0).isSuperset(of: ["ChIJbakery", "far:1", "far:2"]) })
        // placedb link keeps the rules.
        _ = try Linking.relink(databasePath: path)
        #expect(!(try Self.groups(path)).contains { $0.contains("ChIJcafeCentral") && $0.contains("osm:n1794111149") })
        let explained = try Linking.explain("ChIJcafeCentral", "osm:n1794111149", databasePath: path)
        #expect(explained.rule == .different)
        #expect(!explained.sameGroup)
        #expect(explained.probability >= SamePlace.threshold, "the evidence alone would link them")
    }

    @Test(
        "an alias file whose same and different lines contradict each other is refused, naming both lines, and changes nothing"
    )
    func contradiction() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        let importer = try PlaceImporter(databasePath: path)
        _ = try importer.importInput(.file(try dir.write(Self.files[0].name, Self.files[0].text)))
        let file = try dir.write("rules.txt", "same a b\nsame b c\ndifferent a c\n")
        do {
            _ = try importer.importAliases(.file(file))
            Issue.record("a contradicting file was accepted")
        } catch PlaceDBError.badInput(let r) {
            #expect(r.line == 3)
            #expect(r.reason.contains("line 1") || r.reason.contains("line 2"))
        }
        let db = try Database(path: path, mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM link_rule")?.int == 0)
        // A reason of "same-place" is no edge reason.
        let bad = try dir.write("bad.csv", "old_id,new_id,reason\nx,y,same-place\n")
        #expect(throws: PlaceDBError.self) { _ = try importer.importAliases(.file(bad)) }
    }

    @Test("export and the round trip keep the groups and the canonical IDs")
    func roundTrip() throws {
        let (dir, path) = try Self.database()
        var places: [UInt8] = [], aliases: [UInt8] = []
        do {
            let exporter = try PlaceExporter(databasePath: path)
            _ = try exporter.exportPlaces(format: .ndjson) { places += $0 }
            _ = try exporter.exportAliases { aliases += $0 }
        }
        let copy = dir.file("copy.sqlite")
        do {
            let importer = try PlaceImporter(databasePath: copy)
            _ = try importer.importInput(.file(try dir.write("all.ndjson", String(decoding: places, as: UTF8.self))))
            _ = try importer.link()
            _ = try importer.importAliases(
                .file(try dir.write("aliases.ndjson", String(decoding: aliases, as: UTF8.self))))
        }
        #expect(try Self.groups(copy) == Self.groups(path))
        #expect(try PlaceReader(databasePath: copy).resolvePlaceID("08f1e2a3b4c5d6e7").placeID == "ChIJcafeCentral")
    }

    @Test(
        "the links, groups and merged documents do not depend on the linker's threads or blocks, nor on a full or an import's pass"
    )
    func threadsAndBlocks() throws {
        let dir = try TempDirectory("placedb-link")
        let path = dir.file("places.sqlite")
        // 400 shops of a few brands in 400 m by 400 m (chains of one brand,
        // groups refused), three in four again in a second source, moved
        // up to 20 m, one in five of those under another brand's name.
        var seed: UInt64 = 20261204
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let brands = ["Billa", "Spar", "Café Central", "Bäckerei Ströck", "Hofer", "dm", "Bipa", "Anker"]
        func brand() -> String { brands[Int(next() * Double(brands.count))] }
        var a: [String] = [], b: [String] = []
        for i in 0..<400 {
            let name = brand() + (next() < 0.5 ? "" : " \(i % 7)")
            let c = Self.at(next() * 400, next() * 400)
            a.append(Self.google("A\(i)", name, c, types: ["store"]))
            guard next() < 0.75 else { continue }
            let d = next() * 20, t = next() * 2 * .pi
            let moved = Coordinate(
                latitude: c.latitude + d * cos(t) / 111_320,
                longitude: c.longitude + d * sin(t) / (111_320 * cos(c.latitude * .pi / 180)))
            b.append(Self.google("B\(i)", next() < 0.2 ? brand() : name, moved, types: ["store"]))
        }
        for (source, lines) in [("a", a), ("b", b)] {
            var options = ImportOptions(source: source)
            options.link = false
            let importer = try PlaceImporter(databasePath: path, options: options)
            _ = try importer.importInput(.file(try dir.write("\(source).ndjson", lines.joined(separator: "\n") + "\n")))
        }
        func snapshot(_ store: PlaceStore) throws -> [String] {
            var out: [String] = []
            try store.db.forEachRow("SELECT a, b, probability FROM place_link ORDER BY a, b") {
                out.append("link \(try $0.int64(0)) \(try $0.int64(1)) \(try $0.double(2))")
            }
            try store.db.forEachRow("SELECT id, group_id FROM place WHERE group_id IS NOT NULL ORDER BY id") {
                out.append("member \(try $0.int64(0)) \(try $0.int64(1))")
            }
            try store.db.forEachRow("SELECT id, doc, provenance, members FROM place_group ORDER BY id") {
                out.append("group \(try $0.int64(0)) \(try $0.string(1)) \(try $0.string(2)) \(try $0.string(3))")
            }
            return out
        }
        let store = try PlaceStore(path: path, writable: true)
        var first: (summary: LinkSummary, state: [String])?
        for (workers, blockSize) in [(1, 4_096), (2, 4_096), (3, 7), (1, 7), (2, 64)] {
            let (summary, result) = try store.write {
                var s = try store.link(changedSince: nil, workers: workers, blockSize: blockSize)
                s.seconds = 0
                return (s, try snapshot(store))
            }
            #expect(summary.groups > 50 && summary.refused > 0)
            if let first {
                #expect(summary == first.summary, "workers \(workers), block \(blockSize)")
                #expect(result == first.state, "workers \(workers), block \(blockSize)")
            } else {
                first = (summary, result)
            }
        }
        // An import's pass (the second source's places changed) finds the same.
        let second = try #require(try store.db.scalar("SELECT max(id) FROM import_run")?.int64)
        for (workers, blockSize) in [(1, 4_096), (2, 5)] {
            let result = try store.write {
                try store.db.execute(
                    "DELETE FROM place_link; DELETE FROM place_group; UPDATE place SET group_id = NULL;")
                _ = try store.link(changedSince: second, workers: workers, blockSize: blockSize)
                return try snapshot(store)
            }
            #expect(result == first?.state, "import pass, workers \(workers), block \(blockSize)")
        }
    }
}
