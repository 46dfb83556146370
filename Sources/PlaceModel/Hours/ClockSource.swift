import Foundation

/// Where a place's clock came from.
public enum ClockSource: String, Sendable {
    /// The source's `timeZone` (IANA).
    case timeZone = "timeZone"
    /// The import's time zone (`ImportOptions.timeZone`), for a record
    /// that had no zone and no offset.
    case importOption = "ImportOptions.timeZone"
    /// The source's `utcOffsetMinutes` (a fixed offset: right only while it holds).
    case utcOffset = "utcOffsetMinutes"
}
