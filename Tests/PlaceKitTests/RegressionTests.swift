import Foundation
import Testing
@testable import PlaceKit
import PlaceKitTestSupport
@testable import PlaceModel
@testable import PlaceStorage

/// Bugs found by review, each pinned by a test.
@Suite("Regressions")
struct RegressionTests {
    @Test("an empty field path is an unknown field, not a crash", arguments: ["places.", ".", "location.", ".id"])
    func emptyFieldPath(mask: String) {
        #expect(throws: FieldMaskError.self) { _ = try FieldMask(parsing: mask) }
    }

    @Test("a truncated gzip file is corrupt input (65), never a silent short read")
    func truncatedGzip() throws {
        let dir = try TempDirectory()
        var text = ""
        for i in 0..<2000 {
            text +=
                #"{"id":"t\#(i)","location":{"latitude":1,"longitude":2},"displayName":{"text":"Place number \#(i)"}}"#
                + "\n"
        }
        let path = try dir.writeGzip("full.ndjson.gz", text)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        for cut in [6, bytes.count / 2] {
            let truncated = try dir.write("cut-\(cut).ndjson.gz", bytes: Array(bytes.dropLast(cut)))
            let importer = try PlaceImporter(
                databasePath: dir.file("db-\(cut).sqlite"), options: ImportOptions(onError: .skip))
            #expect {
                _ = try importer.importInput(.file(truncated))
            } throws: { error in
                guard case PlaceDBError.input(let e) = error else { return false }
                return e.kind == .corrupt && e.reason.contains("unexpected end of file")
                    && !e.reason.contains(truncated)
            }
        }
    }

    @Test("a v1 error object's numeric code reads as a number")
    func errorCode() throws {
        let record = SourceRecord(
            value: try JSONValue(parsing: #"{"error":{"code":403,"message":"m"}}"#), line: 1, index: 1, container: nil)
        #expect {
            _ = try decodeRecord(record, format: nil)
        } throws: { error in
            (error as? DecodeError)?.message == "an API error response (403: m), not a place"
        }
    }

    @Test(
        "19-digit integers stay integers",
        arguments: [
            ("1234567890123456789", Int64(1_234_567_890_123_456_789)), ("9223372036854775807", Int64.max),
            ("-9223372036854775808", Int64.min),
        ])
    func nineteenDigits(text: String, value: Int64) throws {
        #expect(try JSONValue(parsing: text) == .int(value))
    }

    @Test("-0.0 keeps its sign through the writer")
    func negativeZero() throws {
        let text = JSONWriter().string(.double(-0.0))
        let back = try #require(try JSONValue(parsing: text).doubleValue)
        #expect(back == 0 && back.sign == .minus)
    }
}
