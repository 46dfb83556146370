import Foundation
import PlaceKit
import PlaceModel

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
        return HumanText.lines(lines)
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
            if let periods = value["periods"]?.arrayValue {
                return "\(periods.count) opening period\(periods.count == 1 ? "" : "s")"
            }
            if case .array(let a) = value { return "\(a.count) item\(a.count == 1 ? "" : "s")" }
            let s = JSONWriter().string(value)
            return s.count > 100 ? String(s.prefix(97)) + "..." : s
        }
    }
}
