import CZlib
#if canImport(Glibc)
    import Glibc
#endif
package import PlaceModel
import PlaceStorage

/// A stream of bytes, transparently gunzipped (zlib reads plain files as
/// they are): a file, standard input, or the output of `osmium export`.
package final class ByteSource {
    private let file: gzFile
    let name: String
    private(set) var totalSize: Int64?
    /// The `osmium export` whose output this is, reaped at its end.
    let export: OsmiumExport?
    /// Bytes read ahead by `peek`, handed out first by `read`.
    private var lookahead: [UInt8] = []
    private var lookaheadPosition = 0

    package init(_ source: InputSource) throws(InputError) {
        name = source.description
        export = nil
        switch source {
        case .file(let path):
            var st = stat()
            guard stat(path, &st) == 0 else {
                let reason = String(cString: strerror(errno))
                throw InputError(
                    kind: errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable, source: path,
                    reason: "cannot open: \(reason.lowercased())")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                throw InputError(kind: .unreadable, source: path, reason: "is a directory, not a file")
            }
            guard let f = gzopen(path, "rb") else {
                throw InputError(
                    kind: .unreadable, source: path,
                    reason: "cannot open: \(String(cString: strerror(errno)).lowercased())")
            }
            file = f
            totalSize = (st.st_mode & S_IFMT) == S_IFREG ? Int64(st.st_size) : nil
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

    /// The output of `export`, named as its input file; throws the
    /// export's error at the end of its output when it failed.
    init(_ export: OsmiumExport, name: String) throws(InputError) {
        self.name = name
        self.export = export
        guard let f = gzdopen(export.output, "rb") else {
            close(export.output)
            throw InputError(kind: .unreadable, source: name, reason: "cannot read the output of osmium export")
        }
        file = f
        totalSize = nil
        gzbuffer(file, 1 << 17)
    }

    deinit {
        // Closing the pipe first ends the writes of an export still running.
        gzclose(file)
    }

    /// Ends the export this reads (the import stopped early), so a read
    /// waiting for its output returns.
    func terminate() { export?.terminate() }

    /// Whether the bytes are a gzip stream's content (known once read).
    var isGzip: Bool { gzdirect(file) == 0 }

    /// The first `count` bytes (fewer at a short input), which `read` still
    /// hands out.
    func peek(_ count: Int) throws(InputError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n: Int
            do {
                n = try bytes.withUnsafeMutableBytes { b in
                    try readSource(into: b.baseAddress! + filled, count: count - filled)
                }
            } catch let e as InputError {
                throw e
            } catch {
                throw InputError(kind: .unreadable, source: name, reason: "cannot read: \(error)")
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(count - filled)
        lookahead = bytes
        lookaheadPosition = 0
        return bytes
    }

    /// Reads up to `count` bytes; 0 at the end. Throws on a read error, a
    /// corrupt gzip stream, or a failed export (at the end of its output).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
        if lookaheadPosition < lookahead.count {
            let n = min(count, lookahead.count - lookaheadPosition)
            lookahead.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + lookaheadPosition, byteCount: n) }
            lookaheadPosition += n
            if lookaheadPosition == lookahead.count { lookahead = []; lookaheadPosition = 0 }
            return n
        }
        let n = try readSource(into: buffer, count: count)
        if n == 0, let export, let error = export.finish() { throw error }
        return n
    }

    private func readSource(into buffer: UnsafeMutableRawPointer, count: Int) throws(InputError) -> Int {
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
