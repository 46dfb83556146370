#if canImport(Glibc)
    import Glibc
#endif
public import PlaceModel
import PlaceStorage

/// One record read from an input, before any format decoding.
public struct SourceRecord: Sendable {
    /// The parsed JSON value of the record.
    public var value: JSONValue
    /// 1-based line where the record starts.
    public var line: Int
    /// 1-based index of the record in its file.
    public var index: Int
    /// The member of a response envelope it came from (`places`, `results`,
    /// `candidates`, `result`), or nil for a bare record.
    public var container: String?

    package init(value: JSONValue, line: Int, index: Int, container: String?) {
        self.value = value
        self.line = line
        self.index = index
        self.container = container
    }
}
