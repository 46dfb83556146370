package import PlaceModel
/// How a place's document is stored: without `location` (the geometry holds
/// it) and without the members that `place`'s columns repeat exactly
/// (`displayName` when it is only `{"text": name}`, `primaryType`, `rating`,
/// `userRatingCount`). `place.doc_layout` says which were left out and where
/// they stood: 4 bits per member (in `columnMembers` order), the member's
/// position among the document's members plus one, 0 when it is stored. A
/// read puts them back where they were, so documents come back byte for
/// byte; rows without a layout (NULL or 0) hold the whole document.
package enum StoredDocument {
    /// The members the columns can stand for, in layout order.
    static let columnMembers = ["displayName", "primaryType", "rating", "userRatingCount"]

    /// The values of `place`'s columns that stand for the members.
    package struct Columns: Sendable {
        var name: String?
        var primaryType: String?
        var rating: Double?
        var ratingCount: Int?

        init(name: String?, primaryType: String?, rating: Double?, ratingCount: Int?) {
            self.name = name
            self.primaryType = primaryType
            self.rating = rating
            self.ratingCount = ratingCount
        }

        /// The columns `place` gets: its name, its primary type (else its
        /// first type), rating and rating count.
        package init(_ place: Place) {
            self.init(
                name: place.displayName?.text, primaryType: place.primaryType ?? place.types.first,
                rating: place.rating, ratingCount: place.userRatingCount)
        }
    }

    /// The member `k` of `columnMembers` as the columns give it back.
    package static func value(_ k: Int, _ c: Columns) -> JSONValue? {
        switch k {
        case 0: c.name.map { .object(JSONObject(uniqueMembers: [("text", .string($0))])) }
        case 1: c.primaryType.map { .string($0) }
        case 2: c.rating.map { .double($0) }
        case 3: c.ratingCount.map { .int(Int64($0)) }
        default: nil
        }
    }

    /// Writes member `k` of `columnMembers`, `"name":value`, as
    /// `JSONWriter().writeMember(name, value(k, c))` writes it, without
    /// building the value; false (nothing written) when its column is NULL.
    static func writeMember(_ k: Int, _ c: Columns, into out: inout [UInt8]) -> Bool {
        func name() {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: columnMembers[k].utf8)
            out.append(contentsOf: "\":".utf8)
        }
        switch k {
        case 0:
            guard let text = c.name else { return false }
            name()
            out.append(contentsOf: #"{"text":"#.utf8)
            JSONWriter.writeString(text, into: &out)
            out.append(UInt8(ascii: "}"))
        case 1:
            guard let type = c.primaryType else { return false }
            name()
            JSONWriter.writeString(type, into: &out)
        case 2:
            guard let rating = c.rating else { return false }
            name()
            JSONWriter.writeNumber(rating, into: &out)
        case 3:
            guard let count = c.ratingCount else { return false }
            name()
            out.append(contentsOf: String(Int64(count)).utf8)
        default:
            return false
        }
        return true
    }

    /// `columnMembers.firstIndex(of: key)`, the length told first.
    static func columnMember(_ key: String) -> Int? {
        switch key.utf8.count {
        case 11: key == "displayName" ? 0 : key == "primaryType" ? 1 : nil
        case 6: key == "rating" ? 2 : nil
        case 15: key == "userRatingCount" ? 3 : nil
        default: nil
        }
    }

    /// `value(k, c) == member`, without building the value.
    static func columnGivesBack(_ k: Int, _ c: Columns, _ member: JSONValue) -> Bool {
        switch (k, member) {
        case (0, .object(let o)):
            guard let name = c.name, o.count == 1, let only = o.members.first, only.key == "text",
                case .string(let text) = only.value
            else { return false }
            return text == name
        case (1, .string(let type)): return c.primaryType == type
        case (2, .double(let rating)): return c.rating == rating
        case (3, .int(let count)): return c.ratingCount.map(Int64.init) == count
        default: return false
        }
    }

    /// Writes `document` as stored (without `location` and the members the
    /// columns give back exactly) and returns its layout.
    package static func write(_ document: JSONObject, columns: Columns, into out: inout [UInt8]) -> Int64 {
        let writer = JSONWriter()
        var layout: Int64 = 0
        var position = 0
        var first = true
        out.append(UInt8(ascii: "{"))
        for m in document.members where !(m.key.utf8.count == 8 && m.key == "location") {
            defer { position += 1 }
            if position < 15, let k = columnMember(m.key), columnGivesBack(k, columns, m.value),
                !(k == 2 && m.value.doubleValue == 0)
            { // a zero rating may come back as -0 or 0: kept
                layout |= Int64(position + 1) << Int64(4 * k)
                continue
            }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writer.writeMember(m.key, m.value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return layout
    }

    /// The whole document from the stored bytes, the layout and the columns.
    package static func restore(_ stored: UnsafeRawBufferPointer, layout: Int64, columns: Columns) throws -> [UInt8] {
        let inserted = try insertedMembers(layout: layout, columns: columns)
        let spans = try JSONParser.memberSpans(stored)
        var out: [UInt8] = []
        out.reserveCapacity(stored.count + inserted.bytes.count + 8)
        out.append(UInt8(ascii: "{"))
        var next = 0, slot = 0
        for position in 0..<(spans.count + inserted.members.count) {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            if slot < inserted.members.count && inserted.members[slot].position == position {
                out.append(contentsOf: inserted.bytes[inserted.members[slot].span.member])
                slot += 1
            } else if next < spans.count {
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: stored[spans[next].member]))
                next += 1
            } else {
                throw JSONSyntaxError(message: "doc_layout places a member past the document's end", offset: 0)
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The members the columns stand for, written apart, with their
    /// positions in the whole document (`PlaceJSON.write` puts them back
    /// there without restoring the document).
    package static func insertedMembers(layout: Int64, columns: Columns) throws -> InsertedMembers {
        var inserted = InsertedMembers()
        guard layout != 0 else { return inserted }
        // Room for the four members at once (names, quotes, numbers).
        inserted.bytes.reserveCapacity(112 + (columns.name?.utf8.count ?? 0) + (columns.primaryType?.utf8.count ?? 0))
        inserted.members.reserveCapacity(columnMembers.count)
        for k in columnMembers.indices {
            let p = Int((layout >> Int64(4 * k)) & 0xF)
            guard p > 0 else { continue }
            let start = inserted.bytes.count
            guard writeMember(k, columns, into: &inserted.bytes) else {
                throw JSONSyntaxError(message: "doc_layout names \(columnMembers[k]) but its column is NULL", offset: 0)
            }
            let name = (start + 1)..<(start + 1 + columnMembers[k].utf8.count)
            inserted.members.append(
                (p - 1, JSONParser.MemberSpan(plainName: name, member: start..<inserted.bytes.count)))
        }
        if !inserted.members.isEmpty
            && !zip(inserted.members, inserted.members.dropFirst()).allSatisfy({ $0.position < $1.position })
        {
            inserted.members.sort { $0.position < $1.position }
        }
        return inserted
    }
}

import SQLiteDB

extension StoredDocument {
    /// The columns a read selects after `doc` to put a document back whole.
    static let readColumns = "doc_layout, name, primary_type, rating, rating_count"
    /// What a reader selects for a place as it is served: in the merged
    /// view, a group's merged document (`place_group`, whole: no layout)
    /// in place of its canonical member's record, then the columns of
    /// `readColumns`. Use with `servedFrom` (`p` is the place).
    /// (`place_group` is read only for a group's canonical row: a place
    /// alone costs no lookup.) The unmerged view reads each record as
    /// stored.
    static func servedDocument(_ view: RecordView) -> String {
        switch view {
        case .merged: return mergedDocument
        case .unmerged: return "p.doc, p.geom"
        }
    }
    static func servedColumns(_ view: RecordView) -> String {
        switch view {
        case .merged: return mergedColumns
        case .unmerged: return "p.doc_layout, p.name, p.primary_type, p.rating, p.rating_count"
        }
    }
    private static let mergedDocument = """
        CASE WHEN p.group_id = p.id THEN coalesce((SELECT g.doc FROM place_group g WHERE g.id = p.id), p.doc) ELSE p.doc END, p.geom
        """
    private static let mergedColumns = """
        CASE WHEN p.group_id = p.id AND EXISTS (SELECT 1 FROM place_group g WHERE g.id = p.id) THEN NULL ELSE p.doc_layout END, \
        p.name, p.primary_type, p.rating, p.rating_count
        """
    static let servedFrom = "place p"
    /// How many columns `readColumns` names.
    static let readColumnCount = 5

    /// Calls `body` with the whole document of a row whose `doc` is at
    /// `docColumn` and `readColumns` start at `layoutColumn`.
    static func withDocument<T>(
        _ row: Row, docColumn: Int, layoutColumn: Int, _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        let layout = row.optionalInt64(layoutColumn) ?? 0
        guard layout != 0 else { return try row.withBytes(docColumn, body) }
        let c = layoutColumn
        let columns = Columns(
            name: row.optionalString(c + 1), primaryType: row.optionalString(c + 2),
            rating: row.optionalDouble(c + 3),
            ratingCount: row.optionalInt64(c + 4).map { Int($0) })
        let whole = try row.withBytes(docColumn) { try restore($0, layout: layout, columns: columns) }
        return try whole.withUnsafeBytes(body)
    }

    /// Calls `body` with the stored document of a row and the members its
    /// columns stand for (`insertedMembers`, written into `inserted`, a
    /// buffer kept between calls): what `PlaceJSON.write` needs to write
    /// the whole document without restoring it. The columns' text is
    /// copied from the row, not read into Strings.
    static func withLocatedDocument<T>(
        _ row: Row, docColumn: Int, layoutColumn: Int, inserted: inout InsertedMembers,
        _ body: (UnsafeRawBufferPointer, InsertedMembers) throws -> T
    ) throws -> T {
        inserted.bytes.removeAll(keepingCapacity: true)
        inserted.members.removeAll(keepingCapacity: true)
        let layout = row.optionalInt64(layoutColumn) ?? 0
        if layout != 0 {
            for k in columnMembers.indices {
                let p = Int((layout >> Int64(4 * k)) & 0xF)
                guard p > 0 else { continue }
                let start = inserted.bytes.count
                guard writeMember(k, row, layoutColumn + 1 + k, into: &inserted.bytes) else {
                    throw JSONSyntaxError(
                        message: "doc_layout names \(columnMembers[k]) but its column is NULL", offset: 0)
                }
                let name = (start + 1)..<(start + 1 + columnMembers[k].utf8.count)
                inserted.members.append(
                    (p - 1, JSONParser.MemberSpan(plainName: name, member: start..<inserted.bytes.count)))
            }
            if !zip(inserted.members, inserted.members.dropFirst()).allSatisfy({ $0.position < $1.position }) {
                inserted.members.sort { $0.position < $1.position }
            }
        }
        let members = inserted
        return try row.withBytes(docColumn) { try body($0, members) }
    }

    /// `writeMember(k, columns)` with the column's value read from the row
    /// (`column`: the one of `readColumns` that stands for member `k`).
    /// The text columns were bound from Strings (valid UTF-8, no NUL), so
    /// their bytes are what `optionalString` would give.
    private static func writeMember(_ k: Int, _ row: Row, _ column: Int, into out: inout [UInt8]) -> Bool {
        guard !row.isNull(column) else { return false }
        // The names and literals as static bytes (appending a String's utf8 costs more than the copy).
        func literal(_ text: StaticString) { text.withUTF8Buffer { out.append(contentsOf: $0) } }
        switch k {
        case 0:
            literal(#""displayName":{"text":"#)
            row.withBytes(column) { JSONWriter.writeString(utf8: $0, into: &out) }
            out.append(UInt8(ascii: "}"))
        case 1:
            literal(#""primaryType":"#)
            row.withBytes(column) { JSONWriter.writeString(utf8: $0, into: &out) }
        case 2:
            guard let rating = row.optionalDouble(column) else { return false }
            literal(#""rating":"#)
            JSONWriter.writeNumber(rating, into: &out)
        case 3:
            guard let count = row.optionalInt64(column) else { return false }
            literal(#""userRatingCount":"#)
            JSONWriter.appendInteger(count, into: &out)
        default:
            return false
        }
        return true
    }
}
