package enum ExportRecord {
    /// The member a removed place's record carries in `export --tombstones`
    /// (`removedAt`, and `replacedBy`: the alias edges out of its ID), which
    /// `import` reads back as a removal (docs/export.md#tombstones).
    package static let tombstoneMember = "placedbTombstone"

    /// `extra` (a JSON object, or nil) with `member` (compact JSON) added
    /// under `name` last.
    package static func adding(_ name: String, _ member: [UInt8], to extra: UnsafeRawBufferPointer?) -> [UInt8] {
        var out: [UInt8] = []
        if let extra, let close = extra.lastIndex(of: UInt8(ascii: "}")) {
            out.append(contentsOf: extra[..<close])
            // An empty object gets no comma.
            if out.contains(where: { $0 != UInt8(ascii: "{") && $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D })
            {
                out.append(UInt8(ascii: ","))
            }
        } else {
            out.append(UInt8(ascii: "{"))
        }
        JSONWriter.writeString(name, into: &out)
        out.append(UInt8(ascii: ":"))
        out += member
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// What comes before the first record.
    package static func header(_ format: ExportFormat) -> [UInt8] {
        format == .geojson ? Array(#"{"type":"FeatureCollection","features":["#.utf8) + [0x0A] : []
    }

    /// What comes after the last record.
    package static func footer(_ format: ExportFormat) -> [UInt8] {
        format == .geojson ? Array("]}".utf8) + [0x0A] : []
    }

    /// Appends the record of one place (`index` counts from 0: a GeoJSON
    /// collection separates features with commas).
    package static func write(
        id: String, latitude: Double, longitude: Double, document: UnsafeRawBufferPointer,
        extra: UnsafeRawBufferPointer?, format: ExportFormat, index: Int, into out: inout [UInt8]
    ) throws(JSONSyntaxError) {
        switch format {
        case .ndjson:
            try writePlace(
                id: id, latitude: latitude, longitude: longitude, document: document, extra: extra, into: &out)
        case .geojsonseq, .geojson:
            if format == .geojsonseq { out.append(0x1E) } else if index > 0 { out.append(UInt8(ascii: ",")) }
            append(#"{"type":"Feature","id":"#, into: &out)
            JSONWriter.writeString(id, into: &out)
            append(#","geometry":{"type":"Point","coordinates":["#, into: &out)
            JSONWriter.writeNumber(longitude, into: &out)
            out.append(UInt8(ascii: ","))
            JSONWriter.writeNumber(latitude, into: &out)
            append(#"]},"properties":"#, into: &out)
            try writePlace(
                id: id, latitude: latitude, longitude: longitude, document: document, extra: extra, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(0x0A)
    }

    /// The place object: `name` and `id` from the ID, the document's
    /// members as stored, `location`, then each extra member whose name the
    /// object does not hold already.
    package static func writePlace(
        id: String, latitude: Double, longitude: Double, document: UnsafeRawBufferPointer,
        extra: UnsafeRawBufferPointer?, into out: inout [UInt8]
    ) throws(JSONSyntaxError) {
        append(#"{"name":"#, into: &out)
        JSONWriter.writeString("places/" + id, into: &out)
        append(#","id":"#, into: &out)
        JSONWriter.writeString(id, into: &out)
        let spans = try JSONParser.memberSpans(document)
        var names: Set<String> = ["name", "id", "location"]
        for span in spans {
            let name = try JSONParser.memberName(document, span)
            // `name`, `id` and `location` are the ID's and the point's.
            guard !["name", "id", "location"].contains(name) else { continue }
            names.insert(name)
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: document[span.member]))
        }
        append(#","location":{"latitude":"#, into: &out)
        JSONWriter.writeNumber(latitude, into: &out)
        append(#","longitude":"#, into: &out)
        JSONWriter.writeNumber(longitude, into: &out)
        out.append(UInt8(ascii: "}"))
        if let extra {
            for span in try JSONParser.memberSpans(extra) where !names.contains(try JSONParser.memberName(extra, span))
            {
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: extra[span.member]))
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// One alias line as `placedb alias import` reads it (NDJSON), with
    /// the edge's source, evidence and the time it was recorded beside.
    package static func writeAlias(
        old: String, new: String, reason: String, confidence: Double, source: String?, evidence: String?,
        recordedAt: String?, into out: inout [UInt8]
    ) {
        append(#"{"oldId":"#, into: &out)
        JSONWriter.writeString(old, into: &out)
        append(#","newId":"#, into: &out)
        JSONWriter.writeString(new, into: &out)
        append(#","reason":"#, into: &out)
        JSONWriter.writeString(reason, into: &out)
        append(#","confidence":"#, into: &out)
        JSONWriter.writeNumber(confidence, into: &out)
        if let source {
            append(#","source":"#, into: &out)
            JSONWriter.writeString(source, into: &out)
        }
        if let evidence, !evidence.isEmpty {
            append(#","evidence":"#, into: &out)
            // Written by placedb as JSON; a hand-edited value that is not
            // goes out as a string rather than break the line.
            var text = evidence
            if let value = text.withUTF8({ try? JSONParser.parse(UnsafeRawBufferPointer($0)) }) {
                JSONWriter().write(value, into: &out)
            } else {
                JSONWriter.writeString(evidence, into: &out)
            }
        }
        if let recordedAt {
            append(#","recordedAt":"#, into: &out)
            JSONWriter.writeString(recordedAt, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(0x0A)
    }

    package static func append(_ literal: StaticString, into out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
