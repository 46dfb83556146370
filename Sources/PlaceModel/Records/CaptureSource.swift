import Foundation

/// Where a record's capture time came from (`ImportSummary` counts each).
public enum CaptureSource: String, Sendable, CaseIterable {
    /// The import's capture time (`ImportOptions.capturedAt`).
    case option = "ImportOptions.capturedAt"
    /// A timestamp the record itself carries (the Tehran scraper's
    /// `timestamp`, Overture's `update_time`, OpenStreetMap's `@timestamp`).
    case record = "record timestamp"
    /// The newest time the record's own content shows (a review's
    /// `publishTime`): the capture cannot be earlier.
    case evidence = "newest review"
    /// Nothing in the record dates it: unordered among such captures
    /// (`CaptureTime.unordered`), older than any dated one. A file's
    /// modification time says when it was copied, not captured.
    case unknown = "no time"

    /// The case's position in `allCases` (a counter's index).
    package var index: Int {
        switch self {
        case .option: 0
        case .record: 1
        case .evidence: 2
        case .unknown: 3
        }
    }
}
