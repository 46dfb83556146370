import Foundation

/// IANA time zone names, as Foundation knows them here.
package enum TimeZoneIdentifier {
    /// True for a zone name this system knows under exactly that name.
    public static func isValid(_ name: String) -> Bool {
        if knownZones.contains(name) { return true }
        if name == "UTC" || name == "GMT" || name.hasPrefix("Etc/") { return TimeZone(identifier: name) != nil }
        // A link of the tz database the list does not name (ICU lists
        // Asia/Calcutta, not Asia/Kolkata): known when Foundation opens it
        // under that very name (GMT+1 opens as GMT+0100, europe/zurich not
        // at all).
        return TimeZone(identifier: name)?.identifier == name
    }

    /// The IANA zones Foundation knows here, looked up once (every record
    /// with a `timeZone` is checked against them).
    private static let knownZones = Set(TimeZone.knownTimeZoneIdentifiers)
}
