/// A record (or part of an input) that was not imported, and why.
public struct ImportRejection: Sendable, Equatable, CustomStringConvertible {
    /// The input's name (path or `<stdin>`).
    public let input: String
    public let line: Int
    /// 1-based record index in the input, when known.
    public let index: Int?
    public let placeID: String?
    public let reason: String
    /// The record, for `--rejects` (compact JSON, or the raw line).
    public let record: [UInt8]?

    public var description: String {
        var s = "\(input):\(line):"
        if let index { s += " record \(index)" }
        if let placeID { s += " (place '\(placeID)')" }
        if index != nil || placeID != nil { s += ":" }
        return s + " \(reason)"
    }

    package init(input: String, line: Int, index: Int?, placeID: String?, reason: String, record: [UInt8]?) {
        self.input = input
        self.line = line
        self.index = index
        self.placeID = placeID
        self.reason = reason
        self.record = record
    }
}
