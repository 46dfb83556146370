import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceKit

/// Findings of the fuzz targets (docs/fuzzing.md), each fixed, each with the
/// input (or its shape) that found it.
@Suite("Fuzz findings")
struct FuzzRegressionTests {
    /// An object of `count` members "k0".."k{count-1}", numbers as values.
    static func wideObject(_ count: Int, duplicateFirst: Bool = false) -> [UInt8] {
        var text = "{"
        text.reserveCapacity(count * 16)
        for i in 0..<count {
            if i > 0 { text += "," }
            text += "\"k\(i)\":\(i)"
        }
        if duplicateFirst { text += ",\"k0\":-1" }
        text += "}"
        return Array(text.utf8)
    }

    // Found by the seed maker on ../shared/data/geonames (one top-level object
    // of 150,000 cities keyed by ID): every object of 64 members or more was
    // built with one search of its members per member, so reading it took
    // time growing with the square of its size (hours for that file). The
    // time limit is a guard a thousand times the linear time, not a measure.
    @Test("an object of 200,000 members is read in linear time, the last of a repeated name winning at its first place",
          .timeLimit(.minutes(1)))
    func wideObjectParses() throws {
        let count = 200_000
        let value = try JSONParser.parse(Self.wideObject(count, duplicateFirst: true))
        let object = try #require(value.objectValue)
        #expect(object.count == count)
        #expect(object.members.first?.key == "k0")
        #expect(object["k0"] == .int(-1))
        #expect(object["k\(count - 1)"] == .int(Int64(count - 1)))
    }

    @Test("a top-level object of 200,000 members is one record, read in linear time", .timeLimit(.minutes(1)))
    func wideTopLevelObjectReads() throws {
        let dir = try TempDirectory()
        let path = dir.file("wide.json")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.wideObject(200_000))))
        let reader = RecordReader(source: try ByteSource(.file(path)))
        let record = try #require(try reader.next())
        #expect(record.value.objectValue?.count == 200_000)
        #expect(record.value["k199999"] == .int(199_999))
        #expect(try reader.next() == nil)
    }

    @Test("JSONObject's public initializer keeps the last value of a repeated name at its first place")
    func publicInitLastWins() {
        let o = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(o.keys == ["a", "b"])
        #expect(o["a"] == .int(3))
    }
}
