/// The secondary hours types of the Places API (`DELIVERY`, `TAKEOUT`, ...).
public struct SecondaryHoursType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let driveThrough = SecondaryHoursType(rawValue: "DRIVE_THROUGH")
    public static let happyHour = SecondaryHoursType(rawValue: "HAPPY_HOUR")
    public static let delivery = SecondaryHoursType(rawValue: "DELIVERY")
    public static let takeout = SecondaryHoursType(rawValue: "TAKEOUT")
    public static let kitchen = SecondaryHoursType(rawValue: "KITCHEN")
    public static let breakfast = SecondaryHoursType(rawValue: "BREAKFAST")
    public static let lunch = SecondaryHoursType(rawValue: "LUNCH")
    public static let dinner = SecondaryHoursType(rawValue: "DINNER")
    public static let brunch = SecondaryHoursType(rawValue: "BRUNCH")
    public static let pickup = SecondaryHoursType(rawValue: "PICKUP")
    public static let access = SecondaryHoursType(rawValue: "ACCESS")
    public static let seniorHours = SecondaryHoursType(rawValue: "SENIOR_HOURS")
    public static let onlineServiceHours = SecondaryHoursType(rawValue: "ONLINE_SERVICE_HOURS")

    /// Every type the Places API (New) defines, in its order.
    public static let allKnown: [SecondaryHoursType] = [
        .driveThrough, .happyHour, .delivery, .takeout, .kitchen, .breakfast, .lunch, .dinner, .brunch,
        .pickup, .access, .seniorHours, .onlineServiceHours,
    ]
}
