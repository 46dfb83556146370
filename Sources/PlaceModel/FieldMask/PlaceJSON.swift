#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Writes a stored place as Places API (New) JSON without decoding it:
/// the stored document is compact JSON written by `JSONWriter`, so its
/// members' bytes are what re-encoding them would give. Only members the
/// field mask cuts into (`location.latitude`) are decoded and re-encoded.
/// The hours members go out as `Place.served(at:)` gives them: `openNow`
/// computed at `time`, stale current hours left out.
package enum PlaceJSON {
    package static func write(
        id: PlaceID, doc: UnsafeRawBufferPointer, location: Coordinate?, plan: MaskPlan, extra: [(String, Double)],
        servedAt time: HoursQueryTime, into out: inout [UInt8]
    ) throws {
        try write(
            id: id, doc: doc, spans: nil, location: location, plan: plan, extra: extra, servedAt: time, into: &out)
    }

    /// A place whose plan keeps only `id` and `name` (`MaskPlan.needsNoDocument`),
    /// written from its ID alone: what `write` writes for it (its `name`,
    /// its `id`, then `extra`), without a stored document.
    package static func writeIDOnly(
        idBytes: UnsafeRawBufferPointer, plan: MaskPlan, extra: [(String, Double)], into out: inout [UInt8]
    ) {
        precondition(plan.needsNoDocument)
        let opened = writeIDMembers(idBytes: idBytes, plan: plan, into: &out)
        var first = !opened
        for (key, value) in extra {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.writeNumber(value, into: &out)
        }
        if first { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
    }

    /// `writeIDOnly` with its one extra member, `distanceMeters` (a nearby
    /// hit), without building the list of extras.
    package static func writeIDOnly(
        idBytes: UnsafeRawBufferPointer, plan: MaskPlan, distanceMeters: Double, into out: inout [UInt8]
    ) {
        precondition(plan.needsNoDocument)
        let opened = writeIDMembers(idBytes: idBytes, plan: plan, into: &out)
        append(opened ? #","distanceMeters":"# : #"{"distanceMeters":"#, into: &out)
        JSONWriter.writeNumber(distanceMeters, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The `name` and `id` members `write` puts first, after "{"; whether
    /// it wrote any.
    private static func writeIDMembers(idBytes: UnsafeRawBufferPointer, plan: MaskPlan, into out: inout [UInt8])
        -> Bool
    {
        var opened = false
        if plan.name {
            append(#"{"name":"#, into: &out)
            // "places/{id}", as JSONWriter.writeString(id.resourceName) writes it.
            JSONWriter.writeString(prefix: "places/", utf8: idBytes, into: &out)
            opened = true
        }
        if plan.id {
            append(opened ? #","id":"# : #"{"id":"#, into: &out)
            JSONWriter.writeString(utf8: idBytes, into: &out)
            opened = true
        }
        return opened
    }

    /// `write` with the document's members located already (`spans`, as
    /// `JSONParser.memberSpans(doc)` gives them; nil: located here, as far
    /// as the plan needs: a mask without hours stops reading the document
    /// at the last member it keeps). `inserted` holds members that are not
    /// in `doc` (`"name":value`, compact, names without escapes), each
    /// located in `inserted.bytes` and with its position among the whole
    /// document's members: the document written is `doc` with them put
    /// back there (a stored document and the members its columns stand
    /// for, `StoredDocument`), without building it.
    package static func write(
        id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan]?,
        inserted: InsertedMembers = InsertedMembers(), location: Coordinate?, plan: MaskPlan,
        extra: [(String, Double)], servedAt time: HoursQueryTime, into out: inout [UInt8]
    ) throws {
        var rawID = id.rawValue
        try rawID.withUTF8 { idBytes in
            try write(
                idBytes: UnsafeRawBufferPointer(idBytes), doc: doc, spans: spans, inserted: inserted,
                location: location, plan: plan,
                extra: extra, servedAt: time, into: &out)
        }
    }

    /// `write` for a place ID given by its UTF-8 bytes (a column's text,
    /// read without building a String).
    package static func write(
        idBytes: UnsafeRawBufferPointer, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan]?,
        inserted: InsertedMembers, location: Coordinate?, plan: MaskPlan,
        extra: [(String, Double)], servedAt time: HoursQueryTime, into out: inout [UInt8]
    ) throws {
        try inserted.bytes.withUnsafeBytes { side in
            try write(
                idBytes: idBytes, doc: doc, spans: spans, side: side, inserted: inserted.members, location: location,
                plan: plan,
                extra: extra, servedAt: time, into: &out)
        }
    }

    /// The members of a document in order: from spans located already, or
    /// located one at a time.
    private struct Members {
        let spans: [JSONParser.MemberSpan]?
        var next = 0
        var cursor: JSONParser.MemberCursor?

        init(_ doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan]?) throws(JSONSyntaxError) {
            self.spans = spans
            if spans == nil { cursor = try JSONParser.MemberCursor(doc) }
        }

        mutating func nextSpan() throws(JSONSyntaxError) -> JSONParser.MemberSpan? {
            if let spans {
                guard next < spans.count else { return nil }
                next += 1
                return spans[next - 1]
            }
            return try cursor!.next()
        }
    }

    private static func write(
        idBytes: UnsafeRawBufferPointer, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan]?,
        side: UnsafeRawBufferPointer, inserted: [(position: Int, span: JSONParser.MemberSpan)], location: Coordinate?,
        plan: MaskPlan, extra: [(String, Double)], servedAt time: HoursQueryTime, into out: inout [UInt8]
    ) throws {
        var first = true
        func member(_ key: String) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        /// `member` for a name that needs no escape.
        func member(plain key: StaticString) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            out.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { out.append(contentsOf: $0) }
            append(#"":"#, into: &out)
        }
        if plan.name {
            member(plain: "name")
            // "places/{id}", as JSONWriter.writeString(id.resourceName) writes it.
            JSONWriter.writeString(prefix: "places/", utf8: idBytes, into: &out)
        }
        if plan.id {
            member(plain: "id")
            JSONWriter.writeString(utf8: idBytes, into: &out)
        }
        if plan.fields.isAll || !plan.keys.isEmpty {
            // Runs of kept members are copied in one go.
            var run: Range<Int>?
            func flush() {
                if let r = run {
                    out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
                    first = false
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: doc[r]))
                    run = nil
                }
            }
            // The served hours members, computed on the first kept one.
            var served: JSONObject?
            var nextInserted = 0
            var members = try Members(doc, spans: spans)
            // The kept members not met yet: none left, the rest of the
            // document is not read (each name is in it once).
            var unmet = plan.fields.isAll ? Int.max : plan.documentKeyCount
            let stored = doc
            var position = 0
            while unmet > 0 {
                defer { position += 1 }
                // The member at `position`: one of `inserted` (copied on its
                // own), else the next of `doc` (runs of them copied at once).
                let isInserted = nextInserted < inserted.count && inserted[nextInserted].position == position
                let span: JSONParser.MemberSpan
                if isInserted {
                    span = inserted[nextInserted].span
                    nextInserted += 1
                } else if let next = try members.nextSpan() {
                    span = next
                } else if nextInserted < inserted.count {
                    throw JSONSyntaxError(message: "doc_layout places a member past the document's end", offset: 0)
                } else {
                    break
                }
                let doc = isInserted ? side : doc
                let nameBytes = UnsafeRawBufferPointer(rebasing: doc[span.name])
                var keep: Bool
                var sub: Set<String> = []
                if span.nameEscaped {
                    let key = try JSONParser.memberName(doc, span)
                    if key == "name" || key == "id" {
                        keep = false
                    } else if plan.fields.isAll {
                        keep = true
                    } else if let s = plan.fields.paths[key] {
                        keep = true
                        sub = s
                    } else {
                        keep = false
                    }
                } else if MaskPlan.isDerived(nameBytes) {
                    keep = false
                } else if plan.fields.isAll {
                    keep = true
                } else if let k = plan.key(nameBytes) {
                    keep = true
                    sub = plan.keys[k].sub
                } else {
                    keep = false
                }
                if keep && !(nameBytes.count == 8 && nameBytes.elementsEqual("location".utf8)) { unmet -= 1 }
                if keep && MaskPlan.isHours(nameBytes) {
                    // A captured openNow is never served: the hours go out
                    // with openNow computed at `time` (stale current hours not at all).
                    flush()
                    let key = try JSONParser.memberName(doc, span)
                    if served == nil {
                        let id = PlaceID(String(decoding: idBytes, as: UTF8.self))
                        served = try servedHours(
                            id: id, doc: stored, spans: spans ?? JSONParser.memberSpans(stored), location: location,
                            at: time)
                    }
                    guard var value = served?[key] else { continue }
                    if !sub.isEmpty, let kept = plan.fields.apply(to: JSONObject([(key, value)]))[key] {
                        value = kept
                    } else if !sub.isEmpty {
                        continue
                    }
                    member(key)
                    if sub.isEmpty, !isInserted, key == "regularOpeningHours" || key == "currentOpeningHours" {
                        let mark = out.count
                        if try writeServedHours(doc, span, served: value, into: &out) { continue }
                        out.removeSubrange(mark...)
                    }
                    JSONWriter().write(value, into: &out)
                    continue
                }
                if keep && sub.isEmpty && isInserted {
                    flush()
                    out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
                    first = false
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: doc[span.member]))
                    continue
                }
                if keep && sub.isEmpty {
                    if let r = run,
                        doc[r.upperBound..<span.member.lowerBound].allSatisfy({
                            $0 == UInt8(ascii: ",") || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
                        })
                    {
                        run = r.lowerBound..<span.member.upperBound
                    } else {
                        flush()
                        run = span.member
                    }
                    continue
                }
                flush()
                if keep {
                    // The mask cuts into this member: decode and re-encode it.
                    let key = try JSONParser.memberName(doc, span)
                    if let kept = plan.fields.apply(to: JSONObject([(key, try JSONParser.memberValue(doc, span))]))[key]
                    {
                        member(key)
                        JSONWriter().write(kept, into: &out)
                    }
                }
            }
            flush()
        }
        // The stored document leaves the location to the geometry; it comes
        // last, where Place puts it.
        if let location, plan.keepsLocation {
            if plan.keepsWholeLocation {
                // Whole: written as Place.locationValue encodes, without building it.
                member(plain: "location")
                append(#"{"latitude":"#, into: &out)
                JSONWriter.writeNumber(location.latitude, into: &out)
                append(#","longitude":"#, into: &out)
                JSONWriter.writeNumber(location.longitude, into: &out)
                out.append(UInt8(ascii: "}"))
            } else {
                let value: JSONValue = [
                    "latitude": .double(location.latitude), "longitude": .double(location.longitude),
                ]
                if let kept = plan.fields.apply(to: JSONObject([("location", value)]))["location"] {
                    member(plain: "location")
                    JSONWriter().write(kept, into: &out)
                }
            }
        }
        for (key, value) in extra {
            member(key)
            JSONWriter.writeNumber(value, into: &out)
        }
        if first { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
    }

    /// The members of a stored document the hours engine reads, as
    /// `Place.served(at:)` serves them at `time`.
    static func servedHours(
        id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan], location: Coordinate?,
        at time: HoursQueryTime
    ) throws -> JSONObject {
        let place = Place(
            id: id, coordinate: location ?? Coordinate(latitude: 0, longitude: 0),
            maskedDocument: try servingMembers(doc, spans))
        return place.served(at: time).document
    }

    /// Whether the place of a stored document is open at `time`, as
    /// `Place.served(at:).isOpen(at:)` answers for the whole place (the
    /// hours engine reads only `Place.servingMembers`); nil when unknown.
    package static func isOpen(id: PlaceID, doc: UnsafeRawBufferPointer, location: Coordinate?, at time: HoursQueryTime)
        throws -> Bool?
    {
        try isOpen(id: id, doc: doc, spans: JSONParser.memberSpans(doc), location: location, at: time)
    }

    /// `isOpen` with the document's members located already.
    package static func isOpen(
        id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan], location: Coordinate?,
        at time: HoursQueryTime
    ) throws -> Bool? {
        let place = Place(
            id: id, coordinate: location ?? Coordinate(latitude: 0, longitude: 0),
            maskedDocument: try servingMembers(doc, spans))
        return place.served(at: time).isOpen(at: time).isOpen
    }

    /// The members of `Place.servingMembers` in a document, decoded (the
    /// others' names are compared as bytes, not read into Strings).
    private static func servingMembers(_ doc: UnsafeRawBufferPointer, _ spans: [JSONParser.MemberSpan]) throws
        -> JSONObject
    {
        var members: [(String, JSONValue)] = []
        for span in spans {
            let name = UnsafeRawBufferPointer(rebasing: doc[span.name])
            guard span.nameEscaped || servingNames.contains(where: { $0.count == name.count && $0.elementsEqual(name) })
            else { continue }
            let key = try JSONParser.memberName(doc, span)
            if Place.servingMembers.contains(key) { members.append((key, try JSONParser.memberValue(doc, span))) }
        }
        return JSONObject(members)
    }

    private static let servingNames: [[UInt8]] = Place.servingMembers.map { Array($0.utf8) }

    /// Writes the value of a stored hours object as serving gives it
    /// (`Place.served(at:)` only sets its `openNow`, `nextOpenTime` and
    /// `nextCloseTime`, last, from `served`): the stored bytes with those
    /// members put before the closing brace, without decoding and
    /// re-encoding the rest. False (nothing written) when the stored object
    /// has one of them itself (a capture's), or the value is not an object.
    private static func writeServedHours(
        _ doc: UnsafeRawBufferPointer, _ span: JSONParser.MemberSpan, served: JSONValue,
        into out: inout [UInt8]
    ) throws -> Bool {
        var start = span.name.upperBound + 1 // past the name's closing quote
        while start < span.member.upperBound, doc[start] != UInt8(ascii: ":") { start += 1 }
        start += 1
        while start < span.member.upperBound,
            doc[start] == 0x20 || doc[start] == 0x0A || doc[start] == 0x0D || doc[start] == 0x09
        { start += 1 }
        let value = UnsafeRawBufferPointer(rebasing: doc[start..<span.member.upperBound])
        guard value.first == UInt8(ascii: "{"), value.last == UInt8(ascii: "}") else { return false }
        var cursor = try JSONParser.MemberCursor(value)
        var empty = true
        while let member = try cursor.next() {
            empty = false
            if member.nameEscaped { return false }
            let name = value[member.name]
            if timeDependentNames.contains(where: { $0.count == name.count && $0.elementsEqual(name) }) { return false }
        }
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[..<(value.count - 1)]))
        if let open = served["openNow"]?.boolValue {
            if !empty { out.append(UInt8(ascii: ",")) }
            empty = false
            append(open ? #""openNow":true"# : #""openNow":false"#, into: &out)
        }
        for key in ["nextOpenTime", "nextCloseTime"] {
            guard let time = served[key]?.stringValue else { continue }
            if !empty { out.append(UInt8(ascii: ",")) }
            empty = false
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: key.utf8)
            append("\":", into: &out)
            JSONWriter().write(.string(time), into: &out)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    private static let timeDependentNames: [[UInt8]] = Place.timeDependentHoursMembers.map { Array($0.utf8) }

    /// Adds `members` (compact) at the end of the object `out` ends with.
    package static func appendMembers(_ members: [(String, JSONValue)], toObjectIn out: inout [UInt8]) {
        guard !members.isEmpty, out.last == UInt8(ascii: "}") else { return }
        out.removeLast()
        var first = out.last == UInt8(ascii: "{")
        for (key, value) in members {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter().writeMember(key, value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes the members of a stored document the plan keeps (all when
    /// the mask is `*`), plus `location` when `withLocation`. A small
    /// document is parsed whole (that is faster than locating its members);
    /// in a large one only the kept members are.
    package static func decode(_ doc: UnsafeRawBufferPointer, plan: MaskPlan, withLocation: Bool)
        throws(JSONSyntaxError) -> JSONObject
    {
        if plan.keys.isEmpty && !withLocation && !plan.fields.isAll { return JSONObject() }
        if plan.fields.isAll || doc.count < 2048 {
            guard case .object(let o) = try JSONParser.parse(doc) else {
                throw JSONSyntaxError(message: "not a JSON object", offset: 0)
            }
            return o
        }
        var members: [(String, JSONValue)] = []
        for span in try JSONParser.memberSpans(doc) {
            let nameBytes = UnsafeRawBufferPointer(rebasing: doc[span.name])
            if span.nameEscaped {
                let key = try JSONParser.memberName(doc, span)
                if plan.fields.paths[key] != nil || (withLocation && key == "location") {
                    members.append((key, try JSONParser.memberValue(doc, span)))
                }
            } else if let k = plan.key(nameBytes) {
                members.append((plan.keys[k].name, try JSONParser.memberValue(doc, span)))
            } else if withLocation && nameBytes.elementsEqual("location".utf8) {
                members.append(("location", try JSONParser.memberValue(doc, span)))
            }
        }
        return JSONObject(members)
    }

    /// Appends literal JSON text.
    package static func append(_ literal: StaticString, into out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
