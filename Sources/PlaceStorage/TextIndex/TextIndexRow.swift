package import PlaceModel
import Foundation

/// A place's row of the text index, computed off the writing thread
/// (`PreparedPlace`), so that a fresh import fills `place_text` as it
/// writes `place` instead of evaluating `place_text_source` (JSON
/// extraction in SQL) for every row at its end.
///
/// Each column holds the same tokens, in the same order, as the text the
/// view gives for the stored row, so FTS5's external-content `delete` (the
/// triggers hand it the view's text) removes exactly what was inserted
/// here. The text itself may differ where the tokenizer cannot tell:
/// other names and types are joined by spaces, not written as a JSON array
/// (`"a","b"` and `a b` are the same two tokens). Where a value would read
/// differently in the view's JSON (an escape, a `,null` the view's
/// `replace` cuts, a value that is not a string) the row is the view's very
/// text, built as the view builds it. Nothing is folded here: the typo
/// vocabulary comes from the index's own words (`TextIndexWriter`).
/// `TextSearchTests.freshRowsEqualView` checks it with FTS5's
/// `integrity-check` on OSM and Google records.
package struct TextIndexRow: Sendable {
    package var name: String?
    package var otherNames: String?
    package var address: String?
    package var types: String
    package var cell: String

    /// `name` and `primaryType` as the `place` row holds them; `address`
    /// and `types` the document's `formattedAddress` and `types`, and
    /// `extra`, as written to `doc` and `extra` (by `JSONWriter`).
    package init(
        name: String?, primaryType: String?, address addressValue: JSONValue?, types typesValue: JSONValue?,
        extra: JSONObject,
        coordinate: Coordinate
    ) {
        self.name = name
        otherNames = extra.isEmpty ? nil : Self.otherNames(extra)
        // address: json_extract(doc, '$.formattedAddress'), an SQL value.
        switch addressValue {
        case nil, .null?: address = nil
        case .string(let s)?: address = s
        case let v?: address = JSONWriter().string(v)
        }
        types = Self.types(primaryType: primaryType, typesValue)
        cell = Self.cells(coordinate)
    }

    /// `TextGrid.cell(c, .fine) + " " + TextGrid.cell(c, .coarse)`
    /// (`f13652x18663 k1365x1866`, each after `TextGrid.mark`), written digit by digit from the fine
    /// cell's key (string interpolation would format and allocate for
    /// every row).
    static func cells(_ c: Coordinate) -> String {
        let key = TextGrid.key(c)
        let row = key / 100_000, column = key % 100_000
        guard key >= 0, column >= 0 else { return TextGrid.cell(c, .fine) + " " + TextGrid.cell(c, .coarse) }
        return String(unsafeUninitializedCapacity: 48) { buffer in
            var n = 0
            func put(_ b: UInt8) { buffer[n] = b; n += 1 }
            func put(_ v: Int64) {
                var digits:
                    (
                        UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                        UInt8, UInt8,
                        UInt8, UInt8, UInt8, UInt8, UInt8
                    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                var count = 0
                var v = v
                withUnsafeMutableBytes(of: &digits) { d in
                    repeat { d[count] = UInt8(truncatingIfNeeded: 0x30 + v % 10); count += 1; v /= 10 } while v > 0
                    while count > 0 { count -= 1; put(d[count]) }
                }
            }
            func mark() { for b in TextGrid.markUTF8 { put(b) } }
            mark(); put(UInt8(ascii: "f")); put(row); put(UInt8(ascii: "x")); put(column)
            put(UInt8(ascii: " "))
            mark(); put(UInt8(ascii: "k")); put(row / 10); put(UInt8(ascii: "x")); put(column / 10)
            return n
        }
    }

    /// The values at `TextIndexSQL.otherNamePaths`, in that order, joined
    /// by spaces; what the view gives (`TextIndexSQL.otherNames`) where any
    /// of them would read differently there. Then the localized names
    /// (`localizedText`). Empty when none is present (the view gives
    /// `[,,...]`: no token either way).
    static func otherNames(_ extra: JSONObject) -> String {
        let tags = extra["osm"]?["tags"]?.objectValue
        let brand = extra["overture"]?["brand"]?["names"]?["primary"]
        let localized = localizedText(extra)
        guard tags != nil || brand != nil else { return localized }
        var out = ""
        var plain = true
        func add(_ v: JSONValue?) {
            guard let v, v != .null else { return }
            guard case .string(let s) = v, isPlain(s) else { plain = false; return }
            if !out.isEmpty { out += " " }
            out += s
        }
        if let tags { for key in TextIndexSQL.osmNameTags { add(tags[key]); if !plain { break } } }
        if plain { add(brand) }
        return (plain ? out : viewOtherNames(extra)) + localized
    }

    /// The names of `extra.localizedNames`, each after a space, as
    /// `TextIndexSQL.localizedNames` reads them: string values in order,
    /// up to the first key JSON escapes or `maxLocalizedNames` members.
    static func localizedText(_ extra: JSONObject) -> String {
        guard let names = extra["localizedNames"]?.objectValue else { return "" }
        var out = ""
        var n = 0
        for (key, value) in names {
            if n >= TextIndexSQL.maxLocalizedNames { break }
            if key.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) { break }
            if case .string(let s) = value { out += " " + s }
            n += 1
        }
        return out
    }

    /// A string whose JSON rendering is itself between quotes, and which
    /// holds nothing the view's `replace(..., ',null', ',')` would cut.
    static func isPlain(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { u in
            var i = 0
            while i < u.count {
                let b = u[i]
                if b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return false }
                if b == UInt8(ascii: "n") && i > 0 && (u[i - 1] == UInt8(ascii: ",") || u[i - 1] == UInt8(ascii: "["))
                    && i + 3 < u.count && u[i + 1] == UInt8(ascii: "u") && u[i + 2] == UInt8(ascii: "l")
                    && u[i + 3] == UInt8(ascii: "l")
                {
                    return false
                }
                i += 1
            }
            return true
        }
    }

    /// The view's other names, exactly: `json_extract(extra, paths...)` is
    /// the array of the values at the paths (null where absent), strings
    /// as written, its nulls then cut by `replace`.
    static func viewOtherNames(_ extra: JSONObject) -> String {
        let writer = JSONWriter()
        var parts: [String] = []
        parts.reserveCapacity(TextIndexSQL.otherNamePaths.count)
        let root = JSONValue.object(extra)
        for path in TextIndexSQL.otherNamePaths {
            var v: JSONValue? = root
            for key in path { v = v?[key] }
            if let v, v != .null { parts.append(writer.string(v)) } else { parts.append("null") }
        }
        return ("[" + parts.joined(separator: ",") + "]")
            .replacingOccurrences(of: "[null", with: "[").replacingOccurrences(of: ",null", with: ",")
    }

    /// The primary type, then the document's `types` without the two every
    /// Google place has (`point_of_interest`, `establishment`), joined by
    /// spaces; as the view gives them (`TextIndexSQL.types`) where a type
    /// is not a plain string.
    static func types(primaryType: String?, _ typesValue: JSONValue?) -> String {
        var out = primaryType ?? ""
        switch typesValue {
        case nil, .null?:
            return out
        case .array(let a)?:
            var plain: [String] = []
            plain.reserveCapacity(a.count)
            for v in a {
                guard case .string(let s) = v, isPlain(s) else {
                    return viewTypes(primaryType: primaryType, typesValue)
                }
                if s != "point_of_interest" && s != "establishment" { plain.append(s) }
            }
            for s in plain { out += " " + s }
            return out
        default:
            return viewTypes(primaryType: primaryType, typesValue)
        }
    }

    /// The view's type text, exactly: the primary type, then
    /// `json_extract(doc, '$.types')` (JSON text for an array) with the two
    /// quoted types cut out.
    static func viewTypes(primaryType: String?, _ typesValue: JSONValue?) -> String {
        var typeText = primaryType ?? ""
        switch typesValue {
        case nil, .null?: break
        case .string(let s)?: typeText += " " + s
        case let v?:
            typeText +=
                " "
                + JSONWriter().string(v).replacingOccurrences(of: "\"point_of_interest\"", with: "")
                .replacingOccurrences(of: "\"establishment\"", with: "")
        }
        return typeText
    }
}
