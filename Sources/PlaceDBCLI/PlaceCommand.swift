import PlaceKit

/// `placedb place ID [--fields MASK]`: Place Details from the database.
enum PlaceCommand: Command {
    static let spec = CommandSpec(
        name: "place",
        abstract: "Print one place by ID (Place Details), in the Places API (New) JSON shape.",
        arguments: [ArgumentSpec(name: "ID", help: "A place ID, or its resource name places/ID.")],
        options: [
            OptionSpec("--fields", value: "MASK", help: "Comma-separated field mask: v1 paths (id,displayName,location,...), the Places SDK's names (name, placeID, coordinate, phoneNumber, website, openingHours, ...), or * (default: all)."),
        ])

    static func run(_ context: CommandContext) throws -> ExitCode {
        guard context.arguments.positionals.count == 1 else {
            throw UsageError(message: context.arguments.positionals.isEmpty ? "missing place ID" : "expected one place ID, got \(context.arguments.positionals.count)")
        }
        let mask: FieldMask
        do {
            mask = try context.arguments.value("--fields").map { try FieldMask(parsing: $0) } ?? .all
        } catch let error as FieldMaskError {
            throw UsageError(message: error.description)
        }
        let client = try PlacesClient(databasePath: context.databasePath)
        let requested = PlaceID(parsing: context.arguments.positionals[0])
        // An old ID gives the current place, with its current id, as the
        // Places API does; the answer says which ID was asked for.
        let resolution = try client.resolvePlaceID(requested)
        guard let current = resolution.placeID else { throw PlaceDBError.notFound(requested) }
        let place = try client.fetchPlace(id: PlaceID(current), fields: mask, followAliases: false)
        var json = place.apiJSON(fields: mask)
        if resolution.status == .moved {
            json["requestedId"] = .string(requested.rawValue)
            let reasons = resolution.chain.map(\.reason.rawValue).joined(separator: ", ")
            context.console.err("placedb place: '\(requested)' resolved to '\(current)' (\(reasons))\n")
        } else if resolution.status == .removed {
            json["removedAt"] = resolution.removedAt.map(JSONValue.string) ?? .null
            context.console.err("placedb place: '\(current)' was removed\(resolution.removedAt.map { " at \($0)" } ?? ""); this is its last record\n")
        }
        switch context.output {
        case .json: context.writeJSON(.object(json))
        case .text: context.console.out(TextTable.place(json))
        }
        return .success
    }
}

/// Human-readable renderings for a terminal.
enum TextTable {
    static func place(_ json: JSONObject) -> String {
        var lines: [String] = []
        let title = json["displayName"]?["text"]?.stringValue ?? json["id"]?.stringValue ?? "(place)"
        lines.append(title)
        let width = max(12, json.keys.map(\.count).max() ?? 0) + 2
        for (key, value) in json where key != "displayName" {
            lines.append("  " + key.padding(width) + render(key, value))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func render(_ key: String, _ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .int, .double, .bool: return JSONWriter().string(value)
        case .array(let a) where a.allSatisfy({ $0.stringValue != nil }):
            return a.compactMap(\.stringValue).joined(separator: ", ")
        default:
            if key == "location", let lat = value["latitude"], let lng = value["longitude"] {
                return "\(JSONWriter().string(lat)),\(JSONWriter().string(lng))"
            }
            if let text = value["text"]?.stringValue { return text }
            if let id = value["id"]?.stringValue { return id }
            if let weekday = value["weekdayDescriptions"]?.arrayValue?.compactMap(\.stringValue), !weekday.isEmpty {
                return weekday.joined(separator: "; ")
            }
            if let periods = value["periods"]?.arrayValue { return "\(periods.count) opening period\(periods.count == 1 ? "" : "s")" }
            if case .array(let a) = value { return "\(a.count) item\(a.count == 1 ? "" : "s")" }
            let s = JSONWriter().string(value)
            return s.count > 100 ? String(s.prefix(97)) + "..." : s
        }
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
