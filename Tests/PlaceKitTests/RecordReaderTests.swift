import Foundation
import Testing
import PlaceKitTestSupport
@testable import PlaceKit
@testable import PlaceModel
@testable import PlaceStorage

/// Opens a reader on `path`.
private func reader(_ path: String) throws -> RecordReader {
    RecordReader(source: try ByteSource(.file(path)))
}

/// Every record of `reader`, until the end or the first error.
private func readAll(_ reader: RecordReader) throws -> [SourceRecord] {
    var records: [SourceRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

private func readAll(_ path: String) throws -> [SourceRecord] {
    try readAll(try reader(path))
}

/// The error the next call to `next()` throws, or nil when it returns.
private func nextError(_ reader: RecordReader) -> RecordReadError? {
    do {
        _ = try reader.next()
        return nil
    } catch let error as RecordReadError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// The error opening `path` throws, or nil when it opens.
private func openError(_ path: String) -> InputError? {
    do {
        _ = try ByteSource(.file(path))
        return nil
    } catch {
        return error
    }
}

@Suite("RecordReader")
struct RecordReaderTests {
    // MARK: Single objects

    @Test("reads a single one-line object as one bare record", arguments: ["\n", ""])
    func singleObject(ending: String) throws {
        let dir = try TempDirectory()
        let path = try dir.write("one.json", #"{"id":"a","rating":4.5}"# + ending)
        let r = try reader(path)
        let record = try #require(try r.next())
        #expect(record.value == ["id": "a", "rating": 4.5])
        #expect(record.line == 1)
        #expect(record.index == 1)
        #expect(record.container == nil)
        #expect(try r.next() == nil)
        #expect(try r.next() == nil)
        #expect(r.recordsRead == 1)
    }

    @Test("reads a pretty-printed object as one record starting on its first line")
    func prettyObject() throws {
        let text = """

            {
              "id": "a",
              "location": {
                "latitude": 37.4220541,
                "longitude": -122.08532419999999
              },
              "types": ["cafe", "food"]
            }

            """
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("pretty.json", text))
        try #require(records.count == 1)
        #expect(records[0].line == 2)
        #expect(records[0].index == 1)
        #expect(records[0].container == nil)
        let expected = try JSONParser.parse(text)
        #expect(records[0].value == expected)
        #expect(records[0].value.objectValue?.keys == ["id", "location", "types"])
    }

    // MARK: Envelopes

    @Test("streams the places of a Places API (New) response")
    func placesEnvelope() throws {
        let text = """
            {
              "places": [
                {"id": "a"},
                {"id": "b"},

                {"id": "c"}
              ],
              "nextPageToken": "tok"
            }
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("places.json", text))
        let records = try readAll(r)
        #expect(records.map(\.value) == [["id": "a"], ["id": "b"], ["id": "c"]])
        #expect(records.map(\.container) == ["places", "places", "places"])
        #expect(records.map(\.line) == [3, 4, 6])
        #expect(records.map(\.index) == [1, 2, 3])
        #expect(r.sawEnvelope)
        #expect(r.envelope["nextPageToken"] == "tok")
        #expect(r.envelope["places"] == nil)
    }

    @Test("streams the results of a legacy search response and keeps its status")
    func resultsEnvelope() throws {
        let text = """
            {
              "html_attributions": [],
              "results": [
                {"place_id": "p1", "name": "One"},
                {"place_id": "p2", "name": "Two"}
              ],
              "status": "OK"
            }
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("results.json", text))
        let records = try readAll(r)
        #expect(records.map { $0.value["place_id"] } == ["p1", "p2"])
        #expect(records.map(\.container) == ["results", "results"])
        #expect(records.map(\.line) == [4, 5])
        #expect(records.map(\.index) == [1, 2])
        #expect(r.envelope["status"] == "OK")
        #expect(r.envelope["html_attributions"] == [])
        #expect(r.envelope.keys == ["html_attributions", "status"])
    }

    @Test("reads the result of a legacy Place Details response as one record")
    func resultEnvelope() throws {
        let text = """
            {
              "html_attributions": [],
              "result": {
                "place_id": "p1",
                "name": "One"
              },
              "status": "OK"
            }
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("details.json", text))
        let records = try readAll(r)
        try #require(records.count == 1)
        #expect(records[0].value == ["place_id": "p1", "name": "One"])
        #expect(records[0].container == "result")
        #expect(records[0].line == 3)
        #expect(records[0].index == 1)
        #expect(r.envelope["status"] == "OK")
    }

    @Test("streams the candidates of a legacy Find Place response")
    func candidatesEnvelope() throws {
        let text = """
            {
              "candidates": [
                {"place_id": "c1", "geometry": {"location": {"lat": 1, "lng": 2}}}
              ],
              "status": "OK"
            }
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("find.json", text))
        let records = try readAll(r)
        #expect(records.map { $0.value["place_id"] } == ["c1"])
        #expect(records.map(\.container) == ["candidates"])
        #expect(records.map(\.line) == [3])
        #expect(r.envelope["status"] == "OK")
    }

    @Test("reads a response with no results as no records, keeping its status", arguments: ["\n", ""])
    func zeroResults(ending: String) throws {
        let dir = try TempDirectory()
        let r = try reader(try dir.write("zero.json", #"{"status":"ZERO_RESULTS","results":[]}"# + ending))
        #expect(try r.next() == nil)
        #expect(r.recordsRead == 0)
        #expect(r.sawEnvelope)
        #expect(r.envelope["status"] == "ZERO_RESULTS")
    }

    @Test(
        "reads a result that is the last member of its response as exactly one record",
        arguments: [
            #"{"result":{"place_id":"p1"}}"# + "\n", #"{"result":{"place_id":"p1"}}"#,
            "{\n  \"html_attributions\": [],\n  \"result\": {\"place_id\": \"p1\"}\n}\n",
        ])
    func resultAsLastMember(text: String) throws {
        let dir = try TempDirectory()
        let r = try reader(try dir.write("details.json", text))
        let records = try readAll(r)
        try #require(records.count == 1)
        #expect(records[0].value == ["place_id": "p1"])
        #expect(records[0].container == "result")
        #expect(records[0].index == 1)
        #expect(r.sawEnvelope)
    }

    @Test("keeps a legacy error response without results as the envelope, not a record")
    func errorResponse() throws {
        let text = """
            {
              "error_message": "The provided API key is invalid.",
              "html_attributions": [],
              "status": "REQUEST_DENIED"
            }
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("denied.json", text))
        #expect(try r.next() == nil)
        #expect(r.envelope["status"] == "REQUEST_DENIED")
        #expect(r.envelope["error_message"] == "The provided API key is invalid.")
        let oneLine = try reader(
            try dir.write("denied-line.json", #"{"status":"REQUEST_DENIED","error_message":"bad key"}"#))
        #expect(try oneLine.next() == nil)
        #expect(oneLine.envelope["status"] == "REQUEST_DENIED")
        #expect(oneLine.envelope["error_message"] == "bad key")
    }

    @Test("expands envelopes found on NDJSON lines")
    func envelopesOnLines() throws {
        let text = """
            {"results":[{"place_id":"a"},{"place_id":"b"}],"status":"OK"}
            {"places":[{"id":"c"}]}
            {"place_id":"d","name":"Plain"}

            """
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("pages.ndjson", text))
        #expect(records.map { $0.value["place_id"] ?? $0.value["id"] } == ["a", "b", "c", "d"])
        #expect(records.map(\.container) == ["results", "results", "places", nil])
        #expect(records.map(\.line) == [1, 1, 2, 3])
        #expect(records.map(\.index) == [1, 2, 3, 4])
    }

    @Test("keeps the other members of envelopes on NDJSON lines")
    func envelopeMembersOnLines() throws {
        let text = """
            {"results":[{"place_id":"a"}],"status":"OK","next_page_token":"t1"}
            {"results":[{"place_id":"b"}],"status":"OK"}

            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("pages.ndjson", text))
        #expect(try readAll(r).count == 2)
        #expect(r.sawEnvelope)
        #expect(r.envelope["status"] == "OK")
        #expect(r.envelope["next_page_token"] == "t1")
    }

    // MARK: Arrays

    @Test("streams a top-level array with each element's line")
    func topLevelArray() throws {
        let text = """
            [
              {"id": "a"},
              {
                "id": "b"
              },
              {"id": "c"}
            ]
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("array.json", text))
        let records = try readAll(r)
        #expect(records.map(\.value) == [["id": "a"], ["id": "b"], ["id": "c"]])
        #expect(records.map(\.line) == [2, 3, 6])
        #expect(records.map(\.index) == [1, 2, 3])
        #expect(records.map(\.container) == [nil, nil, nil])
        #expect(!r.sawEnvelope)
    }

    @Test("reads an empty top-level array as no records")
    func emptyArray() throws {
        let dir = try TempDirectory()
        #expect(try readAll(try dir.write("empty-array.json", "[ ]\n")).isEmpty)
    }

    @Test("streams a large generated array with every record, index and line")
    func largeArray() throws {
        let count = 50_000
        let filler = String(repeating: "x", count: 40)
        var text = "[\n"
        for i in 1...count {
            text += #"{"id":"p\#(i)","n":"\#(filler)","v":\#(i)}"#
            text += i == count ? "\n" : ",\n"
        }
        text += "]\n"
        #expect(text.utf8.count > 2 << 20)
        let dir = try TempDirectory()
        let r = try reader(try dir.write("large.json", text))
        var seen = 0
        while let record = try r.next() {
            seen += 1
            guard record.index == seen, record.line == seen + 1, record.value["v"] == .int(Int64(seen)),
                record.value["id"] == .string("p\(seen)")
            else {
                Issue.record(
                    "record \(seen) is wrong: index \(record.index), line \(record.line), value \(record.value)")
                return
            }
        }
        #expect(seen == count)
        #expect(r.recordsRead == count)
    }

    @Test("streams a large array written on one line, across buffer refills")
    func largeOneLineArray() throws {
        let count = 40_000
        let filler = String(repeating: "y", count: 60)
        let text =
            "[" + (1...count).map { #"{"id":"p\#($0)","s":"\#(filler) ] } \" \\"}"# }.joined(separator: ",") + "]"
        #expect(text.utf8.count > 2 << 20)
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("line.json", text))
        #expect(records.count == count)
        #expect(records.last?.value["id"] == .string("p\(count)"))
        #expect(records.allSatisfy { $0.line == 1 && $0.value["s"] == .string("\(filler) ] } \" \\") })
        #expect(records.map(\.index) == Array(1...count))
    }

    @Test("is not confused by brackets, braces and escaped quotes inside strings")
    func bracketsInStrings() throws {
        let tricky = #"a ] b } c \" ] \\"#
        let text = """
            {
              "places": [
                {"id": "a", "note": "\(tricky)"},
                {"id": "b\\\\", "note": "[{\\"}]"}
              ],
              "status": "x ] }"
            }
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("tricky.json", text))
        let records = try readAll(r)
        try #require(records.count == 2)
        #expect(records[0].value["note"] == .string(#"a ] b } c " ] \"#))
        #expect(records[1].value["id"] == .string(#"b\"#))
        #expect(records[1].value["note"] == .string(#"[{"}]"#))
        #expect(r.envelope["status"] == "x ] }")
    }

    // MARK: NDJSON

    @Test("reads NDJSON with the line of each record, skipping blank lines")
    func ndjsonLines() throws {
        let text = "{\"id\":\"a\"}\n{\"id\":\"b\"}\n\n{\"id\":\"c\"}\n"
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("places.ndjson", text))
        #expect(records.map(\.value) == [["id": "a"], ["id": "b"], ["id": "c"]])
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records.map(\.index) == [1, 2, 3])
        #expect(records.map(\.container) == [nil, nil, nil])
    }

    @Test("reads NDJSON with CRLF line ends and no final newline")
    func ndjsonCRLF() throws {
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("crlf.ndjson", "{\"id\":\"a\"}\r\n{\"id\":\"b\"}\r\n{\"id\":\"c\"}"))
        #expect(records.map(\.value) == [["id": "a"], ["id": "b"], ["id": "c"]])
        #expect(records.map(\.line) == [1, 2, 3])
    }

    @Test("reads an NDJSON line longer than the read buffer as one record")
    func longLine() throws {
        let big = String(repeating: "z", count: 3 << 20)
        let text = "{\"id\":\"a\"}\n{\"id\":\"b\",\"blob\":\"\(big)\"}\n{\"id\":\"c\"}\n"
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("long.ndjson", text))
        #expect(records.map { $0.value["id"] } == ["a", "b", "c"])
        #expect(records.map(\.line) == [1, 2, 3])
        #expect(records[1].value["blob"]?.stringValue?.utf8.count == 3 << 20)
    }

    @Test("reports a malformed NDJSON line as recoverable and goes on with the next")
    func ndjsonMalformedLine() throws {
        let bad = #"{"id": "b", oops}"#
        let text = "{\"id\":\"a\"}\n\(bad)\n{\"id\":\"c\"}\n"
        let dir = try TempDirectory()
        let r = try reader(try dir.write("bad.ndjson", text))
        let first = try #require(try r.next())
        #expect(first.value == ["id": "a"])
        let error = try #require(nextError(r))
        #expect(error.recoverable)
        #expect(error.line == 2)
        #expect(error.index == 2)
        #expect(error.rawLine == Array(bad.utf8))
        #expect(error.message.hasPrefix("malformed JSON: "))
        let third = try #require(try r.next())
        #expect(third.value == ["id": "c"])
        #expect(third.line == 3)
        #expect(third.index == 3)
        #expect(try r.next() == nil)
    }

    @Test("reports a malformed first NDJSON line as recoverable too")
    func ndjsonMalformedFirstLine() throws {
        let bad = #"{"id": "a", "name": }"#
        let text = "\(bad)\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n"
        let dir = try TempDirectory()
        let r = try reader(try dir.write("bad-first.ndjson", text))
        let error = try #require(nextError(r))
        #expect(error.recoverable)
        #expect(error.line == 1)
        #expect(error.index == 1)
        #expect(error.rawLine == Array(bad.utf8))
        let rest = try readAll(r)
        #expect(rest.map(\.value) == [["id": "b"], ["id": "c"]])
        #expect(rest.map(\.line) == [2, 3])
        #expect(rest.map(\.index) == [2, 3])
    }

    @Test("reports an NDJSON line that is not an object as recoverable")
    func ndjsonScalarLine() throws {
        let dir = try TempDirectory()
        let r = try reader(try dir.write("scalar.ndjson", "{\"id\":\"a\"}\n42\n{\"id\":\"c\"}\n"))
        #expect(try r.next()?.value == ["id": "a"])
        let error = try #require(nextError(r))
        #expect(error.recoverable)
        #expect(error.line == 2)
        #expect(error.message == "expected a JSON object, found a number")
        #expect(error.rawLine == Array("42".utf8))
        #expect(try r.next()?.value == ["id": "c"])
    }

    @Test("treats RFC 8142 record separators (0x1E) as white space")
    func recordSeparators() throws {
        var bytes: [UInt8] = []
        for id in ["a", "b", "c"] {
            bytes.append(0x1E)
            bytes += Array("{\"id\":\"\(id)\"}".utf8)
            bytes.append(0x0A)
        }
        let dir = try TempDirectory()
        let records = try readAll(try dir.write("seq.json-seq", bytes: bytes))
        #expect(records.map(\.value) == [["id": "a"], ["id": "b"], ["id": "c"]])
        #expect(records.map(\.line) == [1, 2, 3])
    }

    // MARK: Errors

    @Test("reports malformed JSON inside a top-level array as fatal, on its line")
    func malformedInArray() throws {
        let text = """
            [
              {"id": "a"},
              {"id": "b",
               "name": nope},
              {"id": "c"}
            ]
            """
        let dir = try TempDirectory()
        let r = try reader(try dir.write("broken.json", text))
        #expect(try r.next()?.value == ["id": "a"])
        let error = try #require(nextError(r))
        #expect(!error.recoverable)
        #expect(error.line == 4)
        #expect(error.rawLine == nil)
        #expect(error.message.hasPrefix("malformed JSON: "))
    }

    @Test("reports an array cut short as fatal")
    func truncatedArray() throws {
        let dir = try TempDirectory()
        let r = try reader(try dir.write("cut.json", "[\n{\"id\":\"a\"},\n{\"id\":\"b\"}"))
        #expect(try r.next()?.value == ["id": "a"])
        let error = try #require(nextError(r))
        #expect(!error.recoverable)
        #expect(error.message == "malformed JSON: unexpected end of the input inside an array")
    }

    @Test("refuses an empty or white-space-only file as empty input", arguments: ["", " \n\t\r\n  \n"])
    func emptyInput(text: String) throws {
        let dir = try TempDirectory()
        let r = try reader(try dir.write("empty.json", text))
        let error = try #require(nextError(r))
        #expect(error.message.contains("empty input"))
        #expect(!error.recoverable)
    }

    @Test("refuses a file holding a scalar rather than objects")
    func scalarFile() throws {
        let dir = try TempDirectory()
        let error = try #require(nextError(try reader(try dir.write("n.json", "42\n"))))
        #expect(error.message == "expected a JSON object or array, found a number")
        #expect(!error.recoverable)
    }

    @Test("throws on binary files without crashing", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func binaryFile(seed: UInt64) throws {
        var rng = TestRandom(seed: seed)
        var bytes = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for i in stride(from: 0, to: bytes.count, by: 97) { bytes[i] = 0 }
        // Start each way the reader can go: a scalar, an array, an object, NUL.
        bytes[0] = [0x00, UInt8(ascii: "["), UInt8(ascii: "{"), 0xFF][Int(seed % 4)]
        let dir = try TempDirectory()
        let r = try reader(try dir.write("blob.bin", bytes: bytes))
        #expect(throws: RecordReadError.self) {
            while try r.next() != nil {}
        }
    }

    @Test("skips a UTF-8 byte order mark at the start")
    func byteOrderMark() throws {
        let dir = try TempDirectory()
        let ndjson = try readAll(
            try dir.write("bom.ndjson", bytes: [0xEF, 0xBB, 0xBF] + Array("{\"id\":\"a\"}\n{\"id\":\"b\"}\n".utf8)))
        #expect(ndjson.map(\.value) == [["id": "a"], ["id": "b"]])
        #expect(ndjson.map(\.line) == [1, 2])
        let array = try readAll(try dir.write("bom.json", bytes: [0xEF, 0xBB, 0xBF] + Array("[{\"id\":\"a\"}]".utf8)))
        #expect(array.map(\.value) == [["id": "a"]])
    }

    // MARK: Compression and sources

    @Test("reads gzip'd NDJSON as the same records as plain")
    func gzipNDJSON() throws {
        let text = (1...500).map { #"{"id":"p\#($0)","name":"Place \#($0)"}"# }.joined(separator: "\n") + "\n"
        let dir = try TempDirectory()
        let plainPath = try dir.write("plain.ndjson", text)
        let gzipPath = try dir.writeGzip("zipped.ndjson.gz", text)
        let plain = try readAll(plainPath)
        let gzipped = try readAll(gzipPath)
        #expect(plain.count == 500)
        #expect(gzipped.map(\.value) == plain.map(\.value))
        #expect(gzipped.map(\.line) == plain.map(\.line))
        #expect(gzipped.map(\.index) == plain.map(\.index))
    }

    @Test("reports a gzip file with a bad checksum as corrupt")
    func corruptGzip() throws {
        let text = (1...200).map { #"{"id":"p\#($0)"}"# }.joined(separator: "\n") + "\n"
        let dir = try TempDirectory()
        let gz = try dir.writeGzip("good.ndjson.gz", text)
        let good = try readAll(gz)
        #expect(good.count == 200)
        var bytes = try #require(FileManager.default.contents(atPath: gz).map(Array.init))
        try #require(bytes.count > 8)
        bytes[bytes.count - 6] ^= 0xFF // inside the CRC-32 of the gzip trailer
        let r = try reader(try dir.write("bad.ndjson.gz", bytes: bytes))
        do {
            while try r.next() != nil {}
            Issue.record("a gzip file with a bad checksum read without an error")
        } catch let error as InputError {
            #expect(error.kind == .corrupt)
            #expect(error.reason.contains("incorrect data check"))
        }
    }

    @Test("refuses a missing file as missing and a directory as unreadable")
    func missingAndDirectory() throws {
        let dir = try TempDirectory()
        let missing = try #require(openError(dir.file("nope.json")))
        #expect(missing.kind == .missing)
        #expect(missing.source == dir.file("nope.json"))
        #expect(missing.reason.hasPrefix("cannot open: "))
        let directory = try #require(openError(dir.path))
        #expect(directory.kind == .unreadable)
        #expect(directory.reason == "is a directory, not a file")
    }

    @Test("names standard input '-' as <stdin>")
    func inputSourceArgument() {
        #expect(InputSource(argument: "-") == .standardInput)
        #expect(InputSource(argument: "a.json") == .file("a.json"))
        #expect(InputSource.standardInput.description == "<stdin>")
    }
}
