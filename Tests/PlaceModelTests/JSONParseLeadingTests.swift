import Testing
@testable import PlaceModel

@Suite("JSONParser.parseLeading: one value at the start of a buffer")
struct JSONParseLeadingTests {
    static let values = [
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,-2]},"properties":{"name":"a ] } \" [ {","n":[1,[2,[3]]]}}"#,
        #"[1, "x", {"a": null}, [true, false], -0.5e3]"#,
        #"{}"#, #"[]"#, #"{"k\u00e9y": "v\\\"", "e": ""}"#,
    ]

    private func leading(_ text: String) -> (value: JSONValue, length: Int)? {
        Array(text.utf8).withUnsafeBytes { JSONParser.parseLeading($0) }
    }

    @Test("a whole value followed by anything: the value parse() gives, and its length in bytes")
    func wholeValue() throws {
        for text in Self.values {
            let expected = try JSONParser.parse(text)
            for after in ["", ",", " ]", "}{", "\n{\"next\":1}", "garbage"] {
                let got = try #require(leading(text + after), "\(text + after)")
                #expect(got.value == expected)
                #expect(got.length == text.utf8.count)
            }
        }
    }

    @Test("a value cut off anywhere, or malformed, gives nil (the reader then scans and parses it)")
    func cutOrMalformed() {
        for text in Self.values {
            let bytes = Array(text.utf8)
            for n in 0..<bytes.count {
                let cut = bytes[0..<n].withUnsafeBytes { JSONParser.parseLeading($0) }
                #expect(cut == nil, "\(n) bytes of \(text)")
            }
        }
        for bad in [#"{"a" 1}"#, #"{"a":1,}"#, #"[1 2]"#, #"{"a":tru}"#, "{\"a\":\"\u{1}\"}"] {
            #expect(leading(bad) == nil, "\(bad)")
        }
    }
}
