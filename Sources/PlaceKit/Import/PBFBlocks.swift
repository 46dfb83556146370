import CZlib
import PlaceModel
#if canImport(Glibc)
    import Glibc
#endif

/// Walks the blocks of an OpenStreetMap PBF file to say where it is
/// damaged, for the message of a failed `osmium export` (osmium says what
/// went wrong, not where). A PBF file is a sequence of blocks: a 4-byte
/// big-endian length, a BlobHeader of that length (its `datasize`, field
/// 3, is the Blob's length), then the Blob (`raw`, or `zlib_data` of
/// `raw_size` bytes). Only read when osmium failed.
enum PBFBlocks {
    /// Where `path` is damaged (`block 37 at byte 299,814 is cut off: ...`),
    /// or nil when its blocks are whole and their zlib data inflates.
    static func damage(in path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let size = Int64(st.st_size)
        var offset: Int64 = 0
        var block = 1
        func read(_ count: Int, at: Int64) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let n = bytes.withUnsafeMutableBytes {
                    pread(fd, $0.baseAddress! + done, count - done, off_t(at) + off_t(done))
                }
                if n <= 0 { return nil }
                done += n
            }
            return bytes
        }
        func at() -> String { "block \(block) at byte \(DigitGrouping.grouped(offset))" }
        while offset < size {
            guard size - offset >= 4, let lengthBytes = read(4, at: offset) else {
                return "\(at()) is cut off: the file ends inside its length"
            }
            let length =
                Int64(lengthBytes[0]) << 24 | Int64(lengthBytes[1]) << 16 | Int64(lengthBytes[2]) << 8
                | Int64(lengthBytes[3])
            guard length > 0, length <= 64 << 10 else {
                return
                    "\(at()) is corrupt: its header length \(DigitGrouping.grouped(length)) is not that of a PBF block"
            }
            guard offset + 4 + length <= size, let header = read(Int(length), at: offset + 4) else {
                return "\(at()) is cut off: the file ends inside its header"
            }
            guard let fields = ProtobufFields(header), let dataSize = fields.varint(3), dataSize > 0,
                dataSize <= 32 << 20,
                let type = fields.bytes(1).map({ String(decoding: $0, as: UTF8.self) }),
                type == "OSMHeader" || type == "OSMData"
            else {
                return "\(at()) is corrupt: its header is not a PBF BlobHeader"
            }
            let blobStart = offset + 4 + length
            guard blobStart + Int64(dataSize) <= size else {
                return
                    "\(at()) is cut off: the file ends \(DigitGrouping.grouped(size - blobStart)) bytes into its \(DigitGrouping.grouped(Int64(dataSize)))-byte blob"
            }
            if let blob = read(Int(dataSize), at: blobStart) {
                guard let b = ProtobufFields(blob) else { return "\(at()) is corrupt: its blob is not a PBF Blob" }
                if let zlib = b.bytes(3), let rawSize = b.varint(2) {
                    if let problem = inflateProblem(zlib, expected: Int(rawSize)) {
                        return "\(at()) is corrupt: its zlib data \(problem)"
                    }
                }
            }
            offset = blobStart + Int64(dataSize)
            block += 1
        }
        return nil
    }

    /// Why `data` does not inflate to `expected` bytes, nil when it does.
    private static func inflateProblem(_ data: [UInt8], expected: Int) -> String? {
        guard expected >= 0, expected <= 32 << 20 else { return "claims \(expected) bytes" }
        var output = [UInt8](repeating: 0, count: max(expected, 1))
        var destLength = uLongf(output.count)
        let rc = data.withUnsafeBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                uncompress(dst.baseAddress, &destLength, src.baseAddress, uLong(src.count))
            }
        }
        switch rc {
        case Z_OK: return Int(destLength) == expected ? nil : "inflates to \(destLength) bytes, not \(expected)"
        case Z_DATA_ERROR: return "does not inflate (corrupt)"
        case Z_BUF_ERROR: return "does not inflate to its raw_size (corrupt)"
        default: return "does not inflate (zlib error \(rc))"
        }
    }
}

/// The top-level fields of one protobuf message (the last of a repeated
/// number wins): enough for a BlobHeader and a Blob.
private struct ProtobufFields {
    private var varints: [Int: UInt64] = [:]
    private var lengthDelimited: [Int: ArraySlice<UInt8>] = [:]

    init?(_ bytes: [UInt8]) {
        var i = 0
        func varint() -> UInt64? {
            var v: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count, shift < 64 {
                let b = bytes[i]
                i += 1
                v |= UInt64(b & 0x7F) << shift
                if b & 0x80 == 0 { return v }
                shift += 7
            }
            return nil
        }
        while i < bytes.count {
            guard let key = varint() else { return nil }
            let field = Int(key >> 3)
            switch key & 7 {
            case 0: guard let v = varint() else { return nil }; varints[field] = v
            case 1: guard i + 8 <= bytes.count else { return nil }; i += 8
            case 2:
                guard let n = varint(), n <= UInt64(bytes.count - i) else { return nil }
                lengthDelimited[field] = bytes[i..<i + Int(n)]
                i += Int(n)
            case 5: guard i + 4 <= bytes.count else { return nil }; i += 4
            default: return nil
            }
        }
    }

    func varint(_ field: Int) -> UInt64? { varints[field] }
    func bytes(_ field: Int) -> [UInt8]? { lengthDelimited[field].map(Array.init) }
}
