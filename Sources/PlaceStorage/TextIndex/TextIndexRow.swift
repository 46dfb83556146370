import Foundation
import PlaceModel

/// A place's row of the text index, computed in Swift off the writing
/// thread (`PreparedPlace`), so that a fresh import fills `place_text` as it
/// writes `place` instead of evaluating `place_text_source` (JSON
/// extraction in SQL) for every row at its end; and the place's folded
/// words, for the typo vocabulary (`place_word`).
///
/// Each column is the very text the view gives for the stored row (the same
/// JSON renderings, the same replacements), so the tokens and their
/// positions are the same: FTS5's external-content `delete` (the triggers
/// hand it the view's text) removes exactly what was inserted here.
/// `TextSearchTests.freshBuildEqualsTriggers` checks it with FTS5's
/// `integrity-check` on OSM and Google records.
package struct TextIndexRow: Sendable {
    package var name: String?
    package var otherNames: String?
    package var address: String?
    package var types: String
    package var cell: String
    /// The folded words of the names, address and types (not the cells), each once.
    package var words: [String]

    /// `name` and `primaryType` as the `place` row holds them; `address`
    /// and `types` the document's `formattedAddress` and `types`, and
    /// `extra`, as written to `doc` and `extra` (by `JSONWriter`).
    package init(name: String?, primaryType: String?, address addressValue: JSONValue?, types typesValue: JSONValue?, extra: JSONObject,
                 coordinate: Coordinate) {
        let writer = JSONWriter()
        self.name = name
        var words: [String] = []
        if let name { words += TextFolding.words(name) }
        // other_names: json_extract(extra, paths...) is the array of the
        // values at the paths (null where absent), strings as written.
        if extra.isEmpty {
            otherNames = nil
        } else {
            var parts: [String] = []
            parts.reserveCapacity(TextIndexSQL.otherNamePaths.count)
            let root = JSONValue.object(extra)
            for path in TextIndexSQL.otherNamePaths {
                var v: JSONValue? = root
                for key in path { v = v?[key] }
                if let v, v != .null {
                    parts.append(writer.string(v))
                    if let s = v.stringValue { words += TextFolding.words(s) }
                } else {
                    parts.append("null")
                }
            }
            otherNames = ("[" + parts.joined(separator: ",") + "]")
                .replacingOccurrences(of: "[null", with: "[").replacingOccurrences(of: ",null", with: ",")
        }
        // address: json_extract(doc, '$.formattedAddress'), an SQL value.
        switch addressValue {
        case nil, .null?: address = nil
        case .string(let s)?: address = s
        case let v?: address = writer.string(v)
        }
        if let address { words += TextFolding.words(address) }
        // types: the primary type, then json_extract(doc, '$.types') (JSON
        // text for an array) without the two every Google place has.
        var typeText = primaryType ?? ""
        switch typesValue {
        case nil, .null?: break
        case .string(let s)?: typeText += " " + s
        case let v?:
            typeText += " " + writer.string(v).replacingOccurrences(of: "\"point_of_interest\"", with: "")
                .replacingOccurrences(of: "\"establishment\"", with: "")
        }
        types = typeText
        words += TextFolding.words(typeText)
        cell = TextGrid.cell(coordinate, .fine) + " " + TextGrid.cell(coordinate, .coarse)
        var seen = Set<String>()
        self.words = words.filter { seen.insert($0).inserted }
    }
}
