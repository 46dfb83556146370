import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

@Suite("JSONKeyCache: member names reused across parses")
struct JSONKeyCacheTests {
    /// Parses `text` with `cache` (through a buffer, as the record reader does).
    private func parse(_ text: String, _ cache: JSONKeyCache?) throws -> JSONValue {
        try Array(text.utf8).withUnsafeBytes { try JSONParser.parse($0, keys: cache) }
    }

    @Test("many objects whose names share lengths and bytes parse as without the cache, in one cache")
    func sameAsWithout() throws {
        // Names built to fall into the same slots: same length, same first,
        // middle and last bytes, different bytes elsewhere; also names over
        // the kept length, non-ASCII ones, escaped ones and the empty name.
        var names = [
            "type", "tyqe", "tzpe", "name", "nbme", "id", "ix", "properties", "propertieS", "geometry",
            "userRatingCount", "userRatingCounT", "displayName", "dispiayName", "", "café", "cafe\u{301}",
            "日本", "a", "b", String(repeating: "k", count: 32), String(repeating: "k", count: 33),
            String(repeating: "k", count: 31) + "j", "x\u{0}y",
        ]
        var rng = TestRandom(seed: 7)
        for _ in 0..<40 {
            let n = 1 + rng.int(40)
            names.append(String((0..<n).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.int(3)))) }))
        }
        let cache = JSONKeyCache()
        for round in 0..<300 {
            var members: [String] = []
            for _ in 0..<(1 + rng.int(8)) {
                let name = names[rng.int(names.count)]
                // The same name written plain or with an escape, both ways.
                let first = name.unicodeScalars.first?.value ?? 0
                let written =
                    (rng.int(4) == 0 && !name.isEmpty && first <= 0xFFFF
                    ? "\\u" + String(format: "%04x", first) + String(name.unicodeScalars.dropFirst())
                    : name).replacingOccurrences(of: "\u{0}", with: "\\u0000")
                members.append("\"\(written)\": \(round)")
            }
            let text = "{" + members.joined(separator: ", ") + "}"
            let plain = try parse(text, nil)
            let cached = try parse(text, cache)
            #expect(cached == plain, "\(text)")
            // The names themselves, in order (== on objects compares them too).
            #expect(cached.objectValue?.keys == plain.objectValue?.keys, "\(text)")
        }
    }

    @Test("a repeated name is still found repeated (the last value wins) when it comes from the cache")
    func duplicatesFromCache() throws {
        let cache = JSONKeyCache()
        _ = try parse(#"{"rating": 1, "name": "a"}"#, cache)
        let v = try parse(#"{"rating": 1, "name": "a", "rating": 2}"#, cache)
        #expect(v.objectValue?.keys == ["rating", "name"])
        #expect(v["rating"] == .int(2))
    }

    @Test("errors in names are the same with the cache: bad escapes, control characters, unterminated")
    func errors() throws {
        let cache = JSONKeyCache()
        _ = try parse(#"{"abc": 1}"#, cache)
        let invalidUTF8: [UInt8] = [0x7B, 0x22, 0x61, 0xFF, 0x22, 0x3A, 0x31, 0x7D] // {"a\xFF": 1}
        let texts = [#"{"ab\qc": 1}"#, "{\"ab\u{1}c\": 1}", #"{"abc"#, #"{"abc" 1}"#]
        func failure(_ bytes: [UInt8], _ keys: JSONKeyCache?) -> JSONSyntaxError? {
            bytes.withUnsafeBytes { b in
                do throws(JSONSyntaxError) {
                    _ = try JSONParser.parse(b, keys: keys)
                    return nil
                } catch {
                    return error
                }
            }
        }
        for bytes in texts.map({ Array($0.utf8) }) + [invalidUTF8] {
            let text = String(decoding: bytes, as: UTF8.self)
            let plain = failure(bytes, nil)
            let cached = failure(bytes, cache)
            #expect(plain != nil, "\(text)")
            #expect(cached?.message == plain?.message && cached?.offset == plain?.offset, "\(text)")
        }
    }
}
