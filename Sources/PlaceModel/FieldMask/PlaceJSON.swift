/// A field mask prepared for reading stored documents: which top-level
/// members to keep, matched on their bytes.
package struct MaskPlan {
    package let fields: FieldMask
    /// `name` and `id` (derived from the place ID, not stored).
    package let name: Bool
    package let id: Bool
    /// Kept document members: name bytes, name, sub-paths (empty: whole).
    package let keys: [(bytes: [UInt8], name: String, sub: Set<String>)]

    package init(_ fields: FieldMask) {
        self.fields = fields
        name = fields.includes("name")
        id = fields.includes("id")
        keys = fields.isAll ? [] : fields.paths.filter { $0.key != "name" && $0.key != "id" }
            .map { (Array($0.key.utf8), $0.key, $0.value) }.sorted { $0.name < $1.name }
    }

    /// The kept key whose name has these bytes, or nil.
    package func key(_ bytes: UnsafeRawBufferPointer) -> Int? {
        for (i, k) in keys.enumerated() where k.bytes.count == bytes.count && k.bytes.elementsEqual(bytes) { return i }
        return nil
    }

    /// Whether the plan keeps an hours member, whose `openNow` depends on
    /// the time of asking (all of them for `*`).
    package var keepsHours: Bool {
        fields.isAll || keys.contains { Place.hoursMembers.contains($0.name) }
    }

    /// An hours member, whose `openNow` depends on the time of asking.
    static func isHours(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 19, bytes.count <= 28 else { return false }
        return Place.hoursMembers.contains(where: { $0.utf8.count == bytes.count && $0.utf8.elementsEqual(bytes) })
    }

    static func isDerived(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (bytes.count == 4 && bytes.elementsEqual("name".utf8)) || (bytes.count == 2 && bytes.elementsEqual("id".utf8))
    }
}

/// Members written apart from a document, to be put back among its
/// members (`PlaceJSON.write(...inserted:...)`): their bytes, and for each
/// its position among the whole document's members (ascending) and where
/// it is in `bytes`.
package struct InsertedMembers {
    package var bytes: [UInt8] = []
    package var members: [(position: Int, span: JSONParser.MemberSpan)] = []

    package init() {}
}

/// Writes a stored place as Places API (New) JSON without decoding it:
/// the stored document is compact JSON written by `JSONWriter`, so its
/// members' bytes are what re-encoding them would give. Only members the
/// field mask cuts into (`location.latitude`) are decoded and re-encoded.
/// The hours members go out as `Place.served(at:)` gives them: `openNow`
/// computed at `time`, stale current hours left out.
package enum PlaceJSON {
    package static func write(id: PlaceID, doc: UnsafeRawBufferPointer, location: Coordinate?, plan: MaskPlan, extra: [(String, Double)],
                      servedAt time: HoursQueryTime, into out: inout [UInt8]) throws {
        try write(id: id, doc: doc, spans: plan.fields.isAll || !plan.keys.isEmpty ? JSONParser.memberSpans(doc) : [],
                  location: location, plan: plan, extra: extra, servedAt: time, into: &out)
    }

    /// `write` with the document's members located already (`spans`, as
    /// `JSONParser.memberSpans(doc)` gives them; unused when the plan keeps
    /// no document member). `inserted` holds members that are not in `doc`
    /// (`"name":value`, compact, names without escapes), each located in
    /// `inserted.bytes` and with its position among the whole document's
    /// members: the document written is `doc` with them put back there
    /// (a stored document and the members its columns stand for,
    /// `StoredDocument`), without building it.
    package static func write(id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan],
                              inserted: InsertedMembers = InsertedMembers(), location: Coordinate?, plan: MaskPlan,
                              extra: [(String, Double)], servedAt time: HoursQueryTime, into out: inout [UInt8]) throws {
        try inserted.bytes.withUnsafeBytes { side in
            try write(id: id, doc: doc, spans: spans, side: side, inserted: inserted.members, location: location, plan: plan,
                      extra: extra, servedAt: time, into: &out)
        }
    }

    private static func write(id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan],
                              side: UnsafeRawBufferPointer, inserted: [(position: Int, span: JSONParser.MemberSpan)], location: Coordinate?,
                              plan: MaskPlan, extra: [(String, Double)], servedAt time: HoursQueryTime, into out: inout [UInt8]) throws {
        var first = true
        func member(_ key: String) {
            out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        if plan.name {
            member("name")
            JSONWriter.writeString(id.resourceName, into: &out)
        }
        if plan.id {
            member("id")
            JSONWriter.writeString(id.rawValue, into: &out)
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
            var nextStored = 0, nextInserted = 0
            let stored = doc
            for position in 0..<(spans.count + inserted.count) {
                // The member at `position`: one of `inserted` (copied on its
                // own), else the next of `doc` (runs of them copied at once).
                let isInserted = nextInserted < inserted.count && inserted[nextInserted].position == position
                let span: JSONParser.MemberSpan
                if isInserted {
                    span = inserted[nextInserted].span
                    nextInserted += 1
                } else if nextStored < spans.count {
                    span = spans[nextStored]
                    nextStored += 1
                } else {
                    throw JSONSyntaxError(message: "doc_layout places a member past the document's end", offset: 0)
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
                if keep && MaskPlan.isHours(nameBytes) {
                    // A captured openNow is never served: the hours go out
                    // with openNow computed at `time` (stale current hours not at all).
                    flush()
                    let key = try JSONParser.memberName(doc, span)
                    if served == nil { served = try servedHours(id: id, doc: stored, spans: spans, location: location, at: time) }
                    guard var value = served?[key] else { continue }
                    if !sub.isEmpty, let kept = plan.fields.apply(to: JSONObject([(key, value)]))[key] { value = kept } else if !sub.isEmpty { continue }
                    member(key)
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
                    if let r = run, doc[r.upperBound..<span.member.lowerBound].allSatisfy({ $0 == UInt8(ascii: ",") || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
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
                    if let kept = plan.fields.apply(to: JSONObject([(key, try JSONParser.memberValue(doc, span))]))[key] {
                        member(key)
                        JSONWriter().write(kept, into: &out)
                    }
                }
            }
            flush()
        }
        // The stored document leaves the location to the geometry; it comes
        // last, where Place puts it.
        if let location, plan.fields.includes("location") {
            if plan.fields.isAll || plan.fields.paths["location"]?.isEmpty == true {
                // Whole: written as Place.locationValue encodes, without building it.
                member("location")
                append(#"{"latitude":"#, into: &out)
                JSONWriter.writeNumber(location.latitude, into: &out)
                append(#","longitude":"#, into: &out)
                JSONWriter.writeNumber(location.longitude, into: &out)
                out.append(UInt8(ascii: "}"))
            } else {
                let value: JSONValue = ["latitude": .double(location.latitude), "longitude": .double(location.longitude)]
                if let kept = plan.fields.apply(to: JSONObject([("location", value)]))["location"] {
                    member("location")
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
    static func servedHours(id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan], location: Coordinate?,
                            at time: HoursQueryTime) throws -> JSONObject {
        var members: [(String, JSONValue)] = []
        for span in spans {
            let key = try JSONParser.memberName(doc, span)
            if Place.servingMembers.contains(key) { members.append((key, try JSONParser.memberValue(doc, span))) }
        }
        let place = Place(id: id, coordinate: location ?? Coordinate(latitude: 0, longitude: 0), maskedDocument: JSONObject(members))
        return place.served(at: time).document
    }

    /// Whether the place of a stored document is open at `time`, as
    /// `Place.served(at:).isOpen(at:)` answers for the whole place (the
    /// hours engine reads only `Place.servingMembers`); nil when unknown.
    package static func isOpen(id: PlaceID, doc: UnsafeRawBufferPointer, location: Coordinate?, at time: HoursQueryTime) throws -> Bool? {
        try isOpen(id: id, doc: doc, spans: JSONParser.memberSpans(doc), location: location, at: time)
    }

    /// `isOpen` with the document's members located already.
    package static func isOpen(id: PlaceID, doc: UnsafeRawBufferPointer, spans: [JSONParser.MemberSpan], location: Coordinate?,
                               at time: HoursQueryTime) throws -> Bool? {
        var members: [(String, JSONValue)] = []
        for span in spans {
            let key = try JSONParser.memberName(doc, span)
            if Place.servingMembers.contains(key) { members.append((key, try JSONParser.memberValue(doc, span))) }
        }
        let place = Place(id: id, coordinate: location ?? Coordinate(latitude: 0, longitude: 0), maskedDocument: JSONObject(members))
        return place.served(at: time).isOpen(at: time).isOpen
    }

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
    package static func decode(_ doc: UnsafeRawBufferPointer, plan: MaskPlan, withLocation: Bool) throws(JSONSyntaxError) -> JSONObject {
        if plan.keys.isEmpty && !withLocation && !plan.fields.isAll { return JSONObject() }
        if plan.fields.isAll || doc.count < 2048 {
            guard case .object(let o) = try JSONParser.parse(doc) else { throw JSONSyntaxError(message: "not a JSON object", offset: 0) }
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
