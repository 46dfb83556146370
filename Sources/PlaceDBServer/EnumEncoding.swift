import PlaceKit
import PlaceModel

/// `$alt=json;enum-encoding=int`: Google's client libraries ask for enums
/// as numbers. The numbers are those of google/maps/places/v1/*.proto
/// (checked against the google-maps-places package by Tests/interop).
enum EnumEncoding {
    /// JSON member name -> enum value name -> number. `type` is an enum
    /// only inside `fuelPrices` and `connectorAggregation`.
    static let tables: [String: [String: Int64]] = [
        "businessStatus": ["BUSINESS_STATUS_UNSPECIFIED": 0, "OPERATIONAL": 1, "CLOSED_TEMPORARILY": 2, "CLOSED_PERMANENTLY": 3, "FUTURE_OPENING": 4],
        "priceLevel": ["PRICE_LEVEL_UNSPECIFIED": 0, "PRICE_LEVEL_FREE": 1, "PRICE_LEVEL_INEXPENSIVE": 2, "PRICE_LEVEL_MODERATE": 3,
                       "PRICE_LEVEL_EXPENSIVE": 4, "PRICE_LEVEL_VERY_EXPENSIVE": 5],
        "secondaryHoursType": ["SECONDARY_HOURS_TYPE_UNSPECIFIED": 0, "DRIVE_THROUGH": 1, "HAPPY_HOUR": 2, "DELIVERY": 3, "TAKEOUT": 4,
                               "KITCHEN": 5, "BREAKFAST": 6, "LUNCH": 7, "DINNER": 8, "BRUNCH": 9, "PICKUP": 10, "ACCESS": 11,
                               "SENIOR_HOURS": 12, "ONLINE_SERVICE_HOURS": 13],
        "spatialRelationship": ["NEAR": 0, "WITHIN": 1, "BESIDE": 2, "ACROSS_THE_ROAD": 3, "DOWN_THE_ROAD": 4, "AROUND_THE_CORNER": 5, "BEHIND": 6],
        "containment": ["CONTAINMENT_UNSPECIFIED": 0, "WITHIN": 1, "OUTSKIRTS": 2, "NEAR": 3],
        "vehicleType": ["VEHICLE_TYPE_UNSPECIFIED": 0, "RAIL": 1, "METRO_RAIL": 2, "SUBWAY": 3, "TRAM": 4, "MONORAIL": 5, "HEAVY_RAIL": 6,
                        "COMMUTER_TRAIN": 7, "HIGH_SPEED_TRAIN": 8, "LONG_DISTANCE_TRAIN": 9, "BUS": 10, "INTERCITY_BUS": 11,
                        "TROLLEYBUS": 12, "SHARE_TAXI": 13, "COACH": 14, "FERRY": 15, "CABLE_CAR": 16, "GONDOLA_LIFT": 17,
                        "FUNICULAR": 18, "SPECIAL": 19, "HORSE_CARRIAGE": 20, "AIRPLANE": 21],
        "fuelPrices.type": ["FUEL_TYPE_UNSPECIFIED": 0, "DIESEL": 1, "REGULAR_UNLEADED": 2, "MIDGRADE": 3, "PREMIUM": 4, "SP91": 5,
                            "SP91_E10": 6, "SP92": 7, "SP95": 8, "SP95_E10": 9, "SP98": 10, "SP99": 11, "SP100": 12, "LPG": 13,
                            "E80": 14, "E85": 15, "METHANE": 16, "BIO_DIESEL": 17, "TRUCK_DIESEL": 18, "DIESEL_PLUS": 19, "E100": 20],
        "connectorAggregation.type": ["EV_CONNECTOR_TYPE_UNSPECIFIED": 0, "EV_CONNECTOR_TYPE_OTHER": 1, "EV_CONNECTOR_TYPE_J1772": 2,
                                      "EV_CONNECTOR_TYPE_TYPE_2": 3, "EV_CONNECTOR_TYPE_CHADEMO": 4, "EV_CONNECTOR_TYPE_CCS_COMBO_1": 5,
                                      "EV_CONNECTOR_TYPE_CCS_COMBO_2": 6, "EV_CONNECTOR_TYPE_TESLA": 7,
                                      "EV_CONNECTOR_TYPE_UNSPECIFIED_GB_T": 8, "EV_CONNECTOR_TYPE_UNSPECIFIED_WALL_OUTLET": 9,
                                      "EV_CONNECTOR_TYPE_NACS": 10],
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

    /// searchNearby's `rankPreference` as the client sends it with
    /// enum-encoding=int (RANK_PREFERENCE_UNSPECIFIED 0, DISTANCE 1, POPULARITY 2).
    static let rankPreference: [Int: String] = [0: "RANK_PREFERENCE_UNSPECIFIED", 1: "DISTANCE", 2: "POPULARITY"]

    /// searchText's `rankPreference` with enum-encoding=int
    /// (RANK_PREFERENCE_UNSPECIFIED 0, DISTANCE 1, RELEVANCE 2).
    static let textRankPreference: [Int: String] = [0: "RANK_PREFERENCE_UNSPECIFIED", 1: "DISTANCE", 2: "RELEVANCE"]
}
