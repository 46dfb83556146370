import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceModel

/// The error `JSONParser` throws for `bytes`, or nil when it parses.
private func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func syntaxError(_ text: String) -> JSONSyntaxError? { syntaxError(Array(text.utf8)) }

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: Values

    @Test(
        "an error quotes at most 64 characters of a member name (found by the aliases fuzz target: a 1,671-byte message)"
    )
    func longMemberNameInError() throws {
        let name = String(repeating: "O", count: 3000)
        let e = try #require(syntaxError("{\"\(name)\" 1}"))
        #expect(e.message.utf8.count < 120, "\(e.message.utf8.count) bytes")
        #expect(e.message.contains(String(repeating: "O", count: 64) + "…"))
    }

    @Test("parses every kind of JSON value")
    func allValueKinds() throws {
        let value = try JSONParser.parse(
            #"{"n":null,"t":true,"f":false,"i":42,"d":1.5,"s":"x","a":[1,"two",[]],"o":{"k":{}}}"#)
        let expected: JSONValue = [
            "n": nil, "t": true, "f": false, "i": 42, "d": 1.5, "s": "x",
            "a": [1, "two", []], "o": ["k": [:]],
        ]
        #expect(value == expected)
        #expect(value["n"] == .null)
        #expect(value["t"] == .bool(true))
        #expect(value["f"] == .bool(false))
        #expect(value["i"] == .int(42))
        #expect(value["d"] == .double(1.5))
        #expect(value["s"] == .string("x"))
        #expect(value["a"]?.arrayValue?.count == 3)
        #expect(value["o"]?["k"]?.objectValue?.isEmpty == true)
    }

    @Test("parses scalars at the top level, with surrounding white space")
    func topLevelScalars() throws {
        #expect(try JSONParser.parse(" \t\r\n true \n") == .bool(true))
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("\"text\"") == .string("text"))
        #expect(try JSONParser.parse("-7") == .int(-7))
    }

    @Test("keeps integers as ints and numbers with a fraction or exponent as doubles")
    func intsVersusDoubles() throws {
        #expect(try JSONParser.parse("0") == .int(0))
        #expect(try JSONParser.parse("42") == .int(42))
        #expect(try JSONParser.parse("-42") == .int(-42))
        #expect(try JSONParser.parse("123456789012345678") == .int(123_456_789_012_345_678))
        #expect(try JSONParser.parse("1.0") == .double(1.0))
        #expect(try JSONParser.parse("1E2") == .double(100))
        #expect(try JSONParser.parse("37.4220541") == .double(37.4220541))
        #expect(try JSONParser.parse("-122.08532419999999") == .double(-122.08532419999999))
        #expect(try JSONParser.parse("1e-5") == .double(1e-5))
        #expect(try JSONParser.parse("2.5e+3") == .double(2500))
        #expect(try JSONParser.parse("0.000001") == .double(0.000001))
    }

    @Test("reads an integer too large for 64 bits as a double")
    func hugeIntegerIsDouble() throws {
        let value = try JSONParser.parse("12345678901234567890")
        #expect(value == .double(12_345_678_901_234_567_890.0))
        #expect(value.intValue == nil)
        #expect(try JSONParser.parse("-12345678901234567890") == .double(-12_345_678_901_234_567_890.0))
    }

    @Test("every number reads as strtod reads it, bit for bit: coordinates, random digits, exponents, halfway cases")
    func numbersMatchStrtod() throws {
        var rng = TestRandom(seed: 8142)
        var texts: [String] = [
            // Halfway between two Doubles, exactly (2^53 + 1, and 2^54 + 2 scaled by 10^k).
            "9007199254740993", "9007199254740993.0", "18014398509481986e-1", "1.8014398509481986e16",
            "9007199254740995", "-9007199254740993.0", "0.0", "-0.0", "0e10", "-0e-10",
            "123456789012345678.9", "1234567890123456789", "0.1", "0.3", "2.5e-27", "9.999999999999999999e27",
            "1e-28", "1e28", "4.35e-27", "179769313486231570e291", "2.2250738585072011e-308",
        ]
        for _ in 0..<100_000 {
            // Coordinates as they are written (%.17g of a random double), and random digit strings.
            let d = rng.uniform(-180, 180)
            texts.append("\(d)")
            let digits = Int(rng.next() % 19) + 1
            var mantissa = ""
            for i in 0..<digits {
                mantissa.append(Character(UnicodeScalar(UInt8(i == 0 ? 49 + rng.next() % 9 : 48 + rng.next() % 10))))
            }
            let point = Int(rng.next() % UInt64(digits + 1))
            let exponent = Int(rng.next() % 71) - 35
            let withPoint =
                point == digits
                ? mantissa
                : String(mantissa.prefix(point).isEmpty ? "0" : mantissa.prefix(point)) + "."
                    + mantissa.dropFirst(point)
            texts.append(withPoint + "e\(exponent)")
            texts.append(withPoint)
        }
        var mismatches: [String] = []
        for text in texts {
            guard case .double(let parsed)? = try? JSONParser.parse(text) else {
                if case .int? = try? JSONParser.parse(text) { continue }
                mismatches.append("\(text): not a number"); continue
            }
            let expected = strtod(text, nil)
            if parsed.bitPattern != expected.bitPattern { mismatches.append("\(text): \(parsed) != \(expected)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ, e.g. \(mismatches.prefix(5))")
    }

    @Test("the extended-precision path declines near a Double halfway point and outside its exponents")
    func extendedPathDeclines() {
        #expect(JSONParser.extendedDouble(9_007_199_254_740_993, exponent: 0) == nil)
        #expect(JSONParser.extendedDouble(1, exponent: 28) == nil)
        #expect(JSONParser.extendedDouble(1, exponent: -28) == nil)
        #if arch(x86_64)
            #expect(JSONParser.extendedDouble(101_117_394_312_321_66, exponent: -15) == 10.111739431232166)
        #endif
    }

    @Test("reads numbers with many digits correctly rounded")
    func manyDigitsCorrectlyRounded() throws {
        #expect(try JSONParser.parse("0.1000000000000000055511151231257827") == .double(0.1))
        #expect(try JSONParser.parse("3.141592653589793238462643383279") == .double(Double.pi))
        #expect(try JSONParser.parse("1.7976931348623157e308") == .double(Double.greatestFiniteMagnitude))
        #expect(try JSONParser.parse("5e-324") == .double(Double.leastNonzeroMagnitude))
    }

    @Test("refuses a number too large for a double, at the number's offset")
    func numberOutOfRange() throws {
        let error = try #require(syntaxError("[1, 1e400]"))
        #expect(error.message == "number out of range")
        #expect(error.offset == 4)
    }

    // MARK: Round trip through JSONWriter

    @Test(
        "a number with few decimals is written as its description, without building it (coordinates, distances, ratings, random bits)"
    )
    func shortDecimalsAsDescription() {
        var rng = TestRandom(seed: 0xDEC1_4A15)
        var values: [Double] = [
            0.001, 0.0015, 0.1, 0.05, -0.05, 1.5, 4.5, 48.1374, -11.5755, 100.01, 999_999_999_999.5, 0.000999,
            1e12 + 0.5, 37.4220541, -122.08532419999999, 0.3, 2.675, 1.005, 123.456789, 42.1234567891,
        ]
        for _ in 0..<20_000 {
            // k / 10^p as the writers of coordinates and distances make them.
            let p = Int(rng.next() % 10)
            let k = Double(Int64(bitPattern: rng.next()) % 400_000_000_000)
            values.append(k / [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9][p])
            values.append((rng.unit() * 40_000_000).rounded() / 100)
            values.append(Double(bitPattern: rng.next()))
        }
        var shortened = 0
        for d in values where d.isFinite {
            var out: [UInt8] = []
            JSONWriter.writeNumber(d, into: &out)
            let expected =
                d == d.rounded() && abs(d) < 9_007_199_254_740_992
                ? (d == 0 && d.sign == .minus ? "-0.0" : String(Int64(d))) : d.description
            #expect(String(decoding: out, as: UTF8.self) == expected, "\(d)")
            var short: [UInt8] = []
            if d != d.rounded() && JSONWriter.appendShortDecimal(d, into: &short) { shortened += 1 }
        }
        #expect(shortened > 30_000)
    }

    @Test("integers are written as String(_:) writes them")
    func integersAsString() {
        var rng = TestRandom(seed: 7)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1, 1_000_000_007]
        for _ in 0..<2_000 { values.append(Int64(bitPattern: rng.next()) >> (rng.next() % 64)) }
        for i in values {
            var out: [UInt8] = []
            JSONWriter.appendInteger(i, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(i))
        }
    }

    @Test("the member cursor finds what memberSpans finds, and stops where it is left")
    func memberCursor() throws {
        let texts = [
            #"{}"#, #" { } "#, #"{"a":1}"#, #"{"a":{"b":[1,{"c":"}"}]},"d\"e":"x\\","f":[],"g":null} "#,
            #"{ "a" : [ "]" , { } ] , "b" : true }"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            try bytes.withUnsafeBytes { buffer in
                let all = try JSONParser.memberSpans(buffer)
                var cursor = try JSONParser.MemberCursor(buffer)
                var found: [(Range<Int>, Range<Int>)] = []
                while let span = try cursor.next() { found.append((span.name, span.member)) }
                #expect(found.map { $0.0 } == all.map(\.name), "\(text)")
                #expect(found.map { $0.1 } == all.map(\.member), "\(text)")
            }
        }
        for bad in [#"[1]"#, #"{"a":1"#, #"{"a" 1}"#, #"{"a":1} x"#, #"{"a":[1}"#, #"{a:1}"#] {
            let bytes = Array(bad.utf8)
            let viaSpans = bytes.withUnsafeBytes { buffer in
                Result { () throws(JSONSyntaxError) in try JSONParser.memberSpans(buffer) }
            }
            let viaCursor = bytes.withUnsafeBytes { buffer in
                Result { () throws(JSONSyntaxError) in
                    var cursor = try JSONParser.MemberCursor(buffer)
                    while try cursor.next() != nil {}
                }
            }
            switch (viaSpans, viaCursor) {
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(bad)")
            default: Issue.record("\(bad): memberSpans \(viaSpans), cursor \(viaCursor)")
            }
        }
        // Read no further than asked: a bad tail is not met.
        let bytes = Array(#"{"types":["a"],"regularOpeningHours":{"periods":[oops"#.utf8)
        try bytes.withUnsafeBytes { buffer in
            var cursor = try JSONParser.MemberCursor(buffer)
            let first = try #require(try cursor.next())
            #expect(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[first.name]), as: UTF8.self) == "types")
            #expect(throws: JSONSyntaxError.self) { try cursor.next() }
        }
    }

    @Test("round-trips random doubles exactly through JSONWriter and JSONParser")
    func randomDoublesRoundTrip() throws {
        var rng = TestRandom(seed: 0x5EED_1234)
        var checked = 0
        while checked < 20_000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let text = JSONWriter().string(.double(d))
            let back = try JSONParser.parse(text)
            let parsed = try #require(back.doubleValue, "\(text) did not read back as a number")
            #expect(parsed.bitPattern == d.bitPattern, "\(d) was written as \(text) and read back as \(parsed)")
            checked += 1
        }
    }

    @Test("round-trips random coordinates and edge-case doubles exactly")
    func coordinatesRoundTrip() throws {
        var rng = TestRandom(seed: 42)
        var values: [Double] = [
            0.1, 1.0 / 3.0, 37.4220541, -122.08532419999999, 1e-5, 1e21, 1e22, 1e23, 123456.789e-300,
            Double.pi, Double.ulpOfOne, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude,
            Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
            9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_992, 0.5, -0.5,
        ]
        for _ in 0..<5_000 {
            values.append(Double.random(in: -90...90, using: &rng))
            values.append(Double.random(in: -180...180, using: &rng))
        }
        for d in values {
            let text = JSONWriter().string(.double(d))
            let parsed = try #require(try JSONParser.parse(text).doubleValue)
            #expect(parsed.bitPattern == d.bitPattern, "\(d) was written as \(text) and read back as \(parsed)")
        }
    }

    @Test("writes integral doubles without a fraction, and they read back as the same value")
    func integralDoubles() throws {
        var rng = TestRandom(seed: 7)
        for _ in 0..<2_000 {
            let d = Double(Int64.random(in: (1 - (1 << 53))..<(1 << 53), using: &rng))
            let text = JSONWriter().string(.double(d))
            #expect(!text.contains("."), "\(d) was written as \(text)")
            let back = try JSONParser.parse(text)
            #expect(back == .int(Int64(d)))
            #expect(back.doubleValue == d)
        }
    }

    @Test("writes non-finite doubles as null")
    func nonFiniteIsNull() {
        #expect(JSONWriter().string(.double(.infinity)) == "null")
        #expect(JSONWriter().string(.double(-.infinity)) == "null")
        #expect(JSONWriter().string(.double(.nan)) == "null")
    }

    @Test("round-trips a document with awkward strings through the writer, compact and pretty")
    func documentRoundTrip() throws {
        let value: JSONValue = [
            "quote\"and\\backslash": "line\nbreak\ttab\rreturn\u{08}\u{0C}",
            "controls": .string("\u{0}\u{1}\u{1F}\u{7F}"),
            "unicode": "café 日本 😀",
            "nested": ["list": [1, -2, 3.25, true, false, nil, [:], []]],
        ]
        for writer in [JSONWriter(), JSONWriter(pretty: true)] {
            let text = writer.string(value)
            #expect(try JSONParser.parse(text) == value, "did not round-trip: \(text)")
        }
    }

    // MARK: JSONWriter output

    @Test("writes compact JSON with members in their order")
    func compactOutput() {
        let value: JSONValue = ["z": [1, 2.5, "x"], "a": nil, "m": ["k": true]]
        #expect(JSONWriter().string(value) == #"{"z":[1,2.5,"x"],"a":null,"m":{"k":true}}"#)
    }

    @Test("sorts members by key when asked")
    func sortedOutput() {
        let value: JSONValue = ["z": 1, "a": 2, "m": 3]
        #expect(JSONWriter(sortedKeys: true).string(value) == #"{"a":2,"m":3,"z":1}"#)
    }

    @Test("indents pretty output by two spaces and keeps empty containers on one line")
    func prettyOutput() {
        let value: JSONValue = ["a": [1, 2], "b": [:], "c": []]
        let expected = """
            {
              "a": [
                1,
                2
              ],
              "b": {},
              "c": []
            }
            """
        #expect(JSONWriter(pretty: true).string(value) == expected)
    }

    @Test("escapes quotes, backslashes and control characters in strings")
    func writerEscapes() {
        #expect(JSONWriter().string("a\"b\\c\nd\te\r\u{08}\u{0C}\u{1}\u{1F}") == #""a\"b\\c\nd\te\r\b\f\u0001\u001f""#)
        #expect(JSONWriter().string("é/😀") == "\"é/😀\"")
    }

    // MARK: Strings and escapes

    @Test("decodes every simple escape")
    func simpleEscapes() throws {
        #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
    }

    @Test("decodes \\u escapes, upper and lower case, including NUL")
    func unicodeEscapes() throws {
        #expect(try JSONParser.parse(#""\u0041\u00e9\u00C9""#) == .string("AéÉ"))
        #expect(try JSONParser.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try JSONParser.parse(#""\u65E5\u672c""#) == .string("日本"))
    }

    @Test("joins a \\u surrogate pair into one scalar")
    func surrogatePairs() throws {
        #expect(try JSONParser.parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""x\ud834\udd1ey""#) == .string("x𝄞y"))
    }

    @Test("keeps raw UTF-8 text, with and without escapes beside it")
    func rawUTF8() throws {
        #expect(try JSONParser.parse("\"Zürich 東京 😀\"") == .string("Zürich 東京 😀"))
        #expect(try JSONParser.parse("\"Zürich\\n東京\"") == .string("Zürich\n東京"))
    }

    // MARK: Errors and their offsets

    @Test("refuses trailing garbage after the value, at the garbage")
    func trailingGarbage() throws {
        let error = try #require(syntaxError(#"{"a":1} x"#))
        #expect(error.message == "unexpected 'x' after the JSON value")
        #expect(error.offset == 8)
        let second = try #require(syntaxError("[1] [2]"))
        #expect(second.offset == 4)
        let nul = try #require(syntaxError([0x31, 0x00]))
        #expect(nul.message == "unexpected byte 0x00 after the JSON value")
        #expect(nul.offset == 1)
    }

    @Test("refuses an unterminated string, at its opening quote")
    func unterminatedString() throws {
        let plain = try #require(syntaxError(#"["abc"#))
        #expect(plain.message == "unterminated string")
        #expect(plain.offset == 1)
        let escaped = try #require(syntaxError(#"{"k": "a\"b"#))
        #expect(escaped.message == "unterminated string")
        #expect(escaped.offset == 6)
        let trailingBackslash = try #require(syntaxError(#""ab\"#))
        #expect(trailingBackslash.message == "unterminated string")
        #expect(trailingBackslash.offset == 0)
    }

    @Test("memberSpans skips strings by their closing quote: escaped quotes and backslash runs")
    func memberSpansSkipStrings() throws {
        let text = #"{"a":"x\\","b":"y\"z\\\"","c":["\\\\\"",{"q":"]}\""}],"d\"":1,"e":"","f":"\\"}"#
        let whole = try #require(try JSONValue(parsing: Array(text.utf8)).objectValue)
        try Array(text.utf8).withUnsafeBytes { buffer in
            let spans = try JSONParser.memberSpans(buffer)
            #expect(try spans.map { try JSONParser.memberName(buffer, $0) } == whole.keys)
            for span in spans {
                let key = try JSONParser.memberName(buffer, span)
                #expect(try JSONParser.memberValue(buffer, span) == whole[key], "\(key)")
            }
        }
        // Unterminated: the last quote is escaped.
        #expect(throws: JSONSyntaxError.self) {
            try Array(#"{"a":"x\\\"}"#.utf8).withUnsafeBytes { _ = try JSONParser.memberSpans($0) }
        }
    }

    @Test("refuses a raw control character in a string, at that character")
    func controlCharacterInString() throws {
        let tab = try #require(syntaxError("[\"a\tb\"]"))
        #expect(tab.message == "unescaped control character (byte 0x09) in a string")
        #expect(tab.offset == 3)
        let newlineAfterEscape = try #require(syntaxError("\"\\n\nx\""))
        #expect(newlineAfterEscape.message == "unescaped control character (byte 0x0A) in a string")
        #expect(newlineAfterEscape.offset == 3)
    }

    @Test("refuses invalid UTF-8 in a string")
    func invalidUTF8() throws {
        let error = try #require(syntaxError([0x5B, 0x22, 0xFF, 0x22, 0x5D])) // ["\xFF"]
        #expect(error.message == "invalid UTF-8 in a string")
        #expect(error.offset == 2)
        // A truncated multi-byte sequence, in the slow (escaped) path too.
        let slow = try #require(syntaxError([0x22, 0x5C, 0x6E, 0xE6, 0x97, 0x22])) // "\n<E6 97>"
        #expect(slow.message == "invalid UTF-8 in a string")
        // An overlong encoding of '/' and an encoded surrogate are not UTF-8 either.
        #expect(syntaxError([0x22, 0xC0, 0xAF, 0x22])?.message == "invalid UTF-8 in a string")
        #expect(syntaxError([0x22, 0xED, 0xA0, 0x80, 0x22])?.message == "invalid UTF-8 in a string")
    }

    @Test("refuses a lone or mismatched UTF-16 surrogate escape")
    func loneSurrogates() throws {
        let high = try #require(syntaxError(#""\uD800""#))
        #expect(high.message == "lone UTF-16 surrogate in \\u escape")
        #expect((1...7).contains(high.offset))
        let low = try #require(syntaxError(#""\uDC00x""#))
        #expect(low.message == "lone UTF-16 surrogate in \\u escape")
        #expect((1...7).contains(low.offset))
        let highThenText = try #require(syntaxError(#""\uD83Dabcdefg""#))
        #expect(highThenText.message == "lone UTF-16 surrogate in \\u escape")
        let mismatched = try #require(syntaxError(#""\uD83D\u0041""#))
        #expect(mismatched.message == "invalid UTF-16 surrogate pair in \\u escape")
    }

    @Test("refuses an unknown escape or a bad \\u escape, at the backslash")
    func badEscapes() throws {
        let unknown = try #require(syntaxError(#"["\x"]"#))
        #expect(unknown.message == "invalid escape \\x")
        #expect(unknown.offset == 2)
        #expect(syntaxError(#""\u12G4""#)?.message == "invalid hex digit in \\u escape")
        #expect(syntaxError(#""\u12"#)?.message == "incomplete \\u escape")
    }

    @Test("refuses a leading zero, at the digit after it")
    func leadingZero() throws {
        let error = try #require(syntaxError("01"))
        #expect(error.message == "invalid number: leading zero")
        #expect(error.offset == 1)
        let negative = try #require(syntaxError("[-012]"))
        #expect(negative.message == "invalid number: leading zero")
        #expect(negative.offset == 3)
        #expect(try JSONParser.parse("[0, -0.5, 0e1]") == [0, -0.5, 0.0])
    }

    @Test("refuses malformed numbers")
    func malformedNumbers() {
        #expect(syntaxError("-")?.message == "invalid number: a digit must follow '-'")
        #expect(syntaxError("1.")?.message == "invalid number: a digit must follow '.'")
        #expect(syntaxError("1e")?.message == "invalid number: a digit must follow the exponent")
        #expect(syntaxError("1e+")?.offset == 3)
        #expect(syntaxError("+1")?.message == "unexpected '+' where a JSON value should start")
        #expect(syntaxError(".5") != nil)
        #expect(syntaxError("NaN") != nil)
    }

    @Test("accepts nesting 512 levels deep and refuses 513, at the 513th bracket")
    func nestingLimit() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(syntaxError(ok) == nil)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(syntaxError(deep))
        #expect(error.message == "nesting deeper than 512 levels")
        #expect(error.offset == 512)
        let objects = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
        let objectError = try #require(syntaxError(objects))
        #expect(objectError.message == "nesting deeper than 512 levels")
        #expect(objectError.offset == 512 * 5)
        // Depth is released when a container closes: many siblings are fine.
        let siblings =
            "["
            + Array(repeating: String(repeating: "[", count: 300) + String(repeating: "]", count: 300), count: 4)
            .joined(separator: ",") + "]"
        #expect(syntaxError(siblings) == nil)
    }

    @Test("refuses empty and white-space-only input at offset 0")
    func emptyInput() throws {
        let empty = try #require(syntaxError(""))
        #expect(empty.message == "no JSON value")
        #expect(empty.offset == 0)
        let blank = try #require(syntaxError(" \n\t\r "))
        #expect(blank.message == "no JSON value")
        #expect(blank.offset == 0)
        #expect(syntaxError([UInt8]())?.message == "no JSON value")
    }

    @Test("refuses structural mistakes with a message naming what was found")
    func structuralErrors() throws {
        let trailingComma = try #require(syntaxError("[1,]"))
        #expect(trailingComma.message == "unexpected ']' where a JSON value should start")
        #expect(trailingComma.offset == 3)
        let missingColon = try #require(syntaxError(#"{"a" 1}"#))
        #expect(missingColon.message == #"expected ':' after member name "a""#)
        #expect(missingColon.offset == 5)
        let bareKey = try #require(syntaxError("{a:1}"))
        #expect(bareKey.message == "expected a member name in double quotes, found 'a'")
        #expect(bareKey.offset == 1)
        let missingComma = try #require(syntaxError("[1 2]"))
        #expect(missingComma.message == "expected ',' or ']' in an array, found '2'")
        #expect(missingComma.offset == 3)
        let unclosed = try #require(syntaxError(#"{"a":1"#))
        #expect(unclosed.message == "unexpected end of JSON text inside an object")
        #expect(unclosed.offset == 6)
        let literal = try #require(syntaxError("[tru]"))
        #expect(literal.message == "invalid literal (expected true)")
        #expect(literal.offset == 1)
    }

    // MARK: Objects

    @Test("lets the last of duplicate keys win, at the first key's position")
    func duplicateKeys() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .int(3))
        #expect(object["b"] == .int(2))
    }

    @Test(
        "finds a duplicate key written once with escapes and once without",
        arguments: [
            #"{"name":1,"b":2,"n\u0061me":3}"#, #"{"n\u0061me":1,"b":2,"name":3}"#, #"{"caf\u00e9":1,"b":2,"café":3}"#,
            #"{"café":1,"b":2,"caf\u00e9":3}"#, #"{"a\n":1,"b":2,"a\u000a":3}"#, #"{"x\/":1,"b":2,"x/":3}"#,
        ])
    func duplicateKeysWithEscapes(json: String) throws {
        let object = try #require(try JSONParser.parse(json).objectValue)
        #expect(object.count == 2)
        #expect(object.keys.last == "b")
        #expect(object[object.keys[0]] == .int(3))
    }

    @Test("lets the last duplicate win in a large object, past the first 64 members")
    func duplicateKeysInLargeObject() throws {
        var members = (0..<70).map { "\"k\($0)\":\($0)" }
        members.append(#""k0":"last""#)
        members.append(#""k69":"again""#)
        let object = try #require(try JSONParser.parse("{" + members.joined(separator: ",") + "}").objectValue)
        #expect(object.count == 70)
        #expect(object.keys == (0..<70).map { "k\($0)" })
        #expect(object["k0"] == "last")
        #expect(object["k69"] == "again")
        #expect(object["k35"] == .int(35))
    }

    @Test("keeps object members in their order")
    func memberOrder() throws {
        let object = try #require(try JSONParser.parse(#"{"z":1,"a":2,"m":3,"b":{"y":1,"x":2}}"#).objectValue)
        #expect(object.keys == ["z", "a", "m", "b"])
        #expect(object["b"]?.objectValue?.keys == ["y", "x"])
        #expect(object.map(\.key) == ["z", "a", "m", "b"])
        #expect(JSONWriter().string(.object(object)) == #"{"z":1,"a":2,"m":3,"b":{"y":1,"x":2}}"#)
    }

    @Test("compares objects by members in order")
    func objectEquality() throws {
        let ab = try JSONParser.parse(#"{"a":1,"b":2}"#)
        let ba = try JSONParser.parse(#"{"b":2,"a":1}"#)
        #expect(ab != ba)
        #expect(ab == ["a": 1, "b": 2])
    }

    @Test("replaces an existing member in place and removes one set to nil")
    func objectSubscript() {
        var object = JSONObject([("a", 1), ("b", 2), ("c", 3)])
        object["b"] = "two"
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["b"] == "two")
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        object["d"] = true
        #expect(object.keys == ["b", "c", "d"])
        let deduplicated = JSONObject([("x", 1), ("y", 2), ("x", 3)])
        #expect(deduplicated.keys == ["x", "y"])
        #expect(deduplicated["x"] == .int(3))
    }
}
