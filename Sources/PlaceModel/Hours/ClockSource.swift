import Foundation

/// Where a place's clock came from.
public enum ClockSource: String, Sendable {
    /// The source's `timeZone` (IANA).
    case timeZone = "timeZone"
    /// `placedb import --time-zone`, for a record that had no zone and no offset.
    case importOption = "import --time-zone"
    /// The source's `utcOffsetMinutes` (a fixed offset: right only while it holds).
    case utcOffset = "utcOffsetMinutes"
}
