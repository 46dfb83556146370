import PlaceStorage
/// Where an import reads its bytes: a file (gzip'd or not) or standard input.
public enum InputSource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case standardInput

    /// `-` means standard input.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(argument)
    }

    /// The name used in messages: the path, or `<stdin>`.
    public var description: String {
        switch self {
        case .file(let path): path
        case .standardInput: "<stdin>"
        }
    }
}
