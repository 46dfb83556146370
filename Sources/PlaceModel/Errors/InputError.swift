/// Why an input could not be opened or read.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `missing`: no such file. `unreadable`: it cannot be opened or read
    /// (permissions, a directory, an I/O error). `corrupt`: it reads, but
    /// its gzip stream is corrupt or truncated: bad input data, like a
    /// corrupt image.
    public enum Kind: Sendable { case missing, unreadable, corrupt }
    public let kind: Kind
    public let source: String
    public let reason: String
    public var description: String { "\(source): \(reason)" }

    package init(kind: InputError.Kind, source: String, reason: String) {
        self.kind = kind
        self.source = source
        self.reason = reason
    }
}
