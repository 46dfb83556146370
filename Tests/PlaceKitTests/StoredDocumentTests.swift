import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
import SQLiteDB
@testable import PlaceModel
@testable import PlaceStorage

@Suite("Stored documents without the members the columns repeat")
struct StoredDocumentTests {
    static let documents: [String] = [
        #"{"displayName":{"text":"Café du Lac"},"types":["cafe"],"primaryType":"cafe","rating":4.5,"userRatingCount":120}"#,
        #"{"rating":4.5,"types":["cafe"],"userRatingCount":120,"displayName":{"text":"Ünïcödé \"quoted\" \\ name"},"primaryType":"cafe"}"#,
        // Not stood for: a languageCode, an integral rating written as an integer, a zero rating.
        #"{"displayName":{"text":"Bar","languageCode":"fr"},"rating":4,"userRatingCount":0,"types":["bar"]}"#,
        #"{"displayName":{"text":"Zero"},"rating":0.0,"types":["bar"]}"#,
        // primaryType differs from the column's (the column is the first type when the record has none).
        #"{"types":["museum","park"],"displayName":{"text":"M"}}"#,
        // Members past position 14 stay in the document.
        "{" + (0..<16).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
            + #","rating":3.5,"displayName":{"text":"Late"}}"#,
        #"{}"#,
    ]

    @Test("write then restore gives the document back byte for byte", arguments: documents)
    func roundTrip(text: String) throws {
        guard case .object(let document) = try JSONValue(parsing: text) else { Issue.record("not an object"); return }
        let place = Place(id: "p", coordinate: Coordinate(latitude: 1, longitude: 2), document: document)
        let columns = StoredDocument.Columns(place)
        var stored: [UInt8] = []
        let layout = StoredDocument.write(place.document, columns: columns, into: &stored)
        var whole: [UInt8] = []
        JSONWriter().writeObject(place.document, skipping: "location", into: &whole)
        let back = try stored.withUnsafeBytes { try StoredDocument.restore($0, layout: layout, columns: columns) }
        #expect(String(decoding: back, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        #expect(layout == 0 || stored.count < whole.count)
        // Written from the stored bytes with the column members put back
        // (not restored), the answer is the one written from the whole document.
        let inserted = try StoredDocument.insertedMembers(layout: layout, columns: columns)
        for mask in [
            "*", "displayName", "displayName.text", "displayName.languageCode", "primaryType,types",
            "rating,userRatingCount",
            "id,location,types", "types", "name,userRatingCount,displayName,rating,formattedAddress",
            "id,displayName,location,types,primaryType", "displayName.text,types,location.latitude",
            "userRatingCount,types", "formattedAddress",
        ] {
            let plan = MaskPlan(try FieldMask(parsing: mask))
            let location = Coordinate(latitude: 1, longitude: 2)
            var fromWhole: [UInt8] = []
            try back.withUnsafeBytes {
                try PlaceJSON.write(
                    id: "p", doc: $0, spans: try JSONParser.memberSpans($0), location: location, plan: plan,
                    extra: [("distanceMeters", 1.5)], servedAt: .instant(Date()), into: &fromWhole)
            }
            var fromStored: [UInt8] = []
            try stored.withUnsafeBytes {
                try PlaceJSON.write(
                    id: "p", doc: $0, spans: try JSONParser.memberSpans($0), inserted: inserted, location: location,
                    plan: plan,
                    extra: [("distanceMeters", 1.5)], servedAt: .instant(Date()), into: &fromStored)
            }
            #expect(
                String(decoding: fromStored, as: UTF8.self) == String(decoding: fromWhole, as: UTF8.self), "\(mask)")
            // Members located as far as the mask needs (what nearby does).
            var lazily: [UInt8] = []
            try stored.withUnsafeBytes {
                try PlaceJSON.write(
                    id: "p", doc: $0, spans: nil, inserted: inserted, location: location, plan: plan,
                    extra: [("distanceMeters", 1.5)], servedAt: .instant(Date()), into: &lazily)
            }
            #expect(
                String(decoding: lazily, as: UTF8.self) == String(decoding: fromWhole, as: UTF8.self),
                "\(mask), located lazily")
        }
    }

    @Test("a mask without hours reads a stored document no further than its last kept member")
    func readsNoFurther() throws {
        // A bad tail after the kept member is not met (it is when the mask needs it).
        let doc = Array(#"{"types":["cafe"],"regularOpeningHours":{"periods":[oops"#.utf8)
        let location = Coordinate(latitude: 1, longitude: 2)
        var out: [UInt8] = []
        try doc.withUnsafeBytes {
            try PlaceJSON.write(
                id: "p", doc: $0, spans: nil, location: location,
                plan: MaskPlan(try FieldMask(parsing: "id,types,location")),
                extra: [], servedAt: .instant(Date()), into: &out)
        }
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"id":"p","types":["cafe"],"location":{"latitude":1,"longitude":2}}"#)
        #expect(throws: JSONSyntaxError.self) {
            var more: [UInt8] = []
            try doc.withUnsafeBytes {
                try PlaceJSON.write(
                    id: "p", doc: $0, spans: nil, location: location,
                    plan: MaskPlan(try FieldMask(parsing: "types,websiteUri")),
                    extra: [], servedAt: .instant(Date()), into: &more)
            }
        }
    }

    @Test("a column member is written as JSONWriter writes its value")
    func columnMembers() {
        let columns: [StoredDocument.Columns] = [
            .init(name: "Ünïcödé \"quoted\" \\ name\u{1}", primaryType: "cafe", rating: 4.5, ratingCount: 120),
            .init(name: "", primaryType: "a\"b", rating: 4, ratingCount: 0),
            .init(name: nil, primaryType: nil, rating: 1e-7, ratingCount: Int(Int32.max) * 4),
            .init(name: "x", primaryType: nil, rating: nil, ratingCount: nil),
        ]
        for c in columns {
            for k in StoredDocument.columnMembers.indices {
                var direct: [UInt8] = []
                let written = StoredDocument.writeMember(k, c, into: &direct)
                var viaValue: [UInt8] = []
                if let v = StoredDocument.value(k, c) {
                    JSONWriter().writeMember(StoredDocument.columnMembers[k], v, into: &viaValue)
                }
                #expect(written == !viaValue.isEmpty)
                #expect(String(decoding: direct, as: UTF8.self) == String(decoding: viaValue, as: UTF8.self))
            }
        }
    }

    @Test("the member test without building the value agrees with comparing the built value, member by member")
    func columnGivesBackAgrees() throws {
        let names: [String?] = [nil, "Bar", "", "Bär \"x\""]
        let types: [String?] = [nil, "cafe", "bar"]
        let ratings: [Double?] = [nil, 4.5, 4, 0, -0.0]
        let counts: [Int?] = [nil, 0, 120]
        let members: [JSONValue] = [
            .null, .string("Bar"), .string("cafe"), .string(""), .int(4), .int(0), .int(120), .double(4.5), .double(4),
            .double(0), .double(-0.0),
            .object(JSONObject(uniqueMembers: [("text", .string("Bar"))])),
            .object(JSONObject(uniqueMembers: [("text", .string(""))])),
            .object(JSONObject(uniqueMembers: [("text", .string("Bar")), ("languageCode", .string("fr"))])),
            .object(JSONObject(uniqueMembers: [("languageCode", .string("fr"))])), .object(JSONObject()),
            .object(JSONObject(uniqueMembers: [("text", .int(1))])), .array([.string("Bar")]),
        ]
        var compared = 0
        for name in names {
            for type in types {
                for rating in ratings {
                    for count in counts {
                        let c = StoredDocument.Columns(
                            name: name, primaryType: type, rating: rating, ratingCount: count)
                        for k in 0..<4 {
                            for member in members {
                                #expect(
                                    StoredDocument.columnGivesBack(k, c, member)
                                        == (StoredDocument.value(k, c) == member),
                                    "member \(k), \(member), columns \(c)")
                                compared += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(compared == 4 * 3 * 5 * 3 * 4 * members.count)
        for (i, key) in StoredDocument.columnMembers.enumerated() { #expect(StoredDocument.columnMember(key) == i) }
        for key in ["location", "displayname", "primaryTypes", "ratings", "userRatingCounts", "", "types"] {
            #expect(StoredDocument.columnMember(key) == nil)
        }
    }

    @Test("what is left to the columns and what is not")
    func layouts() throws {
        func layout(_ text: String) throws -> Int64 {
            guard case .object(let d) = try JSONValue(parsing: text) else { return -1 }
            let place = Place(id: "p", coordinate: Coordinate(latitude: 1, longitude: 2), document: d)
            var out: [UInt8] = []
            return StoredDocument.write(place.document, columns: StoredDocument.Columns(place), into: &out)
        }
        // displayName at 0, primaryType at 2, rating at 3, userRatingCount at 4 (nibbles hold position + 1).
        #expect(try layout(Self.documents[0]) == 0x5431)
        #expect(try layout(Self.documents[2]) == 0x3000) // only userRatingCount (0 is a count like any other)
        #expect(try layout(Self.documents[3]) == 0x1)
        #expect(try layout(Self.documents[4]) == 0x2)
        #expect(try layout(Self.documents[5]) == 0)
    }

    @Test("imported places come back whole by ID, by rowid and as response JSON, and the file holds less")
    func throughTheDatabase() throws {
        let dir = try TempDirectory()
        var lines: [String] = []
        // (Not the 16-member one: the Places API (New) decoder keeps unknown members aside.)
        for (i, text) in Self.documents.enumerated() where i != 5 {
            var s = text
            s.removeLast()
            lines.append(
                s + (s.hasSuffix("{") ? "" : ",") + #""id":"d\#(i)","location":{"latitude":46.5,"longitude":6.\#(i)}}"#)
        }
        let input = try dir.write("in.ndjson", lines.joined(separator: "\n"))
        let db = dir.file("places.sqlite")
        _ = try PlaceImporter(databasePath: db).importInput(.file(input))
        let client = try PlaceReader(databasePath: db)
        var compared = 0
        for line in lines {
            guard case .object(let record) = try JSONValue(parsing: line), let id = record["id"]?.stringValue,
                let lng = record["location"]?["longitude"]?.doubleValue
            else {
                Issue.record("not a record with an ID and a location: \(line)")
                continue
            }
            // What a whole stored document gives back (its numbers as the writer writes them).
            guard case .object(let normalized) = try JSONValue(parsing: JSONWriter().string(.object(record))) else {
                continue
            }
            let expected = Place(
                id: PlaceID(id), coordinate: Coordinate(latitude: 46.5, longitude: lng), document: normalized)
            let i = id
            let fetched = try client.fetchPlace(id: PlaceID(id))
            #expect(fetched.document == expected.document, "d\(i) by ID")
            let near = try client.searchNearby(NearbySearchRequest(center: expected.coordinate, maxResultCount: 1))
            #expect(near.first?.place.document == expected.document, "d\(i) by rowid")
            compared += 1
        }
        #expect(compared == lines.count)
        // searchNearbyJSON (from the stored bytes, members located as far
        // as the mask needs) writes what the decoded places give.
        let center = Coordinate(latitude: 46.5, longitude: 6.2)
        for mask in [
            "*", "id,displayName,location,types,primaryType", "displayName.text,types,location.latitude", "rating,name",
            "types",
        ] {
            let fields = try FieldMask(parsing: mask)
            let request = NearbySearchRequest(center: center, maxResultCount: 20)
            let fast = try client.searchNearbyJSON(request, fields: fields)
            let decoded = try client.searchNearby(request, fields: fields)
            #expect(decoded.count == lines.count)
            let places: [JSONValue] = decoded.map {
                var o = $0.place.apiJSON(fields: fields)
                o["distanceMeters"] = .double(($0.distanceMeters * 100).rounded() / 100)
                return .object(o)
            }
            #expect(String(decoding: fast, as: UTF8.self) == JSONWriter().string(["places": .array(places)]), "\(mask)")
        }
        // The stored document of the first place holds none of the four members.
        let importer = try PlaceImporter(databasePath: db)
        let doc = try importer.store.db.scalar("SELECT doc FROM place WHERE place_id = 'd0'")?.string
        #expect(doc == #"{"types":["cafe"]}"#)
        #expect(try importer.store.db.scalar("SELECT doc_layout FROM place WHERE place_id = 'd0'")?.int == 0x5431)
        // Re-importing the same records changes nothing.
        let again = try importer.importInput(.file(input))
        #expect(again.unchanged == lines.count && again.inserted == 0 && again.updated == 0)
    }
}

@Suite("IDs alone")
struct IDOnlyJSONTests {
    @Test(
        "writeIDOnly writes what write writes from an empty document, for each mask that needs no document and each extra",
        arguments: ["id", "name", "id,name", "name,id"])
    func sameAsWrite(mask: String) throws {
        let plan = MaskPlan(try FieldMask(parsing: mask))
        // "name" keeps displayName too (a document member).
        #expect(plan.needsNoDocument == (mask == "id"))
        guard plan.needsNoDocument else { return }
        let id = PlaceID("osm:node/1\"é")
        for extra in [[], [("distanceMeters", 12.34)], [("a", 1.0), ("b", -2.5)]] as [[(String, Double)]] {
            var want: [UInt8] = []
            try Array("{}".utf8).withUnsafeBytes { doc in
                try PlaceJSON.write(
                    id: id, doc: doc, spans: nil, location: nil, plan: plan, extra: extra,
                    servedAt: .instant(Date(timeIntervalSince1970: 0)), into: &want)
            }
            var got: [UInt8] = []
            var raw = id.rawValue
            raw.withUTF8 {
                PlaceJSON.writeIDOnly(idBytes: UnsafeRawBufferPointer($0), plan: plan, extra: extra, into: &got)
            }
            #expect(String(decoding: got, as: UTF8.self) == String(decoding: want, as: UTF8.self), "\(mask) \(extra)")
            if extra.count == 1 {
                var one: [UInt8] = []
                raw.withUTF8 {
                    PlaceJSON.writeIDOnly(
                        idBytes: UnsafeRawBufferPointer($0), plan: plan, distanceMeters: extra[0].1, into: &one)
                }
                #expect(one == want, "\(mask)")
            }
        }
    }
}
