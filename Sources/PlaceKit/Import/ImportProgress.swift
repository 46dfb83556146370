import Foundation

/// Progress of a running import, for a throttled display.
public struct ImportProgress: Sendable {
    public let input: String
    public let records: Int
    public let bytes: Int64
    public let totalBytes: Int64?
    public let seconds: Double
}
