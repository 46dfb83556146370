import Foundation

/// What an import does with a bad record.
public enum OnError: String, Sendable, CaseIterable {
    /// Stop at the first bad record; the database stays as it was before
    /// that input.
    case stop
    /// Import the valid records, report the rejected ones.
    case skip
}
