import PlaceKit
import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

/// `$alt=json;enum-encoding=int`: Google's client libraries ask for enums
/// as numbers. The numbers are those of google/maps/places/v1/*.proto
/// (checked against the google-maps-places package by Tests/interop).
enum EnumEncoding {
    /// JSON member name -> enum value name -> number. `type` is an enum
    /// only inside `fuelPrices` and `connectorAggregation`.
    static let tables: [String: [String: Int64]] = [
        "businessStatus": [
            "BUSINESS_STATUS_UNSPECIFIED": 0, "OPERATIONAL": 1, "CLOSED_TEMPORARILY": 2, "CLOSED_PERMANENTLY": 3,
            "FUTURE_OPENING": 4,
        ],
        "priceLevel": [
            "PRICE_LEVEL_UNSPECIFIED": 0, "PRICE_LEVEL_FREE": 1, "PRICE_LEVEL_INEXPENSIVE": 2,
            "PRICE_LEVEL_MODERATE": 3,
            "PRICE_LEVEL_EXPENSIVE": 4, "PRICE_LEVEL_VERY_EXPENSIVE": 5,
        ],
        "secondaryHoursType": [
            "SECONDARY_HOURS_TYPE_UNSPECIFIED": 0, "DRIVE_THROUGH": 1, "HAPPY_HOUR": 2, "DELIVERY": 3, "TAKEOUT": 4,
            "KITCHEN": 5, "BREAKFAST": 6, "LUNCH": 7, "DINNER": 8, "BRUNCH": 9, "PICKUP": 10, "ACCESS": 11,
            "SENIOR_HOURS": 12, "ONLINE_SERVICE_HOURS": 13,
        ],
        "spatialRelationship": [
            "NEAR": 0, "WITHIN": 1, "BESIDE": 2, "ACROSS_THE_ROAD": 3, "DOWN_THE_ROAD": 4, "AROUND_THE_CORNER": 5,
            "BEHIND": 6,
        ],
        "containment": ["CONTAINMENT_UNSPECIFIED": 0, "WITHIN": 1, "OUTSKIRTS": 2, "NEAR": 3],
        "vehicleType": [
            "VEHICLE_TYPE_UNSPECIFIED": 0, "RAIL": 1, "METRO_RAIL": 2, "SUBWAY": 3, "TRAM": 4, "MONORAIL": 5,
            "HEAVY_RAIL": 6,
            "COMMUTER_TRAIN": 7, "HIGH_SPEED_TRAIN": 8, "LONG_DISTANCE_TRAIN": 9, "BUS": 10, "INTERCITY_BUS": 11,
            "TROLLEYBUS": 12, "SHARE_TAXI": 13, "COACH": 14, "FERRY": 15, "CABLE_CAR": 16, "GONDOLA_LIFT": 17,
            "FUNICULAR": 18, "SPECIAL": 19, "HORSE_CARRIAGE": 20, "AIRPLANE": 21,
        ],
        "fuelPrices.type": [
            "FUEL_TYPE_UNSPECIFIED": 0, "DIESEL": 1, "REGULAR_UNLEADED": 2, "MIDGRADE": 3, "PREMIUM": 4, "SP91": 5,
            "SP91_E10": 6, "SP92": 7, "SP95": 8, "SP95_E10": 9, "SP98": 10, "SP99": 11, "SP100": 12, "LPG": 13,
            "E80": 14, "E85": 15, "METHANE": 16, "BIO_DIESEL": 17, "TRUCK_DIESEL": 18, "DIESEL_PLUS": 19, "E100": 20,
        ],
        "connectorAggregation.type": [
            "EV_CONNECTOR_TYPE_UNSPECIFIED": 0, "EV_CONNECTOR_TYPE_OTHER": 1, "EV_CONNECTOR_TYPE_J1772": 2,
            "EV_CONNECTOR_TYPE_TYPE_2": 3, "EV_CONNECTOR_TYPE_CHADEMO": 4, "EV_CONNECTOR_TYPE_CCS_COMBO_1": 5,
            "EV_CONNECTOR_TYPE_CCS_COMBO_2": 6, "EV_CONNECTOR_TYPE_TESLA": 7,
            "EV_CONNECTOR_TYPE_UNSPECIFIED_GB_T": 8, "EV_CONNECTOR_TYPE_UNSPECIFIED_WALL_OUTLET": 9,
            "EV_CONNECTOR_TYPE_NACS": 10,
        ],
    ]

    /// `value` with every known enum member's name replaced by its number
    /// (a name the table does not know stays a string).
    static func integers(_ value: JSONValue, parent: String? = nil) -> JSONValue {
        switch value {
        case .object(let o):
            var out = JSONObject()
            for (key, member) in o {
                let table = tables[key == "type" ? "\(parent ?? "").type" : key]
                if let table, case .string(let name) = member, let n = table[name] {
                    out[key] = .int(n)
                } else {
                    out[key] = integers(member, parent: key)
                }
            }
            return .object(out)
        case .array(let a):
            return .array(a.map { integers($0, parent: parent) })
        default:
            return value
        }
    }

    /// `integers(_:)` on compact JSON text (as the library writes it),
    /// without building the value: the text is copied, and only the string
    /// values of known enum members are replaced by their numbers (the
    /// same members and numbers as `integers(_:)`, so the same bytes once
    /// written). False when a member name, or the value of an enum member,
    /// holds an escape: the caller then takes the plain way. The text must
    /// be valid JSON (it is not checked).
    static func integers(compact text: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        guard let p = text.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        let n = text.count
        // Open containers: whether an object, and the member name the
        // container sits under (arrays pass their own down to their items),
        // as a range of `text` (-1: none).
        var isObject: [Bool] = []
        var parents: [(start: Int, count: Int)] = []
        isObject.reserveCapacity(16)
        parents.reserveCapacity(16)
        var key = (start: -1, count: 0)
        var expectingKey = false
        var copied = 0
        var i = 0
        out.reserveCapacity(out.count + n)
        while i < n {
            let c = p[i]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let parent = isObject.last == true ? key : (parents.last ?? (start: -1, count: 0))
                isObject.append(c == UInt8(ascii: "{"))
                parents.append(parent)
                expectingKey = c == UInt8(ascii: "{")
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                isObject.removeLast()
                parents.removeLast()
                expectingKey = false
                i += 1
            case UInt8(ascii: ","):
                expectingKey = isObject.last == true
                i += 1
            case UInt8(ascii: "\""):
                let start = i + 1
                let end = stringEnd(p, from: start, count: n)
                i = end + 1
                if expectingKey {
                    if memchr(p + start, Int32(UInt8(ascii: "\\")), end - start) != nil { return false }
                    key = (start, end - start)
                    expectingKey = false
                    continue
                }
                guard isObject.last == true, let table = table(p, key: key, parent: parents.last!) else { continue }
                if memchr(p + start, Int32(UInt8(ascii: "\\")), end - start) != nil { return false }
                guard
                    let number = table[
                        String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)]
                else { continue }
                out.append(contentsOf: UnsafeBufferPointer(start: p + copied, count: start - 1 - copied))
                out.append(contentsOf: String(number).utf8)
                copied = i
            default:
                i += 1
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(start: p + copied, count: n - copied))
        return true
    }

    /// The index of the quote that ends the string starting at `from`.
    private static func stringEnd(_ p: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int {
        var i = from
        while i < n, let q = memchr(p + i, Int32(UInt8(ascii: "\"")), n - i) {
            let at = UnsafePointer<UInt8>(q.assumingMemoryBound(to: UInt8.self)) - p
            // Escaped when an odd number of backslashes comes before it.
            var slashes = 0
            while at - 1 - slashes >= from && p[at - 1 - slashes] == UInt8(ascii: "\\") { slashes += 1 }
            if slashes % 2 == 0 { return at }
            i = at + 1
        }
        return n
    }

    /// The member names `tables` holds (`type` stands for the two
    /// `parent.type` tables), as bytes, and a bit for each of their lengths.
    private static let names: [(bytes: [UInt8], name: String)] = (Array(tables.keys) + ["type"]).map {
        (Array($0.utf8), $0)
    }
    private static let nameLengths: UInt64 = names.reduce(0) { $0 | (1 << UInt64($1.bytes.count & 63)) }

    /// The table of the member `key` inside an object under `parent`
    /// (names compared as bytes; a String is made only for a known name).
    private static func table(
        _ p: UnsafePointer<UInt8>, key: (start: Int, count: Int), parent: (start: Int, count: Int)
    ) -> [String: Int64]? {
        guard key.start >= 0, key.count < 64, nameLengths & (1 << UInt64(key.count)) != 0 else { return nil }
        for (bytes, name) in names where bytes.count == key.count {
            guard bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, p + key.start, key.count) == 0 }) else {
                continue
            }
            if name != "type" { return tables[name] }
            let parentName =
                parent.start >= 0
                ? String(decoding: UnsafeBufferPointer(start: p + parent.start, count: parent.count), as: UTF8.self)
                : ""
            return tables["\(parentName).type"]
        }
        return nil
    }

    /// searchNearby's `rankPreference` as the client sends it with
    /// enum-encoding=int (RANK_PREFERENCE_UNSPECIFIED 0, DISTANCE 1, POPULARITY 2).
    static let rankPreference: [Int: String] = [0: "RANK_PREFERENCE_UNSPECIFIED", 1: "DISTANCE", 2: "POPULARITY"]

    /// searchText's `rankPreference` with enum-encoding=int
    /// (RANK_PREFERENCE_UNSPECIFIED 0, DISTANCE 1, RELEVANCE 2).
    static let textRankPreference: [Int: String] = [0: "RANK_PREFERENCE_UNSPECIFIED", 1: "DISTANCE", 2: "RELEVANCE"]
}
