import CZlib
#if canImport(Glibc)
import Glibc
#endif

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
}

/// A stream of bytes, transparently gunzipped (zlib reads plain files as they are).
final class ByteSource {
    private let file: gzFile
    let name: String
    private(set) var totalSize: Int64?
    /// The file's modification time (Unix seconds); nil for standard input
    /// or a pipe (a record's capture time falls back to it).
    private(set) var modificationTime: Int64?

    init(_ source: InputSource) throws(InputError) {
        name = source.description
        switch source {
        case .file(let path):
            var st = stat()
            guard stat(path, &st) == 0 else {
                let reason = String(cString: strerror(errno))
                throw InputError(kind: errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable, source: path, reason: "cannot open: \(reason.lowercased())")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                throw InputError(kind: .unreadable, source: path, reason: "is a directory, not a file")
            }
            guard let f = gzopen(path, "rb") else {
                throw InputError(kind: .unreadable, source: path, reason: "cannot open: \(String(cString: strerror(errno)).lowercased())")
            }
            file = f
            totalSize = (st.st_mode & S_IFMT) == S_IFREG ? Int64(st.st_size) : nil
            if (st.st_mode & S_IFMT) == S_IFREG { modificationTime = Int64(st.st_mtim.tv_sec) }
        case .standardInput:
            let fd = dup(0)
            guard fd >= 0, let f = gzdopen(fd, "rb") else {
                throw InputError(kind: .unreadable, source: "<stdin>", reason: "cannot read standard input")
            }
            file = f
            totalSize = nil
        }
        gzbuffer(file, 1 << 17)
    }

    deinit { gzclose(file) }

    /// Reads up to `count` bytes; 0 at the end. Throws on a read error or a
    /// corrupt gzip stream.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        let n = gzread(file, buffer, UInt32(min(count, Int(Int32.max))))
        var errnum: Int32 = 0
        let message = gzerror(file, &errnum).map { String(cString: $0) } ?? "read error"
        // A truncated gzip stream ends with Z_BUF_ERROR, reported only here.
        if n < 0 || (errnum != Z_OK && errnum != Z_STREAM_END) {
            // zlib prefixes its message with the path; the path is ours to show.
            let reason = message.hasPrefix(name + ": ") ? String(message.dropFirst(name.count + 2)) : message
            switch errnum {
            case Z_DATA_ERROR:
                throw InputError(kind: .corrupt, source: name, reason: "corrupt gzip stream: \(reason)")
            case Z_BUF_ERROR:
                throw InputError(kind: .corrupt, source: name, reason: "truncated gzip stream: \(reason)")
            default:
                throw InputError(kind: .unreadable, source: name, reason: "cannot read: \(reason)")
            }
        }
        consumed += Int64(n)
        return Int(n)
    }

    private var consumed: Int64 = 0

    /// Bytes of the underlying file consumed so far (compressed bytes for .gz).
    /// On a pipe zlib cannot tell, and this counts the bytes read instead.
    var rawOffset: Int64 {
        let offset = Int64(gzoffset(file))
        return offset >= 0 ? offset : consumed
    }
}
