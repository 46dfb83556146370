import SQLiteDB
package import PlaceModel

/// Serving `displayName` in a requested language (`MaskPlan.language`):
/// the name is picked among the place's names (`NameLanguage.choose`),
/// read only then, from `extra.localizedNames` (OpenStreetMap `name:xx`,
/// Overture `names.common`, a Google place captured in several
/// languages); in the merged view, from every record of the place's group.
extension PlaceStore {
    private var localizedNamesSQL: String {
        let own =
            "SELECT json_extract(extra, '$.localizedNames') FROM place WHERE place_id = ?1 AND json_type(extra, '$.localizedNames') = 'object'"
        guard recordView == .merged else { return own }
        return own + """

            UNION ALL
            SELECT json_extract(q.extra, '$.localizedNames') FROM place p JOIN place q ON q.group_id = p.group_id AND q.id != p.id
            WHERE p.place_id = ?1 AND p.group_id IS NOT NULL AND json_type(q.extra, '$.localizedNames') = 'object'
            """
    }

    /// The localized names of the place with this ID (its group's too in
    /// the merged view), tag and name, the place's own first.
    package func localizedNames(placeID: String) throws -> [(tag: String, text: String)] {
        let statement = try db.cachedStatement(localizedNamesSQL)
        try statement.bind(.text(placeID), at: 1)
        defer { statement.reset() }
        var out: [(tag: String, text: String)] = []
        while let row = try statement.step() {
            guard !row.isNull(0), let value = try? row.withBytes(0, { try JSONParser.parse($0) }) else { continue }
            for n in NameLanguage.names(value)
            where !out.contains(where: { NameLanguage.normalized($0.tag) == NameLanguage.normalized(n.tag) }) {
                out.append(n)
            }
        }
        return out
    }

    /// The `displayName` to serve for `language`, given the one the
    /// document holds (nil: none); nil when it is the one held.
    func displayName(for language: String, placeID: String, held: JSONValue?) throws -> JSONValue? {
        let names = try localizedNames(placeID: placeID)
        var current: LocalizedText?
        if let o = held?.objectValue, let text = o["text"]?.stringValue {
            current = LocalizedText(text: text, languageCode: o["languageCode"]?.stringValue)
        }
        guard let choice = NameLanguage.choose(requested: language, defaultName: current, names: names),
            choice != current
        else { return nil }
        var members: [(key: String, value: JSONValue)] = [("text", .string(choice.text))]
        if let code = choice.languageCode { members.append(("languageCode", .string(code))) }
        // Other members a stored displayName may hold stay.
        for m in held?.objectValue ?? JSONObject() where m.key != "text" && m.key != "languageCode" {
            members.append(m)
        }
        return .object(JSONObject(uniqueMembers: members))
    }

    /// The name of the place with this ID in `language` (a suggestion's
    /// text): `defaultName` (the name column) when it has none in it.
    package func name(in language: String, placeID: String, defaultName: String?) throws -> String? {
        let names = try localizedNames(placeID: placeID)
        guard !names.isEmpty else { return defaultName }
        return NameLanguage.choose(
            requested: language, defaultName: defaultName.map { LocalizedText(text: $0, languageCode: nil) },
            names: names)?.text ?? defaultName
    }

    /// A place's document with `displayName` served in `plan.language`.
    package func localized(_ place: Place, plan: MaskPlan) throws -> Place {
        guard let language = plan.language, plan.keepsDisplayName else { return place }
        guard let name = try displayName(for: language, placeID: place.id.rawValue, held: place.document["displayName"])
        else { return place }
        var p = place
        if let sub = plan.fields.paths["displayName"], !sub.isEmpty, !plan.fields.isAll {
            p.document["displayName"] = plan.fields.apply(to: JSONObject([("displayName", name)]))["displayName"]
        } else {
            p.document["displayName"] = name
        }
        return p
    }

    /// The stored document and the members its columns stand for, with
    /// `displayName` served in `plan.language`: nil when nothing changes
    /// (no language asked, the mask leaves the name out, or the name held
    /// is the one to serve). Else the document bytes to write instead (nil:
    /// `doc` as it is) and the inserted members to use.
    func localizedDocument(
        idBytes: UnsafeRawBufferPointer, doc: UnsafeRawBufferPointer, inserted: InsertedMembers,
        plan: MaskPlan?
    ) throws -> (doc: [UInt8]?, inserted: InsertedMembers)? {
        guard let plan, let language = plan.language, plan.keepsDisplayName else { return nil }
        let placeID = String(decoding: idBytes, as: UTF8.self)
        // The name held: one of the inserted members (the name column), or the document's.
        let insertedIndex = inserted.members.firstIndex { m in
            inserted.bytes.withUnsafeBytes { b in
                UnsafeRawBufferPointer(rebasing: b[m.span.name]).elementsEqual("displayName".utf8)
            }
        }
        if let i = insertedIndex {
            let held = try inserted.bytes.withUnsafeBytes { b in try JSONParser.memberValue(b, inserted.members[i].span)
            }
            guard let name = try displayName(for: language, placeID: placeID, held: held) else { return nil }
            var out = InsertedMembers()
            for (k, m) in inserted.members.enumerated() {
                let start = out.bytes.count
                if k == i {
                    JSONWriter().writeMember("displayName", name, into: &out.bytes)
                } else {
                    inserted.bytes.withUnsafeBytes {
                        out.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[m.span.member]))
                    }
                }
                let nameLength = m.span.name.count
                out.members.append(
                    (
                        m.position,
                        JSONParser.MemberSpan(
                            plainName: (start + 1)..<(start + 1 + nameLength), member: start..<out.bytes.count)
                    ))
            }
            return (nil, out)
        }
        guard case .object(var object) = try JSONParser.parse(doc) else { return nil }
        guard let name = try displayName(for: language, placeID: placeID, held: object["displayName"]) else {
            return nil
        }
        if object["displayName"] == nil {
            // No name held: the document gains one where the column's would stand (first).
            var members: [(key: String, value: JSONValue)] = [(key: "displayName", value: name)]
            for m in object.members { members.append((key: m.key, value: m.value)) }
            object = JSONObject(uniqueMembers: members)
            guard inserted.members.isEmpty else {
                var shifted = inserted
                for k in shifted.members.indices { shifted.members[k].position += 1 }
                return (Array(JSONWriter().string(.object(object)).utf8), shifted)
            }
        } else {
            object["displayName"] = name
        }
        return (Array(JSONWriter().string(.object(object)).utf8), inserted)
    }
}
