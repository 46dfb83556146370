#if canImport(Glibc)
    import Glibc
#endif
import PlaceModel
import PlaceStorage

/// A record or an envelope that could not be read.
public struct RecordReadError: Error, Sendable {
    public let message: String
    public let line: Int
    /// Record index, when the failure is inside one record.
    public let index: Int?
    /// True when reading can go on with the next record (a bad NDJSON line);
    /// false when the rest of the file cannot be read.
    public let recoverable: Bool
    /// The raw text of the bad line, when there is one (for `--rejects`).
    public let rawLine: [UInt8]?
}
