import Foundation
import PlaceModel
import PlaceStorage

/// What the reading thread hands the writing thread, in input order.
enum PipelineItem: Sendable {
    case place(PreparedPlace)
    /// A feature that is not a place, skipped (`ImportOptions.allFeatures`), and why.
    case skipped(String)
    /// A record that is not a place (decode error, or a bad NDJSON line).
    case rejected(ImportRejection, recoverable: Bool)
    /// The input cannot be read further.
    case failed(any Error & Sendable)
}
