import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
import SQLiteDB

/// Which capture wins comes from the data, never from the order of the
/// files or their modification times (docs/merging.md#capture-time).
@Suite(
    "Capture times from the data (../shared/data/google)",
    .enabled(if: CorpusData.has("google"), "needs ../shared/data/google"))
struct CaptureOrderCorpusTests {
    static let files = CorpusData.files(under: "google", extension: "json").filter { !$0.path.contains("/schema/") }

    /// Every place's values, for comparing databases: its whole document
    /// (as stored: members by name, their order follows the imports), its
    /// location and source.
    static func values(_ path: String) throws -> [String] {
        var ids: [String] = []
        try Database(path: path, mode: .readOnly).forEachRow("SELECT place_id FROM place ORDER BY place_id") {
            ids.append(try $0.string(0))
        }
        let reader = try PlaceReader(databasePath: path)
        return try ids.map { id in
            let place = try reader.fetchStoredPlace(id: PlaceID(id))
            let object = try JSONSerialization.jsonObject(with: Data(JSONWriter().string(.object(place.document)).utf8))
            let sorted = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return "\(id)|\(place.coordinate)|" + String(decoding: sorted, as: UTF8.self)
        }
    }

    /// Where two rows first differ, briefly.
    static func difference(_ a: String, _ b: String) -> String {
        let i = zip(a, b).prefix { $0 == $1 }.count
        return
            "\(a.prefix(40))... at \(i): \(a.dropFirst(max(0, i - 60)).prefix(160)) vs \(b.dropFirst(max(0, i - 60)).prefix(160))"
    }

    @Test(
        "one bulk import of every Google file, ten times in a shuffled order with random modification times: the same values each time; the 2023 capture's 973 ratings beat the 2022 example's 939; the summary says which captures were unordered"
    )
    func orderAndTimesDoNotMatter() throws {
        try #require(Self.files.count >= 50, "too few Google files")
        let dir = try TempDirectory("placedb-capture-order")
        // Copies, so their modification times can be set (the corpus is not touched).
        var copies: [String] = []
        for (i, url) in Self.files.enumerated() {
            let copy = dir.file("\(i)-\(url.lastPathComponent)")
            try FileManager.default.copyItem(atPath: url.path, toPath: copy)
            copies.append(copy)
        }
        var first: [String]?
        var random = TestRandom(seed: 2026)
        for round in 0..<10 {
            var order = copies
            order.shuffle(using: &random)
            for file in order {
                let when = Date(timeIntervalSince1970: random.uniform(946_684_800, 1_790_000_000))
                try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: file)
            }
            let path = dir.file("round-\(round).sqlite")
            var unordered = 0
            var sources: [CaptureSource: Int] = [:]
            do {
                let importer = try PlaceImporter(databasePath: path, options: ImportOptions(onError: .skip))
                for file in order {
                    // (Files that hold no places, autocomplete predictions, are refused whole.)
                    guard let s = try? importer.importInput(.file(file)) else { continue }
                    unordered += s.unordered
                    sources.merge(s.captureSources, uniquingKeysWith: +)
                }
            }
            let values = try Self.values(path)
            #expect(values.count > 100)
            if let first {
                let differ =
                    values.count != first.count
                    ? "\(values.count) places against \(first.count)"
                    : zip(values, first).first { $0 != $1 }.map { Self.difference($0.0, $0.1) }
                #expect(differ == nil, "round \(round): \(differ ?? "")")
            } else {
                first = values
            }
            // Sydney's Google office: 939 ratings in the 2022 example (newest
            // review May 2022), 973 in the client fixture (February 2023).
            let reader = try PlaceReader(databasePath: path)
            let office = try reader.fetchStoredPlace(id: "ChIJN1t_tDeuEmsRUsoyG83frY4")
            #expect(office.document["userRatingCount"]?.intValue == 973, "round \(round)")
            // The summary says where each capture time came from, and that some captures were unordered.
            #expect(
                (sources[.evidence] ?? 0) > 0 && (sources[.record] ?? 0) > 0 && (sources[.unknown] ?? 0) > 0,
                "\(sources)")
            #expect(unordered > 0, "round \(round)")
        }
    }
}
