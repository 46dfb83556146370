/// A part of a text, in Unicode code points (scalars) from its start:
/// `start` inclusive, `end` exclusive, as the Places API's `StringRange`
/// (`startOffset`, `endOffset`) counts them.
public struct TextRange: Sendable, Equatable, CustomStringConvertible {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    public var description: String { "\(start)..<\(end)" }
}
